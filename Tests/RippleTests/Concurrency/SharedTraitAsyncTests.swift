import Dispatch
import Foundation
import Ripple
import RippleTest
import XCTest

/// `values` on `Infallible`, `Driver` and `Signal`: an `AsyncStream` (no `try`).
final class SharedTraitAsyncTests: RippleTestCase {
    func testInfallibleValuesYieldsEveryElementThenEnds() async {
        var received: [Int] = []
        for await value in Infallible.of(1, 2, 3).values {
            received.append(value)
        }
        XCTAssertEqual(received, [1, 2, 3])
    }

    func testInfallibleValuesOfARecoveredFailure() async {
        var received: [Int] = []
        for await value in Observable<Int>.error(testError).asInfallible(onErrorJustReturn: 9).values {
            received.append(value)
        }
        XCTAssertEqual(received, [9])
    }

    func testInfallibleValuesIsAnAsyncStream() {
        let stream: AsyncStream<Int> = Infallible<Int>.empty().values
        withExtendedLifetime(stream) {}
    }

    func testEachLoopSubscribesAgain() async {
        let subscriptions = Atomic<Int>(0)
        let source = Infallible.of(1, 2).do(onSubscribe: { subscriptions.add(1, ordering: .relaxed) })
        var first: [Int] = []
        for await value in source.values { first.append(value) }
        var second: [Int] = []
        for await value in source.values { second.append(value) }
        XCTAssertEqual(first, [1, 2])
        XCTAssertEqual(second, [1, 2])
        XCTAssertEqual(subscriptions.load(ordering: .relaxed), 2)
    }

    func testBreakingOutOfTheLoopDisposesTheSubscription() async {
        let relay = BehaviorRelay(value: 0)
        let disposed = Atomic<Bool>(false)
        let source = relay.asInfallible().do(onDispose: { disposed.store(true, ordering: .releasing) })
        for await value in source.values {
            XCTAssertEqual(value, 0)
            break
        }
        XCTAssertTrue(disposed.load(ordering: .acquiring))
    }

    func testAnErrorThrownByTheLoopBodyDisposesTheSubscription() async {
        let relay = BehaviorRelay(value: 0)
        let disposed = Atomic<Bool>(false)
        let source = relay.asInfallible().do(onDispose: { disposed.store(true, ordering: .releasing) })
        do {
            for await _ in source.values {
                throw testError2
            }
        } catch {
            XCTAssertEqual(error as? TestError, testError2)
        }
        XCTAssertTrue(disposed.load(ordering: .acquiring))
    }

    func testCancellingTheConsumingTaskDisposesTheSubscription() async throws {
        let relay = PublishRelay<Int>()
        let subscribed = Atomic<Bool>(false)
        let disposed = Atomic<Bool>(false)
        let source = relay.asInfallible().do(
            onSubscribed: { subscribed.store(true, ordering: .releasing) },
            onDispose: { disposed.store(true, ordering: .releasing) }
        )
        let received = Recorder<Int>()
        let consumer = Task {
            for await value in source.values { received.append(value) }
        }
        let didSubscribe = await eventually { subscribed.load(ordering: .acquiring) }
        XCTAssertTrue(didSubscribe)
        relay.accept(1)
        _ = await eventually { received.values == [1] }
        consumer.cancel()
        await consumer.value
        XCTAssertTrue(disposed.load(ordering: .acquiring))
        relay.accept(2)
        XCTAssertEqual(received.values, [1])
    }

    func testDroppingTheStreamWithoutIteratingDisposesTheSubscription() {
        let disposed = Atomic<Bool>(false)
        let source = Infallible<Int>.never().do(onDispose: { disposed.store(true, ordering: .releasing) })
        do {
            let stream = source.values
            XCTAssertFalse(disposed.load(ordering: .acquiring), "reading `values` subscribes")
            withExtendedLifetime(stream) {}
        }
        XCTAssertTrue(disposed.load(ordering: .acquiring))
    }

    func testDriverValuesStartWithTheLatestElement() async {
        let queue = SerialDispatchQueueScheduler(qos: .default)
        let relay = BehaviorRelay(value: "a")
        let driver = SharingScheduler.mock(scheduler: queue) { relay.asDriver() }
        var received: [String] = []
        for await value in driver.values {
            received.append(value)
            if value == "a" { relay.accept("b") }
            if value == "b" { break }
        }
        XCTAssertEqual(received, ["a", "b"])
    }

    func testDriverValuesAreDeliveredOnTheSharingScheduler() async {
        let queue = DispatchQueue(label: "sharing")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
        let onQueue = Recorder<Bool>()
        let driver = SharingScheduler.mock(scheduler: scheduler) {
            Observable.of(1, 2).asDriver(onErrorJustReturn: 0).do(onNext: { _ in onQueue.append(DispatchQueue.getSpecific(key: key) == 7) })
        }
        var received: [Int] = []
        for await value in driver.values { received.append(value) }
        XCTAssertEqual(received, [1, 2])
        XCTAssertEqual(onQueue.values, [true, true])
    }

    func testSignalValuesEndWithCompletion() async {
        let queue = SerialDispatchQueueScheduler(qos: .default)
        let signal = SharingScheduler.mock(scheduler: queue) { Signal.of(1, 2, 3) }
        var received: [Int] = []
        for await value in signal.values { received.append(value) }
        XCTAssertEqual(received, [1, 2, 3])
    }

    func testManyShortLoopsLeakNothing() async {
        let relay = BehaviorRelay(value: 1)
        for _ in 0..<200 {
            for await _ in relay.asInfallible().values { break }
            for await _ in Infallible.of(1, 2).values {}
        }
    }
}

final class SharedTraitAsyncConcurrencyTests: RippleTestCase {
    func testValuesConsumerCancelledWhileAnotherThreadEmits() async {
        // Cancellation races with elements arriving from another thread: the
        // subscription is disposed exactly once, nothing is resumed after the end.
        for _ in 0..<50 {
            let relay = PublishRelay<Int>()
            let disposals = Atomic<Int>(0)
            let source = relay.asInfallible().do(onDispose: { disposals.add(1, ordering: .relaxed) })
            let consumer = Task {
                var count = 0
                for await _ in source.values { count += 1 }
                return count
            }
            let stop = Atomic<Bool>(false)
            let producer = Thread {
                var value = 0
                while !stop.load(ordering: .relaxed) {
                    value += 1
                    relay.accept(value)
                }
            }
            producer.start()
            try? await Task.sleep(nanoseconds: 2_000_000)
            consumer.cancel()
            _ = await consumer.value
            stop.store(true, ordering: .relaxed)
            while !producer.isFinished { try? await Task.sleep(nanoseconds: 1_000_000) }
            XCTAssertEqual(disposals.load(ordering: .relaxed), 1)
        }
    }

    func testDriverValuesFromManyConsumers() async {
        let queue = SerialDispatchQueueScheduler(qos: .default)
        let relay = BehaviorRelay(value: 0)
        let driver = SharingScheduler.mock(scheduler: queue) { relay.asDriver() }
        await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var received: [Int] = []
                    for await value in driver.values {
                        received.append(value)
                        if value >= 100 { break }
                    }
                    return received
                }
            }
            let producer = Thread {
                for value in 1...100 { relay.accept(value) }
            }
            producer.start()
            for await received in group {
                // In order, no duplicates; the last element seen is 100.
                XCTAssertEqual(received, received.sorted())
                XCTAssertEqual(Set(received).count, received.count)
                XCTAssertEqual(received.last, 100)
            }
        }
    }
}
