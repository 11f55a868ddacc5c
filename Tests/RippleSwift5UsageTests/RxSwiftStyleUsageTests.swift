import Foundation
import Ripple
import RippleTest
import XCTest

// RxSwift-style user code in Swift 5 language mode. This target is built with
// `-warnings-as-errors`: code ported from RxSwift must keep compiling with no new
// diagnostics even though Ripple's disposables, schedulers and hooks are Sendable.

/// A user scheduler, written as RxSwift apps do: a non-final class with mutable
/// state and no locking.
class CountingScheduler: ImmediateSchedulerType {
    var scheduled = 0

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduled += 1
        return action(state)
    }
}

/// A user disposable with a mutable flag.
class FlagDisposable: Disposable {
    var isDisposed = false

    func dispose() {
        isDisposed = true
    }
}

/// A user cancelable.
class TokenCancelable: Cancelable {
    private(set) var isDisposed = false

    func dispose() {
        isDisposed = true
    }
}

/// A virtual-time converter over plain integers, as RxTest users write.
struct TickConverter: VirtualTimeConverterType {
    func convertFromVirtualTime(_ virtualTime: Int) -> RxTime { Date(timeIntervalSince1970: Double(virtualTime)) }
    func convertToVirtualTime(_ time: RxTime) -> Int { Int(time.timeIntervalSince1970) }
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval { Double(virtualTimeInterval) }
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int { Int(timeInterval) }
    func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }
    func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs == rhs ? .equal : .greaterThan)
    }
}

/// A subclass of `VirtualTimeScheduler`. Swift requires every subclass of an
/// `@unchecked Sendable` class to restate the conformance (in every language mode,
/// as for `NSManagedObject` subclasses); that is the only addition to RxTest code.
final class TickScheduler: VirtualTimeScheduler<TickConverter>, @unchecked Sendable {
    var adjustments = 0

    init() {
        super.init(initialClock: 0, converter: TickConverter())
    }

    override func adjustScheduledTime(_ time: Int) -> Int {
        adjustments += 1
        return time
    }
}

/// A view model in RxSwift/RxCocoa style.
final class LoginViewModel {
    let username = BehaviorRelay<String>(value: "")
    let password = BehaviorRelay<String>(value: "")
    let loginTaps = PublishRelay<Void>()

    let isValid: Driver<Bool>
    let status: Driver<String>

    init(login: @escaping (String, String) -> Single<Bool>) {
        let credentials = Observable.combineLatest(username.asObservable(), password.asObservable())
        isValid = credentials
            .map { name, password in !name.isEmpty && password.count >= 4 }
            .asDriver(onErrorJustReturn: false)
        status = loginTaps
            .withLatestFrom(credentials)
            .flatMapLatest { name, password in
                login(name, password).asObservable().map { $0 ? "Welcome, \(name)" : "Wrong password" }
            }
            .startWith("")
            .asDriver(onErrorJustReturn: "Network error")
    }
}

/// A view that binds the view model, RxCocoa style.
final class LoginView {
    var buttonEnabled = false
    var statusText = ""
    let bag = DisposeBag()

    func bind(_ viewModel: LoginViewModel) {
        viewModel.isValid
            .drive(onNext: { [weak self] valid in self?.buttonEnabled = valid })
            .disposed(by: bag)
        viewModel.status
            .drive(Binder(self) { view, text in view.statusText = text })
            .disposed(by: bag)
    }
}

/// A main-actor view model, as every `UIViewController` subclass is, whose handlers
/// receive events on a background thread. RxSwift calls them there; so does Ripple
/// in Swift 5 mode (in Swift 6 mode it keeps them on the main actor).
@MainActor
final class ThreadLoggingViewModel {
    /// The view model of the running test (a view controller on screen).
    static var current: ThreadLoggingViewModel?
    private let threads: LockedThreads
    private let bag = DisposeBag()

    init(threads: LockedThreads) {
        self.threads = threads
    }

    func follow(_ source: Observable<Int>, _ single: Single<Int>, _ driver: Driver<Int>) {
        let threads = self.threads
        source.subscribe(onNext: { _ in threads.append("subscribe", Thread.isMainThread) }).disposed(by: bag)
        source.bind(onNext: { _ in threads.append("bind", Thread.isMainThread) }).disposed(by: bag)
        single.subscribe(onSuccess: { _ in threads.append("single", Thread.isMainThread) }).disposed(by: bag)
        driver.drive(onNext: { _ in threads.append("drive", Thread.isMainThread) }).disposed(by: bag)
    }
}

/// A thread-safe store, and a reactive extension on it whose work runs on the
/// store's queue, as RxGRDB's `Reactive where Base: DatabaseWriter` does: the
/// `@Sendable` closure given to the queue captures `self`, the `Reactive`.
protocol ValueStoreType: AnyObject, Sendable {
    var queue: DispatchQueue { get }
    var value: Int { get }
}

final class ValueStore: ValueStoreType, ReactiveCompatible {
    let queue = DispatchQueue(label: "value-store")
    let value = 42
}

extension Reactive where Base: ValueStoreType {
    func read() -> Single<Int> {
        Single.create { observer in
            self.base.queue.async {
                observer(.success(self.base.value))
            }
            return Disposables.create()
        }
    }
}

/// Where handlers ran, appended from any thread.
final class LockedThreads: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ handler: String, _ isMainThread: Bool) {
        lock.lock()
        entries.append("\(handler) main=\(isMainThread)")
        lock.unlock()
    }

    var values: [String] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}

