// Operators in the shapes community libraries declare beside RxSwift's (RxSwiftExt
// 6.2.1, RxOptional, RxSwiftUtilities), written here as a library would: public,
// in a module of their own, compiled in Swift 5 mode with warnings as errors.
// The bodies are Ripple's own; each records its call in `HelperCalls`, so that a
// test can tell which declaration a call reached (issue 34: a defaulted
// parameter on Ripple's `map` made `map { ... }` resolve to `map(to:)`).
import Foundation
import Ripple

/// Which of this module's declarations were called, in order.
public enum HelperCalls {
    private static let lock = NSLock()
    private static var names: [String] = []

    public static func record(_ name: String) {
        lock.lock()
        names.append(name)
        lock.unlock()
    }

    /// The calls since the last `take()`, and forgets them.
    public static func take() -> [String] {
        lock.lock()
        defer { names.removeAll(); lock.unlock() }
        return names
    }
}

// MARK: - RxSwiftExt

extension ObservableType {
    /// RxSwiftExt's `map(to:)` (then `mapTo(_:)`): every element becomes `value`.
    public func map<Result>(to value: Result) -> Observable<Result> {
        HelperCalls.record("Observable.map(to:)")
        return map { _ in value }
    }

    public func mapTo<Result>(_ value: Result) -> Observable<Result> {
        HelperCalls.record("Observable.mapTo(_:)")
        return map { _ in value }
    }

    public func mapAt<Result>(_ keyPath: KeyPath<Element, Result>) -> Observable<Result> {
        HelperCalls.record("mapAt(_:)")
        return map { $0[keyPath: keyPath] }
    }

    public func ignoreWhen(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        HelperCalls.record("ignoreWhen(_:)")
        return filter { try !predicate($0) }
    }

    public func catchErrorJustComplete() -> Observable<Element> {
        HelperCalls.record("catchErrorJustComplete()")
        return self.catch { _ in .empty() }
    }

    public func apply<Result>(_ transform: (Observable<Element>) -> Observable<Result>) -> Observable<Result> {
        HelperCalls.record("apply(_:)")
        return transform(asObservable())
    }

    public func partition(_ predicate: @escaping (Element) throws -> Bool)
        -> (matches: Observable<Element>, nonMatches: Observable<Element>) {
        HelperCalls.record("Observable.partition(_:)")
        let stream = map { ($0, try predicate($0)) }.share()
        return (stream.filter { $0.1 }.map { $0.0 }, stream.filter { !$0.1 }.map { $0.0 })
    }

    public func merge(with other: Observable<Element>) -> Observable<Element> {
        HelperCalls.record("merge(with:)")
        return Observable.merge(asObservable(), other)
    }

    public func zip<Other: ObservableConvertibleType, ResultType>(
        with second: Other, resultSelector: @escaping (Element, Other.Element) throws -> ResultType
    ) -> Observable<ResultType> {
        HelperCalls.record("zip(with:resultSelector:)")
        return Observable.zip(asObservable(), second.asObservable(), resultSelector: resultSelector)
    }

    public func pausable<Pauser: ObservableType>(_ pauser: Pauser) -> Observable<Element> where Pauser.Element == Bool {
        HelperCalls.record("pausable(_:)")
        return withLatestFrom(pauser) { ($0, $1) }.filter { $0.1 }.map { $0.0 }
    }

    public func nwise(_ n: Int) -> Observable<[Element]> {
        HelperCalls.record("nwise(_:)")
        return scan([]) { window, element in Array((window + [element]).suffix(n)) }.filter { $0.count == n }
    }

    public func pairwise() -> Observable<(Element, Element)> {
        HelperCalls.record("pairwise()")
        return nwise(2).map { ($0[0], $0[1]) }
    }

    public func ofType<Result>(_ type: Result.Type) -> Observable<Result> {
        HelperCalls.record("ofType(_:)")
        return compactMap { $0 as? Result }
    }

    public func filterMap<Result>(_ transform: @escaping (Element) throws -> FilterMap<Result>) -> Observable<Result> {
        HelperCalls.record("filterMap(_:)")
        return compactMap {
            if case .map(let value) = try transform($0) { return value }
            return nil
        }
    }

