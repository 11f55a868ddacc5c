import OpenCombine
import Ripple

/// Workloads of the higher-level operators.
let operatorWorkloads: [Workload] = [shareReplay]

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
