import Foundation
import Ripple
@testable import RippleTest
import Testing

/// Misusing the test kit fails the test with a message that says what was wrong,
/// instead of recording nothing or crashing.
@Suite struct TestSchedulerMisuseTests {
    private static func mentions(_ text: String) -> @Sendable (Issue) -> Bool {
        { issue in issue.comments.contains { $0.rawValue.contains(text) } }
    }

    // MARK: - start, advanceTo, sleep

    @Test func startingTwiceIsReported() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.start { Observable.just(1) }
        #expect(first.events == [.next(200, 1), .completed(200)])
        withKnownIssue {
            let second = scheduler.start { Observable.just(2) }
            #expect(second.events.isEmpty)
        } matching: { Self.mentions("already at 1000, past the creation time 100 (was start called twice?)")($0) }
    }

    @Test func startingFromAScheduledActionIsReported() {
        let scheduler = TestScheduler(initialClock: 0)
        withKnownIssue {
            scheduler.scheduleAt(50) { _ = scheduler.start { Observable.just(1) } }
            scheduler.start()
        } matching: { Self.mentions("TestScheduler.start was called from inside one of the scheduler's own actions")($0) }
        withKnownIssue {
            scheduler.scheduleAt(60) { scheduler.start() }
            scheduler.start()
        } matching: { Self.mentions("start() called while the scheduler is already running")($0) }
    }

    @Test func advancingToThePastIsReported() {
        let scheduler = TestScheduler(initialClock: 0)
        scheduler.advanceTo(500)
        withKnownIssue {
            scheduler.advanceTo(100)
        } matching: { Self.mentions("advanceTo(100) is before the current time 500")($0) }
        #expect(scheduler.clock == 500)
        scheduler.advanceTo(500)  // the current time is fine
        withKnownIssue {
            scheduler.scheduleAt(600) { scheduler.advanceTo(700) }
            scheduler.advanceTo(650)
        } matching: { Self.mentions("advanceTo(700) called while the scheduler is already running")($0) }
    }

    @Test func sleepingBackwardsIsReported() {
        let scheduler = TestScheduler(initialClock: 100)
        withKnownIssue {
            scheduler.sleep(-10)
        } matching: { issue in
            // At the test, not inside the library.
            Self.mentions("sleep(-10) would move the clock back")(issue)
                && issue.sourceLocation?.fileName == "TestSchedulerMisuseTests.swift"
        }
        #expect(scheduler.clock == 100)
    }

    // MARK: - Resolution and overflow

    @Test(arguments: [0.0, -1.0, .nan, .infinity, -.infinity])
    func aResolutionThatIsNotAPositiveNumberIsRejected(_ resolution: Double) throws {
        let problem = try #require(TestSchedulerVirtualTimeConverter.problem(withResolution: resolution))
        #expect(problem.contains("must be a positive, finite number"))
    }

    @Test func positiveResolutionsAreAccepted() {
        #expect(TestSchedulerVirtualTimeConverter.problem(withResolution: 1) == nil)
        #expect(TestSchedulerVirtualTimeConverter.problem(withResolution: 0.001) == nil)
    }

    @Test func hugeDelaysSaturateInsteadOfOverflowing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just(1).delay(.seconds(Int.max), scheduler: scheduler) }
        #expect(res.events.isEmpty)
        let timer = TestScheduler(initialClock: 0).start { Observable<Int>.timer(.seconds(Int.max), scheduler: scheduler) }
        #expect(timer.events.isEmpty)
        let converter = scheduler.converter
        #expect(converter.convertToVirtualTimeInterval(1e300) == Int.max)
        #expect(converter.convertToVirtualTimeInterval(-1e300) == Int.min)
        #expect(converter.offsetVirtualTime(Int.max - 1, offset: 10) == Int.max)
        #expect(converter.offsetVirtualTime(Int.min + 1, offset: -10) == Int.min)
    }

    @Test func workDueAtTheEndOfTimeRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let ran = Locked(false)
        _ = scheduler.scheduleRelative((), dueTime: .seconds(Int.max)) { _ in
            ran.withLock { $0 = true }
            // Scheduling "now" at the end of time does not overflow either.
            return scheduler.schedule(()) { _ in Disposables.create() }
        }
        scheduler.start()
        #expect(ran.withLock { $0 })
        #expect(scheduler.clock == Int.max)
    }

    // MARK: - Marbles far from the origin

    @Test func aTimingWhoseFramesOverflowIsASyntaxError() {
        let timing = MarbleTiming(ticksPerFrame: Int.max / 2)
        let scheduler = TestScheduler(initialClock: 0)
        #expect(throws: MarbleSyntaxError.self) {
            try scheduler.createHotObservable("--a--|", timing: timing)
        }
        do {
            _ = try Marbles.events("-a|", values: ["a": 1], timing: timing)
            Issue.record("expected a syntax error")
        } catch let error as MarbleSyntaxError {
            #expect(error.column == 0)
            #expect(error.description.contains("frame times fit in TestTime"))
        } catch {
            Issue.record("\(error)")
        }
        #expect(timing.time(ofFrame: 3) == Int.max)
        #expect(timing.time(ofFrame: -3) == Int.min)
        #expect(MarbleTiming(origin: -10).frame(of: Int.max) == Int.max)
    }

    @Test(arguments: [Int.max, 1_000_000_000])
    func comparingWithAFarAwayEventIsBoundedAndExplained(_ time: TestTime) throws {
        let events: [Recorded<Event<String>>] = [.next(220, "a"), .next(time, "b")]
        let start = Date()
        let comparison = try Marbles.compare(events, "--a|")
        #expect(Date().timeIntervalSince(start) < 1)
        #expect(!comparison.matches)
        #expect(comparison.actual == ["(not drawn: \(MarbleTiming.default.frame(of: time)) frames, more than 1000)"])
        #expect(comparison.message.contains("(the timelines are too wide to draw; compare the event lists)"))
        #expect(comparison.message.contains("next(b) @ \(time)"))
        #expect(comparison.message.count < 2_000)
    }

    @Test func timelinesUpToTheMaximumWidthAreDrawn() throws {
        let width = MarbleRenderer.maximumWidth
        let events: [Recorded<Event<String>>] = [.next(200 + width * 10, "a")]
        let drawing = MarbleRenderer.render(events)
        #expect(drawing.lines == [String(repeating: "-", count: width) + "a"])
        let tooWide = MarbleRenderer.render([Recorded<Event<String>>.next(200 + (width + 1) * 10, "a")])
        #expect(tooWide.lines == ["(not drawn: \(width + 1) frames, more than \(width))"])
        #expect(!tooWide.isExact)
    }
}
