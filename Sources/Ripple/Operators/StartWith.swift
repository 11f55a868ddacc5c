extension ObservableType {
    /// Sends `elements` first, then the source's events.
    ///
    /// ```
    /// source:           --3--4--|
    /// startWith(1, 2):  12--3--4--|
    /// ```
    @_alwaysEmitIntoClient
    public func startWith(_ elements: Element...) -> Observable<Element> {
        let source = asObservable()
        return Producer(site: SiteLiteral("startWith")) { observer in
            let sink = ForwardingSink(observer: observer)
            for element in elements {
                sink.forwardNext(element)
                if sink.isDisposed { return sink }
            }
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.forward($0) }))
            return sink
        }
    }
}
