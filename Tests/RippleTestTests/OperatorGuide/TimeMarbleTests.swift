import Ripple
import RippleTest
import Testing

/// The time-based operators, in marbles, in virtual time: one tick of the
/// `TestScheduler` is one second, so `.seconds(30)` is three frames.
///
/// Frame 0 is when `scheduler.start` subscribes (time 200); one frame is 10 ticks.
@Suite("Time operators in marbles") struct TimeMarbleTests {
    let scheduler = TestScheduler(initialClock: 0)

    @Test("debounce waits for a pause, and sends the element that is pending at completion")
    func debounce() throws {
        let typing = try scheduler.createHotObservable("--a-b-c-------d-|")
        let res = scheduler.start { typing.debounce(.seconds(30), scheduler: self.scheduler) }
        // c: 30 s passed without another element. d: pending when the source completed.
        assertMarbles(res, "---------c------(d|)")
        assertSubscriptions(typing, "^---------------!")
        try DocumentationImages.check("debounce", diagram: [
            GuideRow.events("source", typing.recordedEvents),
            GuideRow.events("debounce(30 s)", res.events),
        ])
    }

    @Test("debounce drops the pending element when the source fails")
    func debounceError() throws {
        let typing = try scheduler.createHotObservable("--a-#")
        let res = scheduler.start { typing.debounce(.seconds(30), scheduler: self.scheduler) }
        assertMarbles(res, "----#")
    }

    @Test("throttle sends at most one element per window; latest decides about the others")
    func throttle() throws {
        let taps = try scheduler.createHotObservable("--abc-----d-e----|")
        let latest = scheduler.start { taps.throttle(.seconds(30), scheduler: self.scheduler) }
        // a opens a window of 30 s; c, the last of the window, is sent when it ends;
        // d comes after a quiet window and passes at once; e waits for d's window.
        assertMarbles(latest, "--a--c----d--e---|")
        assertSubscriptions(taps, "^----------------!")

        let other = TestScheduler(initialClock: 0)
        let taps2 = try other.createHotObservable("--abc-----d-e----|")
        let first = other.start { taps2.throttle(.seconds(30), latest: false, scheduler: other) }
        // Without latest, what arrives inside a window is dropped, even the final e.
        assertMarbles(first, "--a-------d------|")

        try DocumentationImages.check("throttle", diagram: [
            GuideRow.events("source", taps.recordedEvents),
            GuideRow.events("throttle(30 s)", latest.events),
            GuideRow.events("throttle(30 s, latest: false)", first.events),
        ])
    }

    @Test("throttle delays the completion until the waiting element is sent")
    func throttleCompletion() throws {
        let taps = try scheduler.createHotObservable("--ab|")
        let res = scheduler.start { taps.throttle(.seconds(30), scheduler: self.scheduler) }
        assertMarbles(res, "--a--(b|)")
    }

    @Test("sample sends the latest element each time the sampler ticks")
    func sample() throws {
        let readings: TestableObservable<Int> = try scheduler.createHotObservable("--1-2-----3---|")
        let ticks = try scheduler.createHotObservable("------s--s--s---s---s")
        let res = scheduler.start { readings.sample(ticks) }
        // Nothing new at frame 9; the first tick after the completion completes.
        assertMarbles(res, "------2-----3---|")
        assertSubscriptions(readings, "^-------------!")
        assertSubscriptions(ticks, "^---------------!")

        let other = TestScheduler(initialClock: 0)
        let readings2: TestableObservable<Int> = try other.createHotObservable("--1-2-----3---|")
        let ticks2 = try other.createHotObservable("------s--s--s---s---s")
        let withDefault = other.start { readings2.sample(ticks2, defaultValue: 0) }
        assertMarbles(withDefault, "------2--0--3---(0|)")

        try DocumentationImages.check("sample", diagram: [
            GuideRow.events("source", readings.recordedEvents),
            GuideRow.events("sampler", ticks.recordedEvents),
            GuideRow.events("sample(sampler)", res.events),
            GuideRow.events("sample(sampler, defaultValue: 0)", withDefault.events),
        ])
    }

    @Test("delay shifts the elements and the completion, not the subscription")
    func delay() throws {
        let source = try scheduler.createHotObservable("--a--b----|")
        let res = scheduler.start { source.delay(.seconds(30), scheduler: self.scheduler) }
        assertMarbles(res, "-----a--b----|")
        assertSubscriptions(source, "^---------!")
        try DocumentationImages.check("delay", diagram: [
            GuideRow.events("source", source.recordedEvents),
            GuideRow.events("delay(30 s)", res.events),
        ])
    }

    @Test("delay passes an error on at once and drops the elements still waiting")
    func delayError() throws {
        let source = try scheduler.createHotObservable("--a-#")
        let res = scheduler.start { source.delay(.seconds(30), scheduler: self.scheduler) }
        assertMarbles(res, "----#")
    }

    @Test("delaySubscription subscribes later; the events then pass unchanged")
    func delaySubscription() throws {
        let request = try scheduler.createColdObservable("--a--b|")
        let res = scheduler.start { request.delaySubscription(.seconds(30), scheduler: self.scheduler) }
        assertMarbles(res, "-----a--b|")
        assertSubscriptions(request, "---^-----!")
        try DocumentationImages.check("delaySubscription", diagram: [
            GuideRow.cold("source (cold)", request),
            GuideRow.events("delaySubscription(30 s)", res.events),
        ])
    }

    @Test("timeout fails when no element comes in time, or switches to another sequence")
    func timeout() throws {
        let source = try scheduler.createHotObservable("--a--b---------c--|")
        let res = scheduler.start { source.timeout(.seconds(40), scheduler: self.scheduler) }
        assertMarbles(res, "--a--b---#", error: RxError.timeout)
        assertSubscriptions(source, "^--------!")

        let other = TestScheduler(initialClock: 0)
        let source2 = try other.createHotObservable("--a--b---------c--|")
        let fallback = try other.createColdObservable("--x--y|")
        let switched = other.start { source2.timeout(.seconds(40), other: fallback, scheduler: other) }
        assertMarbles(switched, "--a--b-----x--y|")
        assertSubscriptions(source2, "^--------!")
        assertSubscriptions(fallback, "---------^-----!")

        try DocumentationImages.check("timeout", diagram: [
            GuideRow.events("source", source.recordedEvents),
            GuideRow.events("timeout(40 s)", res.events),
            GuideRow.cold("other", fallback),
            GuideRow.events("timeout(40 s, other: other)", switched.events),
        ])
    }

    @Test("take(for:) completes when the duration has passed")
    func takeFor() throws {
        let source = try scheduler.createHotObservable("--a--b--c--d--|")
        let res = scheduler.start { source.take(for: .seconds(70), scheduler: self.scheduler) }
        assertMarbles(res, "--a--b-|")
        assertSubscriptions(source, "^------!")
    }
}