/// Values of generic event and test-kit types handed to another queue, as
/// helpers written for RxSwift do (RxSwift's types draw no diagnostic there).
func elementCountsOnAnotherQueue<Element>(
    _ blocking: BlockingObservable<Element>,
    _ outcome: MaybeEvent<Element>,
    _ infallible: InfallibleEvent<Element>,
    _ result: MaterializedSequenceResult<Element>
) -> [String] {
    let group = DispatchGroup()
    let counts = LockedThreads()
    DispatchQueue.global().async(group: group) {
        let fromBlocking = (try? blocking.toArray())?.count ?? -1
        let fromOutcome: Int
        switch outcome {
        case .success: fromOutcome = 1
        case .completed, .error: fromOutcome = 0
        }
        let fromInfallible: Int
        switch infallible {
        case .next: fromInfallible = 1
        case .completed: fromInfallible = 0
        }
        let fromResult: Int
        switch result {
        case .completed(let elements), .failed(let elements, _): fromResult = elements.count
        }
        for count in [fromBlocking, fromOutcome, fromInfallible, fromResult] {
            counts.append("\(count)", Thread.isMainThread)
        }
    }
    group.wait()
    return counts.values
}

final class RxSwiftStyleUsageTests: RippleTestCase {
    func testViewModelBindsAView() {
        var attempts: [String] = []
        let viewModel = LoginViewModel(login: { name, password in
            attempts.append(name)
            return .just(password == "secret")
        })
        let view = LoginView()
        view.bind(viewModel)
        XCTAssertFalse(view.buttonEnabled)
        viewModel.username.accept("ada")
        viewModel.password.accept("secret")
        XCTAssertTrue(view.buttonEnabled)
        viewModel.loginTaps.accept(())
        XCTAssertEqual(view.statusText, "Welcome, ada")
        XCTAssertEqual(attempts, ["ada"])
    }

    func testUserSchedulerRunsObserveOnWork() {
        let scheduler = CountingScheduler()
        var values: [Int] = []
        let subscription = Observable.of(1, 2).observe(on: scheduler).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [1, 2])
        XCTAssertGreaterThan(scheduler.scheduled, 0)
        subscription.dispose()
    }

    func testVirtualTimeSchedulerSubclass() {
        let scheduler = TickScheduler()
        var fired: [Int] = []
        let subscription = Observable<Int>.timer(.seconds(3), scheduler: scheduler)
            .subscribe(onNext: { _ in fired.append(scheduler.clock) })
        scheduler.start()
        XCTAssertEqual(fired, [3])
        XCTAssertGreaterThan(scheduler.adjustments, 0)
        subscription.dispose()
    }

    func testDefaultErrorHandlerCapturesALocalVariable() {
        var unhandled: [String] = []
        let previous = Hooks.defaultErrorHandler
        Hooks.defaultErrorHandler = { _, error in unhandled.append("\(error)") }
        defer { Hooks.defaultErrorHandler = previous }
        _ = Observable<Int>.error(RxError.unknown).subscribe()
        XCTAssertEqual(unhandled.count, 1)
    }

    func testCreateWithADisposeClosureThatMutatesState() {
        var cancelled = false
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            return Disposables.create { cancelled = true }
        }
        let flag = FlagDisposable()
        let token = TokenCancelable()
        let subscription = source.subscribe(onNext: { _ in })
        let all = Disposables.create(subscription, flag, token)
        all.dispose()
        XCTAssertTrue(cancelled)
        XCTAssertTrue(flag.isDisposed)
        XCTAssertTrue(token.isDisposed)
    }

    func testBackgroundWorkCapturesNonSendableState() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let done = expectation(description: "delivered")
        let subscription = subject
            .observe(on: MainScheduler.instance)
            .subscribe(onNext: { value in
                received.append(value)
                done.fulfill()
            })
        DispatchQueue.global().async {
            subject.onNext(5)
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(received, [5])
        subscription.dispose()
    }

    func testReactiveExtensionOnASendableBaseCapturesItself() throws {
        XCTAssertEqual(try ValueStore().rx.read().toBlocking(timeout: 5).first(), 42)
    }

    func testGenericEventAndBlockingValuesCrossQueues() {
        let source = Observable.of(1, 2, 3)
        XCTAssertEqual(
            elementCountsOnAnotherQueue(source.toBlocking(), .success(4), .completed, source.toBlocking().materialize()),
            ["3 main=false", "1 main=false", "0 main=false", "3 main=false"])
    }

    func testMainActorHandlersRunWhereTheEventsArriveInSwift5Mode() {
        let subject = PublishSubject<Int>()
        let background = SerialDispatchQueueScheduler(qos: .default)
        let violations = LockedThreads()
        let previousHandler = Hooks.contractViolationHandler
        Hooks.contractViolationHandler = { _ in violations.append("violation", Thread.isMainThread) }
        defer { Hooks.contractViolationHandler = previousHandler }
        let driver = SharingScheduler.mock(scheduler: background) { subject.asDriver(onErrorJustReturn: 0) }
        let threads = LockedThreads()
        MainActor.assumeIsolated {
            ThreadLoggingViewModel.current = ThreadLoggingViewModel(threads: threads)
            ThreadLoggingViewModel.current?.follow(subject.asObservable(), subject.take(1).asSingle(), driver)
        }
        defer { MainActor.assumeIsolated { ThreadLoggingViewModel.current = nil } }
        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            subject.onNext(1)
            sent.signal()
        }
        sent.wait()
        let deadline = Date().addingTimeInterval(5)
        while threads.values.count < 4 && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        XCTAssertEqual(
            threads.values.sorted(),
            ["bind main=false", "drive main=false", "single main=false", "subscribe main=false"])
        XCTAssertEqual(violations.values, [])
    }
}
