import Ripple
import RippleTest
import XCTest

/// The synchronous operators (`map`, `filter`, `compactMap`, `filterNil`, `take`,
/// `skip`, `scan`, `distinctUntilChanged`, `catchAndReturn`, `take(while:)`,
/// `take(until:)`, `skip(while:)`, `element(at:)`, `enumerated`, `withUnretained`)
/// run as one pipeline: one object per
/// operator applied, one sink per subscription for the whole chain. These tests
/// pin that a pipeline behaves exactly like the same operators built as separate
/// sinks (``Separate``, below): the same events at the same times, the same
/// source subscriptions, every closure called as often and in the same order,
/// errors and disposal included; and that the fusion really happens. Random
/// chains also contain `reduce`, which is not a step (see docs/Architecture.md):
/// a pipeline ends before it and a new one starts after it.
final class PipelineTests: RippleTestCase {
    // MARK: Random chains against separate operators

    /// One operator of a random chain. Closures may throw on one input value
    /// (`throwsOn`), to test errors thrown in any position.
    enum StepSpec: CustomStringConvertible {
        case map(add: Int, throwsOn: Int?)
        case filter(remainder: Int, throwsOn: Int?)
        case compactMap(throwsOn: Int?)
        case take(Int)
        case skip(Int)
        case scan(seed: Int, throwsOn: Int?)
        case distinctUntilChanged(throwsOn: Int?)
        case catchAndReturn(Int)
        case reduce(seed: Int, throwsOn: Int?)
        case takeWhile(below: Int, inclusive: Bool, throwsOn: Int?)
        case skipWhile(below: Int, throwsOn: Int?)
        case elementAt(Int)
        case enumerated

        var description: String {
            switch self {
            case .map(let add, let on): return "map(+\(add), throws on \(on.map(String.init) ?? "-"))"
            case .filter(let remainder, let on): return "filter(%2==\(remainder), throws on \(on.map(String.init) ?? "-"))"
            case .compactMap(let on): return "compactMap(throws on \(on.map(String.init) ?? "-"))"
            case .take(let count): return "take(\(count))"
            case .skip(let count): return "skip(\(count))"
            case .scan(let seed, let on): return "scan(\(seed), throws on \(on.map(String.init) ?? "-"))"
            case .distinctUntilChanged(let on): return "distinctUntilChanged(%3, throws on \(on.map(String.init) ?? "-"))"
            case .catchAndReturn(let value): return "catchAndReturn(\(value))"
            case .reduce(let seed, let on): return "reduce(\(seed), throws on \(on.map(String.init) ?? "-"))"
            case .takeWhile(let below, let inclusive, let on):
                return "take(while: < \(below)\(inclusive ? ", inclusive" : ""), throws on \(on.map(String.init) ?? "-"))"
            case .skipWhile(let below, let on): return "skip(while: < \(below), throws on \(on.map(String.init) ?? "-"))"
            case .elementAt(let index): return "element(at: \(index))"
            case .enumerated: return "enumerated.map(index * 13 + element)"
            }
        }

