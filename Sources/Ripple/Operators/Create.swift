extension ObservableType {
    /// Creates an observable from a subscription function.
    ///
    /// `subscribe` runs for each subscriber: it receives an observer to send events
    /// to and returns a disposable that releases what it set up. Events sent after a
    /// terminal event, or after the subscription was disposed, are ignored.
    ///
    /// ```swift
    /// let numbers = Observable<Int>.create { observer in
    ///     observer.onNext(1)
    ///     observer.onNext(2)
    ///     observer.onCompleted()
    ///     return Disposables.create()
    /// }
    /// // --1--2--|
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> Disposable) -> Observable<Element> {
        Producer(site: SiteLiteral("create")) { observer in
            let sink = AnonymousSink(observer: observer)
            sink.setUpstream(disposable: subscribe(AnyObserver { sink.on($0) }))
            return sink
        }
    }

    /// Calls `observableFactory` for each subscriber and subscribes to what it
    /// returns; if the factory throws, the subscriber receives the error.
    ///
    /// ```
    /// deferred { just(now()) }   each subscriber sees its own subscription time
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public static func deferred(_ observableFactory: @escaping () throws -> Observable<Element>) -> Observable<Element> {
        Producer(site: SiteLiteral("deferred")) { observer in
            let source: Observable<Element>
            do {
                source = try observableFactory()
            } catch {
                observer.on(.error(error))
                return nil
            }
            return source.subscribe(sink: observer)
        }
    }

    /// Creates a resource for each subscriber, builds the sequence from it, and
    /// disposes the resource when the subscription ends (by termination or
    /// disposal). An error thrown by either factory is sent to the subscriber.
    @_alwaysEmitIntoClient
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>
    ) -> Observable<Element> {
        Producer(site: SiteLiteral("using")) { observer in
            let resource: Resource
            do {
                resource = try resourceFactory()
            } catch {
                observer.on(.error(error))
                return nil
            }
            let sink = UsingSink(observer: observer, resource: resource)
            do {
                let source = try observableFactory(resource)
                sink.setUpstream(source.subscribe(sink: AnyObserver { sink.forward($0) }))
            } catch {
                sink.forwardError(error)
            }
            return sink
        }
    }
}

/// Disposes the resource of `using` when the subscription ends.
@usableFromInline
final class UsingSink<Element>: Sink<Element>, @unchecked Sendable {
    private let resource: Disposable

    @usableFromInline
    init(observer: AnyObserver<Element>, resource: Disposable) {
        self.resource = resource
        super.init(observer: observer)
    }

    override func disposeResources() {
        resource.dispose()
    }
}

/// The sink behind `create`: ignores anything after a terminal event.
@usableFromInline
final class AnonymousSink<Element>: Sink<Element>, @unchecked Sendable {
    @usableFromInline
    @exclusivity(unchecked) final var stopped = AtomicCell<Bool>(false)

    @_alwaysEmitIntoClient
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if !AtomicCell.load(&stopped, ordering: .relaxed) {
                forwardNext(element)
            }
        case .error, .completed:
            if !AtomicCell.exchange(&stopped, true, ordering: .acquiringAndReleasing) {
                forwardTerminal(event)
            }
        }
    }
}

/// A sink that forwards events unchanged.
@usableFromInline
final class ForwardingSink<Element>: Sink<Element>, @unchecked Sendable {}
