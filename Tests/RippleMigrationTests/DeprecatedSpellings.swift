// RxSwift's older spellings, which an app moving over may still have. Ripple
// keeps them, deprecated with the current name; code that calls them is marked
// deprecated itself, which is how an app silences their warnings until it
// renames them (and how this target, built with warnings as errors, keeps
// them compiling). The extension points RxSwift code relies on are here too.
import Foundation
import Ripple
import RippleTest
import XCTest

/// The legacy part of the app: a settings store on `Variable`, and RxSwift 4/5
/// operator names.
@available(*, deprecated, message: "RxSwift 5 code, to be renamed")
final class LegacySettings {
    let theme = Variable("light")
    let scheduler: ImmediateSchedulerType

    init(scheduler: ImmediateSchedulerType) {
        self.scheduler = scheduler
    }

    func themes() -> Observable<String> {
        theme.asObservable()
            .observeOn(scheduler)
            .subscribeOn(scheduler)
            .catchError { _ in .just("light") }
            .catchErrorJustReturn("light")
    }
}

final class DeprecatedSpellingTests: RippleTestCase {
    @available(*, deprecated, message: "exercises RxSwift's deprecated spellings")
    func testOperatorsUnderTheirOldNames() throws {
        let source = Observable.of(1, 2, 3, 4)
        XCTAssertEqual(try source.elementAt(1).toBlocking().single(), 2)
        XCTAssertEqual(try source.takeWhile { $0 < 3 }.toBlocking().toArray(), [1, 2])
        XCTAssertEqual(try source.skipWhile { $0 < 3 }.toBlocking().toArray(), [3, 4])
        XCTAssertEqual(try source.takeUntil(.inclusive) { $0 == 2 }.toBlocking().toArray(), [1, 2])
        XCTAssertEqual(try source.takeUntil(Observable<Int>.never()).toBlocking().toArray(), [1, 2, 3, 4])
        XCTAssertEqual(try source.skipUntil(Observable.just(0)).toBlocking().toArray(), [1, 2, 3, 4])
        XCTAssertEqual(try Observable.catchError([Observable<Int>.error(AppError.offline), .just(5)]).toBlocking().toArray(), [5])
        XCTAssertEqual(try Single<Int>.error(AppError.offline).catchErrorJustReturn(6).toBlocking().single(), 6)
        XCTAssertEqual(try Single.just(7).observeOn(CurrentThreadScheduler.instance).subscribeOn(CurrentThreadScheduler.instance).toBlocking().single(), 7)
        var attempts = 0
        let flaky = Observable<Int>.deferred {
            attempts += 1
            return attempts < 2 ? .error(AppError.offline) : .just(attempts)
        }
        XCTAssertEqual(try flaky.retryWhen { (errors: Observable<Error>) in errors }.toBlocking().single(), 2)
        XCTAssertNoThrow(try Completable.merge(Completable.empty(), Completable.empty()).toBlocking().toArray())
    }

    @available(*, deprecated, message: "exercises RxSwift's deprecated spellings")
    func testTimeIntervalsInSeconds() {
        // `ticks`: 1 at 210, 2 at 215, 3 at 240, 4 at 300, completed at 400.
        XCTAssertEqual(virtualTime { ticks($0).debounce(20, scheduler: $0) }, [.next(235, 2), .next(260, 3), .next(320, 4), .completed(400)])
        XCTAssertEqual(virtualTime { ticks($0).throttle(20, latest: false, scheduler: $0) }, [.next(210, 1), .next(240, 3), .next(300, 4), .completed(400)])
        XCTAssertEqual(virtualTime { ticks($0).delay(1, scheduler: $0) }.count, 5)
        XCTAssertEqual(virtualTime { ticks($0).take(11, scheduler: $0) }, [.next(210, 1), .completed(211)])
        XCTAssertEqual(virtualTime { ticks($0).skip(11, scheduler: $0) }.count, 4)
        XCTAssertEqual(virtualTime { ticks($0).timeout(50, scheduler: $0) }.last, .error(290, RxError.timeout))
    }

    @available(*, deprecated, message: "exercises RxSwift's deprecated spellings")
    func testVariable() throws {
        let settings = LegacySettings(scheduler: CurrentThreadScheduler.instance)
        var themes: [String] = []
        let subscription = settings.themes().subscribe(onNext: { themes.append($0) })
        settings.theme.value = "dark"
        XCTAssertEqual(themes, ["light", "dark"])
        subscription.dispose()
    }
}

// MARK: - Extension points

final class ExtensionPointTests: RippleTestCase {
    func testAppTypesOnRxProtocols() {
        // (A VirtualTimeScheduler subclass of the app's own is in
        // RippleSwift5UsageTests; TestScheduler is one too.)
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        var fired: [Int] = []
        _ = scheduler.scheduleRelativeVirtual((), dueTime: 3) { _ in
            fired.append(scheduler.clock)
            return Disposables.create()
        }
        _ = scheduler.scheduleAbsoluteVirtual((), time: 5) { _ in
            fired.append(scheduler.clock)
            scheduler.stop()
            return Disposables.create()
        }
        scheduler.start()
        XCTAssertEqual(fired, [3, 5])
        scheduler.advanceTo(8)
        scheduler.sleep(2)
        XCTAssertEqual(scheduler.clock, 10)

        let observable: Observable<Int> = Ticker(count: 2).asObservable()
        XCTAssertTrue(observable === observable.asObservable())
        let token = Token()
        let disposable: Disposable = token
        disposable.dispose()
        XCTAssertTrue(token.isDisposed)
    }

    func testDescriptionsKeepRxSwiftsWording() {
        XCTAssertEqual(Event<Int>.completed.debugDescription, "completed")
        XCTAssertEqual("\(Event.next(1))", "next(1)")
        XCTAssertEqual(Recorded.next(210, 1).debugDescription, "next(1) @ 210")
        XCTAssertEqual(Subscription(200, 300).debugDescription, "(200: 300)")
        XCTAssertEqual(RxError.timeout.debugDescription, "Sequence timeout.")
        let events = Recorded.events(.next(210, "a"), .completed(220))
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(events[0].time, 210)
    }
}
