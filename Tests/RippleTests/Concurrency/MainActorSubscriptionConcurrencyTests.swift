import Foundation
@testable import Ripple
import RippleTest
import XCTest

/// A main-actor object, as a view model is.
@MainActor
private final class Model {
    private(set) var values: [String] = []
    private(set) var onMainThread: [Bool] = []

    func append(_ value: String) {
        values.append(value)
        onMainThread.append(Thread.isMainThread)
    }
}

/// Runs `body` on a global queue and waits for it.
private func offMainActor(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        body()
        done.signal()
    }
    done.wait()
}

/// Tests of main-actor handlers called off the main actor: the debug stop is
/// replaced by a recorder, so that they see what a release build does
/// (`IsolationProbeTests` checks the stop itself, in a child process).
class MainActorCheckTestCase: RippleTestCase {
    let violations = Recorder<String>()

    override func setUp() {
        super.setUp()
        let violations = self.violations
        MainActorDelivery.debugViolationHandler.withLock { handler in
            handler = { message in violations.append(message) }
        }
    }

    override func tearDown() {
        MainActorDelivery.debugViolationHandler.withLock { handler in
            handler = { message in preconditionFailure(message) }
        }
        super.tearDown()
    }
}

/// Subscriptions made in main-actor code (here inside `MainActor.assumeIsolated`,
/// as XCTest on Linux cannot list main-actor test methods): their handlers belong
/// to the main actor, and Ripple never calls them elsewhere.
final class MainActorSubscriptionConcurrencyTests: MainActorCheckTestCase {

    func testEventsFromAnotherThreadAreReportedOnceAndDeliveredOnTheMainQueueInOrder() {
        let violations = self.violations
        MainActor.assumeIsolated {
            let model = Model()
            let subject = PublishSubject<String>()
            let subscription = subject.subscribe(onNext: { model.append($0) })
            offMainActor {
                subject.onNext("a")
                subject.onNext("b")
            }
            // Not run on the other thread, and not yet on the main queue.
            XCTAssertEqual(model.values, [])
            // An event on the main thread waits behind them.
            subject.onNext("c")
            XCTAssertEqual(model.values, [])
            XCTAssertTrue(waitUntil { model.values.count == 3 })
            XCTAssertEqual(model.values, ["a", "b", "c"])
            XCTAssertEqual(model.onMainThread, [true, true, true])
            // Once nothing waits, events on the main thread are delivered at once.
            subject.onNext("d")
            XCTAssertEqual(model.values, ["a", "b", "c", "d"])
            XCTAssertEqual(violations.values.count, 1, "\(violations.values)")
            let message = violations.values.first ?? ""
            XCTAssertTrue(message.hasPrefix("Ripple: subscribe(onNext:onError:onCompleted:onDisposed:) at RippleTests/MainActorSubscriptionConcurrencyTests.swift:"), message)
            XCTAssertTrue(message.contains("an event arrived off the main actor, on thread"), message)
            XCTAssertTrue(message.contains("Fix: add .observe(on: MainScheduler.instance) before subscribe(onNext:onError:onCompleted:onDisposed:)"), message)
            subscription.dispose()
        }
    }

    func testEventsOnTheMainThreadAreDeliveredAtOnceWithoutReport() {
        let violations = self.violations
        MainActor.assumeIsolated {
            let model = Model()
            let subject = PublishSubject<String>()
            var completed = false
            let subscription = subject.subscribe(onNext: { model.append($0) }, onCompleted: { completed = true })
            subject.onNext("a")
            XCTAssertEqual(model.values, ["a"])
            subject.onCompleted()
            XCTAssertTrue(completed)
            XCTAssertEqual(violations.values, [])
            subscription.dispose()
        }
    }

    func testNothingWaitingIsDeliveredAfterDispose() {
        let violations = self.violations
        MainActor.assumeIsolated {
            let model = Model()
            let subject = PublishSubject<String>()
            var disposals = 0
            let subscription = subject.subscribe(onNext: { model.append($0) }, onDisposed: { disposals += 1 })
            offMainActor { subject.onNext("late") }
            subscription.dispose()
            // Disposed on the main thread: `onDisposed` runs at once.
            XCTAssertEqual(disposals, 1)
            let drained = DispatchSemaphore(value: 0)
            DispatchQueue.main.async { drained.signal() }
            XCTAssertTrue(waitUntil { drained.wait(timeout: .now()) == .success })
            XCTAssertEqual(model.values, [])
            XCTAssertEqual(disposals, 1)
            XCTAssertEqual(violations.values.count, 1)
        }
    }

