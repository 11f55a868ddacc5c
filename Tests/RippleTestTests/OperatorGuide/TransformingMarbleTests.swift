import Ripple
import RippleTest
import Testing

/// The flatMap family and the other transforming operators, in marbles. Each test
/// draws the picture of its guide page (`docs/operators/<family>.md`).
///
/// Frame 0 is when `scheduler.start` subscribes (time 200); one frame is 10 ticks.
@Suite("Transforming operators in marbles") struct TransformingMarbleTests {
    let scheduler = TestScheduler(initialClock: 0)

    /// The same inputs for the four flattening operators, so their pictures
    /// compare: `1` opens a long inner sequence, `2` arrives while it still runs.
    struct Flattening {
        let source: TestableObservable<Int>
        let inner1: TestableObservable<String>
        let inner2: TestableObservable<String>

        init(_ scheduler: TestScheduler) throws {
            source = try scheduler.createHotObservable("--1---2--|")
            inner1 = try scheduler.createColdObservable("--a-----b|")
            inner2 = try scheduler.createColdObservable("--c---d|")
        }

        func inner(_ value: Int) -> TestableObservable<String> {
            value == 1 ? inner1 : inner2
        }

        /// The picture: the source, each inner subscription that was made, the result.
        func rows(_ result: TestableObserver<String>, _ name: String) -> [(String, MarbleTimeline)] {
            var rows = [GuideRow.hot("source", source)]
            if !inner1.subscriptions.isEmpty { rows.append(GuideRow.cold("inner for 1", inner1)) }
            if !inner2.subscriptions.isEmpty { rows.append(GuideRow.cold("inner for 2", inner2)) }
            rows.append(GuideRow.events(name, result.events))
            return rows
        }
    }

    @Test("flatMap subscribes to every inner sequence at once and merges their elements")
    func flatMap() throws {
        let given = try Flattening(scheduler)
        let res = scheduler.start { given.source.flatMap { given.inner($0) } }
        assertMarbles(res, "----a---c-b-d|")          // completes when the source and both inners have
        assertSubscriptions(given.source, "^--------!")
        assertSubscriptions(given.inner1, "--^--------!")
        assertSubscriptions(given.inner2, "------^------!")
        try DocumentationImages.check("flatMap", diagram: given.rows(res, "flatMap"))
    }

    @Test("flatMap fails as soon as an inner sequence fails, and disposes everything")
    func flatMapError() throws {
        let source: TestableObservable<Int> = try scheduler.createHotObservable("--1---2------|")
        let failing = try scheduler.createColdObservable("--a---#")
        let other = try scheduler.createColdObservable("---c----d|")
        let res = scheduler.start { source.flatMap { $0 == 1 ? failing : other } }
        assertMarbles(res, "----a---#")
        assertSubscriptions(source, "^-------!")
        assertSubscriptions(failing, "--^-----!")
        assertSubscriptions(other, "------^-!")
        try DocumentationImages.check("flatMap-error", diagram: [
            GuideRow.hot("source", source),
            GuideRow.cold("inner for 1", failing),
            GuideRow.cold("inner for 2", other),
            GuideRow.events("flatMap", res.events),
        ])
    }

    @Test("flatMapFirst ignores the elements that arrive while an inner sequence runs")
    func flatMapFirst() throws {
        let given = try Flattening(scheduler)
        let res = scheduler.start { given.source.flatMapFirst { given.inner($0) } }
        assertMarbles(res, "----a-----b|")
        assertSubscriptions(given.source, "^--------!")
        assertSubscriptions(given.inner1, "--^--------!")
        assertSubscriptions(given.inner2)                      // 2 came while inner 1 ran
        try DocumentationImages.check("flatMapFirst", diagram: given.rows(res, "flatMapFirst"))
    }

    @Test("flatMapLatest disposes the previous inner sequence when the next element arrives")
    func flatMapLatest() throws {
        let given = try Flattening(scheduler)
        let res = scheduler.start { given.source.flatMapLatest { given.inner($0) } }
        // b never comes: inner 1 was disposed at frame 6. The result completes when
        // the source has completed and the latest inner sequence too.
        assertMarbles(res, "----a---c---d|")
        assertSubscriptions(given.source, "^--------!")
        assertSubscriptions(given.inner1, "--^---!")
        assertSubscriptions(given.inner2, "------^------!")
        try DocumentationImages.check("flatMapLatest", diagram: given.rows(res, "flatMapLatest"))
    }

