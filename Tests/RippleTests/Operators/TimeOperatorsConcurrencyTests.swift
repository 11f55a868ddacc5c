import Dispatch
import Foundation
import Ripple
import RippleTest
import XCTest

/// Time operators on real dispatch schedulers, fed by several threads at once:
/// events to the observer never overlap, nothing follows the terminal event,
/// and everything is released (checked by `RippleTestCase`). Run under
/// ThreadSanitizer too.
final class TimeOperatorsConcurrencyTests: RippleTestCase {
    /// Checks the Observable contract on what it receives.
    final class ContractChecker<Element>: @unchecked Sendable {
        private let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let afterTerminal = Atomic<Int>(0)
        let terminals = Atomic<Int>(0)
        private let lock = NSLock()
        private var storage: [Event<Element>] = []
        let finished = DispatchSemaphore(value: 0)

        var observer: AnyObserver<Element> {
            AnyObserver { [self] event in receive(event) }
        }

        var events: [Event<Element>] {
            lock.lock()
            defer { lock.unlock() }
            return storage
        }

        var elements: [Element] {
            events.compactMap(\.element)
        }

        private func receive(_ event: Event<Element>) {
            if inside.add(1, ordering: .acquiringAndReleasing).oldValue != 0 {
                overlaps.add(1, ordering: .relaxed)
            }
            if terminals.load(ordering: .acquiring) > 0 {
                afterTerminal.add(1, ordering: .relaxed)
            }
            lock.lock()
            storage.append(event)
            lock.unlock()
            // Widen the window in which an overlapping delivery would be seen.
            for _ in 0..<20 { _ = inside.load(ordering: .relaxed) }
            inside.subtract(1, ordering: .acquiringAndReleasing)
            if event.isStopEvent {
                terminals.add(1, ordering: .releasing)
                finished.signal()
            }
        }

        func waitForTerminal(_ testCase: XCTestCase, timeout: TimeInterval = 20, file: StaticString = #filePath, line: UInt = #line) {
            if finished.wait(timeout: .now() + timeout) == .timedOut {
                XCTFail("no terminal event", file: file, line: line)
            }
        }

        func assertContract(file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertEqual(overlaps.load(ordering: .relaxed), 0, "overlapping deliveries", file: file, line: line)
            XCTAssertEqual(afterTerminal.load(ordering: .relaxed), 0, "events after the terminal event", file: file, line: line)
            XCTAssertLessThanOrEqual(terminals.load(ordering: .relaxed), 1, "more than one terminal event", file: file, line: line)
        }
    }

    private let producers = 4
    private let perProducer = 2_000

