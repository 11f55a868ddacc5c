import OpenCombine
import Ripple

/// Workloads of the higher-level operators.
let operatorWorkloads: [Workload] = [flatMapJust, flatMapLatestSwitch, combineLatestTwo, shareReplay]

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
            let sinks: [(Int) -> Void] = (0..<10).map { _ in opaque { counter.value &+= $0 } }
            return {
                for i in 0..<n {
                    let value = transform(i)
                    for sink in sinks { sink(value) }
                }
                return counter.value
            }
        },
    ]
)

// 5a. flatMap of 1 000 inner `just`s, per inner sequence.
let flatMapJust = Workload(
    id: "flatmap-just", title: "flatMap of 1 000 inner just", unit: "inner", operations: 1_000,
    implementations: [
        .ripple: { n in
            let source = Observable.range(start: 0, count: n).flatMap { Observable.just($0) }
            return {
                let counter = Counter()
                _ = source.subscribe(onNext: { counter.value &+= $0 })
                return counter.value
            }
        },
        .openCombine: { n in
            let source = (0..<n).publisher.flatMap { OpenCombine.Just($0) }
            return {
                let counter = Counter()
                _ = source.sink { counter.value &+= $0 }
                return counter.value
            }
        },
    ]
)

// 5b. flatMapLatest switching to a new inner on every event, per event.
let flatMapLatestSwitch = Workload(
    id: "flatmaplatest", title: "flatMapLatest, switching on every event", unit: "event", operations: 100_000,
    implementations: [
        .ripple: { n in
            let subject = PublishSubject<Int>()
            let counter = Counter()
            let subscription = subject.flatMapLatest { Observable.just($0) }.subscribe(onNext: { counter.value &+= $0 })
            return {
                for i in 0..<n { subject.onNext(i) }
                subscription.dispose()
                return counter.value
            }
        },
        .openCombine: { n in
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let counter = Counter()
            let cancellable = subject.map { OpenCombine.Just($0) }.switchToLatest().sink { counter.value &+= $0 }
            return {
                for i in 0..<n { subject.send(i) }
                cancellable.cancel()
                return counter.value
            }
        },
    ]
)

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