    @Test("flatMapLatest as a search: a new query cancels the request still running")
    func flatMapLatestSearch() throws {
        let query = try scheduler.createHotObservable("--r----s------|", values: ["r": "rx", "s": "swift"])
        let slow = try scheduler.createColdObservable("-------(a|)", values: ["a": "results for rx"])
        let fast = try scheduler.createColdObservable("---(b|)", values: ["b": "results for swift"])
        let res = scheduler.start { query.flatMapLatest { $0 == "rx" ? slow : fast } }
        assertMarbles(res, "----------b---|", values: ["b": "results for swift"])
        assertSubscriptions(slow, "--^----!")            // cancelled: "rx" results never show
        assertSubscriptions(fast, "-------^--!")
    }

    @Test("concatMap runs the inner sequences one after the other, in order")
    func concatMap() throws {
        let given = try Flattening(scheduler)
        let res = scheduler.start { given.source.concatMap { given.inner($0) } }
        assertMarbles(res, "----a-----b--c---d|")
        assertSubscriptions(given.source, "^--------!")
        assertSubscriptions(given.inner1, "--^--------!")
        assertSubscriptions(given.inner2, "-----------^------!")   // when inner 1 completes
        try DocumentationImages.check("concatMap", diagram: given.rows(res, "concatMap"))
    }

    @Test("compactMap transforms and drops the nil results")
    func compactMap() throws {
        let source = try scheduler.createHotObservable("--1--x--3--|")
        let res = scheduler.start { source.compactMap { Int($0) } }
        assertMarbles(res, "--1-----3--|")
        try DocumentationImages.check("compactMap", diagram: [
            GuideRow.events("source", source.recordedEvents),
            GuideRow.events("compactMap { Int($0) }", res.events),
        ])
    }

    @Test("reduce emits only the final accumulation, when the source completes")
    func reduce() throws {
        let source: TestableObservable<Int> = try scheduler.createHotObservable("--1--2--3--|")
        let res = scheduler.start { source.reduce(0, accumulator: +) }
        assertMarbles(res, "-----------(6|)")
        try DocumentationImages.check("reduce", diagram: [
            GuideRow.events("source", source.recordedEvents),
            GuideRow.events("reduce(0, accumulator: +)", res.events),
        ])
    }

    @Test("buffer sends an array when it is full or when the time span has passed")
    func buffer() throws {
        let source: TestableObservable<Int> = try scheduler.createHotObservable("-123---4--5-|")
        let res = scheduler.start { source.buffer(timeSpan: .seconds(50), count: 3, scheduler: self.scheduler) }
        // [1, 2, 3] when full (which restarts the time span), [4] when 50 s have
        // passed, [5] with the completion.
        assertMarbles(res, "---A----B---(C|)", values: ["A": [1, 2, 3], "B": [4], "C": [5]])
        assertSubscriptions(source, "^-----------!")
        try DocumentationImages.check("buffer", diagram: [
            GuideRow.events("source", source.recordedEvents),
            GuideRow.events("buffer(timeSpan: 50 s, count: 3)", res.events) { $0.map(String.init).joined() },
        ])
    }

    @Test("buffer sends an empty array when the time span passes without elements")
    func bufferEmpty() throws {
        let source: TestableObservable<Int> = try scheduler.createHotObservable("-1------|")
        let res = scheduler.start { source.buffer(timeSpan: .seconds(30), count: 5, scheduler: self.scheduler) }
        assertMarbles(res, "---A--B-(C|)", values: ["A": [1], "B": [], "C": []])
    }

    @Test("groupBy sends a group when its first element arrives")
    func groupBy() throws {
        let source: TestableObservable<Int> = try scheduler.createHotObservable("--1--2--3--4--|")
        let keys = scheduler.createObserver(Int.self)
        let odd = scheduler.createObserver(Int.self)
        let even = scheduler.createObserver(Int.self)
        let box = SubscriptionBox()
        scheduler.scheduleAt(200) {
            box.add(source.groupBy { $0 % 2 }.subscribe(onNext: { group in
                keys.on(.next(group.key))
                box.add(group.subscribe(group.key == 1 ? odd : even))
            }, onCompleted: { keys.on(.completed) }))
        }
        scheduler.scheduleAt(1000) { box.disposeAll() }
        scheduler.start()
        assertMarbles(keys, "--1--0--------|")
        assertMarbles(odd, "--1-----3-----|")
        assertMarbles(even, "-----2-----4--|")
        try DocumentationImages.check("groupBy", diagram: [
            GuideRow.events("source", source.recordedEvents),
            GuideRow.events("groupBy { $0 % 2 } (keys)", keys.events),
            GuideRow.events("group 1", odd.events),
            GuideRow.events("group 0", even.events),
        ])
    }
}
