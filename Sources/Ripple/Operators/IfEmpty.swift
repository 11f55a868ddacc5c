extension ObservableType {
    /// Passes on the source's events; if the source completes without any
    /// element, sends `default` first.
    ///
    /// Fails with the source.
    ///
    /// ```
    /// source:               --1--2--|      -----|
    /// ifEmpty(default: 0):  --1--2--|      -----(0|)
    /// ```
    @_alwaysEmitIntoClient
    public func ifEmpty(default: Element) -> Observable<Element> {
        let source = asObservable()
        let defaultElement = `default`
        return Producer(site: SiteLiteral("ifEmpty")) { observer in
            let sink = DefaultIfEmptySink(defaultElement: defaultElement, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }

    /// Passes on the source's events; if the source completes without any
    /// element, continues with `other` instead (subscribed at that moment).
    ///
    /// Completes or fails with the source, or with `other` when it was switched
    /// to.
    ///
    /// ```
    /// source:                     -----|
    /// other:                             --7--8--|
    /// ifEmpty(switchTo: other):     -------7--8--|
    /// ```
    @_alwaysEmitIntoClient
    public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
        let source = asObservable()
        return Producer(site: SiteLiteral("ifEmpty")) { observer in
            let sink = SwitchIfEmptySink(other: other, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

@usableFromInline
final class DefaultIfEmptySink<Element>: Sink<Element>, @unchecked Sendable {
    private let defaultElement: Element
    /// Only touched by serialized upstream events.
    private var isEmpty: Bool

    @usableFromInline
    init(defaultElement: Element, observer: AnyObserver<Element>) {
        isEmpty = true
        self.defaultElement = defaultElement
        super.init(observer: observer)
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            isEmpty = false
            forwardNext(element)
        case .error:
            forwardTerminal(event)
        case .completed:
            if isEmpty {
                forwardNext(defaultElement)
            }
            forwardCompleted()
        }
    }
}

@usableFromInline
final class SwitchIfEmptySink<Element>: Sink<Element>, @unchecked Sendable {
    private let other: Observable<Element>
    private let otherSubscription: SingleAssignmentDisposable
    /// Only touched by serialized upstream events.
    private var isEmpty: Bool

    @usableFromInline
    init(other: Observable<Element>, observer: AnyObserver<Element>) {
        isEmpty = true
        otherSubscription = SingleAssignmentDisposable()
        self.other = other
        super.init(observer: observer)
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            isEmpty = false
            forwardNext(element)
        case .error:
            forwardTerminal(event)
        case .completed:
            guard isEmpty, !isDisposed else {
                forwardCompleted()
                return
            }
            let subscription = other.subscribe(sink: AnyObserver { [self] event in forward(event) })
            otherSubscription.setDisposable(subscription ?? Disposables.create())
        }
    }

    override func disposeResources() {
        otherSubscription.dispose()
    }
}