    public func retry(_ behavior: RepeatBehavior, scheduler: SchedulerType = MainScheduler.instance,
                      shouldRetry: ((Error) -> Bool)? = nil) -> Observable<Element> {
        HelperCalls.record("retry(_:scheduler:shouldRetry:)")
        switch behavior {
        case .immediate(let maxCount):
            return retry(maxCount)
        }
    }

    public static func once(_ element: Element) -> Observable<Element> {
        HelperCalls.record("once(_:)")
        return .just(element)
    }
}

extension ObservableType where Element: Equatable {
    public func ignore(_ valuesToIgnore: Element...) -> Observable<Element> {
        HelperCalls.record("ignore(_:)")
        return filter { !valuesToIgnore.contains($0) }
    }
}

extension ObservableType where Element: Hashable {
    public func distinct() -> Observable<Element> {
        HelperCalls.record("distinct()")
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}

extension ObservableType where Element == Bool {
    public func not() -> Observable<Bool> {
        HelperCalls.record("Observable.not()")
        return map(!)
    }
}

extension ObservableType where Element: Comparable {
    public func toSortedArray(ascending: Bool = true) -> Observable<[Element]> {
        HelperCalls.record("toSortedArray(ascending:)")
        return toArray().asObservable().map { ascending ? $0.sorted() : $0.sorted(by: >) }
    }
}

extension ObservableType {
    /// RxSwiftExt's `unwrap()`.
    public func unwrap<Result>() -> Observable<Result> where Element == Result? {
        HelperCalls.record("Observable.unwrap()")
        return compactMap { $0 }
    }
}

extension ObservableType where Element: EventConvertible {
    public func elements() -> Observable<Element.Element> {
        HelperCalls.record("elements()")
        return compactMap { $0.event.element }
    }

    public func errors() -> Observable<Swift.Error> {
        HelperCalls.record("errors()")
        return compactMap { $0.event.error }
    }
}

public enum FilterMap<Result> {
    case ignore
    case map(Result)
}

public enum RepeatBehavior {
    case immediate(maxCount: Int)
}

extension SharedSequenceConvertibleType {
    public func map<Result>(to value: Result) -> SharedSequence<SharingStrategy, Result> {
        HelperCalls.record("SharedSequence.map(to:)")
        return map { _ in value }
    }

    public func mapTo<Result>(_ value: Result) -> SharedSequence<SharingStrategy, Result> {
        HelperCalls.record("SharedSequence.mapTo(_:)")
        return map { _ in value }
    }

    public func unwrap<Result>() -> SharedSequence<SharingStrategy, Result> where Element == Result? {
        HelperCalls.record("SharedSequence.unwrap()")
        return filter { $0 != nil }.map { $0! }
    }

    /// RxSwiftExt's `partition+RxCocoa.swift`, the file that stopped compiling.
    public func partition(_ predicate: @escaping (Element) -> Bool)
        -> (matches: SharedSequence<SharingStrategy, Element>, nonMatches: SharedSequence<SharingStrategy, Element>) {
        HelperCalls.record("SharedSequence.partition(_:)")
        let stream = self.map { ($0, predicate($0)) }
        let hits = stream.filter { $0.1 }.map { $0.0 }
        let misses = stream.filter { !$0.1 }.map { $0.0 }
        return (hits, misses)
    }
}

extension SharedSequenceConvertibleType where Element == Bool {
    public func not() -> SharedSequence<SharingStrategy, Bool> {
        HelperCalls.record("SharedSequence.not()")
        return map(!)
    }
}

extension PrimitiveSequence where Trait == SingleTrait {
    public func mapTo<Result>(_ value: Result) -> Single<Result> {
        HelperCalls.record("Single.mapTo(_:)")
        return map { _ in value }
    }

