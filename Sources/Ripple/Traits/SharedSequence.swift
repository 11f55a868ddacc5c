import Foundation

/// How a ``SharedSequence`` delivers and shares its elements: ``Driver`` and
/// ``Signal`` are the two strategies Ripple ships (RxCocoa's).
///
/// A strategy names the scheduler that elements are delivered on and how one
/// subscription to the source is shared between subscribers. Write your own to
/// get a sharing sequence with other rules, and build it with
/// ``ObservableConvertibleType/asSharedSequence(sharingStrategy:onErrorJustReturn:)``.
public protocol SharingStrategyProtocol {
    /// The scheduler elements are delivered on. Read when a sequence is created.
    static var scheduler: SchedulerType { get }

    /// Shares `source` between subscribers (for example with
    /// ``ObservableType/share(replay:scope:)``).
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// A type that can be turned into a ``SharedSequence``.
public protocol SharedSequenceConvertibleType: ObservableConvertibleType {
    /// The sharing strategy of the sequence.
    associatedtype SharingStrategy: SharingStrategyProtocol

    /// The sequence as a ``SharedSequence``.
    func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

extension SharedSequenceConvertibleType {
    /// The shared sequence as an ``Observable``: a type that implements only
    /// ``asSharedSequence()`` gets `asObservable()` from it, as in RxCocoa.
    // Disfavoured for the reason given on `ObservableType.asObservable()`:
    // `SharedSequence` declares its own.
    @_alwaysEmitIntoClient
    @_disfavoredOverload
    public func asObservable() -> Observable<Element> {
        asSharedSequence().asObservable()
    }
}

/// A sequence for UI code, with guarantees the compiler enforces: it never
/// fails, it delivers its elements on its strategy's scheduler (the main
/// scheduler by default), and its subscribers share one subscription to the
/// source.
///
/// Use it through its two strategies: ``Driver`` (state: it replays the latest
/// element to each new subscriber) and ``Signal`` (events: no replay). Build one
/// from any sequence by saying what replaces its error
/// (`asDriver(onErrorJustReturn:)`, `asSignal(onErrorSignalWith:)`, ...), or
/// from a relay (`behaviorRelay.asDriver()`, `publishRelay.asSignal()`). Each
/// operator returns a new shared sequence of the same strategy.
///
/// Unlike RxCocoa's, Ripple's `Driver` and `Signal` work on Linux too. Tests
/// replace the main scheduler with ``SharingScheduler/mock(scheduler:action:)``.
///
/// ```
/// source:                             --1--2--#
/// asDriver(onErrorJustReturn: 0):     --1--2--(0|)   (on the main scheduler, shared)
/// ```
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>: SharedSequenceConvertibleType, @unchecked Sendable {
    @usableFromInline
    let source: Observable<Element>

    /// Shares `source` with the strategy. `source` must never fail and must
    /// deliver on the strategy's scheduler. (`package`: RippleCollections'
    /// `asDriver()` builds its Driver this way; `@usableFromInline`: the
    /// generated `combineLatest`/`zip` forms are emitted into their callers.)
    @usableFromInline
    package init(_ source: Observable<Element>) {
        self.source = SharingStrategy.share(source)
    }

    /// Wraps `source` as it is (a sequence that needs no sharing, such as `just`).
    @usableFromInline
    init(raw source: Observable<Element>) {
        self.source = source
    }

    /// The sequence as an ``Observable`` (which never fails).
    @_alwaysEmitIntoClient
    public func asObservable() -> Observable<Element> {
        source
    }

    /// `self`.
    @_alwaysEmitIntoClient
    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> {
        self
    }
}

// MARK: - Creating

extension SharedSequence {
    /// Completes, without elements, on the sharing scheduler.
    ///
    /// ```
    /// empty():  |
    /// ```
    @_alwaysEmitIntoClient
    public static func empty() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.empty().subscribe(on: SharingStrategy.scheduler))
    }

    /// Never sends anything.
    ///
    /// ```
    /// never():  ----------...
    /// ```
    @_alwaysEmitIntoClient
    public static func never() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.never())
    }

    /// `element`, then completion, on the sharing scheduler (each subscriber gets
    /// them).
    ///
    /// ```
    /// just(1):  (1|)
    /// ```
    @_alwaysEmitIntoClient
    public static func just(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.just(element).subscribe(on: SharingStrategy.scheduler))
    }

    /// Calls `observableFactory` when the first subscriber arrives and shares
    /// the sequence it returns.
    ///
    /// ```
    /// deferred { .just(now()) }:  (t|)
    /// ```
    @_alwaysEmitIntoClient
    public static func deferred(_ observableFactory: @escaping () -> SharedSequence<SharingStrategy, Element>) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.deferred { observableFactory().asObservable() })
    }

    /// The elements, then completion, on the sharing scheduler (each subscriber
    /// gets them all).
    ///
    /// ```
    /// of(1, 2, 3):  (123|)
    /// ```
    @_alwaysEmitIntoClient
    public static func of(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
        from(elements)
    }

    /// The array's elements, then completion, on the sharing scheduler.
    ///
    /// ```
    /// from([1, 2, 3]):  (123|)
    /// ```
    @_alwaysEmitIntoClient
    public static func from(_ array: [Element]) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(array, scheduler: SharingStrategy.scheduler))
    }

    /// The sequence's elements, then completion, on the sharing scheduler.
    ///
    /// ```
    /// from(1...3):  (123|)
    /// ```
    @_alwaysEmitIntoClient
    public static func from<Source: Swift.Sequence>(_ sequence: Source) -> SharedSequence<SharingStrategy, Element>
    where Source.Element == Element {
        SharedSequence(raw: Observable.from(sequence, scheduler: SharingStrategy.scheduler))
    }

    /// One element if `optional` is not `nil`, then completion, on the sharing
    /// scheduler.
    ///
    /// ```
    /// from(optional: 1):    (1|)
    /// from(optional: nil):  |
    /// ```
    @_alwaysEmitIntoClient
    public static func from(optional: Element?) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(optional: optional, scheduler: SharingStrategy.scheduler))
    }
}

