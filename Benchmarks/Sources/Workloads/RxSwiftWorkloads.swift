// The workloads' RxSwift implementations, compiled only when the package was built
// with RIPPLE_RXSWIFT_PATH naming a checkout of RxSwift 6.10.2 (Package.swift).
//
// Each mirrors the workload's Ripple implementation: the same operators, the same
// number of events, the same scheduling (immediate or current-thread; a thread hop
// only where Ripple's makes one, observe-on), and the same checksum. Ripple and
// RxSwift spell their types alike (`Observable`, `PublishSubject`, `DisposeBag`), so
// this file imports RxSwift and not Ripple, and the others import Ripple and not
// RxSwift; `allWorkloads` adds these to the workloads by id.
//
// No RxSwift implementation, by design:
// - collection-diff, collection-append: Ripple's observable collections
//   (RippleCollections), measured against a reference, not against other libraries;
//   RxSwift has no observable collections.
// - recorded-hot-chain, recorded-subscribe-dispose: Ripple's operator-site recording
//   (`Hooks.recordsOperatorSites`), which RxSwift does not have.

#if canImport(RxSwift)
import Dispatch
import Foundation
@preconcurrency import RxSwift

/// The RxSwift implementation of each workload that has one, by workload id.
let rxSwiftImplementations: [String: Setup] = {
    var setups: [String: Setup] = [
        // Core.
        "hot-chain": rxSwiftSubjectEvents { $0.map { $0 &* 2 }.filter { $0 % 3 != 0 } },
        "subject-subscribe": rxSwiftSubjectEvents { $0 },
        "subject-main-actor": rxSwiftMainActorSubscribe,
        "cold-range": rxSwiftColdRange,
        "subscribe-dispose": rxSwiftSubscriptionLifecycle,
        "observe-on": rxSwiftObserveOn,
        "dispose-bag": rxSwiftDisposeBag,
        // Operators.
        "flatmap-just": rxSwiftFlatMap { RxSwift.Observable.just($0) },
        "flatmap-of": rxSwiftFlatMap { RxSwift.Observable.of($0) },
        "flatmaplatest": rxSwiftSubjectEvents { $0.flatMapLatest { RxSwift.Observable.just($0) } },
        "flatmaplatest-of": rxSwiftSubjectEvents { $0.flatMapLatest { RxSwift.Observable.of($0) } },
        "combinelatest": rxSwiftCombineLatestTwo,
        "share-replay": rxSwiftShareReplay,
        // Construction.
        "build-3-literals": rxSwiftBuildThreeLiterals,
        "build-3-values": rxSwiftBuildThreeValues,
        "build-5-literals": rxSwiftBuildFiveLiterals,
        "build-5-values": rxSwiftBuildFiveValues,
        "build-8-literals": rxSwiftBuildEightLiterals,
        "build-8-values": rxSwiftBuildEightValues,
        "flatmaplatest-inner-chain": rxSwiftInnerChain { source, steps in
            source.flatMapLatest { RxSwift.Observable.just($0).map(steps.transform).filter(steps.predicate) }
        },
        "flatmap-inner-chain": rxSwiftInnerChain { source, steps in
            source.flatMap { RxSwift.Observable.just($0).map(steps.transform).filter(steps.predicate) }
        },
        "concatmap-inner-chain": rxSwiftInnerChain { source, steps in
            source.concatMap { RxSwift.Observable.just($0).map(steps.transform).filter(steps.predicate) }
        },
        // Scaling.
        "dispose-bag-100000": rxSwiftDisposeBag,
        // Macro.
        "search-as-you-type": rxSwiftSearchAsYouType,
    ]
    for existing in [10, 1_000, 100_000] {
        setups["subject-subscribe-dispose-\(existing)"] = rxSwiftSubjectSubscribeDispose(existing: existing)
    }
    for subscribers in [10, 1_000] {
        setups["subject-fanout-\(subscribers)"] = rxSwiftSubjectFanOut(subscribers: subscribers)
    }
    for sources in [2, 8, 64] {
        setups["combinelatest-\(sources)"] = rxSwiftCombineLatestCollection(sources: sources)
    }
    return setups
}()

// MARK: - Core

/// `n` events sent to a `PublishSubject` through `chain` (built and subscribed during
/// setup), summed by `subscribe(onNext:)`: `rippleSubjectEvents`'s counterpart.
func rxSwiftSubjectEvents(
    through chain: @escaping @Sendable (RxSwift.Observable<Int>) -> RxSwift.Observable<Int>
) -> Setup {
    { n in
        let subject = RxSwift.PublishSubject<Int>()
        let counter = Counter()
        let subscription = chain(subject.asObservable()).subscribe(onNext: { counter.value &+= $0 })
        return {
            for i in 0..<n { subject.onNext(i) }
            subscription.dispose()
            return counter.value
        }
    }
}