    /// Sends `producers × perProducer` elements from several threads at once,
    /// pausing now and then so that timers fire in between, then completes.
    private func produce(into subject: PublishSubject<Int>, complete: Bool = true) {
        let perProducer = self.perProducer
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for index in 0..<perProducer {
                subject.onNext(producer * perProducer + index)
                if index % 97 == 0 { usleep(300) }
            }
        }
        if complete {
            subject.onCompleted()
        }
    }

    private var concurrentScheduler: ConcurrentDispatchQueueScheduler {
        ConcurrentDispatchQueueScheduler(qos: .default)
    }

    func testDebounce() {
        let subject = PublishSubject<Int>()
        let checker = ContractChecker<Int>()
        let subscription = subject.debounce(.microseconds(200), scheduler: concurrentScheduler).subscribe(checker.observer)
        produce(into: subject)
        checker.waitForTerminal(self)
        checker.assertContract()
        XCTAssertEqual(checker.events.last?.isCompleted, true)
        XCTAssertFalse(checker.elements.isEmpty)
        XCTAssertEqual(Set(checker.elements).count, checker.elements.count, "an element was delivered twice")
        subscription.dispose()
    }

    func testThrottleLatest() {
        let subject = PublishSubject<Int>()
        let checker = ContractChecker<Int>()
        let subscription = subject.throttle(.microseconds(300), scheduler: concurrentScheduler).subscribe(checker.observer)
        produce(into: subject)
        checker.waitForTerminal(self)
        checker.assertContract()
        XCTAssertEqual(checker.events.last?.isCompleted, true)
        XCTAssertGreaterThan(checker.elements.count, 1)
        XCTAssertEqual(Set(checker.elements).count, checker.elements.count, "an element was delivered twice")
        subscription.dispose()
    }

    func testThrottleNotLatest() {
        let subject = PublishSubject<Int>()
        let checker = ContractChecker<Int>()
        let subscription = subject.throttle(.microseconds(300), latest: false, scheduler: SerialDispatchQueueScheduler(qos: .default))
            .subscribe(checker.observer)
        produce(into: subject)
        checker.waitForTerminal(self)
        checker.assertContract()
        XCTAssertEqual(checker.events.last?.isCompleted, true)
        subscription.dispose()
    }

    func testDelayDeliversEverythingInArrivalOrder() {
        let subject = PublishSubject<(producer: Int, index: Int)>()
        let checker = ContractChecker<(producer: Int, index: Int)>()
        let subscription = subject.delay(.microseconds(500), scheduler: concurrentScheduler).subscribe(checker.observer)
        let perProducer = self.perProducer
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for index in 0..<perProducer {
                subject.onNext((producer, index))
                if index % 97 == 0 { usleep(300) }
            }
        }
        subject.onCompleted()
        checker.waitForTerminal(self)
        checker.assertContract()
        XCTAssertEqual(checker.events.last?.isCompleted, true)
        let elements = checker.elements
        XCTAssertEqual(elements.count, producers * perProducer)
        var last = [Int](repeating: -1, count: producers)
        var outOfOrder = 0
        for element in elements {
            if element.index <= last[element.producer] { outOfOrder += 1 }
            last[element.producer] = element.index
        }
        XCTAssertEqual(outOfOrder, 0)
        subscription.dispose()
    }

    func testDelayErrorRacingDrain() {
        for _ in 0..<50 {
            let subject = PublishSubject<Int>()
            let checker = ContractChecker<Int>()
            let subscription = subject.delay(.microseconds(100), scheduler: concurrentScheduler).subscribe(checker.observer)
            DispatchQueue.concurrentPerform(iterations: 2) { producer in
                for index in 0..<200 { subject.onNext(producer * 1_000 + index) }
            }
            usleep(100)
            subject.onError(testError)
            checker.waitForTerminal(self)
            checker.assertContract()
            XCTAssertNotNil(checker.events.last?.error)
            subscription.dispose()
        }
    }

    func testTimeoutRacingElements() {
        for round in 0..<30 {
            let subject = PublishSubject<Int>()
            let checker = ContractChecker<Int>()
            let other = Observable<Int>.just(-1)
            let subscription = subject.timeout(.microseconds(400), other: other, scheduler: concurrentScheduler)
                .subscribe(checker.observer)
            DispatchQueue.concurrentPerform(iterations: 2) { producer in
                for index in 0..<300 {
                    subject.onNext(producer * 1_000 + index)
                    if (index + round) % 50 == 0 { usleep(600) }
                }
            }
            usleep(2_000)
            checker.waitForTerminal(self)
            checker.assertContract()
            let elements = checker.elements
            // Once `other` took over, nothing from the source follows.
            if let switchIndex = elements.firstIndex(of: -1) {
                XCTAssertEqual(switchIndex, elements.count - 1)
            }
            XCTAssertEqual(checker.events.last?.isCompleted, true)
            subscription.dispose()
        }
    }

    func testTimeoutErrorOnSerialScheduler() {
        let subject = PublishSubject<Int>()
        let checker = ContractChecker<Int>()
        let subscription = subject.timeout(.milliseconds(5), scheduler: SerialDispatchQueueScheduler(qos: .default))
            .subscribe(checker.observer)
        produce(into: subject, complete: false)
        checker.waitForTerminal(self)
        checker.assertContract()
        XCTAssertNotNil(checker.events.last?.error)
        subscription.dispose()
    }

    func testSampleAndBufferWithConcurrentSources() {
        let subject = PublishSubject<Int>()
        let ticks = PublishSubject<Void>()
        let sampled = ContractChecker<Int>()
        let buffered = ContractChecker<[Int]>()
        let bag = DisposeBag()
        subject.sample(ticks).subscribe(sampled.observer).disposed(by: bag)
        subject.buffer(timeSpan: .microseconds(300), count: 50, scheduler: concurrentScheduler).subscribe(buffered.observer).disposed(by: bag)
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            for _ in 0..<2_000 {
                ticks.onNext(())
            }
            group.leave()
        }
        produce(into: subject)
        group.wait()
        ticks.onCompleted()
        sampled.waitForTerminal(self)
        buffered.waitForTerminal(self)
        sampled.assertContract()
        buffered.assertContract()
        XCTAssertEqual(buffered.elements.flatMap { $0 }.count, producers * perProducer)
    }

    func testDisposeRacingTimers() {
        let lateEvents = Atomic<Int>(0)
        let rounds = 100
        for round in 0..<rounds {
            let subject = PublishSubject<Int>()
            let disposed = Atomic<Bool>(false)
            let observer = AnyObserver<Int> { _ in
                if disposed.load(ordering: .acquiring) { lateEvents.add(1, ordering: .relaxed) }
            }
            let scheduler = concurrentScheduler
            let source: Observable<Int>
            switch round % 5 {
            case 0: source = subject.debounce(.microseconds(50), scheduler: scheduler)
            case 1: source = subject.throttle(.microseconds(50), scheduler: scheduler)
            case 2: source = subject.delay(.microseconds(50), scheduler: scheduler)
            case 3: source = subject.timeout(.microseconds(50), other: Observable.just(0), scheduler: scheduler)
            default: source = subject.window(timeSpan: .microseconds(50), count: 3, scheduler: scheduler).map { _ in 0 }
            }
            let subscription = source.subscribe(observer)
            let stop = Atomic<Bool>(false)
            let group = DispatchGroup()
            group.enter()
            DispatchQueue.global().async {
                var value = 0
                while !stop.load(ordering: .relaxed) {
                    subject.onNext(value)
                    value += 1
                    if value % 10 == 0 { usleep(20) }
                }
                group.leave()
            }
            usleep(UInt32(200 + (round % 7) * 50))
            subscription.dispose()
            disposed.store(true, ordering: .releasing)
            stop.store(true, ordering: .relaxed)
            group.wait()
        }
        // A delivery already past its check when `dispose()` ran may finish
        // afterwards; one per round at most.
        XCTAssertLessThanOrEqual(lateEvents.load(ordering: .relaxed), rounds)
    }
}
