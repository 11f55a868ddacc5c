import Ripple
import RippleTest
import Testing

/// The combining operators, in marbles: when each one subscribes, emits,
/// completes and fails. Each test draws the picture of its guide page.
///
/// Frame 0 is when `scheduler.start` subscribes (time 200); one frame is 10 ticks.
@Suite("Combining operators in marbles") struct CombiningMarbleTests {
    let scheduler = TestScheduler(initialClock: 0)

    @Test("combineLatest emits the latest of each source whenever one emits, once all have")
    func combineLatest() throws {
        let numbers: TestableObservable<Int> = try scheduler.createHotObservable("--1----2-----|")
        let letters = try scheduler.createHotObservable("----x-----y-|")
        let res = scheduler.start { Observable.combineLatest(numbers, letters) { "\($0)\($1)" } }
        // Nothing before both have an element; completes when both have completed.
        assertMarbles(res, "----A--B--C--|", values: ["A": "1x", "B": "2x", "C": "2y"])
        assertSubscriptions(numbers, "^------------!")
        assertSubscriptions(letters, "^-----------!")
        try DocumentationImages.check("combineLatest", diagram: [
            GuideRow.hot("numbers", numbers),
            GuideRow.hot("letters", letters),
            GuideRow.events("combineLatest { \"\\($0)\\($1)\" }", res.events),
        ])
    }

    @Test("combineLatest of sources, one of which completes empty: completes at the next element")
    func combineLatestEmptySource() throws {
        // The arity form: no combination can ever come, which it notices when the
        // other source emits again.
        let numbers: TestableObservable<Int> = try scheduler.createHotObservable("--1----2----|")
        let empty: TestableObservable<Int> = try scheduler.createHotObservable("---|")
        let res = scheduler.start { Observable.combineLatest(numbers, empty) { $0 + $1 } }
        assertMarbles(res, "-------|")
        assertSubscriptions(numbers, "^------!")
        assertSubscriptions(empty, "^--!")

        // The collection form follows the same rule.
        let other = TestScheduler(initialClock: 0)
        let numbers2: TestableObservable<Int> = try other.createHotObservable("--1----2----|")
        let empty2: TestableObservable<Int> = try other.createHotObservable("---|")
        let res2 = other.start { Observable.combineLatest([numbers2, empty2]) { $0.reduce(0, +) } }
        assertMarbles(res2, "-------|")
        assertSubscriptions(numbers2, "^------!")
        assertSubscriptions(empty2, "^--!")
    }

    @Test("combineLatest fails as soon as a source fails")
    func combineLatestError() throws {
        let numbers: TestableObservable<Int> = try scheduler.createHotObservable("--1--#")
        let letters = try scheduler.createHotObservable("---x----|")
        let res = scheduler.start { Observable.combineLatest(numbers, letters) { "\($0)\($1)" } }
        assertMarbles(res, "---A-#", values: ["A": "1x"])
        assertSubscriptions(letters, "^----!")
    }

    @Test("zip pairs the elements by position, and completes when every source has completed")
    func zip() throws {
        let numbers: TestableObservable<Int> = try scheduler.createHotObservable("--1--2--3--|")
        let letters = try scheduler.createHotObservable("---x------y-z-w--|")
        let res = scheduler.start { Observable.zip(numbers, letters) { "\($0)\($1)" } }
        // w finds nothing left to pair with; as in RxSwift 6, zip still waits for
        // letters to complete.
        assertMarbles(res, "---A------B-C----|", values: ["A": "1x", "B": "2y", "C": "3z"])
        assertSubscriptions(numbers, "^----------!")
        assertSubscriptions(letters, "^----------------!")
        try DocumentationImages.check("zip", diagram: [
            GuideRow.hot("numbers", numbers),
            GuideRow.hot("letters", letters),
            GuideRow.events("zip { \"\\($0)\\($1)\" }", res.events),
        ])
    }

    @Test("zip fails as soon as a source fails, dropping the elements waiting for a pair")
    func zipError() throws {
        let numbers: TestableObservable<Int> = try scheduler.createHotObservable("-12--#")
        let letters = try scheduler.createHotObservable("---x-----y|")
        let res = scheduler.start { Observable.zip(numbers, letters) { "\($0)\($1)" } }
        assertMarbles(res, "---A-#", values: ["A": "1x"])
        assertSubscriptions(letters, "^----!")
    }

    @Test("merge forwards the elements of every source as they come")
    func merge() throws {
        let a: TestableObservable<Int> = try scheduler.createHotObservable("--1-----3---|")
        let b: TestableObservable<Int> = try scheduler.createHotObservable("-----2----4--|")
        let res = scheduler.start { Observable.merge(a.asObservable(), b.asObservable()) }
        assertMarbles(res, "--1--2--3-4--|")
        assertSubscriptions(a, "^-----------!")
        assertSubscriptions(b, "^------------!")
        try DocumentationImages.check("merge", diagram: [
            GuideRow.hot("a", a),
            GuideRow.hot("b", b),
            GuideRow.events("merge(a, b)", res.events),
        ])
    }

