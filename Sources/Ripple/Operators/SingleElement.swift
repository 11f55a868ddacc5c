extension ObservableType {
    /// Passes on the source's only element and completes when the source does.
    ///
    /// Fails with `RxError.noElements` if the source completes without an
    /// element, and with `RxError.moreThanOneElement` (disposing the source) as
    /// soon as a second element arrives. The first element is passed on as soon
    /// as it arrives. Fails with the source.
    ///
    /// ```
    /// source:    --1--|          --1--2--|        --|
    /// single():  --1--|          --1--#           --#
    /// ```
    @_alwaysEmitIntoClient
    public func single() -> Observable<Element> {
        single({ _ in true })
    }

    /// Like ``single()``, counting only the elements for which `predicate`
    /// returns `true` (the others are dropped). Fails when `predicate` throws.
    ///
    /// ```
    /// source:                           --1--2--3--|
    /// single { $0.isMultiple(of: 2) }:  -----2-----|
    /// ```
    @_alwaysEmitIntoClient
    public func single(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        let source = asObservable()
        return Producer(site: SiteLiteral("single")) { observer in
            let sink = SingleElementSink(predicate: predicate, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }

    /// The first element, or `nil` if the source completes without one, as a
    /// ``Single``. The source is disposed after its first element.
    ///
    /// Fails with the source.
    ///
    /// ```
    /// source:   --1--2--|        --|
    /// first():  --(1|)           --(nil|)
    /// ```
    @_alwaysEmitIntoClient
    public func first() -> Single<Element?> {
        let source = asObservable()
        return Single(raw: Producer(site: SiteLiteral("first")) { observer in
            let sink = FirstSink(observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        })
    }
}

@usableFromInline
final class SingleElementSink<Element>: Sink<Element>, @unchecked Sendable {
    private let predicate: (Element) throws -> Bool
    /// Only touched by serialized upstream events.
    private var hasElement: Bool

    @usableFromInline
    init(predicate: @escaping (Element) throws -> Bool, observer: AnyObserver<Element>) {
        hasElement = false
        self.predicate = predicate
        super.init(observer: observer)
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            do {
                guard try predicate(element) else { return }
            } catch {
                forwardError(error)
                return
            }
            if hasElement {
                forwardError(RxError.moreThanOneElement)
                return
            }
            hasElement = true
            forwardNext(element)
        case .error:
            forwardTerminal(event)
        case .completed:
            if hasElement {
                forwardCompleted()
            } else {
                forwardError(RxError.noElements)
            }
        }
    }
}

@usableFromInline
final class FirstSink<Element>: Sink<Element?>, @unchecked Sendable {
    @_alwaysEmitIntoClient
    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            forwardNext(element)
            forwardCompleted()
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardNext(nil)
            forwardCompleted()
        }
    }
}
