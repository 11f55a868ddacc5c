/// The sharing strategy of ``Signal``: elements are delivered on
/// `SharingScheduler.make()` (the main scheduler by default), and subscribers
/// share one subscription without replay (`share(scope: .whileConnected)`).
public struct SignalSharingStrategy: SharingStrategyProtocol, Sendable {
    /// `SharingScheduler.make()`: a main scheduler, or the mock of
    /// ``SharingScheduler/mock(scheduler:action:)``.
    public static var scheduler: SchedulerType {
        SharingScheduler.make()
    }

    /// `source.share(scope: .whileConnected)`.
    @_alwaysEmitIntoClient
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(scope: .whileConnected)
    }
}

/// UI events: a sequence that never fails, delivers on the main scheduler, and
/// shares one subscription without replay (like a tap: whoever subscribes late
/// does not see the past ones).
///
/// ```swift
/// let taps: Signal<Void> = button.rx.tap.asSignal()
/// taps.emit(onNext: { print("tapped") }).disposed(by: bag)
/// ```
///
/// ```
/// source:                           --a--b--#
/// asSignal(onErrorJustReturn: x):   --a--b--(x|)
///   subscriber A:                   --a--b--(x|)
///   subscriber B (joins after a):      ---b--(x|)   (nothing replayed)
/// ```
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// The sequence as a ``Signal``.
    @_alwaysEmitIntoClient
    public func asSignal() -> Signal<Element> {
        asSharedSequence()
    }
}

// MARK: - Converting

extension ObservableConvertibleType {
    /// This sequence as a ``Signal`` that emits `onErrorJustReturn` and completes
    /// instead of failing. Elements are delivered on the sharing scheduler and
    /// shared without replay.
    ///
    /// ```
    /// source:                          --1--2--#
    /// asSignal(onErrorJustReturn: 0):  --1--2--(0|)
    /// ```
    @_alwaysEmitIntoClient
    public func asSignal(onErrorJustReturn: Element) -> Signal<Element> {
        asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorJustReturn: onErrorJustReturn)
    }

    /// This sequence as a ``Signal`` that continues with `onErrorSignalWith`
    /// instead of failing (`.empty()` to just complete).
    ///
    /// ```
    /// source:                                --1--2--#
    /// fallback:                                      -9-|
    /// asSignal(onErrorSignalWith: fallback): --1--2---9-|
    /// ```
    @_alwaysEmitIntoClient
    public func asSignal(onErrorSignalWith: Signal<Element>) -> Signal<Element> {
        asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorDriveWith: onErrorSignalWith)
    }

    /// This sequence as a ``Signal`` that continues with the signal
    /// `onErrorRecover` returns for the error instead of failing.
    ///
    /// ```
    /// source:                                       --1--2--#
    /// asSignal(onErrorRecover: { _ in .just(0) }):  --1--2--(0|)
    /// ```
    @_alwaysEmitIntoClient
    public func asSignal(onErrorRecover: @escaping (_ error: Swift.Error) -> Signal<Element>) -> Signal<Element> {
        asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorRecover: onErrorRecover)
    }
}

extension InfallibleType {
    /// The sequence as a ``Signal``: delivered on the sharing scheduler and
    /// shared without replay.
    ///
    /// ```
    /// source:      --1--2--|
    /// asSignal():  --1--2--|
    /// ```
    @_alwaysEmitIntoClient
    public func asSignal() -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler))
    }
}

extension PublishRelay {
    /// The relay as a ``Signal``: every accepted value, delivered on the sharing
    /// scheduler. Never fails or completes.
    ///
    /// ```
    /// accept:      --1--2--
    /// asSignal():  --1--2--
    /// ```
    @_alwaysEmitIntoClient
    public func asSignal() -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler))
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// The driver as a ``Signal``: the same elements, shared without replay (a
    /// new subscriber of the signal does not receive the driver's latest
    /// element, unless the signal is not yet connected to the driver).
    ///
    /// ```
    /// driver:      --1--2--
    /// asSignal():  --1--2--
    /// ```
    @_alwaysEmitIntoClient
    public func asSignal() -> Signal<Element> {
        Signal(asSharedSequence().asObservable())
    }
}

