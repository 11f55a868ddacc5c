import Foundation
import Ripple
import RippleTest
import Testing
import XCTest

// MARK: - Swift Testing

@Suite struct MarbleExpectationTests {
    @Test func hotInColdOutRoundTrip() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--a--b--|")
        let res = scheduler.start { xs.map { $0.uppercased() } }
        #expect(res.events == [.next(220, "A"), .next(250, "B"), .completed(280)])
        assertMarbles(res, "--A--B--|")
        assertSubscriptions(xs, "^-------!")
    }

    @Test func stringsAlignOnTheSubscriptionPoint() throws {
        // The example of docs/Marbles.md.
        let scheduler = TestScheduler(initialClock: 0)
        let source = try scheduler.createHotObservable("-a-^-b-|")
        let res = scheduler.start { source.map { $0.uppercased() } }
        assertMarbles(res,                             "   --B-|")
        assertSubscriptions(source,                    "   ^---!")
    }

    @Test func comparisonIsExpectFriendly() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--a--b--|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.map { $0 * 10 } }
        let comparison = try Marbles.compare(res.events, "--x--y--|", values: ["x": 10, "y": 20])
        #expect(comparison.matches)
        #expect(comparison.expected == ["--x--y--|"])
        #expect(comparison.actual == ["--x--y--|"])
        #expect(comparison.message.isEmpty)
        #expect(comparison.description == "marbles match: --x--y--|")
    }

    @Test func mismatchShowsBothTimelinesAligned() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--a---b-|")
        let res = scheduler.start { xs.map { $0.uppercased() } }
        let comparison = try Marbles.compare(res.events, "--A--B--|")
        #expect(!comparison.matches)
        #expect(comparison.message == """
        Marbles differ (1 frame = 10 ticks, frame 0 = time 200)
          expected: --A--B--|
          actual:   --A---B-|
                         ^ first difference at frame 5 (time 250)
          expected events: next(A) @ 220, next(B) @ 250, completed @ 280
          actual events:   next(A) @ 220, next(B) @ 260, completed @ 280
        """)
    }

    @Test func mismatchedValuesGetTheirOwnDrawing() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--a--b--|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.map { $0 * 11 } }
        let comparison = try Marbles.compare(res.events, "--x--y--|", values: ["x": 10, "y": 20])
        #expect(comparison.message == """
        Marbles differ (1 frame = 10 ticks, frame 0 = time 200)
          expected: --x--y--|
          actual:   --a--b--|
                      ^ first difference at frame 2 (time 220)
          a = "11"
          b = "22"
          expected events: next(10) @ 220, next(20) @ 250, completed @ 280
          actual events:   next(11) @ 220, next(22) @ 250, completed @ 280
        """)
    }

    @Test func errorsCompareWithTheConfiguredError() throws {
        struct Boom: Error, Equatable {}
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--a--#", error: Boom())
        let res = scheduler.start { xs.asObservable() }
        assertMarbles(res, "--a--#", error: Boom())
        let other = try Marbles.compare(res.events, "--a--#")
        #expect(!other.matches)
        #expect(other.message.contains("(the drawings are the same; the events differ)"))
        #expect(other.message.contains("expected events: next(a) @ 220, error(error) @ 250"))
    }

    @Test func frameResolutionAbsorbsProcessingDelay() throws {
        // Cold events at frame 0 and observe(on:) arrive one tick late (201, 221):
        // still the same frames.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createColdObservable("a-b|")
        let res = scheduler.start { xs.observe(on: scheduler) }
        #expect(res.events.map(\.time) == [201, 221, 231])
        assertMarbles(res, "a-b|")
        // With one tick per frame the comparison is exact.
        let exact = try Marbles.compare(res.events, "a-b|", timing: MarbleTiming(ticksPerFrame: 1))
        #expect(!exact.matches)
    }

    @Test func syntaxErrorsInExpectationsAreReportedNotThrown() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<String>.never() }
        withKnownIssue {
            assertMarbles(res, "--(a")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Invalid marbles at column 5 (end of string): expected ')' to close the group opened at column 3") }
        }
    }

    @Test func failuresBecomeIssuesAtTheCallSite() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--a--b--|")
        let res = scheduler.start { xs.filter { $0 != "b" } }
        let line = #line + 2
        withKnownIssue {
            assertMarbles(res, "--a--b--|")
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.sourceLocation?.fileName == "MarbleExpectationTests.swift"
                && issue.comments.contains { $0.rawValue.contains("actual:   --a-----|") }
        }
        withKnownIssue {
            assertSubscriptions(xs, "^---!")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Subscriptions differ") }
        }
    }

    @Test func subscriptionMarblesDescribeEverySubscription() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createColdObservable("-a-b|")
        let first = scheduler.createObserver(String.self)
        let second = scheduler.createObserver(String.self)
        scheduler.scheduleAt(200) { _ = xs.subscribe(first) }
        var subscription: Disposable?
        scheduler.scheduleAt(220) { subscription = xs.subscribe(second) }
        scheduler.scheduleAt(240) { subscription?.dispose() }
        scheduler.start()
        // A test observer never disposes: the first subscription is still open.
        assertSubscriptions(xs, "^", "--^-!")
        let comparison = try Marbles.compare(xs.subscriptions, ["^----!"])
        #expect(comparison.message == """
        Subscriptions differ (1 frame = 10 ticks, frame 0 = time 200)
          expected: ^----!
          actual:   ^
                    --^-!
          expected subscriptions: (200: 250)
          actual subscriptions:   (200: Infinity), (220: 240)
        """)
        #expect(try Marbles.compare([Subscription(200)], ["^---"]).matches)
        #expect(try Marbles.compare([], []).matches)
        #expect(try !Marbles.compare([Subscription(200)], []).matches)
    }

    @Test func valuesWithLongDescriptionsUseALegend() throws {
        struct Point: Equatable, CustomStringConvertible {
            let x: Int
            var description: String { "(\(x))" }
        }
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("-a-b|", values: ["a": Point(x: 1), "b": Point(x: 2)])
        let res = scheduler.start { xs.map { Point(x: $0.x * 100) } }
        let comparison = try Marbles.compare(res.events, "-p-q|", values: ["p": Point(x: 100), "q": Point(x: 300)])
        #expect(comparison.actual == ["-p-a|"])
        #expect(comparison.message.contains(#"  a = "(200)""#))
    }

    @Test(arguments: 1...4)
    func parallelMarbleTestsDoNotInterfere(offset: Int) throws {
        let scheduler = TestScheduler(initialClock: 0)
        let marbles = String(repeating: "-", count: offset) + "a|"
        let xs = try scheduler.createColdObservable(marbles)
        let res = scheduler.start { xs.asObservable() }
        assertMarbles(res, marbles)
    }
}

// MARK: - XCTest

/// Captures the failures XCTest would record, to check what the helpers report.
final class MarbleXCTestReportingTests: FailureCapturingTestCase {
    func testPassingAssertionsReportNothing() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--a--b--|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.map { $0 + 1 } }
        let failures = capture {
            assertMarbles(res, "--2--3--|")
            assertMarbles(res.events, "--x--y--|", values: ["x": 2, "y": 3])
            assertSubscriptions(xs, "^-------!")
        }
        XCTAssertTrue(failures.isEmpty, "\(failures)")
    }

    func testFailureCallsXCTFailWithFileAndLine() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--a--b--|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs.map { $0 + 1 } }
        let line = #line + 1
        let failures = capture { assertMarbles(res, "--2--4--|") }
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.line, line)
        XCTAssertTrue(failures.first?.file.hasSuffix("MarbleExpectationTests.swift") ?? false)
        XCTAssertTrue(failures.first?.description.contains("""
          expected: --2--4--|
          actual:   --2--3--|
                         ^ first difference at frame 5 (time 250)
          expected events: next(2) @ 220, next(4) @ 250, completed @ 280
        """) ?? false, failures.first?.description ?? "")
    }

    func testSyntaxErrorIsAFailureNotACrash() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let failures = capture { assertSubscriptions(xs, "^-!-!") }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.description.contains("Invalid marbles at column 5 ('!')") ?? false)
    }
}