    @Test("merge fails as soon as one source fails, and disposes the others")
    func mergeError() throws {
        let a: TestableObservable<Int> = try scheduler.createHotObservable("--1----#")
        let b: TestableObservable<Int> = try scheduler.createHotObservable("----2----4-|")
        let res = scheduler.start { Observable.merge(a.asObservable(), b.asObservable()) }
        assertMarbles(res, "--1-2--#")
        assertSubscriptions(a, "^------!")
        assertSubscriptions(b, "^------!")
    }

    @Test("merge(maxConcurrent:) queues the inner sequences beyond the limit")
    func mergeMaxConcurrent() throws {
        let first = try scheduler.createColdObservable("-a------b|")
        let second = try scheduler.createColdObservable("-c---|")
        let third = try scheduler.createColdObservable("---d|")
        let outer = try scheduler.createHotObservable(
            "-x-y-z-------|", values: ["x": first.asObservable(), "y": second.asObservable(), "z": third.asObservable()]
        )
        let res = scheduler.start { outer.merge(maxConcurrent: 2) }
        // y runs beside x; z waits for a free slot (y's completion at frame 8).
        assertMarbles(res, "--a-c----b-d-|")
        assertSubscriptions(first, "-^--------!")
        assertSubscriptions(second, "---^----!")
        assertSubscriptions(third, "--------^---!")
    }

    @Test("switchLatest forwards only the most recent inner sequence")
    func switchLatest() throws {
        let x = try scheduler.createColdObservable("-1--2---3|")
        let y = try scheduler.createColdObservable("--4--5|")
        let (xs, ys) = (x.asObservable(), y.asObservable())
        let outer = try scheduler.createHotObservable("--x----y---|", values: ["x": xs, "y": ys])
        let res = scheduler.start { outer.switchLatest() }
        // 3 never comes: x was disposed when y arrived. The outer completion waits
        // for y.
        assertMarbles(res, "---1--2--4--5|")
        assertSubscriptions(outer, "^----------!")
        assertSubscriptions(x, "--^----!")
        assertSubscriptions(y, "-------^-----!")
        try DocumentationImages.check("switchLatest", diagram: [
            GuideRow.hot("outer", outer) { $0 === xs ? "x" : "y" },
            GuideRow.cold("x", x),
            GuideRow.cold("y", y),
            GuideRow.events("switchLatest()", res.events),
        ])
    }

    @Test("concat subscribes to the next sequence when the previous one completes")
    func concat() throws {
        let cached = try scheduler.createColdObservable("--1--2|")
        let fresh = try scheduler.createColdObservable("--3|")
        let res = scheduler.start { cached.concat(fresh) }
        assertMarbles(res, "--1--2--3|")
        assertSubscriptions(cached, "^-----!")
        assertSubscriptions(fresh, "------^--!")
        try DocumentationImages.check("concat", diagram: [
            GuideRow.cold("first", cached),
            GuideRow.cold("second", fresh),
            GuideRow.events("first.concat(second)", res.events),
        ])
    }

    @Test("concat misses what a hot second sequence sent before its turn")
    func concatHot() throws {
        let first = try scheduler.createColdObservable("--1--2|")
        let hot = try scheduler.createHotObservable("----x---y-|")
        let res = scheduler.start { first.concat(hot) }
        assertMarbles(res, "--1--2--y-|")
        assertSubscriptions(hot, "------^---!")
    }

    @Test("withLatestFrom combines each element with the latest of another sequence")
    func withLatestFrom() throws {
        let taps = try scheduler.createHotObservable("-t---t----t--t-|")
        let text = try scheduler.createHotObservable("--a----b---c|")
        let res = scheduler.start { taps.withLatestFrom(text) }
        // The first tap finds no text and is dropped; the completion of `text`
        // keeps its last element.
        assertMarbles(res, "-----a----b--c-|")
        assertSubscriptions(taps, "^--------------!")
        assertSubscriptions(text, "^-----------!")
        try DocumentationImages.check("withLatestFrom", diagram: [
            GuideRow.hot("taps", taps),
            GuideRow.hot("text", text),
            GuideRow.events("taps.withLatestFrom(text)", res.events),
        ])
    }

    @Test("withLatestFrom fails when the other sequence fails")
    func withLatestFromError() throws {
        let taps = try scheduler.createHotObservable("-t---t----t-|")
        let text = try scheduler.createHotObservable("--a----#")
        let res = scheduler.start { taps.withLatestFrom(text) { tap, text in tap + text } }
        assertMarbles(res, "-----A-#", values: ["A": "ta"])
        assertSubscriptions(taps, "^------!")
    }

    @Test("amb mirrors the first sequence to send anything and disposes the others")
    func amb() throws {
        let mirrorA = try scheduler.createHotObservable("-----1---2--|")
        let mirrorB = try scheduler.createHotObservable("---x----y--|")
        let res = scheduler.start { mirrorA.amb(mirrorB) }
        assertMarbles(res, "---x----y--|")
        assertSubscriptions(mirrorA, "^--!")
        assertSubscriptions(mirrorB, "^----------!")
        try DocumentationImages.check("amb", diagram: [
            GuideRow.hot("mirror A", mirrorA),
            GuideRow.hot("mirror B", mirrorB),
            GuideRow.events("mirrorA.amb(mirrorB)", res.events),
        ])
    }
}