// MARK: - Emitting

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Sends every element (and completion) to each observer.
    ///
    /// ```
    /// signal:    --1--2--
    /// observer:  --1--2--
    /// ```
    ///
    /// Like RxCocoa, expects to be called on the main thread (or inside a
    /// ``SharingScheduler`` mock); otherwise the call is reported to
    /// ``Hooks/contractViolationHandler``.
    @_alwaysEmitIntoClient
    public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        checkMainThreadSubscription("emit")
        return asSharedSequence().asObservable().subscribe { event in
            observers.forEach { $0.on(event) }
        }
    }

    /// Sends every element, wrapped in an optional, to each observer.
    @_alwaysEmitIntoClient
    public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        checkMainThreadSubscription("emit")
        return asSharedSequence().asObservable().subscribe { event in
            let optional = event.map { Optional($0) }
            observers.forEach { $0.on(optional) }
        }
    }

    /// Feeds every element into the relays, as their current value; completion
    /// ends the binding, the relays stay open.
    public func emit(to relays: BehaviorRelay<Element>...) -> Disposable {
        emitRelays(relays.map { relay in relay.accept })
    }

    /// Feeds every element, wrapped in an optional, into the relays.
    public func emit(to relays: BehaviorRelay<Element?>...) -> Disposable {
        emitRelays(relays.map { relay in { relay.accept($0) } })
    }

    /// Feeds every element into the relays.
    ///
    /// ```
    /// signal:  --1--2--|
    /// relay:   --1--2-----
    /// ```
    public func emit(to relays: PublishRelay<Element>...) -> Disposable {
        emitRelays(relays.map { relay in relay.accept })
    }

    /// Feeds every element, wrapped in an optional, into the relays.
    public func emit(to relays: PublishRelay<Element?>...) -> Disposable {
        emitRelays(relays.map { relay in { relay.accept($0) } })
    }

    /// Feeds every element into the relays.
    public func emit(to relays: ReplayRelay<Element>...) -> Disposable {
        emitRelays(relays.map { relay in relay.accept })
    }

    /// Feeds every element, wrapped in an optional, into the relays.
    public func emit(to relays: ReplayRelay<Element?>...) -> Disposable {
        emitRelays(relays.map { relay in { relay.accept($0) } })
    }

    /// Calls the handlers with `object` (held weakly) for each element and on
    /// completion; once `object` is gone, events are ignored. `onDisposed` runs
    /// once, after completion or disposal.
    ///
    /// - Isolation: called from main-actor code in Swift 6, the handlers run on
    ///   the main actor only, as with ``emit(onNext:onCompleted:onDisposed:isolation:)``.
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    public func emit<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        emit(
            with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed,
            delivery: .forSubscriber(isolation, "emit(with:onNext:onCompleted:onDisposed:)")
        )
    }

    /// Calls the handlers with `object` (held weakly) for each element and on
    /// completion (Swift 5 language mode: not checked for isolation).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func emit<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        emit(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed, delivery: nil)
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func emit<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)?,
        onCompleted: ((Object) -> Void)?,
        onDisposed: ((Object) -> Void)?,
        delivery: MainActorGate?
    ) -> Disposable {
        checkMainThreadSubscription("emit")
        return asObservable().subscribe(
            with: object, onNext: onNext, onError: nil, onCompleted: onCompleted, onDisposed: onDisposed,
            delivery: delivery
        )
    }

    /// Calls `onNext` for each element and `onCompleted` on completion;
    /// `onDisposed` runs once, after completion or disposal.
    ///
    /// ```
    /// signal:  --1--2--|
    /// onNext:    1  2          onCompleted at |, then onDisposed
    /// ```
    ///
    /// - Isolation: called from main-actor code in Swift 6, the handlers run on
    ///   the main actor only: a signal whose ``SharingScheduler`` is mocked with
    ///   a background scheduler is reported; see "Main-actor code and background
    ///   events" in the Swift concurrency guide.
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    public func emit(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        emit(
            onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed,
            delivery: .forSubscriber(isolation, "emit(onNext:onCompleted:onDisposed:)")
        )
    }

    /// Calls `onNext` for each element and `onCompleted` on completion (Swift 5
    /// language mode: not checked for isolation).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func emit(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        emit(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed, delivery: nil)
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func emit(
        onNext: ((Element) -> Void)?,
        onCompleted: (() -> Void)?,
        onDisposed: (() -> Void)?,
        delivery: MainActorGate?
    ) -> Disposable {
        checkMainThreadSubscription("emit")
        return asObservable().subscribe(
            onNext: onNext, onError: nil, onCompleted: onCompleted, onDisposed: onDisposed, delivery: delivery
        )
    }

    /// Subscribes without handlers (keeps the shared subscription alive).
    @_alwaysEmitIntoClient
    public func emit() -> Disposable {
        emit(onNext: nil, onCompleted: nil, onDisposed: nil, delivery: nil)
    }

    private func emitRelays(_ accepts: [(Element) -> Void]) -> Disposable {
        checkMainThreadSubscription("emit")
        return asObservable().subscribe(onNext: { element in accepts.forEach { $0(element) } })
    }
}
