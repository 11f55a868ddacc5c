import Dispatch
import OpenCombine
import OpenCombineDispatch
import Ripple

// 1. subject -> map -> filter -> subscribe, per event.
let hotChain = Workload(
    id: "hot-chain", title: "subject → map → filter → subscribe", unit: "event", operations: 1_000_000,
    implementations: [
        .ripple: rippleSubjectEvents { $0.map { $0 &* 2 }.filter { $0 % 3 != 0 } },
        .openCombine: openCombineSubjectEvents { $0.map { $0 &* 2 }.filter { $0 % 3 != 0 } },
        .asyncStream: { n in
            {
                runBlocking {
                    let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
                    let consumer = Task {
                        var sum = 0
                        for await value in stream.map({ $0 &* 2 }).filter({ $0 % 3 != 0 }) { sum &+= value }
                        return sum
                    }
                    for i in 0..<n { continuation.yield(i) }
                    continuation.finish()
                    return await consumer.value
                }
            }
        },
        .floor: { n in
            let transform: (Int) -> Int = opaque { $0 &* 2 }
            let predicate: (Int) -> Bool = opaque { $0 % 3 != 0 }
            let counter = Counter()
            let sink: (Int) -> Void = opaque { counter.value &+= $0 }
            return {
                for i in 0..<n {
                    let value = transform(i)
                    if predicate(value) { sink(value) }
                }
                return counter.value
            }
        },
    ]
)

/// Ripple's side of a subject workload: `n` events sent to a `PublishSubject`
/// through `chain` (built and subscribed during setup), summed by
/// `subscribe(onNext:)`.
func rippleSubjectEvents(through chain: @escaping @Sendable (Observable<Int>) -> Observable<Int>) -> Setup {
    { n in
        let subject = PublishSubject<Int>()
        let counter = Counter()
        let subscription = chain(subject.asObservable()).subscribe(onNext: { counter.value &+= $0 })
        return {
            for i in 0..<n { subject.onNext(i) }
            subscription.dispose()
            return counter.value
        }
    }
}

/// OpenCombine's side: the same through a `PassthroughSubject` and `sink`.
func openCombineSubjectEvents<Chain: OpenCombine.Publisher & SendableMetatype>(
    through chain: @escaping @Sendable (OpenCombine.PassthroughSubject<Int, Never>) -> Chain
) -> Setup where Chain.Output == Int, Chain.Failure == Never {
    { n in
        let subject = OpenCombine.PassthroughSubject<Int, Never>()
        let counter = Counter()
        let cancellable = chain(subject).sink { counter.value &+= $0 }
        return {
            for i in 0..<n { subject.send(i) }
            cancellable.cancel()
            return counter.value
        }
    }
}

// 2. subject -> subscribe, no operators, per event.
let subjectSubscribe = Workload(
    id: "subject-subscribe", title: "subject → subscribe", unit: "event", operations: 1_000_000,
    implementations: [
        .ripple: rippleSubjectEvents { $0 },
        .openCombine: openCombineSubjectEvents { $0 },
        .asyncStream: { n in
            {
                runBlocking {
                    let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
                    let consumer = Task {
                        var sum = 0
                        for await value in stream { sum &+= value }
                        return sum
                    }
                    for i in 0..<n { continuation.yield(i) }
                    continuation.finish()
                    return await consumer.value
                }
            }
        },
        .floor: sinkFloor,
    ]
)

/// The floor of the subject workloads: `n` calls of an opaque closure that sums.
let sinkFloor: Setup = { n in
    let counter = Counter()
    let sink: (Int) -> Void = opaque { counter.value &+= $0 }
    return {
        for i in 0..<n { sink(i) }
        return counter.value
    }
}

// 2b. subject -> subscribe made in main-actor code, events sent on the main queue:
// the handler goes through Ripple's main-actor check (one queue-identity check per
// event), the cost a view model pays over `subject-subscribe`.
let subjectMainActorSubscribe = Workload(
    id: "subject-main-actor", title: "subject → main-actor subscriber on the main queue", unit: "event",
    operations: 1_000_000,
    implementations: [
        .ripple: { n in
            onMainQueue {
                let subject = PublishSubject<Int>()
                let counter = Counter()
                let subscription = MainActor.assumeIsolated { subject.subscribe(onNext: { counter.value &+= $0 }) }
                return {
                    onMainQueue {
                        for i in 0..<n { subject.onNext(i) }
                        subscription.dispose()
                        return counter.value
                    }
                }
            }
        },
        .floor: sinkFloor,
    ]
)

