import Foundation
import Ripple
import RippleTest
import XCTest

/// The HTML page of a subscription graph, opened in headless Chromium (the
/// Debian package `chromium`, which `.ci/run` installs when it is missing).
final class SubscriptionGraphPageTests: RippleTestCase {
    override func tearDown() {
        Hooks.recordsOperatorSites = false
        super.tearDown()
    }

    private func chromium() throws -> String {
        let candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            return found
        }
        if ProcessInfo.processInfo.environment["CI"] != nil {
            XCTFail("headless Chromium is missing: .ci/run installs the Debian package `chromium`")
        }
        throw XCTSkip("headless Chromium is not installed (apt-get install chromium)")
    }

    /// Runs Chromium headless with `arguments` and returns what it printed.
    private func runChromium(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try chromium())
        // A profile of its own, removed afterwards (each run leaves a few MB in it).
        let profile = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ripple-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                             "--no-first-run", "--user-data-dir=\(profile.path)"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    private func pipelineGraph() -> (graph: SubscriptionGraph, bag: DisposeBag, query: PublishRelay<String>) {
        Hooks.recordsOperatorSites = true
        let bag = DisposeBag()
        let query = PublishRelay<String>()
        let scope = NamedSubscriptionScope()
        let shared = query.named("query").map { $0.lowercased() }.share()
        scope.run {
            shared.filter { !$0.isEmpty }.subscribe().disposed(by: bag)
            shared.map { $0.count }.subscribe().disposed(by: bag)
            shared.subscribe().disposed(by: bag)
        }
        query.accept("Ripple")
        return (scope.subscriptionGraph(), bag, query)
    }

    func testPageDrawsEveryNodeWithoutScriptErrors() throws {
        let (graph, bag, _) = pipelineGraph()
        let page = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ripple-graph-\(UUID().uuidString).html")
        try graph.html.write(to: page, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: page) }
        let selected = try XCTUnwrap(graph.nodes.first { $0.operatorName == "share" })

        let dom = try runChromium(["--dump-dom", page.absoluteString + "#node=\(selected.id)"])
        XCTAssertTrue(dom.contains("data-rendered=\"\(graph.nodes.count)\""), String(dom.prefix(2_000)))
        XCTAssertTrue(dom.contains("data-errors=\"\""), String(dom.prefix(2_000)))
        XCTAssertEqual(dom.components(separatedBy: "<g class=\"node ").count - 1, graph.nodes.count)
        XCTAssertEqual(dom.components(separatedBy: "<path class=\"edge").count - 1, graph.edges.count)
        // The click on the `share` node filled in the details panel.
        XCTAssertTrue(dom.contains("data-node=\"\(selected.id)\""), String(dom.suffix(3_000)))
        XCTAssertTrue(dom.contains("RippleTests/SubscriptionGraphPageTests.swift:\(selected.site?.line ?? -1)"))
        XCTAssertTrue(dom.contains("<dd>3</dd>"), "three subscribers")
        withExtendedLifetime(bag) {}
    }

    func testScreenshotShowsTheGraph() throws {
        let (graph, bag, _) = pipelineGraph()
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ripple-shot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("graph.html")
        let empty = directory.appendingPathComponent("empty.html")
        try graph.html.write(to: page, atomically: true, encoding: .utf8)
        try SubscriptionGraph(capturedAt: graph.capturedAt, nodes: [], edges: []).html
            .write(to: empty, atomically: true, encoding: .utf8)
        func screenshot(_ url: URL, _ name: String) throws -> Data {
            let file = directory.appendingPathComponent(name)
            _ = try runChromium(["--screenshot=\(file.path)", "--window-size=1200,500", "--hide-scrollbars", url.absoluteString])
            return try Data(contentsOf: file)
        }
        let drawn = try screenshot(page, "graph.png")
        let blank = try screenshot(empty, "empty.png")
        XCTAssertEqual(Array(drawn.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
        // Same page, same size: the drawn graph compresses much worse than the
        // empty page (boxes, text, curves).
        XCTAssertGreaterThan(drawn.count, blank.count * 3 / 2, "\(drawn.count) vs \(blank.count) bytes")
        withExtendedLifetime(bag) {}
    }
}
