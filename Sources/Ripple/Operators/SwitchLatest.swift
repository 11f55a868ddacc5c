extension ObservableType where Element: ObservableConvertibleType {
    /// Forwards the elements of the most recent inner sequence only: each new
    /// inner sequence disposes the previous inner subscription.
    ///
    /// Completes when the outer sequence has completed and the latest inner
    /// sequence has completed. Fails as soon as the outer sequence or the latest
    /// inner sequence fails.
    ///
    /// ```
    /// outer:           --a----b-----------|
    /// a:                 --1----2---3|
    /// b:                      --4---5|
    /// switchLatest():  ----1----4---5-----|   (a is disposed when b arrives)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func switchLatest() -> Observable<Element.Element> {
        #if CompactPipelines
        return asObservable().switchingOnce(site: SiteLiteral("switchLatest")) { $0.asObservable() }
        #else
        let source = asObservable()
        return Producer(site: SiteLiteral("switchLatest")) { observer in
            let sink = SwitchSink<Element, Element.Element>(selector: { $0.asObservable() }, observer: observer)
            sink.run(outer: source)
            return sink
        }
        #endif
    }
}

#if CompactPipelines
extension Observable {
    /// `flatMapLatest` and `switchLatest` compiled once, in Ripple, for every
    /// element type (unspecialised), and called, not inlined, by the app: only
    /// with the package trait `CompactPipelines` (docs/Architecture.md, "Compact
    /// pipelines"). Without it the operators make their `SwitchSink` where they
    /// are applied, specialised for the app's types.
    @usableFromInline
    @inline(never)
    func switchingOnce<Result>(
        site: SiteLiteral, _ selector: @escaping (Element) throws -> Observable<Result>
    ) -> Observable<Result> {
        let source = self
        return Producer(site: site) { observer in
            let sink = SwitchSink<Element, Result>(selector: selector, observer: observer)
            sink.run(outer: source)
            return sink
        }
    }
}
#endif

/// `switchLatest`'s state (a tuple: see "State is a tuple" in docs/Architecture.md):
/// - `latest`: the identifier of the latest inner subscription;
/// - `hasLatest`: the latest inner sequence has not completed yet;
/// - `outerDone`: the outer sequence has completed;
/// - `terminated`: a terminal event has been put in the outbox;
/// - `current`: the latest inner subscription, kept in the state (rather than in
///   a `SerialDisposable`) so that switching costs one lock round trip; held as
///   its base class (the sink only disposes it and asks whether it is disposed),
///   so that the state is one type for every element type, not one per type;
/// - `isReleased`: `disposeResources()` ran, no new inner subscription is made.
@usableFromInline
typealias SwitchState = (
    latest: UInt64, hasLatest: Bool, outerDone: Bool, terminated: Bool,
    current: SubscriptionBase?, isReleased: Bool
)

/// The engine of `flatMapLatest` and `switchLatest`: one inner subscription at a
/// time; events of superseded inner subscriptions are recognised by their
/// identifier and dropped.
///
/// Visible to callers (`@_alwaysEmitIntoClient` methods, `@inlinable`
/// initialisers), so that it is specialised where the operator is applied
/// (with the package trait `CompactPipelines`, it is made in Ripple instead:
/// `Observable.switchingOnce(site:_:)`).
@usableFromInline
final class SwitchSink<SourceElement, Element>: SerializingSink<SwitchState, Element>, @unchecked Sendable {
    @usableFromInline let selector: (SourceElement) throws -> Observable<Element>

    @_alwaysEmitIntoClient
    init(selector: @escaping (SourceElement) throws -> Observable<Element>, observer: AnyObserver<Element>) {
        self.selector = selector
        super.init(
            state: (latest: 0, hasLatest: false, outerDone: false, terminated: false, current: nil, isReleased: false),
            observer: observer)
    }

    @_alwaysEmitIntoClient
    func run(outer: Observable<SourceElement>) {
        setUpstream(outer.subscribe(sink: AnyObserver { self.outerOn($0) }))
    }

