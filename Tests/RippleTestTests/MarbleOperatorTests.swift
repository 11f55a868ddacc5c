import Foundation
import Ripple
import RippleTest
import Testing

/// The operators, in marbles: each test reads as the documentation of an operator,
/// and draws the picture used by the docs (`docs/images/marbles/<name>.svg`).
///
/// Frame 0 is when `scheduler.start` subscribes (time 200); one frame is 10 ticks.
@Suite("Operators in marbles") struct MarbleOperatorTests {
    let scheduler = TestScheduler(initialClock: 0)

    @Test("map transforms each element; a throwing transform fails the stream")
    func map() throws {
        let source: TestableObservable<Int> = try scheduler.createHotObservable("--1--2--3--|")
        let res = scheduler.start { source.map { $0 * 10 } }
        assertMarbles(res, "--a--b--c--|", values: ["a": 10, "b": 20, "c": 30])
        assertSubscriptions(source, "^----------!")
        try DocumentationImages.check("map", [("source", source.recordedEvents), ("map { $0 * 10 }", res.events)])

        let other = TestScheduler(initialClock: 0)
        let failing: TestableObservable<Int> = try other.createHotObservable("--1--2--3--|")
        let failed = other.start { failing.map { value -> Int in
            if value == 2 { throw MarbleError("two") }
            return value
        } }
        assertMarbles(failed, "--1--#", error: MarbleError("two"))
        assertSubscriptions(failing, "^----!")
        try DocumentationImages.check("map-error", [("source", failing.recordedEvents), ("map (throws on 2)", failed.events)])
    }

    @Test("filter lets through the elements that satisfy the predicate")
    func filter() throws {
        let source: TestableObservable<Int> = try scheduler.createHotObservable("--1--2--3--4--|")
        let res = scheduler.start { source.filter { $0 % 2 == 0 } }
        assertMarbles(res, "-----2-----4--|")
        assertSubscriptions(source, "^-------------!")
        try DocumentationImages.check("filter", [("source", source.recordedEvents), ("filter { $0 % 2 == 0 }", res.events)])
    }

    @Test("take(n) completes after n elements and unsubscribes from the source")
    func take() throws {
        let source = try scheduler.createHotObservable("--a--b--c--|")
        let res = scheduler.start { source.take(2) }
        assertMarbles(res, "--a--(b|)")
        assertSubscriptions(source, "^----!")
        try DocumentationImages.check("take", [("source", source.recordedEvents), ("take(2)", res.events)])
    }

    @Test("take(0) completes at once without subscribing")
    func takeZero() throws {
        let source = try scheduler.createHotObservable("--a--b--|")
        let res = scheduler.start { source.take(0) }
        assertMarbles(res, "|")
        assertSubscriptions(source)
    }

    @Test("skip(n) drops the first n elements")
    func skip() throws {
        let source = try scheduler.createHotObservable("--a--b--c--d--|")
        let res = scheduler.start { source.skip(2) }
        assertMarbles(res, "--------c--d--|")
        assertSubscriptions(source, "^-------------!")
        try DocumentationImages.check("skip", [("source", source.recordedEvents), ("skip(2)", res.events)])
    }

    @Test("scan emits each intermediate accumulation")
    func scan() throws {
        let source: TestableObservable<Int> = try scheduler.createHotObservable("--1--2--3--|")
        let res = scheduler.start { source.scan(0, accumulator: +) }
        assertMarbles(res, "--1--3--6--|")
        try DocumentationImages.check("scan", [("source", source.recordedEvents), ("scan(0, accumulator: +)", res.events)])
    }

    @Test("reduce and toArray emit once, when the source completes")
    func reduceAndToArray() throws {
        let source: TestableObservable<Int> = try scheduler.createHotObservable("--1--2--3--|")
        assertMarbles(scheduler.start { source.reduce(0, accumulator: +) }, "-----------(6|)")

        let other = TestScheduler(initialClock: 0)
        let letters = try other.createHotObservable("--a--b--|")
        assertMarbles(other.start { letters.toArray().asObservable() }, "--------(x|)", values: ["x": ["a", "b"]])
    }

    @Test("startWith sends its elements first, at subscription")
    func startWith() throws {
        let source = try scheduler.createHotObservable("-----b--|")
        let res = scheduler.start { source.startWith("x", "y") }
        // The group `(xy)` takes four frames, so `b` is drawn where it happens.
        assertMarbles(res, "(xy)-b--|")
        assertSubscriptions(source, "^-------!")
        try DocumentationImages.check("startWith", [("source", source.recordedEvents), ("startWith(\"x\", \"y\")", res.events)])
    }

