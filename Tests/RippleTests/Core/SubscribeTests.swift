import Foundation
import Ripple
import RippleTest
import XCTest

final class SubscribeTests: RippleTestCase {
    func testSubscribeHandlersOrder() {
        let log = Recorder<String>()
        _ = Observable.of(1, 2).subscribe(
            onNext: { log.append("next \($0)") },
            onError: { _ in log.append("error") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") }
        )
        XCTAssertEqual(log.values, ["next 1", "next 2", "completed", "disposed"])
    }

    func testErrorThenDisposed() {
        let log = Recorder<String>()
        _ = Observable<Int>.error(testError).subscribe(
            onNext: { _ in log.append("next") },
            onError: { log.append("error \($0)") },
            onDisposed: { log.append("disposed") }
        )
        XCTAssertEqual(log.values, ["error TestError(1)", "disposed"])
    }

    func testDisposeStopsDeliveryAndRunsOnDisposedOnce() {
        let subject = PublishSubject<Int>()
        let log = Recorder<String>()
        let subscription = subject.subscribe(onNext: { log.append("\($0)") }, onDisposed: { log.append("disposed") })
        subject.onNext(1)
        subscription.dispose()
        subscription.dispose()
        subject.onNext(2)
        XCTAssertEqual(log.values, ["1", "disposed"])
        XCTAssertFalse(subject.hasObservers)
    }

    func testUnhandledErrorGoesToDefaultErrorHandler() {
        let previous = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = previous }
        let errors = Recorder<String>()
        Hooks.defaultErrorHandler = { _, error in errors.append("\(error)") }
        _ = Observable<Int>.error(testError).subscribe(onNext: { _ in })
        XCTAssertEqual(errors.values, ["TestError(1)"])
    }

    func testRecordCallStackOnErrorPassesTheSubscriptionStack() {
        let previousHandler = Hooks.defaultErrorHandler
        let previousCapture = Hooks.customCaptureSubscriptionCallstack
        defer {
            Hooks.defaultErrorHandler = previousHandler
            Hooks.customCaptureSubscriptionCallstack = previousCapture
            Hooks.recordCallStackOnError = false
        }
        let stacks = Recorder<[String]>()
        Hooks.recordCallStackOnError = true
        Hooks.customCaptureSubscriptionCallstack = { ["frame A", "frame B"] }
        Hooks.defaultErrorHandler = { stack, _ in stacks.append(stack) }
        _ = Observable<Int>.error(testError).subscribe()
        XCTAssertEqual(stacks.values, [["frame A", "frame B"]])
    }

    func testSubscribeWithObjectIsWeakAndPassesTheObject() {
        final class Owner { var values: [Int] = [] }
        var owner: Owner? = Owner()
        weak let weakOwner = owner
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe(with: owner!, onNext: { owner, value in owner.values.append(value) })
        subject.onNext(1)
        XCTAssertEqual(owner?.values, [1])
        owner = nil
        XCTAssertNil(weakOwner, "subscribe(with:) must not retain the object")
        subject.onNext(2)
        subscription.dispose()
    }

