// Helpers that RxSwift app codebases declare beside the operators (the sergdort
// CleanArchitecture example's `mapToVoid` and friends, key-path `map`/`filter`,
// a `retry` taking the app's own policy, scheduler-defaulting `throttle` and
// `debounce`): internal to the app, as they usually are.
import Foundation
import Ripple
import RippleCallShapeFixture

extension ObservableType {
    func mapToVoid() -> Observable<Void> {
        HelperCalls.record("Observable.mapToVoid()")
        return map { _ in () }
    }

    /// Key-path `map`: preferred over `map(_:)` for a key-path literal, as with RxSwift.
    func map<Value>(_ keyPath: KeyPath<Element, Value>) -> Observable<Value> {
        HelperCalls.record("Observable.map(keyPath)")
        return map { $0[keyPath: keyPath] }
    }

    func filter(_ keyPath: KeyPath<Element, Bool>) -> Observable<Element> {
        HelperCalls.record("Observable.filter(keyPath)")
        return filter { $0[keyPath: keyPath] }
    }

    func retry(_ policy: AppRetryPolicy) -> Observable<Element> {
        HelperCalls.record("retry(AppRetryPolicy)")
        switch policy {
        case .never: return asObservable()
        case .times(let count): return retry(count)
        }
    }

    func throttle(_ dueTime: RxTimeInterval) -> Observable<Element> {
        HelperCalls.record("throttle(_:)")
        return throttle(dueTime, scheduler: AppSchedulers.scheduler)
    }

    func debounce(_ dueTime: RxTimeInterval) -> Observable<Element> {
        HelperCalls.record("debounce(_:)")
        return debounce(dueTime, scheduler: AppSchedulers.scheduler)
    }

    /// A closure form beside `catchAndReturn(_:)`'s value.
    func catchAndReturn(_ handler: @escaping (Error) -> Element) -> Observable<Element> {
        HelperCalls.record("catchAndReturn(handler)")
        return self.catch { .just(handler($0)) }
    }

    func subscribeNext(_ onNext: @escaping (Element) -> Void) -> Disposable {
        HelperCalls.record("subscribeNext(_:)")
        return subscribe(onNext: onNext)
    }

    func withPrevious(startWith first: Element) -> Observable<(previous: Element, current: Element)> {
        HelperCalls.record("withPrevious(startWith:)")
        return scan((first, first)) { ($0.1, $1) }.map { (previous: $0.0, current: $0.1) }
    }
}

extension ObservableType where Element: Equatable {
    /// An equality `filter` beside the predicate one.
    func filter(_ value: Element) -> Observable<Element> {
        HelperCalls.record("filter(value)")
        return filter { $0 == value }
    }
}

extension SharedSequenceConvertibleType {
    func mapToVoid() -> SharedSequence<SharingStrategy, Void> {
        HelperCalls.record("SharedSequence.mapToVoid()")
        return map { _ in () }
    }

    func map<Value>(_ keyPath: KeyPath<Element, Value>) -> SharedSequence<SharingStrategy, Value> {
        HelperCalls.record("SharedSequence.map(keyPath)")
        return map { $0[keyPath: keyPath] }
    }
}

extension PrimitiveSequence where Trait == SingleTrait {
    func mapToVoid() -> Single<Void> {
        HelperCalls.record("Single.mapToVoid()")
        return map { _ in () }
    }

    func map<Value>(_ keyPath: KeyPath<Element, Value>) -> Single<Value> {
        HelperCalls.record("Single.map(keyPath)")
        return map { $0[keyPath: keyPath] }
    }
}

extension InfallibleType {
    func mapToVoid() -> Infallible<Void> {
        HelperCalls.record("Infallible.mapToVoid()")
        return map { _ in () }
    }
}

enum AppRetryPolicy {
    case never
    case times(Int)
}

enum AppSchedulers {
    static var scheduler: SchedulerType = MainScheduler.instance
}

struct User {
    var name: String
    var isActive: Bool
}
