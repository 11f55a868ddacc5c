extension ObservableType {
    /// Passes on an element only after `dueTime` has passed without the source
    /// sending another one; each new element restarts the wait and replaces the
    /// pending one.
    ///
    /// When the source completes, the pending element (if any) is passed on at
    /// once, then the completion. When the source fails, the pending element is
    /// dropped and the error passed on at once.
    ///
    /// ```
    /// source:                 --1-2-3--------4--|
    /// debounce(3, scheduler): ---------3--------(4|)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Producer(site: SiteLiteral("debounce")) { observer in
            let sink = DebounceSink<Element>(observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { event in
                switch event {
                case .next(let element):
                    // After the update, the element replaced: released after
                    // the lock (see `SerializingSink`).
                    var element: Element? = element
                    let id = sink.update { state, _ -> UInt64 in
                        state.id &+= 1
                        swap(&state.pending, &element)
                        return state.id
                    }
                    sink.timer.disposable = scheduler.scheduleRelative(id, dueTime: dueTime) { id in
                        sink.update { state, outbox in
                            if state.id == id, let pending = state.pending {
                                state.pending = nil
                                outbox.next(pending)
                            }
                        }
                        return Disposables.create()
                    }
                case .error:
                    var dropped: Element?  // released after the lock
                    sink.update { state, outbox in
                        swap(&state.pending, &dropped)
                        outbox.terminate(event)
                    }
                case .completed:
                    sink.update { state, outbox in
                        if let pending = state.pending {
                            state.pending = nil
                            outbox.next(pending)
                        }
                        outbox.terminate(event)
                    }
                }
            }))
            return sink
        }
    }
}

/// `debounce`'s state: the number of the latest element, and the element
/// waiting for its quiet period (a tuple: see "State is a tuple" in
/// docs/Architecture.md).
@usableFromInline
typealias DebounceState<Element> = (id: UInt64, pending: Element?)

@usableFromInline
final class DebounceSink<Element>: SerializingSink<DebounceState<Element>, Element>, @unchecked Sendable {
    @usableFromInline
    let timer: SerialDisposable

    @_alwaysEmitIntoClient
    init(observer: AnyObserver<Element>) {
        timer = SerialDisposable()
        super.init(state: (id: 0, pending: nil), observer: observer)
    }

    override func disposeResources() {
        timer.dispose()
        var dropped: Element?  // released after the lock (see `SerializingSink`)
        withState { swap(&$0.pending, &dropped) }
    }
}