    func testATerminalEventFromAnotherThreadEndsTheSubscriptionOnTheMainQueue() {
        MainActor.assumeIsolated {
            let model = Model()
            let subject = PublishSubject<String>()
            let subscription = subject.subscribe(
                onNext: { model.append($0) },
                onError: { model.append("error \($0)") },
                onDisposed: { model.append("disposed") })
            offMainActor {
                subject.onNext("a")
                subject.onError(testError)
            }
            XCTAssertTrue(waitUntil { model.values.count == 3 })
            XCTAssertEqual(model.values, ["a", "error TestError(1)", "disposed"])
            XCTAssertEqual(model.onMainThread, [true, true, true])
            XCTAssertTrue((subscription as? Cancelable)?.isDisposed ?? false)
        }
    }

    func testOnDisposedOfADisposalOnAnotherThreadRunsOnTheMainQueue() {
        let violations = self.violations
        MainActor.assumeIsolated {
            let model = Model()
            let subscription = PublishSubject<String>().subscribe(onDisposed: { model.append("disposed") })
            offMainActor { subscription.dispose() }
            XCTAssertEqual(model.values, [])
            XCTAssertTrue(waitUntil { model.values == ["disposed"] })
            XCTAssertEqual(model.onMainThread, [true])
            XCTAssertEqual(violations.values.count, 1)
            XCTAssertTrue(violations.values.first?.contains("it was disposed off the main actor") == true, "\(violations.values)")
            XCTAssertTrue(violations.values.first?.contains("Fix: dispose the subscription on the main actor") == true)
        }
    }

    func testFusedMapAndFilterAreNotShortcutPastTheCheck() {
        MainActor.assumeIsolated {
            let model = Model()
            let subject = PublishSubject<Int>()
            let subscription = subject.map { "\($0)" }.filter { $0 != "2" }.subscribe(onNext: { model.append($0) })
            offMainActor {
                subject.onNext(1)
                subject.onNext(2)
                subject.onNext(3)
            }
            XCTAssertEqual(model.values, [])
            XCTAssertTrue(waitUntil { model.values.count == 2 })
            XCTAssertEqual(model.values, ["1", "3"])
            XCTAssertEqual(model.onMainThread, [true, true])
            subscription.dispose()
        }
    }

    func testNonisolatedSubscriptionsRunWhereTheEventsArriveAsBefore() {
        // This test method is nonisolated, as every operator's internal
        // subscription is: no check, no report.
        let threads = Recorder<Bool>()
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe(onNext: { _ in threads.append(Thread.isMainThread) })
        offMainActor { subject.onNext(1) }
        subject.onNext(2)
        XCTAssertEqual(threads.values, [false, true])
        XCTAssertEqual(violations.values, [])
        subscription.dispose()
    }

