import Foundation
import Ripple
import RippleTest
import XCTest

/// RxSwift code defines its own types on Ripple's protocols and open classes; these
/// must stay conformable and subclassable from outside the module.
final class ExtensionPointTests: RippleTestCase {
    /// A virtual clock counting in tenths of a second.
    struct DeciSecondConverter: VirtualTimeConverterType {
        typealias VirtualTimeUnit = Int
        typealias VirtualTimeIntervalUnit = Int

        func convertFromVirtualTime(_ virtualTime: Int) -> RxTime { Date(timeIntervalSince1970: Double(virtualTime) / 10) }
        func convertToVirtualTime(_ time: RxTime) -> Int { Int((time.timeIntervalSince1970 * 10).rounded()) }
        func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval { Double(virtualTimeInterval) / 10 }
        func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int { Int((timeInterval * 10).rounded()) }
        func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }
        func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
            lhs < rhs ? .lessThan : (lhs > rhs ? .greaterThan : .equal)
        }
    }

    final class DeciSecondScheduler: VirtualTimeScheduler<DeciSecondConverter>, @unchecked Sendable {
        var adjustments = 0

        init() {
            super.init(initialClock: 0, converter: DeciSecondConverter())
        }

        override func adjustScheduledTime(_ time: Int) -> Int {
            adjustments += 1
            return time
        }
    }

    func testCustomVirtualTimeScheduler() {
        let scheduler = DeciSecondScheduler()
        var fired: [Int] = []
        let subscription = Observable<Int>.interval(.milliseconds(500), scheduler: scheduler)
            .take(3)
            .subscribe(onNext: { _ in fired.append(scheduler.clock) })
        scheduler.start()
        XCTAssertEqual(fired, [5, 10, 15])
        XCTAssertGreaterThan(scheduler.adjustments, 0)
        subscription.dispose()
    }

    func testCustomDisposableAndCancelable() {
        final class Flag: Cancelable, @unchecked Sendable {
            private(set) var isDisposed = false
            func dispose() { isDisposed = true }
        }
        let flag = Flag()
        let bag = CompositeDisposable(disposables: [flag])
        bag.dispose()
        XCTAssertTrue(flag.isDisposed)
    }

    /// RxSwift code counts types of its own with `Resources.incrementTotal()`
    /// and `decrementTotal()` (under `TRACE_RESOURCES`); Ripple's are public
    /// and count in the same total as Ripple's own objects.
    func testOwnTypesCountInResourcesTotal() throws {
        try XCTSkipUnless(Resources.isTracking, "resources are counted in debug builds only")
        final class Lease: Disposable {
            init() { _ = Resources.incrementTotal() }
            deinit { _ = Resources.decrementTotal() }
            func dispose() {}
        }
        let before = Resources.total
        var lease: Lease? = Lease()
        XCTAssertEqual(Resources.total, before + 1)
        XCTAssertEqual(Resources.incrementTotal(), before + 2)
        XCTAssertEqual(Resources.decrementTotal(), before + 1)
        withExtendedLifetime(lease) {}
        lease = nil
        XCTAssertEqual(Resources.total, before)
    }

    func testCustomSubjectType() {
        /// A subject that upper-cases what it receives.
        final class UppercasingSubject: SubjectType, ObserverType {
            typealias Element = String
            private let subject = PublishSubject<String>()

            func on(_ event: Event<String>) { subject.on(event.map { $0.uppercased() }) }
            func asObserver() -> UppercasingSubject { self }
            func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == String {
                subject.subscribe(observer)
            }
        }
        let subject = UppercasingSubject()
        var values: [String] = []
        let subscription = subject.map { $0 + "!" }.subscribe(onNext: { values.append($0) })
        Observable.of("a", "b").bind(to: subject.asObserver()).dispose()
        XCTAssertEqual(values, ["A!", "B!"])
        subscription.dispose()
    }

    func testObservableIdentity() {
        let source = Observable.just(1)
        XCTAssertTrue(source.asObservable() === source)
        let subject = PublishSubject<Int>()
        XCTAssertTrue(subject.asObservable() === subject)
    }
}