/// The subscription made in main-actor code, the events sent on the main queue.
/// RxSwift makes no check of its own; what the compiler adds to a main-actor
/// closure handed to a Swift 5 module is counted, as in an app.
let rxSwiftMainActorSubscribe: Setup = { n in
    onMainQueue {
        let subject = RxSwift.PublishSubject<Int>()
        let counter = Counter()
        let subscription = MainActor.assumeIsolated {
            UncheckedBox(subject.subscribe(onNext: { counter.value &+= $0 }))
        }.value
        return {
            onMainQueue {
                for i in 0..<n { subject.onNext(i) }
                subscription.dispose()
                return counter.value
            }
        }
    }
}

/// A value handed across an isolation boundary that the workload knows is not
/// crossed concurrently (RxSwift's types are not `Sendable`).
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The chain built inside the measured closure, as Ripple's is.
let rxSwiftColdRange: Setup = { n in
    {
        let chain = RxSwift.Observable.range(start: 0, count: n)
            .map { $0 &* 2 }
            .filter { $0 % 3 != 0 }
            .reduce(0, accumulator: &+)
        let counter = Counter()
        _ = chain.subscribe(onNext: { counter.value = $0 })
        return counter.value
    }
}

let rxSwiftSubscriptionLifecycle: Setup = { n in
    let counter = Counter()
    let chain = RxSwift.Observable.just(1).map { $0 + 1 }.filter { $0 > 0 }
    return {
        for _ in 0..<n {
            chain.subscribe(onNext: { counter.value &+= $0 }).dispose()
        }
        return counter.value
    }
}

let rxSwiftObserveOn: Setup = { n in
    let scheduler = RxSwift.SerialDispatchQueueScheduler(internalSerialQueueName: "bench.observe-on")
    let subject = RxSwift.PublishSubject<Int>()
    let counter = Counter()
    let done = DispatchSemaphore(value: 0)
    let subscription = subject.observe(on: scheduler).subscribe(
        onNext: { counter.value &+= $0 },
        onCompleted: { done.signal() }
    )
    return {
        for i in 0..<n { subject.onNext(i) }
        subject.onCompleted()
        done.wait()
        subscription.dispose()
        return counter.value
    }
}

/// `dispose-bag` and `dispose-bag-100000`: a bag of `n` subscriptions made during
/// setup, released in the measured closure.
let rxSwiftDisposeBag: Setup = { n in
    let subject = RxSwift.PublishSubject<Int>()
    var bag: RxSwift.DisposeBag? = RxSwift.DisposeBag()
    for _ in 0..<n {
        subject.subscribe(onNext: { _ in }).disposed(by: bag!)
    }
    return {
        bag = nil
        return subject.hasObservers ? 0 : n
    }
}

// MARK: - Operators

func rxSwiftFlatMap(_ inner: @escaping @Sendable (Int) -> RxSwift.Observable<Int>) -> Setup {
    { n in
        let source = RxSwift.Observable.range(start: 0, count: n).flatMap(inner)
        return {
            let counter = Counter()
            _ = source.subscribe(onNext: { counter.value &+= $0 })
            return counter.value
        }
    }
}

let rxSwiftCombineLatestTwo: Setup = { n in
    let left = RxSwift.PublishSubject<Int>()
    let right = RxSwift.PublishSubject<Int>()
    let counter = Counter()
    let subscription = RxSwift.Observable.combineLatest(left, right) { $0 &+ $1 }
        .subscribe(onNext: { counter.value &+= $0 })
    right.onNext(1)
    return {
        for i in 0..<n {
            if i & 1 == 0 { left.onNext(i) } else { right.onNext(i) }
        }
        subscription.dispose()
        return counter.value
    }
}

let rxSwiftShareReplay: Setup = { n in
    let subject = RxSwift.PublishSubject<Int>()
    let shared = subject.map { $0 &+ 1 }.share(replay: 1)
    let counter = Counter()
    let subscriptions = (0..<10).map { _ in shared.subscribe(onNext: { counter.value &+= $0 }) }
    return {
        for i in 0..<n { subject.onNext(i) }
        subscriptions.forEach { $0.dispose() }
        return counter.value
    }
}

// MARK: - Construction

let rxSwiftBuildThreeLiterals: Setup = { n in
    let counter = Counter()
    return {
        for i in 0..<n {
            RxSwift.Observable.just(i).map { $0 &* 2 }.filter { $0 % 3 != 0 }
                .subscribe(onNext: { counter.value &+= $0 }).dispose()
        }
        return counter.value
    }
}

let rxSwiftBuildThreeValues: Setup = { n in
    let steps = StepClosures()
    let counter = Counter()
    return {
        for i in 0..<n {
            RxSwift.Observable.just(i).map(steps.transform).filter(steps.predicate)
                .subscribe(onNext: { counter.value &+= $0 }).dispose()
        }
        return counter.value
    }
}

