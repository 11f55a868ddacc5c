import Ripple
import RippleTest
import Testing

/// Recovering from errors, in marbles: `retry`, `retry(when:)`, `catch`.
///
/// Frame 0 is when `scheduler.start` subscribes (time 200); one frame is 10 ticks.
@Suite("Error operators in marbles") struct ErrorMarbleTests {
    let scheduler = TestScheduler(initialClock: 0)

    @Test("retry(3) makes three attempts in all, then fails with the last error")
    func retry() throws {
        let request = try scheduler.createColdObservable("--a--#")
        let res = scheduler.start { request.retry(3) }
        // Each failure resubscribes at once; the cold source starts over.
        assertMarbles(res, "--a----a----a--#")
        assertSubscriptions(request, "^----!", "-----^----!", "----------^----!")
        try DocumentationImages.check("retry", diagram: [
            GuideRow.cold("attempt 1", request, subscription: 0),
            GuideRow.cold("attempt 2", request, subscription: 1),
            GuideRow.cold("attempt 3", request, subscription: 2),
            GuideRow.events("retry(3)", res.events),
        ])
    }

    @Test("retry() resubscribes until the source completes")
    func retryUntilSuccess() throws {
        let failing = try scheduler.createColdObservable("-a-#")
        let working = try scheduler.createColdObservable("--b|")
        let attempts = Counter()
        let res = scheduler.start {
            Observable.deferred {
                attempts.value += 1
                return attempts.value < 3 ? failing.asObservable() : working.asObservable()
            }.retry()
        }
        assertMarbles(res, "-a--a---b|")
        assertSubscriptions(failing, "^--!", "---^--!")
        assertSubscriptions(working, "------^--!")
    }

    @Test("retry(0) completes at once without subscribing")
    func retryZero() throws {
        let request = try scheduler.createColdObservable("--a--#")
        assertMarbles(scheduler.start { request.retry(0) }, "|")
        assertSubscriptions(request)
    }

    @Test("retry(when:) decides when to try again: here after 20 s, twice")
    func retryWhen() throws {
        let request = try scheduler.createColdObservable("-a-#")
        let res = scheduler.start {
            request.retry { (errors: Observable<Swift.Error>) in
                errors.enumerated().flatMap { attempt, error -> Observable<Int> in
                    attempt < 2 ? Observable<Int>.timer(.seconds(20), scheduler: self.scheduler) : .error(error)
                }
            }
        }
        assertMarbles(res, "-a----a----a-#")
        assertSubscriptions(request, "^--!", "-----^--!", "----------^--!")
        try DocumentationImages.check("retry-when", diagram: [
            GuideRow.cold("attempt 1", request, subscription: 0),
            GuideRow.cold("attempt 2", request, subscription: 1),
            GuideRow.cold("attempt 3", request, subscription: 2),
            GuideRow.events("retry(when: 20 s later, twice)", res.events),
        ])
    }

    @Test("catch continues with the sequence the handler returns for the error")
    func catchError() throws {
        let source = try scheduler.createHotObservable("--a--b--#")
        let fallback = try scheduler.createColdObservable("--x|")
        let res = scheduler.start { source.catch { _ in fallback.asObservable() } }
        assertMarbles(res, "--a--b----x|")
        assertSubscriptions(source, "^-------!")
        assertSubscriptions(fallback, "--------^--!")
        try DocumentationImages.check("catch", diagram: [
            GuideRow.hot("source", source),
            GuideRow.cold("fallback", fallback),
            GuideRow.events("catch { _ in fallback }", res.events),
        ])
    }

    @Test("catchAndReturn ends with one element instead of the error")
    func catchAndReturn() throws {
        let source = try scheduler.createHotObservable("--a--b--#")
        let res = scheduler.start { source.catchAndReturn("z") }
        assertMarbles(res, "--a--b--(z|)")
        try DocumentationImages.check("catchAndReturn", diagram: [
            GuideRow.events("source", source.recordedEvents),
            GuideRow.events("catchAndReturn(\"z\")", res.events),
        ])
    }

    @Test("catch fails with the handler's error when the handler throws")
    func catchThrows() throws {
        let source = try scheduler.createHotObservable("--a--#")
        let res = scheduler.start { source.catch { _ in throw MarbleError("handler") } }
        assertMarbles(res, "--a--#", error: MarbleError("handler"))
    }

    @Test("catch(sequence:) moves on to the next sequence each time one fails")
    func catchSequence() throws {
        let primary = try scheduler.createColdObservable("-a-#")
        let mirror = try scheduler.createColdObservable("--b-#")
        let cache = try scheduler.createColdObservable("-c|")
        let res = scheduler.start { Observable.catch(sequence: [primary, mirror, cache].map { $0.asObservable() }) }
        assertMarbles(res, "-a---b--c|")
        assertSubscriptions(primary, "^--!")
        assertSubscriptions(mirror, "---^---!")
        assertSubscriptions(cache, "-------^-!")
    }
}

/// A counter that closures can share.
final class Counter: @unchecked Sendable {
    var value = 0
}
