/// The sharing strategy of ``Driver``: elements are delivered on
/// `SharingScheduler.make()` (the main scheduler by default), and subscribers
/// share one subscription that replays the latest element to each newcomer
/// (`share(replay: 1, scope: .whileConnected)`).
public struct DriverSharingStrategy: SharingStrategyProtocol, Sendable {
    /// `SharingScheduler.make()`: a main scheduler, or the mock of
    /// ``SharingScheduler/mock(scheduler:action:)``.
    public static var scheduler: SchedulerType {
        SharingScheduler.make()
    }

    /// `source.share(replay: 1, scope: .whileConnected)`.
    @_alwaysEmitIntoClient
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 1, scope: .whileConnected)
    }
}

/// UI state: a sequence that never fails, delivers on the main scheduler, and
/// shares one subscription that replays its latest element to every new
/// subscriber (like a property: whoever binds late still sees the current
/// value).
///
/// ```swift
/// let title: Driver<String> = api.user(id)
///     .map { $0.name }
///     .asDriver(onErrorJustReturn: "Unknown")
/// title.drive(titleLabel.rx.text).disposed(by: bag)
/// ```
///
/// ```
/// source:                          --a--b--#
/// asDriver(onErrorJustReturn: x):  --a--b--(x|)
///   subscriber A:                  --a--b--(x|)
///   subscriber B (joins after a):     a-b--(x|)   (gets the latest at once)
/// ```
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// The sequence as a ``Driver``.
    @_alwaysEmitIntoClient
    public func asDriver() -> Driver<Element> {
        asSharedSequence()
    }
}

// MARK: - Converting

extension ObservableConvertibleType {
    /// This sequence as a ``Driver`` that emits `onErrorJustReturn` and completes
    /// instead of failing. Elements are delivered on the sharing scheduler and
    /// shared (the latest one is replayed to new subscribers).
    ///
    /// ```
    /// source:                          --1--2--#
    /// asDriver(onErrorJustReturn: 0):  --1--2--(0|)
    /// ```
    ///
    /// Completes when the source completes, or right after `onErrorJustReturn`.
    @_alwaysEmitIntoClient
    public func asDriver(onErrorJustReturn: Element) -> Driver<Element> {
        asSharedSequence(sharingStrategy: DriverSharingStrategy.self, onErrorJustReturn: onErrorJustReturn)
    }

    /// This sequence as a ``Driver`` that continues with `onErrorDriveWith`
    /// instead of failing (`.empty()` to just complete).
    ///
    /// ```
    /// source:                            --1--2--#
    /// fallback:                                  -9-|
    /// asDriver(onErrorDriveWith: fallback): --1--2---9-|
    /// ```
    @_alwaysEmitIntoClient
    public func asDriver(onErrorDriveWith: Driver<Element>) -> Driver<Element> {
        asSharedSequence(sharingStrategy: DriverSharingStrategy.self, onErrorDriveWith: onErrorDriveWith)
    }

    /// This sequence as a ``Driver`` that continues with the driver
    /// `onErrorRecover` returns for the error instead of failing.
    ///
    /// ```
    /// source:                                        --1--2--#
    /// asDriver(onErrorRecover: { _ in .just(0) }):   --1--2--(0|)
    /// ```
    @_alwaysEmitIntoClient
    public func asDriver(onErrorRecover: @escaping (_ error: Swift.Error) -> Driver<Element>) -> Driver<Element> {
        asSharedSequence(sharingStrategy: DriverSharingStrategy.self, onErrorRecover: onErrorRecover)
    }
}

extension InfallibleType {
    /// The sequence as a ``Driver``: delivered on the sharing scheduler and
    /// shared, replaying the latest element to new subscribers.
    ///
    /// ```
    /// source:      --1--2--|
    /// asDriver():  --1--2--|
    /// ```
    @_alwaysEmitIntoClient
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}

extension BehaviorRelay {
    /// The relay as a ``Driver``: its current value first, then every accepted
    /// value, delivered on the sharing scheduler. Never fails or completes.
    ///
    /// ```
    /// value 0, accept:  ---1--2--
    /// asDriver():       0--1--2--
    /// ```
    @_alwaysEmitIntoClient
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}