        static func random(using random: inout SeededRandomNumberGenerator) -> StepSpec {
            func throwsOn() -> Int? {
                Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 0..<12, using: &random) : nil
            }
            switch Int.random(in: 0..<13, using: &random) {
            case 0: return .map(add: Int.random(in: -3...3, using: &random), throwsOn: throwsOn())
            case 1: return .filter(remainder: Int.random(in: 0...1, using: &random), throwsOn: throwsOn())
            case 2: return .compactMap(throwsOn: throwsOn())
            case 3: return .take(Int.random(in: 0...4, using: &random))
            case 4: return .skip(Int.random(in: 0...3, using: &random))
            case 5: return .scan(seed: Int.random(in: 0...2, using: &random), throwsOn: throwsOn())
            case 6: return .distinctUntilChanged(throwsOn: throwsOn())
            case 7: return .reduce(seed: Int.random(in: 0...2, using: &random), throwsOn: throwsOn())
            case 8: return .takeWhile(below: Int.random(in: 2...11, using: &random), inclusive: Bool.random(using: &random), throwsOn: throwsOn())
            case 9: return .skipWhile(below: Int.random(in: 2...11, using: &random), throwsOn: throwsOn())
            case 10: return .elementAt(Int.random(in: 0...2, using: &random))
            case 11: return .enumerated
            default: return .catchAndReturn(Int.random(in: 90...99, using: &random))
            }
        }
    }

    /// The closures of a chain, logging every call, so that the order and number
    /// of calls can be compared.
    final class Steps: @unchecked Sendable {
        let log = Recorder<String>()
        let clock: () -> Int

        init(clock: @escaping () -> Int = { 0 }) {
            self.clock = clock
        }

        func call(_ name: String, _ value: Int, throwsOn: Int?) throws {
            log.append("\(clock()) \(name)(\(value))")
            if value == throwsOn { throw TestError(100 + value) }
        }

        /// The chain built with Ripple's operators (a pipeline).
        func pipeline(_ source: Observable<Int>, _ specs: [StepSpec]) -> Observable<Int> {
            specs.enumerated().reduce(source) { chain, item in
                let (index, spec) = item
                switch spec {
                case .map(let add, let on):
                    return chain.map { try self.call("map\(index)", $0, throwsOn: on); return $0 + add }
                case .filter(let remainder, let on):
                    return chain.filter { try self.call("filter\(index)", $0, throwsOn: on); return abs($0) % 2 == remainder }
                case .compactMap(let on):
                    return chain.compactMap { try self.call("compactMap\(index)", $0, throwsOn: on); return $0 % 3 == 0 ? nil : $0 + 1 }
                case .take(let count):
                    return chain.take(count)
                case .skip(let count):
                    return chain.skip(count)
                case .scan(let seed, let on):
                    return chain.scan(seed) { try self.call("scan\(index)", $1, throwsOn: on); return ($0 + $1) % 12 }
                case .distinctUntilChanged(let on):
                    return chain.distinctUntilChanged { try self.call("key\(index)", $0, throwsOn: on); return abs($0) % 3 }
                case .catchAndReturn(let value):
                    return chain.catchAndReturn(value)
                case .reduce(let seed, let on):
                    return chain.reduce(seed) { try self.call("reduce\(index)", $1, throwsOn: on); return ($0 + $1) % 12 }
                case .takeWhile(let below, let inclusive, let on):
                    return chain.take(while: { try self.call("takeWhile\(index)", $0, throwsOn: on); return $0 < below }, behavior: inclusive ? .inclusive : .exclusive)
                case .skipWhile(let below, let on):
                    return chain.skip(while: { try self.call("skipWhile\(index)", $0, throwsOn: on); return $0 < below })
                case .elementAt(let position):
                    return chain.element(at: position)
                case .enumerated:
                    return chain.enumerated().map { $0.index * 13 + $0.element }
                }
            }
        }

        /// The same chain built from separate sinks.
        func separate(_ source: Observable<Int>, _ specs: [StepSpec]) -> Observable<Int> {
            specs.enumerated().reduce(source) { chain, item in
                let (index, spec) = item
                switch spec {
                case .map(let add, let on):
                    return Separate.map(chain) { try self.call("map\(index)", $0, throwsOn: on); return $0 + add }
                case .filter(let remainder, let on):
                    return Separate.filter(chain) { try self.call("filter\(index)", $0, throwsOn: on); return abs($0) % 2 == remainder }
                case .compactMap(let on):
                    return Separate.compactMap(chain) { try self.call("compactMap\(index)", $0, throwsOn: on); return $0 % 3 == 0 ? nil : $0 + 1 }
                case .take(let count):
                    return Separate.take(chain, count)
                case .skip(let count):
                    return Separate.skip(chain, count)
                case .scan(let seed, let on):
                    return Separate.scan(chain, seed) { try self.call("scan\(index)", $1, throwsOn: on); return ($0 + $1) % 12 }
                case .distinctUntilChanged(let on):
                    return Separate.distinctUntilChanged(chain) { try self.call("key\(index)", $0, throwsOn: on); return abs($0) % 3 }
                case .catchAndReturn(let value):
                    return Separate.catchAndReturn(chain, value)
                case .reduce(let seed, let on):
                    return Separate.reduce(chain, seed) { try self.call("reduce\(index)", $1, throwsOn: on); return ($0 + $1) % 12 }
                case .takeWhile(let below, let inclusive, let on):
                    return Separate.takeWhile(chain, inclusive: inclusive) { try self.call("takeWhile\(index)", $0, throwsOn: on); return $0 < below }
                case .skipWhile(let below, let on):
                    return Separate.skipWhile(chain) { try self.call("skipWhile\(index)", $0, throwsOn: on); return $0 < below }
                case .elementAt(let position):
                    return Separate.elementAt(chain, position)
                case .enumerated:
                    return Separate.map(Separate.enumerated(chain)) { $0.index * 13 + $0.element }
                }
            }
        }
    }

    private func randomChain(_ random: inout SeededRandomNumberGenerator) -> [StepSpec] {
        (0..<Int.random(in: 1...8, using: &random)).map { _ in StepSpec.random(using: &random) }
    }

    /// Hot sources in virtual time: events, terminal event (or none) and the time
    /// of disposal are random.
    func testRandomChainsOnAHotSourceMatchSeparateOperators() {
        var random = SeededRandomNumberGenerator(seed: 27_001)
        for round in 0..<1_500 {
            let specs = randomChain(&random)
            var events: [Recorded<Event<Int>>] = (0..<Int.random(in: 0...8, using: &random)).map { index in
                .next(210 + 10 * index, Int.random(in: 0..<12, using: &random))
            }
            switch Int.random(in: 0..<3, using: &random) {
            case 0: events.append(.completed(300))
            case 1: events.append(.error(300, testError))
            default: break
            }
            let disposedAt = [250, 1000].randomElement(using: &random)!
            func run(_ build: @escaping (Steps, Observable<Int>) -> Observable<Int>) -> ([Recorded<Event<Int>>], [Subscription], [String]) {
                let scheduler = TestScheduler(initialClock: 0)
                let xs = scheduler.createHotObservable(events)
                let steps = Steps(clock: { scheduler.clock })
                let res = scheduler.start(disposed: disposedAt) { build(steps, xs.asObservable()) }
                return (res.events, xs.subscriptions, steps.log.values)
            }
            let fused = run { $0.pipeline($1, specs) }
            let separate = run { $0.separate($1, specs) }
            let description = "round \(round): \(specs) on \(events), disposed at \(disposedAt)"
            XCTAssertEqual(fused.0, separate.0, "events, \(description)")
            XCTAssertEqual(fused.1, separate.1, "source subscriptions, \(description)")
            XCTAssertEqual(fused.2, separate.2, "closure calls, \(description)")
        }
    }

    /// Synchronous sources: `just` (the pipeline runs without a sink) and `of`
    /// (a sink), through an observer and through `subscribe(onNext:...)`.
    func testRandomChainsOnSynchronousSourcesMatchSeparateOperators() {
        var random = SeededRandomNumberGenerator(seed: 27_002)
        for round in 0..<1_500 {
            let specs = randomChain(&random)
            let values = (0..<Int.random(in: 1...4, using: &random)).map { _ in Int.random(in: 0..<12, using: &random) }
            let makeSource: () -> Observable<Int> = values.count == 1 ? { .just(values[0]) } : { .from(values) }
            func run(_ build: (Steps, Observable<Int>) -> Observable<Int>) -> [String] {
                let steps = Steps()
                let chain = build(steps, makeSource())
                _ = chain.subscribe { steps.log.append("observer \($0)") }
                _ = chain.subscribe(
                    onNext: { steps.log.append("onNext \($0)") },
                    onError: { steps.log.append("onError \($0)") },
                    onCompleted: { steps.log.append("onCompleted") },
                    onDisposed: { steps.log.append("onDisposed") }
                )
                return steps.log.values
            }
            XCTAssertEqual(run { $0.pipeline($1, specs) }, run { $0.separate($1, specs) }, "round \(round): \(specs) on \(values)")
        }
    }

    /// An inner chain of the flatMap family on a `just` runs within the operator,
    /// without a subscription: the same events as subscribing to separate
    /// operators.
    func testRandomInnerChainsOfTheFlatMapFamilyMatchSeparateOperators() {
        let operators: [(String, (Observable<Int>, @escaping (Int) -> Observable<Int>) -> Observable<Int>)] = [
            ("flatMap", { $0.flatMap($1) }),
            ("flatMapLatest", { $0.flatMapLatest($1) }),
            ("flatMapFirst", { $0.flatMapFirst($1) }),
            ("concatMap", { $0.concatMap($1) }),
        ]
        var random = SeededRandomNumberGenerator(seed: 27_003)
        for round in 0..<400 {
            let specs = randomChain(&random)
            let values = (0..<Int.random(in: 1...5, using: &random)).map { _ in Int.random(in: 0..<12, using: &random) }
            for (name, apply) in operators {
                func run(_ build: @escaping (Steps, Observable<Int>) -> Observable<Int>) -> ([Recorded<Event<Int>>], [String]) {
                    let scheduler = TestScheduler(initialClock: 0)
                    let xs = scheduler.createHotObservable(values.enumerated().map { .next(210 + 10 * $0.offset, $0.element) } + [.completed(300)])
                    let steps = Steps(clock: { scheduler.clock })
                    let res = scheduler.start { apply(xs.asObservable()) { build(steps, .just($0)) } }
                    return (res.events, steps.log.values)
                }
                let fused = run { $0.pipeline($1, specs) }
                let separate = run { $0.separate($1, specs) }
                XCTAssertEqual(fused.0, separate.0, "\(name), round \(round): \(specs) on \(values)")
                XCTAssertEqual(fused.1, separate.1, "\(name), closure calls, round \(round): \(specs) on \(values)")
            }
        }
    }

    // MARK: Semantics pinned one by one

    func testTakeDeliversItsLastElementThenCompletesThenDisposesTheSource() {
        let log = Recorder<String>()
        let subject = PublishSubject<Int>()
        let source = subject.do(onDispose: { log.append("source disposed") })
        let subscription = source.map { $0 * 10 }.take(2).filter { _ in true }.subscribe(
            onNext: { log.append("next \($0)") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") }
        )
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        XCTAssertEqual(log.values, ["next 10", "next 20", "completed", "source disposed", "disposed"])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
    }

    func testAnErrorThrownByAStepIsSeenByTheStepsAfterItOnly() {
        let log = Recorder<String>()
        let (events, subscription) = record(
            Observable.of(1, 2, 3)
                .map { value -> Int in log.append("map \(value)"); if value == 2 { throw testError }; return value }
                .filter { log.append("filter \($0)"); return true }
                .catchAndReturn(0)
                .scan(100) { log.append("scan \($1)"); return $0 + $1 }
        )
        XCTAssertEqual(events.values, [.next(101), .next(101), .completed])
        XCTAssertEqual(log.values, ["map 1", "filter 1", "scan 1", "map 2", "scan 0"])
        subscription.dispose()
    }

    /// Subscribes `rest` applied to a `map` that disposes the subscription on 2,
    /// sends 1, 2, 3 and returns what was logged (`log` is given to `rest`).
    private func disposingOnTwo(_ rest: (Observable<Int>, Recorder<String>) -> Observable<Int>) -> (log: [String], subject: PublishSubject<Int>) {
        let subject = PublishSubject<Int>()
        let log = Recorder<String>()
        var subscription: Disposable?
        let disposing = subject.map { value -> Int in
            log.append("map \(value)")
            if value == 2 { subscription?.dispose() }
            return value
        }
        subscription = rest(disposing, log)
            .subscribe(onNext: { log.append("next \($0)") }, onDisposed: { log.append("disposed") })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        return (log.values, subject)
    }

    /// A closure that disposes the subscription stops the steps after it, as each
    /// separate sink checks its disposed flag first.
    func testAStepThatDisposesTheSubscriptionStopsTheStepsAfterIt() {
        let (log, subject) = disposingOnTwo { chain, log in chain.filter { log.append("filter \($0)"); return true } }
        XCTAssertEqual(log, ["map 1", "filter 1", "next 1", "map 2", "disposed"])
        XCTAssertFalse(subject.hasObservers)
    }

    /// The same through stages that do not join (each step runs in a stage of
    /// its own): no step after the disposing closure runs.
    func testAStepThatDisposesTheSubscriptionStopsTheLaterStages() {
        let (log, subject) = disposingOnTwo { chain, log in
            chain.take(5)
                .scan(0) { log.append("scan \($1)"); return $0 + $1 }
                .map { value -> Int in log.append("second map \(value)"); return value }
        }
        XCTAssertEqual(log, ["map 1", "scan 1", "second map 1", "next 1", "map 2", "disposed"])
        XCTAssertFalse(subject.hasObservers)
    }

    /// An element sent to the source while `take`'s last element is being
    /// delivered passes through the steps before `take` (their closures run, as in
    /// their own sinks) and is dropped by `take`.
    func testAReentrantElementDuringTakesLastElementIsDroppedByTake() {
        let log = Recorder<String>()
        var observer: AnyObserver<Int>?
        let source = Observable<Int>.create { o in
            observer = o
            return Disposables.create()
        }
        let chain = source.map { value -> Int in log.append("map \(value)"); return value }.take(1)
        let subscription = chain.subscribe(onNext: { value in
            log.append("next \(value)")
            observer?.onNext(value + 1)
        }, onCompleted: { log.append("completed") })
        observer?.onNext(1)
        XCTAssertEqual(log.values, ["map 1", "next 1", "map 2", "completed"])
        let separate = Separate.take(Separate.map(source) { value -> Int in log.append("separate map \(value)"); return value }, 1)
        let reference = separate.subscribe(onNext: { value in
            log.append("separate next \(value)")
            observer?.onNext(value + 1)
        }, onCompleted: { log.append("separate completed") })
        observer?.onNext(1)
        XCTAssertEqual(log.values.dropFirst(4), ["separate map 1", "separate next 1", "separate map 2", "separate completed"])
        subscription.dispose()
        reference.dispose()
        observer = nil
    }

    func testEachSubscriptionHasItsOwnState() {
        let subject = PublishSubject<Int>()
        let chain = subject.scan(0, accumulator: +).skip(1).take(2).distinctUntilChanged()
        let (first, a) = record(chain)
        subject.onNext(1)
        let (second, b) = record(chain)
        subject.onNext(2)
        subject.onNext(3)
        subject.onNext(4)
        XCTAssertEqual(first.values, [.next(3), .next(6), .completed])
        XCTAssertEqual(second.values, [.next(5), .next(9), .completed])
        // A new subscription starts from the seed and the counts again.
        let (third, c) = record(chain)
        subject.onNext(5)
        subject.onNext(6)
        XCTAssertEqual(third.values, [.next(11)])
        [a, b, c].forEach { $0.dispose() }
    }

    /// A stage is never changed: a chain used as the prefix of two others still
    /// behaves as it did.
    func testAStageSharedByTwoChainsIsTheirCommonPrefix() {
        let subject = PublishSubject<Int>()
        let mapped = subject.map { $0 * 10 }
        let large = mapped.filter { $0 > 20 }
        let firstTwo = mapped.take(2)
        XCTAssertFalse(large === mapped)
        let (all, a) = record(mapped)
        let (big, b) = record(large)
        let (two, c) = record(firstTwo)
        for value in 1...3 { subject.onNext(value) }
        XCTAssertEqual(all.values, [.next(10), .next(20), .next(30)])
        XCTAssertEqual(big.values, [.next(30)])
        XCTAssertEqual(two.values, [.next(10), .next(20), .completed])
        [a, b, c].forEach { $0.dispose() }
    }

    /// States of any type are made per subscription and released with the sink.
    func testAStateHoldingAnObjectIsReleasedWithTheSubscription() {
        final class Payload {}
        weak var released: Payload?
        let subject = PublishSubject<Int>()
        let subscription = subject.scan(into: [Payload]()) { payloads, _ in
            let payload = Payload()
            released = payload
            payloads.append(payload)
        }.subscribe(onNext: { _ in })
        subject.onNext(1)
        XCTAssertNotNil(released)
        subscription.dispose()
        XCTAssertNil(released)
    }

    // MARK: The fusion happens

    /// Live Ripple objects while a subscription is open.
    private func liveObjects(_ subscribe: () -> Disposable) -> Int32 {
        let before = Resources.total
        let subscription = subscribe()
        let during = Resources.total
        subscription.dispose()
        return during - before
    }

    /// However many synchronous operators a chain has (`catchAndReturn` among
    /// them), a subscription to it makes
    /// one sink (and `subscribe(onNext:)` its subscription): the same as one
    /// operator.
    func testAChainOfNineOperatorsMakesOneSinkPerSubscription() {
        let subject = PublishSubject<Int>()
        let one = subject.map { $0 + 1 }
        let eight = subject.map { $0 * 2 }.filter { $0 % 3 != 0 }.compactMap { $0 }.distinctUntilChanged()
            .skip(0).take(10).scan(0, accumulator: +).catchAndReturn(0).map { $0 + 1 }
        XCTAssertEqual(liveObjects { eight.subscribe(onNext: { _ in }) }, liveObjects { one.subscribe(onNext: { _ in }) })
        XCTAssertEqual(liveObjects { eight.subscribe { _ in } }, liveObjects { one.subscribe { _ in } })
        // Separate sinks: one per operator.
        let separate = Separate.map(Separate.filter(subject.asObservable()) { _ in true }) { $0 }
        XCTAssertGreaterThan(liveObjects { separate.subscribe(onNext: { _ in }) }, liveObjects { one.subscribe(onNext: { _ in }) })
    }

    /// The other steps join a pipeline too: a chain of all of them makes one
    /// sink per subscription, like one `map`.
    func testEveryStepJoinsThePipeline() {
        final class Owner: Sendable {}
        let owner = Owner()
        let subject = PublishSubject<Int>()
        let one = subject.map { $0 + 1 }
        let chain = subject.take(while: { $0 < 100 }).take(until: { $0 > 90 }, behavior: .inclusive)
            .skip(while: { $0 < 0 }).enumerated().map { $0.element }.withUnretained(owner).map { $1 }
            .element(at: 5).catchAndReturn(0)
        XCTAssertEqual(liveObjects { chain.subscribe(onNext: { _ in }) }, liveObjects { one.subscribe(onNext: { _ in }) })
        XCTAssertEqual(liveObjects { chain.subscribe { _ in } }, liveObjects { one.subscribe { _ in } })
        let (events, subscription) = record(chain)
        (-2...6).forEach(subject.onNext)
        XCTAssertEqual(events.values, [.next(5), .completed])
        subscription.dispose()
    }

    /// A step's result holds its element as an optional, so an element that is
    /// itself `nil` (of an optional element type) must still be an element, never
    /// "nothing", on every path: a source subscribed to (second stage and later),
    /// a subject, a `just` run without subscribing, `subscribe(onNext:)` on one,
    /// and a pipeline on a `just` inside the flatMap family. `take(2)` ends on a
    /// `nil`: it must be delivered before the completion.
    func testNilElementsOfAnOptionalElementTypePassThroughEveryPath() {
        let chain = { (source: Observable<Int?>) in
            source.map { $0.map { $0 * 10 } }
                .filter { $0 != 20 }
                .distinctUntilChanged()
                .take(3)
        }
        let expected: [Event<Int?>] = [.next(10), .next(nil), .next(30), .completed]
        let (fromValues, first) = record(chain(Observable.from([1, nil, 2, nil, 3, 4])))
        XCTAssertEqual(fromValues.values, expected)
        first.dispose()

        let subject = PublishSubject<Int?>()
        let (fromSubject, second) = record(chain(subject.asObservable()).take(2))
        for value in [1, nil, 5] as [Int?] { subject.onNext(value) }
        XCTAssertEqual(fromSubject.values, [.next(10), .next(nil), .completed])
        XCTAssertFalse(subject.hasObservers)
        second.dispose()

        let onJust = Observable.just(Int?.none).map { $0 }.filter { _ in true }.take(1)
        let (fromJust, third) = record(onJust)
        XCTAssertEqual(fromJust.values, [.next(nil), .completed])
        third.dispose()
        var handled: [Int?] = []
        _ = onJust.subscribe(onNext: { handled.append($0) }, onCompleted: { handled.append(-1) })
        XCTAssertEqual(handled, [nil, -1])

        let outer = Observable.of(1, 2)
        let (merged, fourth) = record(outer.flatMap { _ in onJust })
        XCTAssertEqual(merged.values, [.next(nil), .next(nil), .completed])
        fourth.dispose()
        let (switched, fifth) = record(outer.flatMapLatest { _ in onJust })
        XCTAssertEqual(switched.values, [.next(nil), .next(nil), .completed])
        fifth.dispose()
    }

    /// On a `just`, the whole chain runs during `subscribe(onNext:)`, which makes
    /// no object at all; through an observer, no sink either.
    func testAChainOnAJustRunsWithoutAnyObject() {
        let chain = Observable.just(3).map { $0 * 2 }.filter { $0 > 1 }.take(1).catchAndReturn(0).scan(1, accumulator: +)
        var during: [Int32] = []
        let before = Resources.total
        _ = chain.subscribe(onNext: { _ in during.append(Resources.total) })
        XCTAssertEqual(during, [before])
        _ = chain.subscribe { event in if event.element != nil { during.append(Resources.total) } }
        // The `subscribe(_:)` subscription object only.
        XCTAssertEqual(during.last, before + 1)
    }
}

