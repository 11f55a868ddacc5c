import Ripple
import RippleTest
import Testing

/// RippleTest from Swift Testing: tests run in parallel, off the main thread.
@Suite struct SwiftTestingUsage {
    @Test func recordedEventsCompareWithExpect() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.asObservable().map { $0 * 2 } }
        #expect(res.events == [.next(210, 2), .next(220, 4), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test(arguments: [1, 2, 3, 4])
    func parallelSchedulersDoNotInterfere(offset: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10 * offset, offset), .completed(50)])
        let res = scheduler.start { xs.asObservable() }
        #expect(res.events == [.next(200 + 10 * offset, offset), .completed(250)])
    }

    @Test func blockingWorksOffTheMainThread() throws {
        let values = try Observable.of(1, 2, 3).toBlocking(timeout: 5).toArray()
        #expect(values == [1, 2, 3])
    }
}