// MARK: - Driving

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Sends every element (and completion) to each observer, typically a
    /// ``Binder``.
    ///
    /// ```swift
    /// viewModel.isLoading.drive(spinner.rx.isAnimating).disposed(by: bag)
    /// ```
    ///
    /// ```
    /// driver:    --1--2--
    /// observer:  --1--2--
    /// ```
    ///
    /// Like RxCocoa, expects to be called on the main queue (or inside a
    /// ``SharingScheduler`` mock); otherwise the call is reported to
    /// ``Hooks/contractViolationHandler``.
    ///
    /// Elements arrive on the main queue (``MainScheduler``). Under `dispatchMain()`
    /// on Linux that queue runs on a worker thread, so `Thread.isMainThread` is
    /// `false` there: check the queue
    /// (`dispatchPrecondition(condition: .onQueue(.main))`) rather than the thread,
    /// or run `RunLoop.main.run()` instead.
    @_alwaysEmitIntoClient
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable where Observer.Element == Element {
        checkMainThreadSubscription("drive")
        return asSharedSequence().asObservable().subscribe { event in
            observers.forEach { $0.on(event) }
        }
    }

    /// Sends every element, wrapped in an optional, to each observer.
    @_alwaysEmitIntoClient
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable where Observer.Element == Element? {
        checkMainThreadSubscription("drive")
        return asSharedSequence().asObservable().subscribe { event in
            let optional = event.map { Optional($0) }
            observers.forEach { $0.on(optional) }
        }
    }

    /// Feeds every element into the relays, as their current value; completion
    /// ends the binding, the relays stay open.
    ///
    /// ```
    /// driver:  --1--2--|
    /// relay:   --1--2-----
    /// ```
    public func drive(_ relays: BehaviorRelay<Element>...) -> Disposable {
        driveRelays("drive", relays.map { relay in relay.accept })
    }

    /// Feeds every element, wrapped in an optional, into the relays.
    public func drive(_ relays: BehaviorRelay<Element?>...) -> Disposable {
        driveRelays("drive", relays.map { relay in { relay.accept($0) } })
    }

    /// Feeds every element into the relays.
    public func drive(_ relays: ReplayRelay<Element>...) -> Disposable {
        driveRelays("drive", relays.map { relay in relay.accept })
    }

    /// Feeds every element, wrapped in an optional, into the relays.
    public func drive(_ relays: ReplayRelay<Element?>...) -> Disposable {
        driveRelays("drive", relays.map { relay in { relay.accept($0) } })
    }

    /// Passes the driver's observable to `transformation` and returns its
    /// result: the hook for custom drive functions.
    @_alwaysEmitIntoClient
    public func drive<Result>(_ transformation: (Observable<Element>) -> Result) -> Result {
        checkMainThreadSubscription("drive")
        return transformation(asObservable())
    }

    /// Passes the driver's observable and `curriedArgument` to a curried drive
    /// function.
    @_alwaysEmitIntoClient
    public func drive<R1, R2>(_ with: (Observable<Element>) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        checkMainThreadSubscription("drive")
        return with(asObservable())(curriedArgument)
    }

    /// Calls the handlers with `object` (held weakly) for each element and on
    /// completion; once `object` is gone, events are ignored. `onDisposed` runs
    /// once, after completion or disposal.
    ///
    /// ```swift
    /// viewModel.title
    ///     .drive(with: self, onNext: { owner, title in owner.label.text = title })
    ///     .disposed(by: bag)
    /// ```
    ///
    /// - Isolation: called from main-actor code in Swift 6, the handlers run on
    ///   the main actor only, as with ``drive(onNext:onCompleted:onDisposed:isolation:)``.
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    public func drive<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        drive(
            with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed,
            delivery: .forSubscriber(isolation, "drive(with:onNext:onCompleted:onDisposed:)")
        )
    }

    /// Calls the handlers with `object` (held weakly) for each element and on
    /// completion (Swift 5 language mode: not checked for isolation).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func drive<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        drive(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed, delivery: nil)
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func drive<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)?,
        onCompleted: ((Object) -> Void)?,
        onDisposed: ((Object) -> Void)?,
        delivery: MainActorGate?
    ) -> Disposable {
        checkMainThreadSubscription("drive")
        return asObservable().subscribe(
            with: object, onNext: onNext, onError: nil, onCompleted: onCompleted, onDisposed: onDisposed,
            delivery: delivery
        )
    }

    /// Calls `onNext` for each element and `onCompleted` on completion;
    /// `onDisposed` runs once, after completion or disposal.
    ///
    /// ```
    /// driver:  --1--2--|
    /// onNext:    1  2          onCompleted at |, then onDisposed
    /// ```
    ///
    /// - Isolation: called from main-actor code in Swift 6, the handlers run on
    ///   the main actor only: a driver whose ``SharingScheduler`` is mocked with
    ///   a background scheduler is reported; see "Main-actor code and background
    ///   events" in the Swift concurrency guide.
    @_alwaysEmitIntoClient
    @available(swift, introduced: 6)
    public func drive(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation
    ) -> Disposable {
        drive(
            onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed,
            delivery: .forSubscriber(isolation, "drive(onNext:onCompleted:onDisposed:)")
        )
    }

    /// Calls `onNext` for each element and `onCompleted` on completion (Swift 5
    /// language mode: not checked for isolation).
    @_alwaysEmitIntoClient
    @available(swift, obsoleted: 6)
    public func drive(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        drive(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed, delivery: nil)
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    func drive(
        onNext: ((Element) -> Void)?,
        onCompleted: (() -> Void)?,
        onDisposed: (() -> Void)?,
        delivery: MainActorGate?
    ) -> Disposable {
        checkMainThreadSubscription("drive")
        return asObservable().subscribe(
            onNext: onNext, onError: nil, onCompleted: onCompleted, onDisposed: onDisposed, delivery: delivery
        )
    }

    /// Subscribes without handlers (keeps the shared subscription alive).
    @_alwaysEmitIntoClient
    public func drive() -> Disposable {
        drive(onNext: nil, onCompleted: nil, onDisposed: nil, delivery: nil)
    }

    private func driveRelays(_ method: String, _ accepts: [(Element) -> Void]) -> Disposable {
        checkMainThreadSubscription(method)
        return asObservable().subscribe(onNext: { element in accepts.forEach { $0(element) } })
    }
}
