import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Ripple
import RippleDebugExport
import RippleTest
import Testing

@Suite struct MarbleRendererTests {
    @Test(arguments: [
        ("--a--b--|", MarbleKind.events), ("(ab)-c|", .events), ("#", .events), ("--(a|)", .events),
        ("a-(bc)--#", .events), ("a-^-b-|", .hot), ("^--a", .hot), ("^--!", .subscription), ("--^", .subscription),
        ("-x-y|", .cold), ("", .events), ("(^!)", .subscription), ("-(^!)", .subscription), ("a-(^b)-|", .hot),
    ])
    func parsingARenderedTimelineGivesItBack(marbles: String, kind: MarbleKind) throws {
        let timeline = try MarbleTimeline(marbles, kind: kind)
        let rendered = MarbleRenderer.render([timeline])
        #expect(rendered.lines == [marbles])
        #expect(rendered.isExact)
        #expect(try MarbleTimeline(rendered.lines[0], kind: kind) == timeline)
    }

    @Test func renderingIsCanonical() throws {
        // Dashes before the first marble of a hot observable carry no information.
        #expect(try MarbleTimeline("-a-^-b-|", kind: .hot).ascii() == "a-^-b-|")
        #expect(try MarbleTimeline("--^--a", kind: .hot).ascii() == "^--a")
        #expect(try MarbleTimeline("  --a --b ").ascii() == "--a--b")
    }