/// The operators as separate sinks, one per operator and subscription, each
/// checking its own stopped flag (what every Ripple operator did before the
/// pipeline, and what RxSwift does): the reference the pipeline is compared with.
enum Separate {
    final class State<Value>: @unchecked Sendable {
        var value: Value
        var stopped = false

        init(_ value: Value) {
            self.value = value
        }
    }

    /// An operator whose sink handles each event with `onEvent`, sending what it
    /// decides to `send`; a terminal event it sends stops it and releases its
    /// source.
    static func op<Input, Output, Value>(
        _ source: Observable<Input>, start: @escaping () -> Value,
        _ onEvent: @escaping (Event<Input>, State<Value>, (Event<Output>) -> Void) -> Void
    ) -> Observable<Output> {
        Observable.create { observer in
            let state = State(start())
            let upstream = SingleAssignmentDisposable()
            upstream.setDisposable(source.subscribe { event in
                guard !state.stopped else { return }
                // The state object, not `inout`: a re-entrant event (sent by the
                // downstream while this one is delivered) reaches it again.
                onEvent(event, state) { output in
                    guard !state.stopped else { return }
                    if output.isStopEvent { state.stopped = true }
                    observer.on(output)
                    if output.isStopEvent { upstream.dispose() }
                }
            })
            return upstream
        }
    }