    @Test("do runs side effects without changing the events")
    func doOnNext() throws {
        let source = try scheduler.createHotObservable("--a--b--#")
        let log = LogBox()
        let res = scheduler.start {
            source.do(onNext: { log.append("next \($0)") }, onError: { _ in log.append("error") }, onDispose: { log.append("dispose") })
        }
        assertMarbles(res, "--a--b--#")
        assertSubscriptions(source, "^-------!")
        #expect(log.entries == ["next a", "next b", "error", "dispose"])
    }

    @Test("observe(on:) delivers on the scheduler, in the same frames")
    func observeOn() throws {
        let source = try scheduler.createHotObservable("--a--b--|")
        let res = scheduler.start { source.observe(on: self.scheduler) }
        assertMarbles(res, "--a--b--|")
        #expect(res.events.map(\.time) == [221, 251, 281])   // one tick of processing delay each
    }

    @Test("interval and timer tick on the scheduler")
    func intervalAndTimer() throws {
        // One tick is one second (resolution 1), so 20 seconds is two frames.
        let res = scheduler.start { Observable<Int>.interval(.seconds(20), scheduler: self.scheduler).take(3) }
        assertMarbles(res, "--0-1-(2|)")
        try DocumentationImages.check("interval", [("interval(20 s).take(3)", res.events)])

        let other = TestScheduler(initialClock: 0)
        let timer = other.start { Observable<Int>.timer(.seconds(30), scheduler: other) }
        assertMarbles(timer, "---(0|)")
    }

    @Test("a PublishSubject sends to current subscribers only")
    func publishSubject() throws {
        let subject = PublishSubject<String>()
        let early = scheduler.createObserver(String.self)
        let late = scheduler.createObserver(String.self)
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(240) { _ = subject.subscribe(late) }
        for (time, value) in [(220, "a"), (250, "b"), (270, "c")] {
            scheduler.scheduleAt(time) { subject.onNext(value) }
        }
        scheduler.scheduleAt(290) { subject.onCompleted() }
        scheduler.start()
        assertMarbles(early, "--a--b-c-|")
        assertMarbles(late, "-----b-c-|")
        try DocumentationImages.check("PublishSubject", [("early subscriber", early.events), ("subscribed at frame 4", late.events)])
    }

    @Test("a BehaviorSubject replays its current value to each new subscriber")
    func behaviorSubject() throws {
        let subject = BehaviorSubject(value: "i")
        let early = scheduler.createObserver(String.self)
        let late = scheduler.createObserver(String.self)
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(220) { subject.onNext("a") }
        scheduler.scheduleAt(240) { _ = subject.subscribe(late) }
        scheduler.scheduleAt(260) { subject.onNext("b") }
        scheduler.start()
        assertMarbles(early, "i-a---b")
        assertMarbles(late, "----a-b")
    }

    @Test("a ReplaySubject replays up to its buffer size")
    func replaySubject() throws {
        let subject = ReplaySubject<String>.create(bufferSize: 2)
        let late = scheduler.createObserver(String.self)
        for (time, value) in [(200, "a"), (210, "b"), (220, "c")] {
            scheduler.scheduleAt(time) { subject.onNext(value) }
        }
        scheduler.scheduleAt(250) { _ = subject.subscribe(late) }
        scheduler.scheduleAt(300) { subject.onNext("d") }
        scheduler.start()
        assertMarbles(late, "-----(bc)-d")   // the group takes four frames: d comes after it
    }

    @Test("named streams leave the events alone")
    func named() throws {
        let source = try scheduler.createHotObservable("--a--b--|")
        assertMarbles(scheduler.start { source.named("letters").map { $0.uppercased() } }, "--A--B--|")
    }
}

/// A thread-safe log for side-effect tests.
final class LogBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ entry: String) {
        lock.withLock { storage.append(entry) }
    }

    var entries: [String] {
        lock.withLock { storage }
    }
}

/// The pictures in `docs/images/marbles/` are drawn by the tests above. A test
/// fails when its picture is missing or differs from what it draws; run
/// `RIPPLE_RECORD_MARBLES=1 swift test --filter MarbleOperatorTests` to redraw them.
enum DocumentationImages {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/images/marbles")

    static func check<Element>(
        _ name: String, _ rows: [(String, [Recorded<Event<Element>>])], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let diagram = MarbleDiagram(rows.map { ($0.0, MarbleTimeline($0.1)) })
        let svg = diagram.svg()
        let url = directory.appendingPathComponent("\(name).svg")
        if ProcessInfo.processInfo.environment["RIPPLE_RECORD_MARBLES"] != nil {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try svg.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let existing = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("docs/images/marbles/\(name).svg is missing; run RIPPLE_RECORD_MARBLES=1 swift test --filter MarbleOperatorTests", sourceLocation: sourceLocation)
            return
        }
        if existing != svg {
            Issue.record("docs/images/marbles/\(name).svg is out of date; run RIPPLE_RECORD_MARBLES=1 swift test --filter MarbleOperatorTests\n\(diagram.ascii())", sourceLocation: sourceLocation)
        }
    }
}
