import Foundation
import Ripple
import RippleTest
import XCTest

final class DebugTests: RippleTestCase {
    private var lines: Recorder<String>!

    override func setUp() {
        super.setUp()
        lines = Recorder<String>()
        let lines = self.lines!
        DebugOutput.sink = { lines.append($0) }
    }

    override func tearDown() {
        DebugOutput.sink = { print($0) }
        DebugOutput.entryHandler = nil
        DebugOutput.showsSubscriptionID = false
        super.tearDown()
    }

    /// The lines without their timestamps.
    private var messages: [String] {
        lines.values.map { String($0.drop(while: { $0 != " " }).dropFirst().drop(while: { $0 != " " }).dropFirst()) }
    }

    func testPrintsRxSwiftsFormat() {
        _ = Observable.of(1, 2).debug("numbers").subscribe()
        XCTAssertEqual(messages, [
            "numbers -> subscribed",
            "numbers -> Event next(1)",
            "numbers -> Event next(2)",
            "numbers -> Event completed",
            "numbers -> isDisposed",
        ])
        let pattern = #"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}: numbers -> subscribed$"#
        XCTAssertNotNil(lines.values.first?.range(of: pattern, options: .regularExpression), lines.values.first ?? "")
    }

    func testEventsPassThroughUnchanged() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--a--#", error: testError)
        let res = scheduler.start { xs.debug("letters") }
        assertMarbles(res, "--a--#", error: testError)
        assertSubscriptions(xs, "^----!")
        XCTAssertEqual(messages, [
            "letters -> subscribed", "letters -> Event next(a)", "letters -> Event error(TestError(1))", "letters -> isDisposed",
        ])
    }

    func testDisposeMidFlightLogsDisposal() {
        let subject = PublishSubject<Int>()
        let subscription = subject.debug("subject").subscribe()
        subject.onNext(1)
        subscription.dispose()
        subject.onNext(2)
        XCTAssertEqual(messages, ["subject -> subscribed", "subject -> Event next(1)", "subject -> isDisposed"])
    }

    func testDefaultIdentifierIsTheCallSiteOrTheStreamName() {
        let line = #line + 1
        _ = Observable.just(1).debug().subscribe()
        XCTAssertEqual(messages.first, "DebugTests.swift:\(line) (testDefaultIdentifierIsTheCallSiteOrTheStreamName()) -> subscribed")

        lines = Recorder<String>()
        let lines = self.lines!
        DebugOutput.sink = { lines.append($0) }
        _ = Observable.just(1).named("search").debug().subscribe()
        XCTAssertEqual(messages.first, "search -> subscribed")
        lines.append("")
        _ = Observable.just(1).named("search").debug("explicit").subscribe()
        XCTAssertEqual(messages.last, "explicit -> isDisposed")
    }

    func testTrimOutputShortensLongEvents() {
        let long = String(repeating: "x", count: 60)
        _ = Observable.just(long).debug("long", trimOutput: true).subscribe()
        let event = messages[1]
        XCTAssertEqual(event, "long -> Event next(xxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxx)")
        _ = Observable.just("short").debug("short", trimOutput: true).subscribe()
        XCTAssertTrue(messages.contains("short -> Event next(short)"))
    }

    func testSubscriptionIdentifiersTellSubscriptionsApart() {
        DebugOutput.showsSubscriptionID = true
        let source = Observable.of(1).debug("shared")
        _ = source.subscribe()
        _ = source.subscribe()
        let ids = messages.compactMap { message -> String? in
            guard let range = message.range(of: #"#\d+"#, options: .regularExpression) else { return nil }
            return String(message[range])
        }
        XCTAssertEqual(ids.count, 8)
        XCTAssertEqual(Set(ids.prefix(4)).count, 1)
        XCTAssertEqual(Set(ids.suffix(4)).count, 1)
        XCTAssertNotEqual(ids.first, ids.last)
        XCTAssertTrue(messages[0].hasPrefix("shared #"))
    }

    func testEntryHandlerReceivesStructuredEntries() {
        let entries = Recorder<DebugOutput.Entry>()
        DebugOutput.entryHandler = { entries.append($0) }
        _ = Observable.of("a").debug("letters").subscribe()
        XCTAssertTrue(lines.values.isEmpty, "the sink is bypassed")
        let received = entries.values
        XCTAssertEqual(received.map(\.kind), [.subscribed, .event("next(a)"), .event("completed"), .disposed])
        XCTAssertEqual(received.map(\.message), ["subscribed", "Event next(a)", "Event completed", "isDisposed"])
        XCTAssertEqual(Set(received.map(\.subscription)).count, 1)
        XCTAssertEqual(Set(received.map(\.identifier)), ["letters"])
        XCTAssertTrue(received[0].line(showsSubscriptionID: true).contains("letters #\(received[0].subscription) -> subscribed"))
        XCTAssertTrue(received[0].description.hasSuffix(": letters -> subscribed"))
    }

    func testTimestampMatchesDateFormatter() {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        for interval in [0.0, 1_790_000_000.123, 1_790_000_000.9996, 1_234_567_890.5] {
            let date = Date(timeIntervalSince1970: interval)
            let entry = DebugOutput.Entry(date: date, identifier: "x", subscription: 1, kind: .subscribed)
            let expected = formatter.string(from: Date(timeIntervalSince1970: (interval * 1000).rounded(.down) / 1000))
            XCTAssertEqual(entry.description, "\(expected): x -> subscribed")
        }
    }
}
