import OpenCombine
import Ripple

/// Workloads that check how costs grow with the work around them: subscribing
/// to a subject that already has many subscribers (must stay flat), sending to
/// many subscribers (linear), disposing a large bag, combining many sources.
let scalingWorkloads: [Workload] = [
    subjectSubscribeDispose(existing: 10),
    subjectSubscribeDispose(existing: 1_000),
    subjectSubscribeDispose(existing: 100_000),
    subjectFanOut(subscribers: 10),
    subjectFanOut(subscribers: 1_000),
    disposeBagLarge,
    combineLatestCollection(sources: 2),
    combineLatestCollection(sources: 8),
    combineLatestCollection(sources: 64),
]

/// Subscribe to a subject and dispose at once, while `existing` other
/// subscriptions stay: the cost of one subscription must not depend on how many
/// others there are.
func subjectSubscribeDispose(existing: Int) -> Workload {
    Workload(
        id: "subject-subscribe-dispose-\(existing)",
        title: "subscribe + dispose on a subject with \(existing) subscribers",
        unit: "subscription", operations: 100_000,
        implementations: [
            .ripple: { n in
                let subject = PublishSubject<Int>()
                let bag = DisposeBag()
                for _ in 0..<existing { subject.subscribe(onNext: { _ in }).disposed(by: bag) }
                let counter = Counter()
                return {
                    for _ in 0..<n {
                        subject.subscribe(onNext: { counter.value &+= $0 }).dispose()
                    }
                    withExtendedLifetime(bag) {}
                    return counter.value
                }
            },
            .openCombine: { n in
                let subject = OpenCombine.PassthroughSubject<Int, Never>()
                var cancellables = (0..<existing).map { _ in subject.sink { _ in } }
                let counter = Counter()
                return {
                    for _ in 0..<n {
                        subject.sink { counter.value &+= $0 }.cancel()
                    }
                    cancellables.removeAll()
                    return counter.value
                }
            },
        ]
    )
}

/// One `onNext` delivered to `subscribers` subscribers, per event: linear in the
/// number of subscribers; the difference between two rows, divided by the
/// difference of their subscriber counts, is the cost per subscriber.
func subjectFanOut(subscribers: Int) -> Workload {
    Workload(
        id: "subject-fanout-\(subscribers)", title: "subject → \(subscribers) subscribers",
        unit: "event", operations: 1_000_000 / subscribers,
        implementations: [
            .ripple: { n in
                let subject = PublishSubject<Int>()
                let counter = Counter()
                let subscriptions = (0..<subscribers).map { _ in subject.subscribe(onNext: { counter.value &+= $0 }) }
                return {
                    for i in 0..<n { subject.onNext(i) }
                    subscriptions.forEach { $0.dispose() }
                    return counter.value
                }
            },
            .openCombine: { n in
                let subject = OpenCombine.PassthroughSubject<Int, Never>()
                let counter = Counter()
                let cancellables = (0..<subscribers).map { _ in subject.sink { counter.value &+= $0 } }
                return {
                    for i in 0..<n { subject.send(i) }
                    cancellables.forEach { $0.cancel() }
                    return counter.value
                }
            },
        ]
    )
}

/// A DisposeBag of 20 000 and of 100 000 subscriptions (sizes × 100 in the
/// instruction mode) disposed at once, per subscription: must cost what a bag of
/// 1 000 does (`dispose-bag`).
let disposeBagLarge = Workload(
    id: "dispose-bag-100000", title: "DisposeBag of 100 000 subscriptions, dispose", unit: "subscription",
    operations: 100_000, instructionScale: 100,
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

/// `combineLatest` of `sources` subjects (the collection form), one source
/// sending per event. OpenCombine has no collection form.
func combineLatestCollection(sources: Int) -> Workload {
    Workload(
        id: "combinelatest-\(sources)", title: "combineLatest of \(sources) subjects (collection form)",
        unit: "event", operations: 200_000,
        implementations: [
            .ripple: { n in
                let subjects = (0..<sources).map { _ in PublishSubject<Int>() }
                let counter = Counter()
                let subscription = Observable.combineLatest(subjects.map { $0.asObservable() })
                    .subscribe(onNext: { counter.value &+= $0[0] })
                for subject in subjects { subject.onNext(0) }
                return {
                    for i in 0..<n { subjects[i % sources].onNext(i) }
                    subscription.dispose()
                    return counter.value
                }
            },
        ]
    )
}
