import Ripple
import RippleTest
import XCTest

final class BehaviorSubjectTests: RippleTestCase {
    func testReplaysCurrentValueThenLaterEvents() throws {
        let subject = BehaviorSubject(value: 0)
        let (first, d1) = record(subject.asObservable())
        subject.onNext(1)
        let (second, d2) = record(subject.asObservable())
        subject.onNext(2)
        XCTAssertEqual(first.values, [.next(0), .next(1), .next(2)])
        XCTAssertEqual(second.values, [.next(1), .next(2)])
        XCTAssertEqual(try subject.value(), 2)
        d1.dispose()
        d2.dispose()
    }

    func testValueAfterCompletionIsLastValue() throws {
        let subject = BehaviorSubject(value: "a")
        subject.onNext("b")
        subject.onCompleted()
        XCTAssertEqual(try subject.value(), "b")
        let (late, d) = record(subject.asObservable())
        XCTAssertEqual(late.values, [.completed])
        d.dispose()
    }

    func testValueThrowsAfterError() {
        let subject = BehaviorSubject(value: 1)
        subject.onError(testError)
        XCTAssertThrowsError(try subject.value()) { XCTAssertEqual($0 as? TestError, testError) }
        let (late, d) = record(subject.asObservable())
        XCTAssertEqual(late.values, [.error(testError)])
        d.dispose()
    }

    func testValueThrowsDisposedAfterDispose() {
        let subject = BehaviorSubject(value: 1)
        subject.dispose()
        XCTAssertThrowsError(try subject.value()) { error in
            guard case RxError.disposed = error else { return XCTFail("got \(error)") }
        }
        let (late, d) = record(subject.asObservable())
        guard case .error(RxError.disposed)? = late.values.first else { return XCTFail("got \(late.values)") }
        d.dispose()
    }

    func testReentrantSubscribeReceivesCurrentValueImmediately() {
        let subject = BehaviorSubject(value: 0)
        let log = Recorder<String>()
        let inner = Recorder<Disposable>()
        let outer = subject.subscribe(onNext: { value in
            log.append("outer \(value)")
            if value == 1 {
                inner.append(subject.subscribe(onNext: { log.append("inner \($0)") }))
                log.append("after inner subscribe")
            }
        })
        subject.onNext(1)
        subject.onNext(2)
        outer.dispose()
        inner.values.forEach { $0.dispose() }
        XCTAssertEqual(log.values, ["outer 0", "outer 1", "inner 1", "after inner subscribe", "outer 2", "inner 2"])
    }

    // What a caller sends, it reads back, though the delivery waits its turn
    // (RxSwift 6.10.2 gives the same reads, values and final value: its
    // re-entrant `onNext` delivers at once, recursively). Before, `value` kept
    // the delivered value until the queued one's turn, and the read-modify-write
    // below lost an update (final 11, the observer saw 11 twice).
    func testARelayUpdatedFromItsOwnObserverReadsBackWhatItSent() {
        let relay = BehaviorRelay(value: 0)
        let reads = Recorder<Int>()
        let seen = Recorder<Int>()
        let subscription = relay.subscribe(onNext: { value in
            seen.append(value)
            guard value == 1 else { return }
            relay.accept(relay.value + 10)
            reads.append(relay.value)
            relay.accept(relay.value + 10)
            reads.append(relay.value)
        })
        relay.accept(1)
        subscription.dispose()
        XCTAssertEqual(reads.values, [11, 21])
        XCTAssertEqual(seen.values, [0, 1, 11, 21])
        XCTAssertEqual(relay.value, 21)
    }

    func testASecondObserverAppendingTwiceKeepsBothValues() throws {
        let subject = BehaviorSubject(value: ["x"])
        let firstSeen = Recorder<[String]>()
        let first = subject.subscribe(onNext: { firstSeen.append($0) })
        let second = subject.subscribe(onNext: { value in
            guard value == ["x"] else { return }
            subject.onNext(((try? subject.value()) ?? []) + ["y"])
            subject.onNext(((try? subject.value()) ?? []) + ["z"])
        })
        XCTAssertEqual(try subject.value(), ["x", "y", "z"])
        XCTAssertEqual(firstSeen.values, [["x"], ["x", "y"], ["x", "y", "z"]])
        first.dispose()
        second.dispose()
    }

    // A value or an error sent after a terminal event queued behind a delivery
    // is not read back: the subject ends first (RxSwift: the value after
    // `onCompleted` is ignored; the error is thrown at once).
    func testValuesSentAfterAQueuedTerminalEventAreNotReadBack() throws {
        let completing = BehaviorSubject(value: 0)
        let reads = Recorder<Int>()
        let a = completing.subscribe(onNext: { value in
            guard value == 1 else { return }
            completing.onCompleted()
            completing.onNext(9)
            reads.append((try? completing.value()) ?? -1)
        })
        completing.onNext(1)
        XCTAssertEqual(reads.values, [1])
        XCTAssertEqual(try completing.value(), 1)
        a.dispose()

        let failing = BehaviorSubject(value: 0)
        let thrown = Recorder<String>()
        let b = failing.subscribe(onNext: { value in
            guard value == 1 else { return }
            failing.onError(testError)
            failing.onNext(9)
            do {
                thrown.append("value \(try failing.value())")
            } catch {
                thrown.append("threw \(error)")
            }
        }, onError: { _ in })
        failing.onNext(1)
        XCTAssertEqual(thrown.values, ["threw \(testError)"])
        XCTAssertThrowsError(try failing.value())
        b.dispose()
    }

    // Another thread that sends a value while an observer is being called
    // reads it back once `onNext` returns, and sends the next one from it: no
    // update is lost (before, it read the previous value until the observer
    // returned, and its second update replaced its first).
    func testAnotherThreadReadsBackWhatItSentDuringADelivery() {
        let relay = BehaviorRelay(value: [0])
        let inDelivery = DispatchSemaphore(value: 0)
        let otherThreadDone = DispatchSemaphore(value: 0)
        let reads = Recorder<[Int]>()
        let subscription = relay.subscribe(onNext: { value in
            guard value == [0, 100] else { return }
            inDelivery.signal()
            // Holds the delivery until the other thread has sent and read.
            _ = otherThreadDone.wait(timeout: .now() + 5)
        })
        DispatchQueue.global().async {
            inDelivery.wait()
            relay.accept(relay.value + [1])
            reads.append(relay.value)
            relay.accept(relay.value + [2])
            reads.append(relay.value)
            otherThreadDone.signal()
        }
        relay.accept([0, 100])
        XCTAssertEqual(reads.values, [[0, 100, 1], [0, 100, 1, 2]])
        XCTAssertEqual(relay.value, [0, 100, 1, 2])
        subscription.dispose()
    }
}
