import OpenCombine
import Ripple

/// Workloads of the higher-level operators.
let operatorWorkloads: [Workload] = [
    flatMapJust, flatMapFrom, flatMapLatestSwitch, flatMapLatestFrom, combineLatestTwo, shareReplay,
]

// 8. share(replay: 1) with 10 subscribers, per event (each event reaches all ten).
// OpenCombine has no replaying share; its `share()` (multicast through a
// PassthroughSubject with reference counting) is the closest equivalent.
let shareReplay = Workload(
    id: "share-replay", title: "share(replay: 1), 10 subscribers", unit: "event", operations: 200_000,
    implementations: [
        .ripple: { n in
            let subject = PublishSubject<Int>()
            let shared = subject.map { $0 &+ 1 }.share(replay: 1)
            let counter = Counter()
            let subscriptions = (0..<10).map { _ in shared.subscribe(onNext: { counter.value &+= $0 }) }
            return {
                for i in 0..<n { subject.onNext(i) }
                subscriptions.forEach { $0.dispose() }
                return counter.value
            }
        },
        .openCombine: { n in
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let shared = subject.map { $0 &+ 1 }.share()
            let counter = Counter()
            let cancellables = (0..<10).map { _ in shared.sink { counter.value &+= $0 } }
            return {
                for i in 0..<n { subject.send(i) }
                cancellables.forEach { $0.cancel() }
                return counter.value
            }
        },
        .floor: { n in
            let counter = Counter()
            let transform: (Int) -> Int = opaque { $0 &+ 1 }
            let sinks = SinkList(count: 10) { opaque { counter.value &+= $0 } }
            return {
                for i in 0..<n {
                    let value = transform(i)
                    sinks.send(value)
                }
                return counter.value
            }
        },
    ]
)

/// Ten closures called in turn, for the share-replay floor, as a hand-written
/// multicast would keep them: in a linked list of final classes, so that each call
/// costs a load and an indirect call. An `Array` of closures measured ~130 ns per
/// event, not the ~25 the calls cost: an array keeps closures in the generic
/// (thunked) representation and iterating it retains and releases each one.
final class SinkList {
    let sink: (Int) -> Void
    let next: SinkList?

    /// `count` closures made by `make` (not taken from an array: read back from one,
    /// each would come wrapped in a thunk).
    init(count: Int, _ make: () -> (Int) -> Void) {
        sink = make()
        next = count > 1 ? SinkList(count: count - 1, make) : nil
    }

    @inline(never)
    func send(_ value: Int) {
        sink(value)
        next?.send(value)
    }
}

// 5a. flatMap of 1 000 inner `just`s, per inner sequence; and the same with inner
// sequences that are not `just` (which the flattening operators forward without
// subscribing): the general path, an inner subscription per element.
// `[x].publisher` is OpenCombine's equivalent of `of(x)`.
let flatMapJust = flatMapWorkload(
    id: "flatmap-just", title: "flatMap of 1 000 inner just",
    ripple: { Observable.just($0) }, openCombine: { OpenCombine.Just($0) })
let flatMapFrom = flatMapWorkload(
    id: "flatmap-of", title: "flatMap of 1 000 inner of(x)",
    ripple: { Observable.of($0) }, openCombine: { [$0].publisher })

func flatMapWorkload<Inner: OpenCombine.Publisher & SendableMetatype>(
    id: String, title: String,
    ripple: @escaping @Sendable (Int) -> Observable<Int>,
    openCombine: @escaping @Sendable (Int) -> Inner
) -> Workload where Inner.Output == Int, Inner.Failure == Never {
    Workload(
        id: id, title: title, unit: "inner", operations: 1_000,
        implementations: [
            .ripple: { n in
                let source = Observable.range(start: 0, count: n).flatMap(ripple)
                return {
                    let counter = Counter()
                    _ = source.subscribe(onNext: { counter.value &+= $0 })
                    return counter.value
                }
            },
            .openCombine: { n in
                let source = (0..<n).publisher.flatMap(openCombine)
                return {
                    let counter = Counter()
                    _ = source.sink { counter.value &+= $0 }
                    return counter.value
                }
            },
        ]
    )
}

// 5b. flatMapLatest switching to a new inner on every event, per event: to a
// `just`, and to an `of(x)` (the general path).
let flatMapLatestSwitch = flatMapLatestWorkload(
    id: "flatmaplatest", title: "flatMapLatest, switching on every event",
    ripple: { Observable.just($0) }, openCombine: { OpenCombine.Just($0) })
let flatMapLatestFrom = flatMapLatestWorkload(
    id: "flatmaplatest-of", title: "flatMapLatest to of(x), switching on every event",
    ripple: { Observable.of($0) }, openCombine: { [$0].publisher })

func flatMapLatestWorkload<Inner: OpenCombine.Publisher & SendableMetatype>(
    id: String, title: String,
    ripple: @escaping @Sendable (Int) -> Observable<Int>,
    openCombine: @escaping @Sendable (Int) -> Inner
) -> Workload where Inner.Output == Int, Inner.Failure == Never {
    Workload(
        id: id, title: title, unit: "event", operations: 100_000,
        implementations: [
            .ripple: rippleSubjectEvents { $0.flatMapLatest(ripple) },
            .openCombine: openCombineSubjectEvents { $0.map(openCombine).switchToLatest() },
        ]
    )
}

// 6. combineLatest of two subjects, per event.
let combineLatestTwo = Workload(
    id: "combinelatest", title: "combineLatest of two subjects", unit: "event", operations: 500_000,
    implementations: [
        .ripple: { n in
            let left = PublishSubject<Int>()
            let right = PublishSubject<Int>()
            let counter = Counter()
            let subscription = Observable.combineLatest(left, right) { $0 &+ $1 }.subscribe(onNext: { counter.value &+= $0 })
            right.onNext(1)
            return {
                for i in 0..<n {
                    if i & 1 == 0 { left.onNext(i) } else { right.onNext(i) }
                }
                subscription.dispose()
                return counter.value
            }
        },
        // OpenCombine 0.14 has no combineLatest.
        .floor: { n in
            let counter = Counter()
            let combine: (Int, Int) -> Int = opaque { $0 &+ $1 }
            let sink: (Int) -> Void = opaque { counter.value &+= $0 }
            return {
                var left = 0
                var right = 1
                for i in 0..<n {
                    if i & 1 == 0 { left = i } else { right = i }
                    sink(combine(left, right))
                }
                return counter.value
            }
        },
    ]
)