private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Runs `body` on the main queue: at once when called there (`ripple-compare` runs
/// workloads on the main thread), else through `DispatchQueue.main.sync` (the
/// benchmark harness runs them on Swift's cooperative pool, the main queue idle).
func onMainQueue<Result>(_ body: () -> Result) -> Result {
    if DispatchQueue.getSpecific(key: mainQueueKey) == true {
        return body()
    }
    return DispatchQueue.main.sync(execute: body)
}

// 3. range -> map -> filter -> reduce, per element.
//
// The chain is built inside the measured closure: OpenCombine's
// `Publishers.Sequence` overloads run `map`, `filter` and `reduce` eagerly (on
// arrays) when the publisher is *built*, so building it during setup left all of
// OpenCombine's work out of the timing (it measured a `Result.Publisher`
// subscription: 0.04 ns per "element"). Building a Ripple chain costs a few
// hundred nanoseconds, nothing per element.
let coldRange = Workload(
    id: "cold-range", title: "range → map → filter → reduce", unit: "element", operations: 1_000_000,
    implementations: [
        .ripple: { n in
            {
                let chain = Observable.range(start: 0, count: n)
                    .map { $0 &* 2 }
                    .filter { $0 % 3 != 0 }
                    .reduce(0, accumulator: &+)
                let counter = Counter()
                _ = chain.subscribe(onNext: { counter.value = $0 })
                return counter.value
            }
        },
        .openCombine: { n in
            {
                let chain = (0..<n).publisher
                    .map { $0 &* 2 }
                    .filter { $0 % 3 != 0 }
                    .reduce(0, &+)
                let counter = Counter()
                _ = chain.sink { counter.value = $0 }
                return counter.value
            }
        },
        .asyncStream: { n in
            {
                runBlocking {
                    let next = Counter()
                    let stream = AsyncStream<Int> {
                        guard next.value < n else { return nil }
                        defer { next.value += 1 }
                        return next.value
                    }
                    return await stream.map { $0 &* 2 }.filter { $0 % 3 != 0 }.reduce(0, &+)
                }
            }
        },
        .floor: { n in
            let transform: (Int) -> Int = opaque { $0 &* 2 }
            let predicate: (Int) -> Bool = opaque { $0 % 3 != 0 }
            let accumulate: (Int, Int) -> Int = opaque { $0 &+ $1 }
            return {
                var total = 0
                for i in 0..<n {
                    let value = transform(i)
                    if predicate(value) { total = accumulate(total, value) }
                }
                return total
            }
        },
    ]
)

// 4. just(1).map.filter subscribe + dispose, per subscription.
let subscriptionLifecycle = Workload(
    id: "subscribe-dispose", title: "just.map.filter subscribe + dispose", unit: "subscription", operations: 100_000,
    implementations: [
        .ripple: { n in
            let counter = Counter()
            let chain = Observable.just(1).map { $0 + 1 }.filter { $0 > 0 }
            return {
                for _ in 0..<n {
                    chain.subscribe(onNext: { counter.value &+= $0 }).dispose()
                }
                return counter.value
            }
        },
        .openCombine: { n in
            let counter = Counter()
            let chain = OpenCombine.Just(1).map { $0 + 1 }.filter { $0 > 0 }
            return {
                for _ in 0..<n {
                    chain.sink { counter.value &+= $0 }.cancel()
                }
                return counter.value
            }
        },
    ]
)

// 7. observe(on:) a serial dispatch queue, end to end.
let observeOnSerialQueue = Workload(
    id: "observe-on", title: "observe(on:) serial queue, end to end", unit: "event", operations: 200_000,
    implementations: [
        .ripple: { n in
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "bench.observe-on")
            let subject = PublishSubject<Int>()
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
        },
        .openCombine: { n in
            let queue = DispatchQueue(label: "bench.receive-on")
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let counter = Counter()
            let done = DispatchSemaphore(value: 0)
            let cancellable = subject.receive(on: queue.ocombine).sink(
                receiveCompletion: { _ in done.signal() },
                receiveValue: { counter.value &+= $0 }
            )
            return {
                for i in 0..<n { subject.send(i) }
                subject.send(completion: .finished)
                done.wait()
                cancellable.cancel()
                return counter.value
            }
        },
        .asyncStream: { n in
            {
                runBlocking {
                    let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
                    let consumer = Task.detached {
                        var sum = 0
                        for await value in stream { sum &+= value }
                        return sum
                    }
                    for i in 0..<n { continuation.yield(i) }
                    continuation.finish()
                    return await consumer.value
                }
            }
        },
    ]
)

// 9. A DisposeBag holding 1 000 subscriptions: the time to dispose it, per
// subscription. The subscriptions are made during setup.
let disposeBag = Workload(
    id: "dispose-bag", title: "DisposeBag of 1 000 subscriptions, dispose", unit: "subscription", operations: 1_000,
    implementations: [
        .ripple: { n in
            let subject = PublishSubject<Int>()
            var bag: DisposeBag? = DisposeBag()
            for _ in 0..<n {
                subject.subscribe(onNext: { _ in }).disposed(by: bag!)
            }
            return {
                bag = nil
                return subject.hasObservers ? 0 : n
            }
        },
        .openCombine: { n in
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            var cancellables = Set<AnyCancellable>()
            for _ in 0..<n {
                subject.sink { _ in }.store(in: &cancellables)
            }
            return {
                cancellables.removeAll()
                return n
            }
        },
    ]
)