    static func map<Input, Output>(_ source: Observable<Input>, _ transform: @escaping (Input) throws -> Output) -> Observable<Output> {
        op(source, start: {}) { event, _, send in
            switch event {
            case .next(let element):
                do { send(.next(try transform(element))) } catch { send(.error(error)) }
            case .error(let error): send(.error(error))
            case .completed: send(.completed)
            }
        }
    }

    static func filter<Element>(_ source: Observable<Element>, _ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        op(source, start: {}) { event, _, send in
            switch event {
            case .next(let element):
                do { if try predicate(element) { send(.next(element)) } } catch { send(.error(error)) }
            case .error(let error): send(.error(error))
            case .completed: send(.completed)
            }
        }
    }

    static func compactMap<Input, Output>(_ source: Observable<Input>, _ transform: @escaping (Input) throws -> Output?) -> Observable<Output> {
        op(source, start: {}) { event, _, send in
            switch event {
            case .next(let element):
                do { if let output = try transform(element) { send(.next(output)) } } catch { send(.error(error)) }
            case .error(let error): send(.error(error))
            case .completed: send(.completed)
            }
        }
    }

    static func take<Element>(_ source: Observable<Element>, _ count: Int) -> Observable<Element> {
        if count == 0 { return .empty() }
        return op(source, start: { count }) { event, remaining, send in
            switch event {
            case .next(let element):
                guard remaining.value > 0 else { return }
                remaining.value -= 1
                send(.next(element))
                if remaining.value == 0 { send(.completed) }
            case .error(let error): send(.error(error))
            case .completed: send(.completed)
            }
        }
    }

