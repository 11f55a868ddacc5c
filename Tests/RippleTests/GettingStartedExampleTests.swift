import Foundation
import Ripple
import RippleTest
import XCTest

// The examples of docs/GettingStarted.md, compiled and run; the last test checks
// that every Swift block of the guide (but the Package.swift) appears here word
// for word.

/// What the examples `print`, instead of the standard output.
private let output = PrintedLines()

private func print(_ items: Any...) {
    output.append(items.map { "\($0)" }.joined(separator: " "))
}

final class GettingStartedExampleTests: RippleTestCase {
    override func setUp() {
        super.setUp()
        _ = output.take()
    }

    func testSequencesRelaysAndSchedulers() {
        let bag = DisposeBag()
        Observable.of(1, 2, 3)
            .map { $0 * 10 }
            .filter { $0 > 10 }
            .subscribe(onNext: { print($0) },
                       onCompleted: { print("done") })
            .disposed(by: bag)
        // 20, 30, done
        XCTAssertEqual(output.take(), ["20", "30", "done"])

        let query = BehaviorRelay(value: "")
        query
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .distinctUntilChanged()
            .subscribe(onNext: { print("query:", $0) })
            .disposed(by: bag)
        query.accept(" ripple ")
        // query: , query: ripple
        XCTAssertEqual(output.take(), ["query: ", "query: ripple"])

        let searches = query
            .debounce(.milliseconds(300), scheduler: MainScheduler.instance)
            .distinctUntilChanged()
        let debounced = Recorder<String>()
        searches.subscribe(onNext: { debounced.append($0) }).disposed(by: bag)
        XCTAssertTrue(waitUntil { debounced.values == [" ripple "] }, "\(debounced.values)")
    }

    func testErrors() throws {
        let attempts = Observable<Int>.error(URLError(.timedOut))
            .retry(2)
            .catchAndReturn(0)
        XCTAssertEqual(try attempts.toBlocking(timeout: 2).toArray(), [0])
    }

    func testAsync() async throws {
        var received: [Int] = []
        for try await number in Observable.of(1, 2, 3).values {
            received.append(number)
        }
        XCTAssertEqual(received, [1, 2, 3])
    }

    func testInVirtualTime() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let typing = try scheduler.createHotObservable("-a-b------c--|", values: ["a": "r", "b": "ri", "c": "rip"])
        let res = scheduler.start { typing.debounce(.seconds(30), scheduler: scheduler) }
        assertMarbles(res, "------b------(c|)", values: ["b": "ri", "c": "rip"])
    }

    func testTheGuideShowsTheseExamples() throws {
        let tests = URL(fileURLWithPath: #filePath)
        let root = tests.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let source = TraitGuideExampleTests.normalized(try String(contentsOf: tests, encoding: .utf8))
        let guide = try String(contentsOf: root.appendingPathComponent("docs/GettingStarted.md"), encoding: .utf8)
        let blocks = TraitGuideExampleTests.swiftBlocks(in: guide).filter { !$0.hasPrefix("// swift-tools-version") }
        XCTAssertGreaterThanOrEqual(blocks.count, 5)
        for block in blocks {
            XCTAssertTrue(source.contains(TraitGuideExampleTests.normalized(block)), "docs/GettingStarted.md shows code that this file does not compile:\n\(block)")
        }
    }
}
