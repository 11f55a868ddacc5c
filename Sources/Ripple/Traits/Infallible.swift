/// A type that is an ``Infallible``: a sequence that can never fail.
///
/// Operators and subscription methods for infallible sequences are written on this
/// protocol. Conform only types whose ``ObservableConvertibleType/asObservable()``
/// never sends `.error`: every operator here trusts it.
public protocol InfallibleType: ObservableConvertibleType {}

/// An observable sequence that can never fail: it sends elements and, perhaps,
/// completes, but never sends `.error`.
///
/// Build one from an ``Observable`` by saying what replaces its error
/// (``ObservableConvertibleType/asInfallible(onErrorJustReturn:)``,
/// ``ObservableConvertibleType/asInfallible(onErrorFallbackTo:)``,
/// ``ObservableConvertibleType/asInfallible(onErrorRecover:)``), from a relay
/// (`relay.asInfallible()`), or with its own creators (``Infallible/create(subscribe:)``,
/// `just`, `of`, `from`, ...). Its operators take closures that cannot throw and
/// combine only with other infallible sequences, so the guarantee survives every
/// step; subscribing needs no `onError`.
///
/// ```swift
/// let results: Infallible<[Repo]> = query
///     .flatMapLatest { api.search($0).asInfallible(onErrorJustReturn: []) }
/// results
///     .subscribe(onNext: { print($0.count, "repositories") })
///     .disposed(by: bag)
/// ```
///
/// ```
/// source:                         --1--2--#
/// asInfallible(onErrorJustReturn: 0):
///                                 --1--2--(0|)
/// ```
///
/// Differences from RxSwift 6, all of them to keep the guarantee: closures passed
/// to operators (`map`, `scan`, result selectors, `deferred`, ...) cannot throw,
/// and sequences combined with an `Infallible` (`flatMap*`, `withLatestFrom`,
/// `concat`, `combineLatest`, ...) must be infallible themselves. An invalid
/// argument (a negative count, ...) cannot become an error event here: it is
/// reported to ``Hooks/contractViolationHandler`` and the sequence completes
/// without elements.
public struct Infallible<Element>: InfallibleType, @unchecked Sendable {
    @usableFromInline
    let source: Observable<Element>

    /// Wraps `source`, which must never send `.error`.
    @_alwaysEmitIntoClient
    init(_ source: Observable<Element>) {
        self.source = source
    }

    /// The sequence as an ``Observable`` (which never sends `.error`).
    @_alwaysEmitIntoClient
    public func asObservable() -> Observable<Element> {
        source
    }
}

extension InfallibleType {
    /// The sequence as an ``Infallible``.
    @_alwaysEmitIntoClient
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

extension Infallible {
    /// An infallible sequence that reports `message` to
    /// ``Hooks/contractViolationHandler`` when subscribed and completes: what an
    /// invalid argument turns into, since an `Infallible` cannot carry the error.
    @_alwaysEmitIntoClient
    @usableFromInline
    static func invalidArgument(_ message: String) -> Infallible<Element> {
        Infallible(reportingInvalidArgument("Infallible: \(message)"))
    }

    /// `source` with any error reported to ``Hooks/contractViolationHandler`` and
    /// replaced by completion. For sources whose only possible error is an invalid
    /// argument (such as `range`).
    @_alwaysEmitIntoClient
    @usableFromInline
    static func guarding(_ source: Observable<Element>, _ operation: String) -> Infallible<Element> {
        Infallible(source.catch { error in
            Hooks.reportContractViolation("Infallible: \(operation) failed with \(error)")
            return .empty()
        })
    }
}

/// A sequence that reports `message` to ``Hooks/contractViolationHandler`` when
/// subscribed, then completes: an invalid argument of a sequence that cannot fail.
@_alwaysEmitIntoClient
@usableFromInline
func reportingInvalidArgument<Element>(_ message: String) -> Observable<Element> {
    Producer { observer in
        Hooks.reportContractViolation(message)
        observer.on(.completed)
        return nil
    }
}

// MARK: - Conversions

extension ObservableConvertibleType {
    /// This sequence as an ``Infallible`` that ends with `element` instead of
    /// failing: on error it emits `element`, then completes.
    ///
    /// ```
    /// source:                              --1--2--#
    /// asInfallible(onErrorJustReturn: 0):  --1--2--(0|)
    /// ```
    ///
    /// Completes when the source completes, or right after `element`; never fails.
    @_alwaysEmitIntoClient
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(asObservable().catchAndReturn(element))
    }