    static func skip<Element>(_ source: Observable<Element>, _ count: Int) -> Observable<Element> {
        op(source, start: { count }) { event, remaining, send in
            switch event {
            case .next(let element):
                if remaining.value > 0 { remaining.value -= 1 } else { send(.next(element)) }
            case .error(let error): send(.error(error))
            case .completed: send(.completed)
            }
        }
    }

    static func scan<Element, Accumulate>(
        _ source: Observable<Element>, _ seed: Accumulate, _ accumulator: @escaping (Accumulate, Element) throws -> Accumulate
    ) -> Observable<Accumulate> {
        op(source, start: { seed }) { event, accumulate, send in
            switch event {
            case .next(let element):
                do {
                    accumulate.value = try accumulator(accumulate.value, element)
                    send(.next(accumulate.value))
                } catch {
                    send(.error(error))
                }
            case .error(let error): send(.error(error))
            case .completed: send(.completed)
            }
        }
    }

    static func distinctUntilChanged<Element, Key: Equatable>(
        _ source: Observable<Element>, _ keySelector: @escaping (Element) throws -> Key
    ) -> Observable<Element> {
        op(source, start: { Key?.none }) { event, current, send in
            switch event {
            case .next(let element):
                do {
                    let key = try keySelector(element)
                    if let last = current.value, last == key { return }
                    current.value = key
                    send(.next(element))
                } catch {
                    send(.error(error))
                }
            case .error(let error): send(.error(error))
            case .completed: send(.completed)
            }
        }
    }

