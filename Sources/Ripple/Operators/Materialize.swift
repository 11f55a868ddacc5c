extension ObservableType {
    /// Turns every event, terminal ones included, into an element; completes
    /// after the element for the source's terminal event. Never fails.
    ///
    /// ```
    /// source:          --1--2--#
    /// materialize():   --next(1)--next(2)--(error(#)|)
    /// ```
    @_alwaysEmitIntoClient
    public func materialize() -> Observable<Event<Element>> {
        let source = asObservable()
        return Producer(site: SiteLiteral("materialize")) { observer in
            let sink = ForwardingSink(observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { event in
                sink.forwardNext(event)
                if event.isStopEvent {
                    sink.forwardCompleted()
                }
            }))
            return sink
        }
    }
}

extension ObservableType where Element: EventConvertible {
    /// Turns elements that are events back into events: the inverse of
    /// ``ObservableType/materialize()``.
    ///
    /// Completes or fails at the first `.completed` or `.error` element (and
    /// disposes the source), or with the source itself.
    ///
    /// ```
    /// source:           --next(1)--next(2)--error(#)--
    /// dematerialize():  --1--------2--------#
    /// ```
    @_alwaysEmitIntoClient
    public func dematerialize() -> Observable<Element.Element> {
        let source = asObservable()
        return Producer(site: SiteLiteral("dematerialize")) { observer in
            let sink = ForwardingSink(observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { event in
                switch event {
                case .next(let element):
                    sink.forward(element.event)
                case .error(let error):
                    sink.forwardError(error)
                case .completed:
                    sink.forwardCompleted()
                }
            }))
            return sink
        }
    }
}