    /// This sequence as an ``Infallible`` that switches to `infallible` instead
    /// of failing.
    ///
    /// ```
    /// source:                               --1--2--#
    /// fallback:                                     -8-9-|
    /// asInfallible(onErrorFallbackTo: fallback):
    ///                                       --1--2---8-9-|
    /// ```
    ///
    /// Completes when the source completes or, after an error, when `infallible`
    /// completes; never fails.
    @_alwaysEmitIntoClient
    public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>) -> Infallible<Element> {
        let fallback = infallible.asObservable()
        return Infallible(asObservable().catch { _ in fallback })
    }

    /// This sequence as an ``Infallible`` that switches to the sequence
    /// `onErrorRecover` returns for the error instead of failing.
    ///
    /// ```
    /// source:                        --1--2--#
    /// asInfallible(onErrorRecover: { _ in .just(0) }):
    ///                                --1--2--(0|)
    /// ```
    ///
    /// Completes when the source completes or, after an error, when the recovery
    /// sequence completes; never fails.
    @_alwaysEmitIntoClient
    public func asInfallible(onErrorRecover: @escaping (Swift.Error) -> Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { onErrorRecover($0).asObservable() })
    }
}

extension PublishRelay {
    /// The relay as an ``Infallible`` (a relay can neither fail nor complete).
    ///
    /// ```
    /// accept:          --1--2--3--
    /// asInfallible():  --1--2--3--
    /// ```
    @_alwaysEmitIntoClient
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

extension BehaviorRelay {
    /// The relay as an ``Infallible`` (a relay can neither fail nor complete);
    /// each subscriber first receives the current value.
    ///
    /// ```
    /// value 0, accept:  ---1--2--
    /// asInfallible():   0--1--2--
    /// ```
    @_alwaysEmitIntoClient
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

extension ReplayRelay {
    /// The relay as an ``Infallible`` (a relay can neither fail nor complete);
    /// each subscriber first receives the buffered elements.
    ///
    /// ```
    /// accept 1, then:   ---2--3--
    /// asInfallible():   1--2--3--
    /// ```
    @_alwaysEmitIntoClient
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

// MARK: - Subscribing

extension InfallibleType {
    /// Subscribes a closure that receives every event (`.next` and at most one
    /// `.completed`; never `.error`).
    ///
    /// - Isolation: called from main-actor code in Swift 6, `on` runs on the main
    ///   actor only; see "Main-actor code and background events" in the Swift
    ///   concurrency guide.
    /// - Returns: The subscription. It is released when disposed or when the
    ///   sequence completes.
    @available(swift, introduced: 6)
    @_alwaysEmitIntoClient
    public func subscribe(
        _ on: @escaping (Event<Element>) -> Void,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        asObservable().subscribe(on, delivery: .forSubscriber(isolation, "subscribe(_:)"))
    }

    /// Subscribes a closure that receives every event (Swift 5 language mode: it
    /// runs where the events arrive, as in RxSwift).
    @available(swift, obsoleted: 6)
    @_alwaysEmitIntoClient
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        asObservable().subscribe(on, delivery: nil)
    }

    /// Subscribes handlers for elements and completion; no error handler is
    /// needed, an `Infallible` never fails.
    ///
    /// `onDisposed` runs once, after `onCompleted` or when the subscription is
    /// disposed.
    ///
    /// ```swift
    /// relay.asInfallible()
    ///     .subscribe(onNext: { print($0) })
    ///     .disposed(by: bag)
    /// ```
    ///
    /// - Isolation: called from main-actor code in Swift 6, the handlers run on
    ///   the main actor only, as with `Observable`'s `subscribe(onNext:...)`.
    @available(swift, introduced: 6)
    @_alwaysEmitIntoClient
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        asObservable().subscribe(
            onNext: onNext, onError: nil, onCompleted: onCompleted, onDisposed: onDisposed,
            delivery: .forSubscriber(isolation, "subscribe(onNext:onCompleted:onDisposed:)")
        )
    }

    /// Subscribes handlers for elements and completion (Swift 5 language mode:
    /// they run where the events arrive, as in RxSwift).
    @available(swift, obsoleted: 6)
    @_alwaysEmitIntoClient
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(onNext: onNext, onError: nil, onCompleted: onCompleted, onDisposed: onDisposed, delivery: nil)
    }

    /// Subscribes handlers that receive `object` (held weakly) as their first
    /// argument; once `object` is gone, events are ignored.
    ///
    /// ```swift
    /// viewModel.title
    ///     .subscribe(with: self, onNext: { owner, title in owner.label = title })
    ///     .disposed(by: bag)
    /// ```
    ///
    /// - Isolation: called from main-actor code in Swift 6, the handlers run on
    ///   the main actor only, as with `Observable`'s `subscribe(onNext:...)`.
    @available(swift, introduced: 6)
    @_alwaysEmitIntoClient
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        asObservable().subscribe(
            with: object, onNext: onNext, onError: nil, onCompleted: onCompleted, onDisposed: onDisposed,
            delivery: .forSubscriber(isolation, "subscribe(with:onNext:onCompleted:onDisposed:)")
        )
    }

    /// Subscribes handlers that receive `object` (held weakly) as their first
    /// argument (Swift 5 language mode: they run where the events arrive, as in
    /// RxSwift).
    @available(swift, obsoleted: 6)
    @_alwaysEmitIntoClient
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(
            with: object, onNext: onNext, onError: nil, onCompleted: onCompleted, onDisposed: onDisposed,
            delivery: nil
        )
    }
}
