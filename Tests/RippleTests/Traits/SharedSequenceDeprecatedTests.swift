import Ripple
import RippleTest
import XCTest

/// RxCocoa's `TimeInterval` overloads still work (deprecated).
final class SharedSequenceDeprecatedTests: RippleTestCase {
    @available(*, deprecated)
    func testTimeIntervalOverloads() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(300)])
            let driver = xs.asDriver(onErrorJustReturn: 0)
            let debounced = scheduler.createObserver(Int.self)
            let throttled = scheduler.createObserver(Int.self)
            let delayed = scheduler.createObserver(Int.self)
            let ticks = scheduler.createObserver(Int.self)
            let timer = scheduler.createObserver(Int.self)
            let bag = DisposeBag()
            scheduler.scheduleAt(200) {
                driver.debounce(20).drive(debounced).disposed(by: bag)
                driver.throttle(20, latest: false).drive(throttled).disposed(by: bag)
                driver.delay(30).drive(delayed).disposed(by: bag)
                Driver<Int>.interval(50).take(2).drive(ticks).disposed(by: bag)
                Driver<Int>.timer(10, period: 40).take(2).drive(timer).disposed(by: bag)
            }
            scheduler.start()
            XCTAssertEqual(debounced.events, [.next(236, 2), .completed(301)])
            XCTAssertEqual(throttled.events, [.next(211, 1), .completed(301)])
            XCTAssertEqual(delayed.events, [.next(241, 1), .next(246, 2), .completed(331)])
            XCTAssertEqual(ticks.events, [.next(250, 0), .next(300, 1), .completed(300)])
            XCTAssertEqual(timer.events, [.next(210, 0), .next(250, 1), .completed(250)])
        }
    }
}
