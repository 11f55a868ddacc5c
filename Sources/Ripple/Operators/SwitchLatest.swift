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
    public func switchLatest() -> Observable<Element.Element> {
        let source = asObservable()
        return Producer { observer in
            let sink = SwitchSink<Element, Element.Element>(selector: { $0.asObservable() }, observer: observer)
            sink.run(outer: source)
            return sink
        }
    }
}

struct SwitchState {
    /// The identifier of the latest inner subscription.
    var latest: UInt64 = 0
    /// The latest inner sequence has not completed yet.
    var hasLatest = false
    var outerDone = false
    /// A terminal event has been put in the outbox.
    var terminated = false
}

/// The engine of `flatMapLatest` and `switchLatest`: one inner subscription at a
/// time, in a `SerialDisposable`; events of superseded inner subscriptions are
/// recognised by their identifier and dropped.
final class SwitchSink<SourceElement, Element>: SerializingSink<SwitchState, Element>, @unchecked Sendable {
    private let selector: (SourceElement) throws -> Observable<Element>
    private let current = SerialDisposable()

    init(selector: @escaping (SourceElement) throws -> Observable<Element>, observer: AnyObserver<Element>) {
        self.selector = selector
        super.init(state: SwitchState(), observer: observer)
    }

    func run(outer: Observable<SourceElement>) {
        setUpstream(outer.subscribe(sink: AnyObserver { self.outerOn($0) }))
    }

    private func outerOn(_ event: Event<SourceElement>) {
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
            let id = update { state, _ -> UInt64? in
                if state.terminated { return nil }
                state.latest &+= 1
                state.hasLatest = true
                return state.latest
            }
            guard let id else { return }
            let inner = CombiningSubscription<Element> { [self] event, _ in
                innerOn(event, id: id)
            }
            // Disposes the previous inner subscription before subscribing to the new one.
            current.disposable = inner
            inner.subscribe(to: source)
        case .error(let error):
            fail(error)
        case .completed:
            update { state, outbox in
                state.outerDone = true
                if !state.terminated && !state.hasLatest {
                    state.terminated = true
                    outbox.terminate(.completed)
                }
            }
        }
    }

    private func innerOn(_ event: Event<Element>, id: UInt64) {
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

    private func fail(_ error: Swift.Error) {
        update { state, outbox in
            if state.terminated { return }
            state.terminated = true
            outbox.terminate(.error(error))
        }
    }

    override func disposeResources() {
        current.dispose()
    }
}