    @Test func recordedEventsAreDrawnOnTheMarbleGrid() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("-a-^-b-(cd)|")
        let res = scheduler.start { xs.map { $0.uppercased() } }
        #expect(MarbleRenderer.render(res.events).description == "--B-(CD)|")
        // The source's own events, before and after the subscription point.
        #expect(MarbleTimeline(xs.recordedEvents).ascii() == "a-^-b-(cd)|")
        #expect(MarbleRenderer.render(xs.subscriptions).lines == ["^-------!"])
    }

    @Test func linesAreAlignedOnTheSameFrames() throws {
        let source = try MarbleTimeline("-a-^-b-|", kind: .hot)
        let output = try MarbleTimeline("--B-|")
        #expect(MarbleRenderer.render([source, output]).lines == ["a-^-b-|", "  --B-|"])
    }

    @Test func marblesThatCannotBePlacedAreFlagged() {
        // A group takes four frames: `c` one frame later cannot be drawn there.
        let timeline = MarbleTimeline(entries: [
            .init(frame: 0, marble: .next("a")), .init(frame: 0, marble: .next("b")), .init(frame: 1, marble: .next("c")),
        ])
        let rendered = MarbleRenderer.render([timeline])
        #expect(rendered.lines == ["(ab)c"])
        #expect(!rendered.isExact)
    }

    @Test func longLabelsGetPlaceholdersAndALegend() {
        let timeline = MarbleTimeline([Recorded<Event<String>>.next(210, "hello"), .next(230, "x"), .next(250, "hello"), .next(260, "world")])
        let rendered = MarbleRenderer.render([timeline])
        #expect(rendered.description == """
        -a-x-ab
          a = "hello"
          b = "world"
        """)
        #expect(rendered.legend == [.init(token: "a", label: "hello"), .init(token: "b", label: "world")])
        // Placeholders avoid letters that are labels already.
        let clash = MarbleTimeline([Recorded<Event<String>>.next(200, "a"), .next(210, "long")])
        #expect(MarbleRenderer.render([clash]).lines == ["ab"])
        #expect(MarbleRenderer.render([clash], reserved: ["b"]).lines == ["ac"])
    }

    @Test func runningOutOfPlaceholdersIsFlagged() {
        let events = (0..<70).map { Recorded<Event<String>>.next(200 + $0 * 10, "value \($0)") }
        let rendered = MarbleRenderer.render(events)
        #expect(!rendered.isExact)
        #expect(rendered.legend.count == 62)
        #expect(rendered.lines[0].hasSuffix("????????"))
    }

    @Test func diagramsLabelTheirRows() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--1--2--3--|", values: ["1": 1, "2": 2, "3": 3])
        let res = scheduler.start { xs.filter { $0 != 2 }.map { $0 * 10 } }
        let diagram = MarbleDiagram([
            ("source", MarbleTimeline(xs.recordedEvents)),
            ("filter { $0 != 2 }.map { $0 * 10 }", MarbleTimeline(res.events)),
        ])
        #expect(diagram.ascii() == """
        source:                             --1--2--3--|
        filter { $0 != 2 }.map { $0 * 10 }: --a-----b--|
          a = "10"
          b = "30"
        """)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) // Duration frames
    @Test func traceTimelinesShowSpansAndEvents() {
        let ms: UInt64 = 1_000_000
        let events = [
            TraceEvent(kind: .subscribed, stream: "query", subscription: 1, timestamp: 0, thread: 1),
            TraceEvent(kind: .next("r"), stream: "query", subscription: 1, timestamp: 20 * ms, thread: 1),
            TraceEvent(kind: .subscribed, stream: "results", subscription: 2, timestamp: 25 * ms, thread: 1),
            TraceEvent(kind: .next("ri"), stream: "query", subscription: 1, timestamp: 41 * ms, thread: 1),
            TraceEvent(kind: .next("2"), stream: "results", subscription: 2, timestamp: 49 * ms, thread: 2),
            TraceEvent(kind: .completed, stream: "results", subscription: 2, timestamp: 60 * ms, thread: 2),
            TraceEvent(kind: .disposed, stream: "results", subscription: 2, timestamp: 60 * ms, thread: 2),
            TraceEvent(kind: .disposed, stream: "query", subscription: 1, timestamp: 70 * ms, thread: 1),
        ]
        let diagram = MarbleDiagram(trace: events, frame: .milliseconds(10))
        #expect(diagram.ascii() == """
        query:   ^-r-a--!
        results: --^-2-|
          a = "ri"
        """)
        #expect(diagram.rows.map(\.label) == ["query", "results"])
        let onlyResults = MarbleDiagram(trace: events, frame: .milliseconds(10), streams: ["results"])
        #expect(onlyResults.rows.map(\.label) == ["results"])
        #expect(MarbleTimeline(trace: events, subscription: 2, frame: .milliseconds(10), origin: 20 * ms).ascii() == "^-2-|")
    }
}

// MARK: - SVG

/// Counts the elements of an SVG document by tag and class.
final class SVGCounter: NSObject, XMLParserDelegate {
    var elements: [String: Int] = [:]
    var texts: [String] = []
    private var inText = false
    private var currentText = ""

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        let key = attributeDict["class"].map { "\(elementName).\($0)" } ?? elementName
        elements[key, default: 0] += 1
        if key == "text.marble-label" {
            inText = true
            currentText = ""
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { currentText += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        if inText && elementName == "text" {
            texts.append(currentText)
            inText = false
        }
    }

    static func count(_ data: Data) throws -> SVGCounter {
        let counter = SVGCounter()
        let parser = XMLParser(data: data)
        parser.delegate = counter
        guard parser.parse() else {
            throw parser.parserError ?? CocoaError(.fileReadCorruptFile)
        }
        return counter
    }
}

@Suite struct SVGRendererTests {
    @Test func svgIsValidXMLWithOneCirclePerElement() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--1--2--3--4--|", values: ["1": 1, "2": 2, "3": 3, "4": 4])
        let res = scheduler.start { xs.filter { $0 % 2 == 0 } }
        let diagram = MarbleDiagram([
            ("source", MarbleTimeline(xs.recordedEvents)),
            ("filter { $0 % 2 == 0 }", MarbleTimeline(res.events)),
        ])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-\(UUID().uuidString).svg")
        try diagram.svg().write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }

        let counter = try SVGCounter.count(try Data(contentsOf: url))
        #expect(counter.elements["svg"] == 1)
        #expect(counter.elements["circle.marble"] == 6)   // 4 in the source, 2 after filter
        #expect(counter.elements["line.completion"] == 2)
        #expect(counter.elements["g.error"] == nil)
        #expect(counter.elements["line.axis"] == 2)
        #expect(counter.elements["text.row-label"] == 2)
        #expect(counter.texts == ["1", "2", "3", "4", "2", "4"])
    }

    @Test func errorsGroupsAndSubscriptionsAreDrawn() throws {
        let diagram = MarbleDiagram([
            ("hot", try MarbleTimeline("-a-^-(bc)-#", kind: .hot)),
            ("subscription", try MarbleTimeline("---^---!", kind: .subscription)),
        ])
        let counter = try SVGCounter.count(Data(diagram.svg().utf8))
        #expect(counter.elements["circle.marble"] == 3)
        #expect(counter.elements["g.error"] == 1)
        #expect(counter.elements["rect.subscription"] == 2)
        #expect(counter.elements["line.unsubscription"] == 1)
    }

    @Test func labelsAreEscapedAndOutputIsDeterministic() throws {
        let timeline = MarbleTimeline([Recorded<Event<String>>.next(200, "<&\"'>"), .next(210, "a long label"), .completed(220)])
        let diagram = MarbleDiagram([("a < b & \"c\"", timeline)])
        let svg = diagram.svg()
        #expect(svg == diagram.svg())
        let counter = try SVGCounter.count(Data(svg.utf8))
        #expect(counter.elements["circle.marble"] == 2)
        #expect(counter.texts == ["<&\"…", "a l…"])
        #expect(svg.contains("<title>a long label</title>"))
    }

    @Test func emptyDiagramIsStillAnSVG() throws {
        let counter = try SVGCounter.count(Data(MarbleDiagram(rows: []).svg().utf8))
        #expect(counter.elements["svg"] == 1)
        #expect(counter.elements["circle.marble"] == nil)
    }
}
