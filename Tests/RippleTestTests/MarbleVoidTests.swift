import Ripple
import RippleTest
import Testing

/// Marbles for `Void` elements, which cannot conform to `MarbleValue`.
@Suite struct MarbleVoidTests {
    @Test func emptyMarblesForAVoidObservable() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Void>.never() }
        assertMarbles(res, "")
        assertMarbles(res.events, "")
    }

    @Test func voidTokensStandForTheElement() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let taps: TestableObservable<Void> = try scheduler.createHotObservable("--x--y--|")
        let res = scheduler.start { taps.asObservable() }
        #expect(res.events.map(\.time) == [220, 250, 280])
        assertMarbles(res, "--t--t--|")
        assertSubscriptions(taps, "^-------!")
    }

    @Test func coldVoidObservable() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let ticks: TestableObservable<Void> = try scheduler.createColdObservable("-x-(x|)")
        let res = scheduler.start { ticks.asObservable() }
        assertMarbles(res, "-x-(x|)")
    }

    @Test func aMismatchIsReported() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Void>.just(()) }
        let comparison = try Marbles.compare(res.events, "")
        #expect(!comparison.matches)
        #expect(comparison.message.contains("actual events:   next(()) @ 200, completed @ 200"))
        withKnownIssue {
            assertMarbles(res, "--x|")
        }
    }

    @Test func withoutContextMarblesStillBuildStrings() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--a|")
        let res = scheduler.start { xs.asObservable() }
        #expect(res.events == [.next(220, "a"), .completed(230)])
    }
}

/// A failed marble assertion is one issue, whatever the framework: the helpers
/// report it themselves and return nothing to hand to `#expect`.
@Suite struct MarbleAssertionIssueCountTests {
    final class Count: Sendable {
        private let value = Locked(0)
        func increment() { value.withLock { $0 += 1 } }
        var current: Int { value.withLock { $0 } }
    }

    private func issues(_ body: () -> Void) -> Int {
        let count = Count()
        withKnownIssue {
            body()
        } matching: { _ in
            count.increment()
            return true
        }
        return count.current
    }

    @Test func aMismatchIsReportedOnce() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--a--b--|")
        let res = scheduler.start { xs.asObservable() }
        #expect(issues {
            // Returns nothing: there is no `Bool` to hand to `#expect`, which
            // would report the same failure a second time.
            let nothing: Void = assertMarbles(res, "--a-----|")
            _ = nothing
        } == 1)
        #expect(issues { assertMarbles(res.events, "--x|", values: ["x": "a"]) } == 1)
        #expect(issues { assertSubscriptions(xs, "^--!") } == 1)
    }

    @Test func aMalformedStringIsReportedOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<String>.never() }
        #expect(issues { assertMarbles(res, "--(a") } == 1)
    }

    @Test func theComparisonWithExpectIsReportedOnce() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just("a") }
        let comparison = try Marbles.compare(res.events, "--a|")
        let count = issues { #expect(comparison.matches, "\(comparison)") }
        #expect(count == 1)
    }
}