    func testSubscribeWithObjectWithoutOnErrorReportsUnhandledError() {
        let previous = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = previous }
        let errors = Recorder<String>()
        Hooks.defaultErrorHandler = { _, error in errors.append("\(error)") }
        let owner = NSObject()
        _ = Observable<Int>.error(testError).subscribe(with: owner, onNext: { _, _ in })
        XCTAssertEqual(errors.values, ["TestError(1)"])
    }

    func testSubscribeEventClosure() {
        var events: [Event<Int>] = []
        _ = Observable.of(1).subscribe { events.append($0) }
        XCTAssertEqual(events, [.next(1), .completed])
    }

    func testCompletedSubscriptionReleasesItsClosures() {
        final class Token {}
        weak var weakToken: Token?
        var subscription: Disposable?
        do {
            let token = Token()
            weakToken = token
            subscription = Observable.of(1).subscribe(onNext: { _ in _ = token })
        }
        XCTAssertNil(weakToken, "a terminated subscription must release its handlers even while it is still held")
        subscription?.dispose()
    }

    func testDisposedSubscriptionReleasesTheChainEvenWhileHeld() {
        final class Token {}
        weak var weakToken: Token?
        let subject = PublishSubject<Int>()
        var subscription: Disposable?
        do {
            let token = Token()
            weakToken = token
            subscription = subject.map { value -> Int in _ = token; return value }.subscribe(onNext: { _ in _ = token })
        }
        XCTAssertNotNil(weakToken)
        subscription?.dispose()
        XCTAssertNil(weakToken, "a disposed subscription must release the operator chain and handlers")
        _ = subscription
    }

    func testCustomObservableTypeGetsOperators() {
        struct Countdown: ObservableType {
            typealias Element = Int
            func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int {
                for value in stride(from: 3, through: 1, by: -1) { observer.onNext(value) }
                observer.onCompleted()
                return Disposables.create()
            }
        }
        var values: [Int] = []
        _ = Countdown().map { $0 * 2 }.subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [6, 4, 2])
    }

    func testBindToObserversAndOptionalObservers() {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int?>()
        let recordedA = Recorder<Event<Int>>()
        let recordedB = Recorder<Event<Int?>>()
        let bag = DisposeBag()
        a.subscribe { recordedA.append($0) }.disposed(by: bag)
        b.subscribe { recordedB.append($0) }.disposed(by: bag)
        Observable.of(1, 2).bind(to: a).disposed(by: bag)
        Observable.of(3).bind(to: b).disposed(by: bag)
        XCTAssertEqual(recordedA.values, [.next(1), .next(2), .completed])
        XCTAssertEqual(recordedB.values, [.next(3), .completed])
    }

    func testBindOnNextReportsErrorsInsteadOfCrashing() {
        let previous = Hooks.contractViolationHandler
        defer { Hooks.contractViolationHandler = previous }
        let messages = Recorder<String>()
        Hooks.contractViolationHandler = { messages.append($0) }
        var values: [Int] = []
        _ = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onError(testError)
            return Disposables.create()
        }.bind(onNext: { values.append($0) })
        XCTAssertEqual(values, [1])
        XCTAssertEqual(messages.values, ["Binding error: TestError(1)"])
    }

    func testBindWithObjectAndCurriedBinders() {
        final class Label { var text = "" }
        let label = Label()
        let disposable = Observable.of("a", "b").bind(with: label) { label, text in label.text += text }
        XCTAssertEqual(label.text, "ab")
        disposable.dispose()

        let count = Observable.of(1, 2, 3).bind(to: { (source: Observable<Int>) -> Int in
            var total = 0
            _ = source.subscribe(onNext: { total += $0 })
            return total
        })
        XCTAssertEqual(count, 6)

        let doubled = Observable.of(1, 2).bind(to: { (source: Observable<Int>) in { (factor: Int) -> [Int] in
            var values: [Int] = []
            _ = source.subscribe(onNext: { values.append($0 * factor) })
            return values
        } }, curriedArgument: 10)
        XCTAssertEqual(doubled, [10, 20])
    }

    func testBinderAppliesOnSchedulerAndIgnoresAfterTargetDies() {
        final class Target { var values: [Int] = [] }
        var target: Target? = Target()
        let binder = Binder<Int>(target!, scheduler: CurrentThreadScheduler.instance) { target, value in
            target.values.append(value)
        }
        let subject = PublishSubject<Int>()
        let disposable = subject.bind(to: binder)
        subject.onNext(1)
        XCTAssertEqual(target?.values, [1])
        target = nil
        subject.onNext(2)
        disposable.dispose()
    }

    func testBinderReportsErrors() {
        let previous = Hooks.contractViolationHandler
        defer { Hooks.contractViolationHandler = previous }
        let messages = Recorder<String>()
        Hooks.contractViolationHandler = { messages.append($0) }
        final class Target {}
        let binder = Binder<Int>(Target(), scheduler: CurrentThreadScheduler.instance) { _, _ in }
        binder.onError(testError)
        XCTAssertEqual(messages.values, ["Binding error: TestError(1)"])
    }

    func testReactiveKeyPathBinder() {
        final class Model: ReactiveCompatible { var name = "" }
        let model = Model()
        let subject = PublishSubject<String>()
        let disposable = subject.bind(to: Binder(model, scheduler: CurrentThreadScheduler.instance) { $0.name = $1 })
        subject.onNext("ripple")
        XCTAssertEqual(model.name, "ripple")
        disposable.dispose()
        XCTAssertTrue(model.rx.base === model)
    }
}
