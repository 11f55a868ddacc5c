import Dispatch
import Ripple
import RippleTest
import XCTest

final class PublishSubjectTests: RippleTestCase {
    func testLateSubscriberGetsOnlyLaterEvents() {
        let subject = PublishSubject<Int>()
        let (early, d1) = record(subject.asObservable())
        subject.onNext(1)
        let (late, d2) = record(subject.asObservable())
        subject.onNext(2)
        subject.onCompleted()
        XCTAssertEqual(early.values, [.next(1), .next(2), .completed])
        XCTAssertEqual(late.values, [.next(2), .completed])
        d1.dispose()
        d2.dispose()
    }

    func testNothingAfterTerminalEvent() {
        let subject = PublishSubject<Int>()
        let (events, disposable) = record(subject.asObservable())
        subject.onError(testError)
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(events.values, [.error(testError)])
        disposable.dispose()
    }

    func testSubscriberAfterTerminalGetsTheTerminalEvent() {
        let subject = PublishSubject<Int>()
        subject.onCompleted()
        let (events, d1) = record(subject.asObservable())
        XCTAssertEqual(events.values, [.completed])

        let failed = PublishSubject<Int>()
        failed.onError(testError)
        let (errors, d2) = record(failed.asObservable())
        XCTAssertEqual(errors.values, [.error(testError)])
        d1.dispose()
        d2.dispose()
    }

    func testDisposeReleasesObserversAndRejectsSubscribers() {
        let subject = PublishSubject<Int>()
        let (events, d1) = record(subject.asObservable())
        XCTAssertTrue(subject.hasObservers)
        subject.dispose()
        XCTAssertTrue(subject.isDisposed)
        XCTAssertFalse(subject.hasObservers)
        subject.onNext(1)
        XCTAssertEqual(events.values, [])
        let (late, d2) = record(subject.asObservable())
        guard case .error(let error)? = late.values.first, case RxError.disposed = error else {
            return XCTFail("expected RxError.disposed, got \(late.values)")
        }
        d1.dispose()
        d2.dispose()
    }

    func testHasObserversTracksSubscriptions() {
        let subject = PublishSubject<Int>()
        XCTAssertFalse(subject.hasObservers)
        let first = subject.subscribe()
        let second = subject.subscribe()
        XCTAssertTrue(subject.hasObservers)
        first.dispose()
        XCTAssertTrue(subject.hasObservers)
        second.dispose()
        XCTAssertFalse(subject.hasObservers)
    }

    /// A terminal event or `dispose()` that waits behind a delivery (sent by an
    /// observer, or by another thread meanwhile) stops `hasObservers` at once,
    /// as in RxSwift, where the subject stops before the call returns.
    func testHasObserversIsFalseOnceATerminalEventOrDisposeIsQueued() {
        let subject = PublishSubject<Int>()
        let seen = Recorder<String>()
        let subscription = subject.subscribe(onNext: { value in
            guard value == 1 else { return }
            subject.onCompleted()  // queued behind this delivery
            seen.append("after onCompleted: \(subject.hasObservers)")
        })
        subject.onNext(1)
        XCTAssertEqual(seen.values, ["after onCompleted: false"])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()

        for stop in ["error", "dispose"] {
            let subject = PublishSubject<Int>()
            let inDelivery = DispatchSemaphore(value: 0)
            let stopped = DispatchSemaphore(value: 0)
            let subscription = subject.subscribe(onNext: { _ in
                inDelivery.signal()
                _ = stopped.wait(timeout: .now() + 2)
            }, onError: { _ in })
            DispatchQueue.global().async {
                inDelivery.wait()
                if stop == "error" { subject.onError(TestError()) } else { subject.dispose() }
                seen.append("\(stop) from another thread: \(subject.hasObservers)")
                stopped.signal()
            }
            subject.onNext(1)
            subscription.dispose()
        }
        XCTAssertEqual(seen.values, [
            "after onCompleted: false", "error from another thread: false", "dispose from another thread: false",
        ])
    }

    func testDeliveryInSubscriptionOrder() {
        let subject = PublishSubject<Int>()
        let order = Recorder<String>()
        let bag = DisposeBag()
        for name in ["a", "b", "c", "d"] {
            subject.subscribe(onNext: { order.append("\(name)\($0)") }).disposed(by: bag)
        }
        subject.onNext(1)
        XCTAssertEqual(order.values, ["a1", "b1", "c1", "d1"])
    }

    func testManySubscribersDisposedInAnyOrder() {
        let subject = PublishSubject<Int>()
        var counts = [Int](repeating: 0, count: 100)
        var subscriptions: [Disposable] = []
        for index in 0..<100 {
            subscriptions.append(subject.subscribe(onNext: { counts[index] += $0 }))
        }
        subject.onNext(1)
        for index in stride(from: 99, through: 0, by: -3) {
            subscriptions[index].dispose()
        }
        subject.onNext(1)
        for index in 0..<100 {
            XCTAssertEqual(counts[index], index % 3 == 0 ? 1 : 2, "observer \(index)")
        }
        subscriptions.forEach { $0.dispose() }
        XCTAssertFalse(subject.hasObservers)
    }

    func testUnreferencedSubjectIsReleasedWithItsObservers() {
        weak var weakSubject: PublishSubject<Int>?
        var subscription: Disposable?
        do {
            let subject = PublishSubject<Int>()
            weakSubject = subject
            subscription = subject.subscribe(onNext: { _ in })
        }
        XCTAssertNil(weakSubject, "a subscription must not keep its subject alive (RxSwift behaviour)")
        subscription?.dispose()
    }
}