    static func reduce(_ source: Observable<Int>, _ seed: Int, _ accumulator: @escaping (Int, Int) throws -> Int) -> Observable<Int> {
        op(source, start: { seed }) { event, state, send in
            switch event {
            case .next(let element):
                do {
                    state.value = try accumulator(state.value, element)
                } catch {
                    send(.error(error))
                }
            case .error(let error): send(.error(error))
            case .completed:
                send(.next(state.value))
                send(.completed)
            }
        }
    }

    static func takeWhile(_ source: Observable<Int>, inclusive: Bool, _ predicate: @escaping (Int) throws -> Bool) -> Observable<Int> {
        op(source, start: {}) { event, _, send in
            switch event {
            case .next(let element):
                do {
                    if try predicate(element) {
                        send(.next(element))
                    } else {
                        if inclusive { send(.next(element)) }
                        send(.completed)
                    }
                } catch {
                    send(.error(error))
                }
            case .error(let error): send(.error(error))
            case .completed: send(.completed)
            }
        }
    }

    static func skipWhile(_ source: Observable<Int>, _ predicate: @escaping (Int) throws -> Bool) -> Observable<Int> {
        op(source, start: { false }) { event, passing, send in
            switch event {
            case .next(let element):
                do {
                    if !passing.value { passing.value = try !predicate(element) }
                    if passing.value { send(.next(element)) }
                } catch {
                    send(.error(error))
                }
            case .error(let error): send(.error(error))
            case .completed: send(.completed)
            }
        }
    }

