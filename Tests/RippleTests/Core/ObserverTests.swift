import Ripple
import RippleTest
import XCTest

final class ObserverTests: RippleTestCase {
    func testAnyObserverFromClosureAndFromObserver() {
        let received = Recorder<Event<Int>>()
        let observer = AnyObserver<Int> { received.append($0) }
        observer.onNext(1)
        observer.onError(testError)
        observer.onCompleted()
        XCTAssertEqual(received.values, [.next(1), .error(testError), .completed])

        let wrapped = AnyObserver(observer)
        wrapped.onNext(2)
        XCTAssertEqual(received.values.last, .next(2))
        observer.asObserver().onNext(3)
        XCTAssertEqual(received.values.last, .next(3))
    }

    func testMapObserverTransformsElementsAndForwardsErrors() {
        let received = Recorder<Event<String>>()
        let observer = AnyObserver<String> { received.append($0) }
        let mapped: AnyObserver<Int> = observer.mapObserver { "#\($0)" }
        mapped.onNext(7)
        mapped.onCompleted()
        XCTAssertEqual(received.values, [.next("#7"), .completed])

        let failing: AnyObserver<Int> = observer.mapObserver { _ in throw testError }
        failing.onNext(1)
        XCTAssertEqual(received.values.last, .error(testError))
    }

    func testCustomObserverTypeWorksWithSubscribe() {
        final class Collector: ObserverType {
            var events: [Event<Int>] = []
            func on(_ event: Event<Int>) { events.append(event) }
        }
        let collector = Collector()
        _ = Observable.of(1, 2).subscribe(collector)
        XCTAssertEqual(collector.events, [.next(1), .next(2), .completed])
    }
}