let rxSwiftBuildFiveLiterals: Setup = { n in
    let counter = Counter()
    return {
        for i in 0..<n {
            RxSwift.Observable.just(i).map { $0 &* 2 }.filter { $0 % 3 != 0 }
                .distinctUntilChanged().catchAndReturn(0).take(1)
                .subscribe(onNext: { counter.value &+= $0 }).dispose()
        }
        return counter.value
    }
}

let rxSwiftBuildFiveValues: Setup = { n in
    let steps = StepClosures()
    let counter = Counter()
    return {
        for i in 0..<n {
            RxSwift.Observable.just(i).map(steps.transform).filter(steps.predicate)
                .distinctUntilChanged().catchAndReturn(0).take(1)
                .subscribe(onNext: { counter.value &+= $0 }).dispose()
        }
        return counter.value
    }
}

let rxSwiftBuildEightLiterals: Setup = { n in
    let counter = Counter()
    return {
        for i in 0..<n {
            RxSwift.Observable.just(i).map { $0 &* 2 }.filter { $0 % 3 != 0 }.compactMap { $0 % 5 == 0 ? nil : $0 }
                .distinctUntilChanged().skip(0).take(1).scan(0) { $0 &+ $1 }.map { $0 &* 2 }
                .subscribe(onNext: { counter.value &+= $0 }).dispose()
        }
        return counter.value
    }
}

let rxSwiftBuildEightValues: Setup = { n in
    let steps = StepClosures()
    let counter = Counter()
    return {
        for i in 0..<n {
            RxSwift.Observable.just(i).map(steps.transform).filter(steps.predicate).compactMap(steps.partial)
                .distinctUntilChanged().skip(0).take(1).scan(0, accumulator: steps.accumulate).map(steps.transform)
                .subscribe(onNext: { counter.value &+= $0 }).dispose()
        }
        return counter.value
    }
}

func rxSwiftInnerChain(
    _ chain: @escaping @Sendable (RxSwift.Observable<Int>, StepClosures) -> RxSwift.Observable<Int>
) -> Setup {
    { n in
        let steps = StepClosures()
        return rxSwiftSubjectEvents { chain($0, steps) }(n)
    }
}

// MARK: - Scaling

func rxSwiftSubjectSubscribeDispose(existing: Int) -> Setup {
    { n in
        let subject = RxSwift.PublishSubject<Int>()
        let bag = RxSwift.DisposeBag()
        for _ in 0..<existing { subject.subscribe(onNext: { _ in }).disposed(by: bag) }
        let counter = Counter()
        return {
            for _ in 0..<n {
                subject.subscribe(onNext: { counter.value &+= $0 }).dispose()
            }
            withExtendedLifetime(bag) {}
            return counter.value
        }
    }
}

func rxSwiftSubjectFanOut(subscribers: Int) -> Setup {
    { n in
        let subject = RxSwift.PublishSubject<Int>()
        let counter = Counter()
        let subscriptions = (0..<subscribers).map { _ in subject.subscribe(onNext: { counter.value &+= $0 }) }
        return {
            for i in 0..<n { subject.onNext(i) }
            subscriptions.forEach { $0.dispose() }
            return counter.value
        }
    }
}

func rxSwiftCombineLatestCollection(sources: Int) -> Setup {
    { n in
        let subjects = (0..<sources).map { _ in RxSwift.PublishSubject<Int>() }
        let counter = Counter()
        let subscription = RxSwift.Observable.combineLatest(subjects.map { $0.asObservable() })
            .subscribe(onNext: { counter.value &+= $0[0] })
        for subject in subjects { subject.onNext(0) }
        return {
            for i in 0..<n { subjects[i % sources].onNext(i) }
            subscription.dispose()
            return counter.value
        }
    }
}

// MARK: - Macro

/// Search as you type on RxSwift's own `HistoricalScheduler` (virtual time), as
/// Ripple's runs on Ripple's.
let rxSwiftSearchAsYouType: Setup = { n in
    let typing = Typing(keystrokes: n)
    let scheduler = RxSwift.HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 0))
    let keystrokes = RxSwift.PublishSubject<String>()
    let results = keystrokes
        .debounce(.milliseconds(300), scheduler: scheduler)
        .distinctUntilChanged()
        .flatMapLatest { query in
            RxSwift.Single.just(query.utf8.count).map { $0 &* 3 }.catchAndReturn(0)
        }
        .share(replay: 1)
    let counter = Counter()
    let subscriptions = (0..<3).map { _ in results.subscribe(onNext: { counter.value &+= $0 }) }
    return {
        for i in 0..<n {
            keystrokes.onNext(typing.queries[i])
            scheduler.advanceTo(Date(timeIntervalSince1970: Double(typing.clock[i]) / 1_000))
        }
        subscriptions.forEach { $0.dispose() }
        return counter.value
    }
}
#else
/// Empty: the package was built without RIPPLE_RXSWIFT_PATH.
let rxSwiftImplementations: [String: Setup] = [:]
#endif