    static func elementAt(_ source: Observable<Int>, _ index: Int) -> Observable<Int> {
        op(source, start: { index }) { event, remaining, send in
            switch event {
            case .next(let element):
                if remaining.value == 0 {
                    send(.next(element))
                    send(.completed)
                } else {
                    remaining.value -= 1
                }
            case .error(let error): send(.error(error))
            case .completed:
                let received = index - remaining.value
                send(.error(RxError.argumentOutOfRange(RxError.OutOfRangeArgument(
                    operation: "element(at:)", name: "index", value: index,
                    requirement: "the sequence completed after \(received) element\(received == 1 ? "" : "s")"
                ))))
            }
        }
    }

    static func enumerated(_ source: Observable<Int>) -> Observable<(index: Int, element: Int)> {
        op(source, start: { 0 }) { event, index, send in
            switch event {
            case .next(let element):
                let current = index.value
                index.value += 1
                send(.next((current, element)))
            case .error(let error): send(.error(error))
            case .completed: send(.completed)
            }
        }
    }

    static func catchAndReturn<Element>(_ source: Observable<Element>, _ value: Element) -> Observable<Element> {
        op(source, start: {}) { event, _, send in
            switch event {
            case .next(let element): send(.next(element))
            case .error:
                send(.next(value))
                send(.completed)
            case .completed: send(.completed)
            }
        }
    }
}
