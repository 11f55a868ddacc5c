import Ripple
import RippleTest
import Testing

/// The filtering operators, in marbles, and the creating operators that the
/// guide draws.
///
/// Frame 0 is when `scheduler.start` subscribes (time 200); one frame is 10 ticks.
@Suite("Filtering operators in marbles") struct FilteringMarbleTests {
    let scheduler = TestScheduler(initialClock: 0)

    @Test("distinctUntilChanged drops an element equal to the previous one")
    func distinctUntilChanged() throws {
        let status: TestableObservable<Int> = try scheduler.createHotObservable("--1-1-2-2-2-1-|")
        let res = scheduler.start { status.distinctUntilChanged() }
        assertMarbles(res, "--1---2-----1-|")       // 1 again after 2 is a change
        try DocumentationImages.check("distinctUntilChanged", diagram: [
            GuideRow.events("source", status.recordedEvents),
            GuideRow.events("distinctUntilChanged()", res.events),
        ])
    }

    @Test("distinctUntilChanged with a key compares the keys")
    func distinctUntilChangedKey() throws {
        let words = try scheduler.createHotObservable("--a-A-b-B-|")
        let res = scheduler.start { words.distinctUntilChanged { $0.lowercased() } }
        assertMarbles(res, "--a---b---|")
    }

    @Test("take(until:) completes when the other sequence sends an element")
    func takeUntil() throws {
        let source: TestableObservable<Int> = try scheduler.createHotObservable("--1--2--3--4--|")
        let stop = try scheduler.createHotObservable("-------x------")
        let res = scheduler.start { source.take(until: stop) }
        assertMarbles(res, "--1--2-|")
        assertSubscriptions(source, "^------!")
        assertSubscriptions(stop, "^------!")
        try DocumentationImages.check("take-until", diagram: [
            GuideRow.hot("source", source),
            GuideRow.hot("other", stop),
            GuideRow.events("take(until: other)", res.events),
        ])
    }

    @Test("take(until:) does not subscribe to the source when the other sequence fires at once")
    func takeUntilImmediate() throws {
        let source: TestableObservable<Int> = try scheduler.createHotObservable("--1--2--|")
        let res = scheduler.start { source.take(until: Observable.just("now")) }
        assertMarbles(res, "|")
        assertSubscriptions(source)
    }

    @Test("take(until:) keeps going when the other sequence completes without an element")
    func takeUntilOtherCompletes() throws {
        let source: TestableObservable<Int> = try scheduler.createHotObservable("--1--2--3--|")
        let stop = try scheduler.createHotObservable("----|")
        let res = scheduler.start { source.take(until: stop) }
        assertMarbles(res, "--1--2--3--|")
        assertSubscriptions(stop, "^---!")
    }

    @Test("skip(until:) drops the elements until the other sequence sends one")
    func skipUntil() throws {
        let source: TestableObservable<Int> = try scheduler.createHotObservable("--1--2--3--4--|")
        let start = try scheduler.createHotObservable("-------x------")
        let res = scheduler.start { source.skip(until: start) }
        assertMarbles(res, "--------3--4--|")
        assertSubscriptions(source, "^-------------!")
        assertSubscriptions(start, "^------!")
        try DocumentationImages.check("skip-until", diagram: [
            GuideRow.hot("source", source),
            GuideRow.hot("other", start),
            GuideRow.events("skip(until: other)", res.events),
        ])
    }

    @Test("take(while:) completes at the first element that fails the predicate")
    func takeWhile() throws {
        let source: TestableObservable<Int> = try scheduler.createHotObservable("--1--2--5--1--|")
        let res = scheduler.start { source.take(while: { $0 < 3 }) }
        assertMarbles(res, "--1--2--|")
        assertSubscriptions(source, "^-------!")

        let other = TestScheduler(initialClock: 0)
        let source2: TestableObservable<Int> = try other.createHotObservable("--1--2--5--1--|")
        let inclusive = other.start { source2.take(while: { $0 < 3 }, behavior: .inclusive) }
        assertMarbles(inclusive, "--1--2--(5|)")

        try DocumentationImages.check("take-while", diagram: [
            GuideRow.events("source", source.recordedEvents),
            GuideRow.events("take(while: { $0 < 3 })", res.events),
            GuideRow.events("take(while: { $0 < 3 }, behavior: .inclusive)", inclusive.events),
        ])
    }

    @Test("takeLast sends the last elements when the source completes")
    func takeLast() throws {
        let source: TestableObservable<Int> = try scheduler.createHotObservable("--1--2--3--4--|")
        let res = scheduler.start { source.takeLast(2) }
        assertMarbles(res, "--------------(34|)")
    }

    @Test("element(at:) sends one element; fails if the source is too short")
    func elementAt() throws {
        let source = try scheduler.createHotObservable("--a--b--c--|")
        let res = scheduler.start { source.element(at: 1) }
        assertMarbles(res, "-----(b|)")
        assertSubscriptions(source, "^----!")

        let other = TestScheduler(initialClock: 0)
        let short = try other.createHotObservable("--a--b--c--|")
        assertMarbles(other.start { short.element(at: 5) }, "-----------#", error: RxError.argumentOutOfRange)
    }

    @Test("single fails on a second element")
    func single() throws {
        let source = try scheduler.createHotObservable("--a--b--|")
        let res = scheduler.start { source.single() }
        assertMarbles(res, "--a--#", error: RxError.moreThanOneElement)
        assertSubscriptions(source, "^----!")
    }

    @Test("ignoreElements passes on only the terminal event")
    func ignoreElements() throws {
        let source = try scheduler.createHotObservable("--a--b--#")
        let res = scheduler.start { source.ignoreElements() }
        #expect(res.events.count == 1)
        #expect(res.events.first?.time == 280)
        #expect(res.events.first?.value.isStopEvent == true)
    }

    @Test("timer sends 0 after the due time, then every period if one is given")
    func timer() throws {
        let once = scheduler.start { Observable<Int>.timer(.seconds(30), scheduler: self.scheduler) }
        assertMarbles(once, "---(0|)")

        let other = TestScheduler(initialClock: 0)
        let periodic = other.start { Observable<Int>.timer(.seconds(30), period: .seconds(20), scheduler: other).take(3) }
        assertMarbles(periodic, "---0-1-(2|)")
        try DocumentationImages.check("timer", diagram: [
            GuideRow.events("timer(30 s)", once.events),
            GuideRow.events("timer(30 s, period: 20 s).take(3)", periodic.events),
        ])
    }

    @Test("ifEmpty sends a default element when the source completes empty")
    func ifEmpty() throws {
        let empty: TestableObservable<Int> = try scheduler.createHotObservable("-----|")
        assertMarbles(scheduler.start { empty.ifEmpty(default: 0) }, "-----(0|)")

        let other = TestScheduler(initialClock: 0)
        let empty2: TestableObservable<Int> = try other.createHotObservable("-----|")
        let fallback: TestableObservable<Int> = try other.createColdObservable("--7--8|")
        assertMarbles(other.start { empty2.ifEmpty(switchTo: fallback.asObservable()) }, "-------7--8|")
        assertSubscriptions(fallback, "-----^-----!")
    }
}
