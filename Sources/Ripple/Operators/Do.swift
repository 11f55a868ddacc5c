extension ObservableType {
    /// Runs side effects for each event without changing the sequence.
    ///
    /// `onX` runs before the event is forwarded, `afterX` after it. `onSubscribe`
    /// runs before subscribing to the source, `onSubscribed` after; `onDispose` runs
    /// when the subscription ends (by termination or disposal), after the source's
    /// subscription has been disposed. If a handler throws, the error is forwarded
    /// and the source is disposed.
    ///
    /// When the subscription ends while the source is being subscribed (a
    /// synchronous source that terminates at once, or a downstream that disposes
    /// from its handler), the order is RxSwift's: the source's disposal, then
    /// `onSubscribed`, then `onDispose`.
    ///
    /// ```
    /// source:              --1--2--|
    /// do(onNext: log):     --1--2--|      (log sees 1, 2)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Observable<Element> {
        let source = asObservable()
        let handlers: DoHandlers<Element> = (
            onNext: onNext, afterNext: afterNext, onError: onError, afterError: afterError,
            onCompleted: onCompleted, afterCompleted: afterCompleted, onDispose: onDispose
        )
        return Producer(site: SiteLiteral("do")) { observer in
            onSubscribe?()
            let sink = DoSink(handlers: handlers, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            onSubscribed?()
            sink.subscribed()
            return sink
        }
    }
}

/// `do`'s handlers (a tuple: see "State is a tuple" in docs/Architecture.md).
@usableFromInline
typealias DoHandlers<Element> = (
    onNext: ((Element) throws -> Void)?, afterNext: ((Element) throws -> Void)?,
    onError: ((Swift.Error) throws -> Void)?, afterError: ((Swift.Error) throws -> Void)?,
    onCompleted: (() throws -> Void)?, afterCompleted: (() throws -> Void)?,
    onDispose: (() -> Void)?
)

@usableFromInline
final class DoSink<Element>: Sink<Element>, @unchecked Sendable {
    @usableFromInline
    let handlers: DoHandlers<Element>

    /// `0` while the subscription function runs, `1` once it has called
    /// `onSubscribed`, `2` when the sink was disposed before that: whichever of
    /// ``subscribed()`` and ``disposeResources()`` comes second calls `onDispose`,
    /// so that it follows `onSubscribed`, as in RxSwift (whose sink disposer only
    /// disposes once the subscription function has returned).
    @usableFromInline
    @exclusivity(unchecked) final var phase: AtomicCell<Int>

    @_alwaysEmitIntoClient
    init(handlers: DoHandlers<Element>, observer: AnyObserver<Element>) {
        phase = AtomicCell(0)
        self.handlers = handlers
        super.init(observer: observer)
    }

    @_alwaysEmitIntoClient
    func on(_ event: Event<Element>) {
        guard !isDisposed else { return }
        do {
            switch event {
            case .next(let element):
                try handlers.onNext?(element)
                forwardNext(element)
                try handlers.afterNext?(element)
            case .error(let error):
                try handlers.onError?(error)
                observer.on(event)
                try handlers.afterError?(error)
                dispose()
            case .completed:
                try handlers.onCompleted?()
                observer.on(event)
                try handlers.afterCompleted?()
                dispose()
            }
        } catch {
            forwardError(error)
        }
    }

    /// The subscription function has called `onSubscribed`.
    @_alwaysEmitIntoClient
    func subscribed() {
        guard handlers.onDispose != nil else { return }
        if !AtomicCell.compareExchange(&phase, expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged {
            // Disposed while subscribing: `onDispose` was left to us.
            handlers.onDispose?()
        }
    }

    @usableFromInline
    override func disposeResources() {
        guard handlers.onDispose != nil else { return }
        if AtomicCell.compareExchange(&phase, expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged {
            // Still subscribing: `subscribed()` calls `onDispose` after `onSubscribed`.
            return
        }
        handlers.onDispose?()
    }
}
