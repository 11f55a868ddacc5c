import OpenCombine
import Ripple

/// Workloads that measure memory rather than time: each operation creates one
/// subscription and keeps it alive; `ripple-compare --memory` reports the bytes
/// allocated and not freed per subscription (malloc interposer: requested bytes,
/// so without malloc's own per-block overhead, for every implementation alike).
public let memoryWorkloads: [Workload] = [subjectSubscriberMemory, chainSubscriberMemory]

/// Subscriptions kept alive until the workload is released; the storage is
/// reserved during setup, so that it is not counted.
final class Holder<Item>: @unchecked Sendable {
    var items: [Item] = []

    init(capacity: Int) {
        items.reserveCapacity(capacity)
    }
}

let subjectSubscriberMemory = Workload(
    id: "memory-subject-subscriber", title: "a subject subscriber", unit: "live subscription", operations: 16_384,
    implementations: [
        .ripple: { n in
            let subject = PublishSubject<Int>()
            let counter = Counter()
            let holder = Holder<Disposable>(capacity: n)
            return {
                for _ in 0..<n { holder.items.append(subject.subscribe(onNext: { counter.value &+= $0 })) }
                return holder.items.count
            }
        },
        .openCombine: { n in
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let counter = Counter()
            let holder = Holder<AnyCancellable>(capacity: n)
            return {
                for _ in 0..<n { holder.items.append(subject.sink { counter.value &+= $0 }) }
                return holder.items.count
            }
        },
    ]
)

let chainSubscriberMemory = Workload(
    id: "memory-chain-subscriber", title: "a subscriber of subject.map.filter.distinctUntilChanged (chain built once)",
    unit: "live subscription", operations: 16_384,
    implementations: [
        .ripple: { n in
            let subject = PublishSubject<Int>()
            let chain = subject.map { $0 &* 2 }.filter { $0 % 3 != 0 }.distinctUntilChanged()
            let counter = Counter()
            let holder = Holder<Disposable>(capacity: n)
            return {
                for _ in 0..<n { holder.items.append(chain.subscribe(onNext: { counter.value &+= $0 })) }
                return holder.items.count
            }
        },
        .openCombine: { n in
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let chain = subject.map { $0 &* 2 }.filter { $0 % 3 != 0 }.removeDuplicates()
            let counter = Counter()
            let holder = Holder<AnyCancellable>(capacity: n)
            return {
                for _ in 0..<n { holder.items.append(chain.sink { counter.value &+= $0 }) }
                return holder.items.count
            }
        },
    ]
)
