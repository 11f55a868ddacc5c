import Foundation
import Ripple
import RippleTest
import XCTest

// User code written in Swift 6 language mode. This target is built with
// `-warnings-as-errors`: if a Ripple type stops being usable across isolation
// domains, the build fails. The tests then check that the code also does what it
// says at run time.

/// What `subscribe(...)` returns, kept in a `Sendable` value and disposed later
/// from a detached task.
struct Subscription: Sendable {
    let disposable: any Disposable

    func cancelLater() -> Task<Void, Never> {
        Task.detached { disposable.dispose() }
    }
}

/// Every kind of Ripple value an app stores or passes between actors.
struct Toolkit: Sendable {
    let scheduler: any SchedulerType
    let immediate: any ImmediateSchedulerType
    let cancelable: any Cancelable
    let observer: AnyObserver<Int>
    let binder: Binder<String>
    let numbers: Observable<Int>
    let subject: PublishSubject<Int>
    let behavior: BehaviorSubject<Int>
    let relay: BehaviorRelay<Int>
    let publishRelay: PublishRelay<Int>
    let single: Single<Int>
    let completable: Completable
    let infallible: Infallible<Int>
    let driver: Driver<Int>
    let signal: Signal<Int>
    let bag: DisposeBag
}

/// A label-like object a binder writes to.
final class TextSink: @unchecked Sendable {
    private let lock = NSLock()
    private var _text = ""

    var text: String {
        get { lock.withLock { _text } }
        set { lock.withLock { _text = newValue } }
    }
}

/// An actor that owns a subscription it was handed and the stream it came from.
actor Collector {
    private var values: [Int] = []
    private var subscription: (any Disposable)?

    func start(_ source: Observable<Int>) {
        subscription = source.subscribe(onNext: { [weak self] value in
            guard let self else { return }
            Task { await self.append(value) }
        })
    }

    func adopt(_ disposable: any Disposable) {
        subscription = disposable
    }

    func append(_ value: Int) {
        values.append(value)
    }

    func stop() {
        subscription?.dispose()
        subscription = nil
    }

    var received: [Int] { values }
}

/// A user disposable: a final class whose state is behind a lock.
final class CountingDisposable: Disposable, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func dispose() {
        lock.withLock { count += 1 }
    }

    var disposeCount: Int { lock.withLock { count } }
}

/// A user scheduler that is a `Sendable` struct.
struct InlineScheduler: ImmediateSchedulerType {
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        action(state)
    }
}

final class SendableUsageTests: RippleTestCase {
    func testSubscriptionStructDisposesFromADetachedTask() async {
        let subject = PublishSubject<Int>()
        let received = LockedValues<Int>()
        let subscription = Subscription(disposable: subject.subscribe(onNext: { received.append($0) }))
        subject.onNext(1)
        await subscription.cancelLater().value
        subject.onNext(2)
        XCTAssertEqual(received.values, [1])
    }

    func testToolkitCrossesIntoAnActor() async {
        let sink = TextSink()
        let toolkit = Toolkit(
            scheduler: MainScheduler.instance,
            immediate: InlineScheduler(),
            cancelable: Disposables.create(with: {}),
            observer: AnyObserver { _ in },
            binder: Binder(sink, scheduler: InlineScheduler()) { sink, text in sink.text = text },
            numbers: Observable.of(1, 2, 3),
            subject: PublishSubject(),
            behavior: BehaviorSubject(value: 0),
            relay: BehaviorRelay(value: 0),
            publishRelay: PublishRelay(),
            single: Single.just(1),
            completable: Completable.empty(),
            infallible: Infallible.just(1),
            driver: Driver.just(1),
            signal: Signal.just(1),
            bag: DisposeBag()
        )
        let collector = Collector()
        await collector.start(toolkit.subject.asObservable())
        toolkit.subject.onNext(7)
        toolkit.subject.onNext(8)
        // Each element hops into the actor in its own task: the order may vary.
        await eventually { await collector.received.sorted() == [7, 8] }
        await collector.stop()
        toolkit.subject.onNext(9)

        // The binder is used from another isolation domain.
        await Task.detached {
            toolkit.numbers.map { "n\($0)" }.bind(to: toolkit.binder).disposed(by: toolkit.bag)
        }.value
        XCTAssertEqual(sink.text, "n3")
        let received = await collector.received
        XCTAssertEqual(received.sorted(), [7, 8])
    }

    func testActorAdoptsASubscriptionMadeElsewhere() async {
        let relay = BehaviorRelay(value: 1)
        let values = LockedValues<Int>()
        let subscription = relay.subscribe(onNext: { values.append($0) })
        let collector = Collector()
        await collector.adopt(subscription)
        relay.accept(2)
        await collector.stop()
        relay.accept(3)
        XCTAssertEqual(values.values, [1, 2])
    }

    func testUserDisposableIsSendable() async {
        let disposable = CountingDisposable()
        let holder = Subscription(disposable: disposable)
        await holder.cancelLater().value
        XCTAssertEqual(disposable.disposeCount, 1)
    }

    func testSchedulerExistentialIsUsedFromATask() async {
        let scheduler: any SchedulerType = SerialDispatchQueueScheduler(qos: .default)
        let values = await Task.detached {
            try? await Observable<Int>.timer(.milliseconds(1), scheduler: scheduler).values.first { _ in true }
        }.value
        XCTAssertEqual(values, 0)
    }

    func testDisposeBagFilledFromADetachedTask() async {
        let subject = PublishSubject<Int>()
        let values = LockedValues<Int>()
        do {
            let bag = DisposeBag()
            await Task.detached {
                subject.subscribe(onNext: { values.append($0) }).disposed(by: bag)
            }.value
            subject.onNext(1)
        }
        // The bag's last reference may be dropped by the finished task's thread.
        await eventually { !subject.hasObservers }
        subject.onNext(2)
        XCTAssertEqual(values.values, [1])
    }
}

/// Values appended from any thread.
final class LockedValues<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) {
        lock.withLock { storage.append(value) }
    }

    var values: [Value] { lock.withLock { storage } }
}

/// Polls `condition` until it holds (or five seconds pass).
func eventually(
    _ condition: @Sendable () async -> Bool, file: StaticString = #filePath, line: UInt = #line
) async {
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
        if await condition() { return }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    XCTFail("condition never held", file: file, line: line)
}