    public func map<Result>(to value: Result) -> Single<Result> {
        HelperCalls.record("Single.map(to:)")
        return map { _ in value }
    }
}

extension PrimitiveSequence where Trait == MaybeTrait {
    public func mapTo<Result>(_ value: Result) -> Maybe<Result> {
        HelperCalls.record("Maybe.mapTo(_:)")
        return map { _ in value }
    }
}

extension InfallibleType {
    public func map<Result>(to value: Result) -> Infallible<Result> {
        HelperCalls.record("Infallible.map(to:)")
        return map { _ in value }
    }
}

// MARK: - RxOptional

/// RxOptional's protocol for optional elements.
public protocol OptionalType {
    associatedtype Wrapped
    var value: Wrapped? { get }
}

extension Optional: OptionalType {
    public var value: Wrapped? { self }
}

public enum RxOptionalError: Error, Equatable {
    case foundNilWhileUnwrappingOptional
}

extension ObservableType where Element: OptionalType {
    public func replaceNilWith(_ valueOnNil: Element.Wrapped) -> Observable<Element.Wrapped> {
        HelperCalls.record("replaceNilWith(_:)")
        return map { $0.value ?? valueOnNil }
    }

    public func errorOnNil(_ error: Error = RxOptionalError.foundNilWhileUnwrappingOptional) -> Observable<Element.Wrapped> {
        HelperCalls.record("errorOnNil(_:)")
        return map { element -> Element.Wrapped in
            guard let value = element.value else { throw error }
            return value
        }
    }
}

extension ObservableType where Element: Collection {
    public func filterEmpty() -> Observable<Element> {
        HelperCalls.record("filterEmpty()")
        return filter { !$0.isEmpty }
    }
}

// MARK: - RxSwiftUtilities

/// RxSwiftUtilities' `ActivityIndicator`: counts the sequences it tracks that are
/// running, as a `Driver<Bool>`.
public final class ActivityIndicator: SharedSequenceConvertibleType {
    public typealias Element = Bool
    public typealias SharingStrategy = DriverSharingStrategy

    private let lock = NSRecursiveLock()
    private let relay = BehaviorRelay(value: 0)
    private let loading: SharedSequence<SharingStrategy, Bool>

    public init() {
        loading = relay.asDriver().map { $0 > 0 }.distinctUntilChanged()
    }

    fileprivate func trackActivityOfObservable<Source: ObservableConvertibleType>(_ source: Source) -> Observable<Source.Element> {
        Observable.using({ () -> ActivityToken in
            self.increment()
            return ActivityToken(dispose: self.decrement)
        }, observableFactory: { _ in source.asObservable() })
    }

    private func increment() {
        lock.lock()
        relay.accept(relay.value + 1)
        lock.unlock()
    }

    private func decrement() {
        lock.lock()
        relay.accept(relay.value - 1)
        lock.unlock()
    }

    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> {
        loading
    }
}

private final class ActivityToken: Disposable {
    private let action: () -> Void
    private var isDisposed = false

    init(dispose: @escaping () -> Void) {
        action = dispose
    }

    func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        action()
    }
}

extension ObservableConvertibleType {
    public func trackActivity(_ activityIndicator: ActivityIndicator) -> Observable<Element> {
        HelperCalls.record("trackActivity(_:)")
        return activityIndicator.trackActivityOfObservable(self)
    }
}

/// RxSwiftUtilities' (and the sergdort CleanArchitecture example's) `ErrorTracker`.
public final class ErrorTracker: SharedSequenceConvertibleType {
    public typealias SharingStrategy = DriverSharingStrategy
    private let subject = PublishSubject<Error>()

    public init() {}

    public func trackError<Source: ObservableConvertibleType>(from source: Source) -> Observable<Source.Element> {
        source.asObservable().do(onError: { self.subject.onNext($0) })
    }

    public func asSharedSequence() -> SharedSequence<SharingStrategy, Error> {
        subject.asObservable().asDriver(onErrorDriveWith: .empty())
    }

    public func asObservable() -> Observable<Error> {
        subject.asObservable()
    }
}

extension ObservableConvertibleType {
    public func trackError(_ errorTracker: ErrorTracker) -> Observable<Element> {
        HelperCalls.record("trackError(_:)")
        return errorTracker.trackError(from: self)
    }

    /// The CleanArchitecture example's helper.
    public func asDriverOnErrorJustComplete() -> Driver<Element> {
        HelperCalls.record("asDriverOnErrorJustComplete()")
        return asDriver { _ in Driver.empty() }
    }
}