    @_alwaysEmitIntoClient
    func outerOn(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            if isDisposed { return }
            let source: Observable<Element>
            do {
                source = try selector(element)
            } catch {
                fail(error)
                return
            }
            switch source.innerSource {
            case .just:
                switchWithoutSubscribing(toJust: source.justElement, orPipeline: nil)
                return
            case .pipeline:
                switchWithoutSubscribing(toJust: nil, orPipeline: source.asPipeline)
                return
            case .subscribe:
                break
            }
            // The handler captures only the sink (no allocation); the inner
            // subscription carries its own identifier.
            let inner = CombiningSubscription<Element> { [self] event, inner in
                innerOn(event, from: inner)
            }
            let switched = update { state, _ -> (accepted: Bool, previous: SubscriptionBase?) in
                if state.terminated || state.isReleased { return (false, nil) }
                state.latest &+= 1
                state.hasLatest = true
                inner.id = state.latest
                let previous = state.current
                state.current = inner
                return (true, previous)
            }
            guard switched.accepted else { return }
            // The previous inner subscription is disposed before the new one is
            // made, outside the lock.
            switched.previous?.dispose()
            inner.subscribe(to: source)
        case .error(let error):
            fail(error)
        case .completed:
            outerCompleted()
        }
    }

    /// The outer sequence completed: completes too unless an inner sequence is
    /// still running. Its update is out of line: it happens once.
    @_alwaysEmitIntoClient
    func outerCompleted() {
        updateOutOfLine { state, outbox in
            state.outerDone = true
            if !state.terminated && !state.hasLatest {
                state.terminated = true
                outbox.terminate(.completed)
            }
        }
        // The outer sequence is done: what its operators captured goes now,
        // not when the latest inner sequence ends (as in RxSwift).
        releaseUpstream()
    }

    /// Switches to an inner `just(element)` or an inner pipeline on a `just`
    /// (exactly one is given) without subscribing to it (see ``InnerSource``):
    /// the previous inner subscription is disposed first, as on the general
    /// path, then the `just`'s element or the pipeline's events (the pipeline
    /// runs outside the lock, as it would in a subscription) are forwarded as
    /// the inner sequence's, and the inner sequence counts as completed.
    ///
    /// A `just` with no previous inner subscription left to dispose (the common
    /// case: the previous inner sequence completed, or was a `just` too) takes
    /// one update; anything else two. One function for both kinds, so that an
    /// app compiles it once per element type.
    @_alwaysEmitIntoClient
    func switchWithoutSubscribing(toJust element: Element?, orPipeline pipeline: Pipeline<Element>?) {
        typealias Switch = (id: UInt64, previous: SubscriptionBase?, forwarded: Bool)
        let switched = update { state, outbox -> Switch? in
            if state.terminated || state.isReleased { return nil }
            state.latest &+= 1
            let previous = state.current
            state.current = nil
            if let element, previous?.isDisposed ?? true {
                state.hasLatest = false
                outbox.next(element)
                // A disposed previous subscription is released after the lock,
                // like every inner subscription.
                return (state.latest, previous, true)
            }
            state.hasLatest = true
            return (state.latest, previous, false)
        }
        guard let switched, !switched.forwarded else { return }
        switched.previous?.dispose()
        let run = pipeline?.runOnJust() ?? (first: element, second: nil, error: nil)
        update { state, outbox in
            guard !state.terminated && state.latest == switched.id else { return }
            outbox.next(elementsOf: run)
            if let error = run.error {
                state.terminated = true
                outbox.terminate(.error(error))
                return
            }
            state.hasLatest = false
            if state.outerDone {
                state.terminated = true
                outbox.terminate(.completed)
            }
        }
    }

    @_alwaysEmitIntoClient
    func innerOn(_ event: Event<Element>, from inner: CombiningSubscription<Element>) {
        let id = inner.id
        update { state, outbox in
            guard !state.terminated && state.latest == id else { return }
            switch event {
            case .next(let element):
                outbox.next(element)
            case .error(let error):
                state.terminated = true
                outbox.terminate(.error(error))
            case .completed:
                state.hasLatest = false
                if state.outerDone {
                    state.terminated = true
                    outbox.terminate(.completed)
                }
            }
        }
    }

    /// The cold path of `outerOn(_:)` (twice) and of the inner sequences: its
    /// update is out of line.
    @_alwaysEmitIntoClient
    func fail(_ error: Swift.Error) {
        updateOutOfLine { state, outbox in
            if state.terminated { return }
            state.terminated = true
            outbox.terminate(.error(error))
        }
    }

    @inlinable
    override func disposeResources() {
        let current = withState { state -> SubscriptionBase? in
            state.isReleased = true
            defer { state.current = nil }
            return state.current
        }
        current?.dispose()
    }
}
