import Ripple
import RippleTest
import XCTest

/// An observer that sends to the subject it listens to must neither deadlock nor
/// see events out of order: the new event is queued and delivered to every observer
/// after the current one has reached them all.
final class SubjectReentrancyTests: RippleTestCase {
    func testReentrantOnNextIsQueuedNotNested() {
        let subject = PublishSubject<Int>()
        let log = Recorder<String>()
        let bag = DisposeBag()
        subject.subscribe(onNext: { value in
            log.append("A\(value)")
            if value < 3 { subject.onNext(value + 1) }
            log.append("A\(value) done")
        }).disposed(by: bag)
        subject.subscribe(onNext: { log.append("B\($0)") }).disposed(by: bag)
        subject.onNext(1)
        XCTAssertEqual(log.values, [
            "A1", "A1 done", "B1",
            "A2", "A2 done", "B2",
            "A3", "A3 done", "B3",
        ])
    }

    func testBehaviorRelayFeedingItself() {
        let relay = BehaviorRelay(value: 0)
        var seen: [Int] = []
        let subscription = relay.subscribe(onNext: { value in
            seen.append(value)
            if value < 5 { relay.accept(value + 1) }
        })
        XCTAssertEqual(seen, [0, 1, 2, 3, 4, 5])
        XCTAssertEqual(relay.value, 5)
        subscription.dispose()
    }

    func testObserverDisposingItselfDuringDelivery() {
        let subject = PublishSubject<Int>()
        var values: [String] = []
        var first: Disposable?
        first = subject.subscribe(onNext: { value in
            values.append("first \(value)")
            first?.dispose()
        })
        let second = subject.subscribe(onNext: { values.append("second \($0)") })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(values, ["first 1", "second 1", "second 2"])
        second.dispose()
    }

    func testObserverDisposingALaterObserverDuringDelivery() {
        let subject = PublishSubject<Int>()
        var values: [String] = []
        var second: Disposable?
        let first = subject.subscribe(onNext: { value in
            values.append("first \(value)")
            second?.dispose()
        })
        second = subject.subscribe(onNext: { values.append("second \($0)") })
        subject.onNext(1)
        XCTAssertEqual(values, ["first 1"], "an observer disposed before its turn must not receive the event")
        first.dispose()
    }

    func testSubscribeDuringDeliveryDoesNotReceiveCurrentEvent() {
        let subject = PublishSubject<Int>()
        var values: [String] = []
        var inner: Disposable?
        let outer = subject.subscribe(onNext: { value in
            values.append("outer \(value)")
            if value == 1 {
                inner = subject.subscribe(onNext: { values.append("inner \($0)") })
            }
        })
        subject.onNext(1)
        subject.onNext(2)
        outer.dispose()
        inner?.dispose()
        XCTAssertEqual(values, ["outer 1", "outer 2", "inner 2"])
    }

    func testTerminalEventDuringDeliveryIsQueued() {
        let subject = PublishSubject<Int>()
        var values: [String] = []
        let bag = DisposeBag()
        subject.subscribe(onNext: { value in
            values.append("A\(value)")
            subject.onCompleted()
        }, onCompleted: { values.append("A completed") }).disposed(by: bag)
        subject.subscribe(onNext: { values.append("B\($0)") }, onCompleted: { values.append("B completed") }).disposed(by: bag)
        subject.onNext(1)
        XCTAssertEqual(values, ["A1", "B1", "A completed", "B completed"])
    }

    func testDisposeSubjectDuringDelivery() {
        let subject = PublishSubject<Int>()
        var values: [String] = []
        let bag = DisposeBag()
        subject.subscribe(onNext: { value in
            values.append("A\(value)")
            subject.dispose()
        }).disposed(by: bag)
        subject.subscribe(onNext: { values.append("B\($0)") }).disposed(by: bag)
        subject.onNext(1)
        subject.onNext(2)
        // As in RxSwift, the event being delivered still reaches the remaining
        // observers; nothing is delivered afterwards.
        XCTAssertEqual(values, ["A1", "B1"])
        XCTAssertTrue(subject.isDisposed)
    }
}