    /// Every form of the subscribe family learns its caller's isolation. Each
    /// subscribes in main-actor code to a source that delivers on another thread.
    func testEverySubscribeFormChecksMainActorHandlers() {
        let violations = self.violations
        let background = SerialDispatchQueueScheduler(qos: .default)
        let relay = PublishRelay<String>()
        let elements = relay.observe(on: background)
        let driver = SharingScheduler.mock(scheduler: background) { relay.asDriver(onErrorJustReturn: "") }
        let signal = SharingScheduler.mock(scheduler: background) { relay.asSignal(onErrorJustReturn: "") }
        let single = elements.take(1).asSingle()
        let maybe = elements.take(1).asMaybe()
        let completable = elements.take(1).ignoreElements().asCompletable()
        let infallible = elements.asInfallible(onErrorJustReturn: "")
        MainActor.assumeIsolated {
            let model = Model()
            let owner = NSObject()
            let forms: [(String, () -> Disposable)] = [
                ("subscribe(_:)", { elements.subscribe { if case .next(let v) = $0 { model.append(v) } } }),
                ("subscribe(onNext:onError:onCompleted:onDisposed:)", { elements.subscribe(onNext: { model.append($0) }) }),
                ("subscribe(with:onNext:onError:onCompleted:onDisposed:)", {
                    elements.subscribe(with: owner, onNext: { _, v in model.append(v) })
                }),
                ("bind(onNext:)", { elements.bind(onNext: { model.append($0) }) }),
                ("bind(with:onNext:)", { elements.bind(with: owner, onNext: { _, v in model.append(v) }) }),
                ("Binder.init(_:scheduler:binding:)", {
                    elements.bind(to: Binder(owner, scheduler: background) { _, v in model.append(v) })
                }),
                ("subscribe(_:)", { infallible.subscribe { if case .next(let v) = $0 { model.append(v) } } }),
                ("subscribe(onNext:onCompleted:onDisposed:)", { infallible.subscribe(onNext: { model.append($0) }) }),
                ("subscribe(with:onNext:onCompleted:onDisposed:)", {
                    infallible.subscribe(with: owner, onNext: { _, v in model.append(v) })
                }),
                ("bind(onNext:)", { infallible.bind(onNext: { model.append($0) }) }),
                ("bind(with:onNext:)", { infallible.bind(with: owner, onNext: { _, v in model.append(v) }) }),
                ("subscribe(_:)", { single.subscribe { if case .success(let v) = $0 { model.append(v) } } }),
                ("subscribe(onSuccess:onFailure:onDisposed:)", { single.subscribe(onSuccess: { model.append($0) }) }),
                ("subscribe(with:onSuccess:onFailure:onDisposed:)", {
                    single.subscribe(with: owner, onSuccess: { _, v in model.append(v) })
                }),
                ("subscribe(_:)", { maybe.subscribe { if case .success(let v) = $0 { model.append(v) } } }),
                ("subscribe(onSuccess:onError:onCompleted:onDisposed:)", { maybe.subscribe(onSuccess: { model.append($0) }) }),
                ("subscribe(with:onSuccess:onError:onCompleted:onDisposed:)", {
                    maybe.subscribe(with: owner, onSuccess: { _, v in model.append(v) })
                }),
                ("subscribe(_:)", { completable.subscribe { if case .completed = $0 { model.append("x") } } }),
                ("subscribe(onCompleted:onError:onDisposed:)", { completable.subscribe(onCompleted: { model.append("x") }) }),
                ("subscribe(with:onCompleted:onError:onDisposed:)", {
                    completable.subscribe(with: owner, onCompleted: { _ in model.append("x") })
                }),
                ("drive(onNext:onCompleted:onDisposed:)", { driver.drive(onNext: { model.append($0) }) }),
                ("drive(with:onNext:onCompleted:onDisposed:)", { driver.drive(with: owner, onNext: { _, v in model.append(v) }) }),
                ("emit(onNext:onCompleted:onDisposed:)", { signal.emit(onNext: { model.append($0) }) }),
                ("emit(with:onNext:onCompleted:onDisposed:)", { signal.emit(with: owner, onNext: { _, v in model.append(v) }) }),
                // An observer's closure written here belongs to the main actor too.
                ("AnyObserver.init(eventHandler:)", {
                    elements.subscribe(AnyObserver { if case .next(let v) = $0 { model.append(v) } })
                }),
                ("AnyObserver.init(eventHandler:)", {
                    elements.bind(to: AnyObserver { if case .next(let v) = $0 { model.append(v) } })
                }),
            ]
            for (index, (method, subscribe)) in forms.enumerated() {
                let before = model.values.count
                let subscription = subscribe()
                relay.accept("x")
                XCTAssertTrue(waitUntil { model.values.count == before + 1 }, method)
                XCTAssertEqual(model.onMainThread.last, true, method)
                XCTAssertEqual(violations.values.count, index + 1, method)
                XCTAssertTrue(violations.values.last?.hasPrefix("Ripple: \(method) at RippleTests/") == true,
                              "\(method): \(violations.values.last ?? "no report")")
                subscription.dispose()
            }
        }
    }

    @available(*, deprecated)
    func testTheDeprecatedSingleFormChecksMainActorHandlers() {
        let violations = self.violations
        let single = Single.just("x").delay(.milliseconds(1), scheduler: SerialDispatchQueueScheduler(qos: .default))
        MainActor.assumeIsolated {
            let model = Model()
            let subscription = single.subscribe(onSuccess: { model.append($0) }, onError: { _ in })
            XCTAssertTrue(waitUntil { model.values == ["x"] })
            XCTAssertEqual(model.onMainThread, [true])
            XCTAssertTrue(violations.values.first?.hasPrefix("Ripple: subscribe(onSuccess:onError:onDisposed:) at") == true,
                          "\(violations.values)")
            subscription.dispose()
        }
    }
}