extension SharedSequence where Element: RxAbstractInteger {
    /// Emits 0, 1, 2, ... every `period` on the sharing scheduler, forever;
    /// subscribers share one timer.
    ///
    /// ```
    /// interval(10):  ---------0---------1---------2--...
    /// ```
    @_alwaysEmitIntoClient
    public static func interval(_ period: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.interval(period, scheduler: SharingStrategy.scheduler))
    }

    /// Emits 0 after `dueTime`, then 1, 2, ... every `period`, on the sharing
    /// scheduler; never completes. (`period` is required, as in RxSwift: a
    /// one-shot timer is `Observable.timer(_:scheduler:)` then `asDriver`.)
    ///
    /// ```
    /// timer(5, period: 10):  ----0---------1---------2--...
    /// ```
    @_alwaysEmitIntoClient
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.timer(dueTime, period: period, scheduler: SharingStrategy.scheduler))
    }
}

// MARK: - Converting

extension ObservableConvertibleType {
    /// This sequence as a ``SharedSequence`` of strategy `S`, which emits
    /// `onErrorJustReturn` and completes instead of failing.
    ///
    /// ```
    /// source:                                   --1--2--#
    /// asSharedSequence(onErrorJustReturn: 0):   --1--2--(0|)
    /// ```
    ///
    /// Events are delivered on `S.scheduler`; the result is shared with `S.share`.
    @_alwaysEmitIntoClient
    public func asSharedSequence<S: SharingStrategyProtocol>(
        sharingStrategy: S.Type = S.self, onErrorJustReturn: Element
    ) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catchAndReturn(onErrorJustReturn))
    }

    /// This sequence as a ``SharedSequence`` of strategy `S`, which continues with
    /// `onErrorDriveWith` instead of failing.
    ///
    /// ```
    /// source:                                          --1--2--#
    /// fallback:                                                -9-|
    /// asSharedSequence(onErrorDriveWith: fallback):    --1--2---9-|
    /// ```
    @_alwaysEmitIntoClient
    public func asSharedSequence<S: SharingStrategyProtocol>(
        sharingStrategy: S.Type = S.self, onErrorDriveWith: SharedSequence<S, Element>
    ) -> SharedSequence<S, Element> {
        let fallback = onErrorDriveWith.asObservable()
        return SharedSequence(asObservable().observe(on: S.scheduler).catch { _ in fallback })
    }

    /// This sequence as a ``SharedSequence`` of strategy `S`, which continues with
    /// the sequence `onErrorRecover` returns for the error instead of failing.
    ///
    /// ```
    /// source:                                                 --1--2--#
    /// asSharedSequence(onErrorRecover: { _ in .just(0) }):    --1--2--(0|)
    /// ```
    @_alwaysEmitIntoClient
    public func asSharedSequence<S: SharingStrategyProtocol>(
        sharingStrategy: S.Type = S.self, onErrorRecover: @escaping (_ error: Swift.Error) -> SharedSequence<S, Element>
    ) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catch { onErrorRecover($0).asObservable() })
    }
}

extension SharedSequenceConvertibleType {
    /// The sequence as an ``Infallible`` (it already cannot fail); it keeps
    /// delivering on the sharing scheduler.
    ///
    /// ```
    /// driver:          --1--2--
    /// asInfallible():  --1--2--
    /// ```
    @_alwaysEmitIntoClient
    public func asInfallible() -> Infallible<Element> {
        Infallible(asSharedSequence().asObservable())
    }
}

/// Reports a drive/emit call made off the main thread, which RxCocoa stops the
/// program for, unless a ``SharingScheduler`` mock is active. The main queue
/// counts as the main thread: on Linux, after `dispatchMain()`, a worker thread
/// drains it.
@usableFromInline
func checkMainThreadSubscription(_ method: String) {
    if !SharingScheduler.isMocked && !MainActorDelivery.isOnMainActor {
        Hooks.reportContractViolation(
            "\(method) can only be called from the main thread (or inside SharingScheduler.mock)"
        )
    }
}
