extension ObservableType {
    /// This sequence as a ``Single``: it must send exactly one element.
    ///
    /// Fails with `RxError.noElements` if the source completes without an element,
    /// and with `RxError.moreThanOneElement` as soon as a second element arrives
    /// (the source is then disposed).
    ///
    /// ```
    /// source:      --1--|      --|              --1--2--|
    /// asSingle():  -----(1|)   --#(noElements)  -----#(moreThanOneElement)
    /// ```
    public func asSingle() -> Single<Element> {
        Single(raw: atMostOne(requireOne: true))
    }

    /// This sequence as a ``Maybe``: it may send one element or none.
    ///
    /// Fails with `RxError.moreThanOneElement` as soon as a second element arrives.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: atMostOne(requireOne: false))
    }

    /// Holds back the one allowed element until completion, as RxSwift does, so a
    /// second element turns into an error before anything was delivered.
    private func atMostOne(requireOne: Bool) -> Observable<Element> {
        let source = asObservable()
        return Producer(site: requireOne ? SiteLiteral("asSingle") : SiteLiteral("asMaybe")) { observer in
            let sink = AtMostOneSink(requireOne: requireOne, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

final class AtMostOneSink<Element>: Sink<Element>, @unchecked Sendable {
    private let requireOne: Bool
    /// Only touched by serialized upstream events.
    private var element: Element?

    init(requireOne: Bool, observer: AnyObserver<Element>) {
        self.requireOne = requireOne
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            if element != nil {
                forwardError(RxError.moreThanOneElement)
                return
            }
            element = value
        case .error(let error):
            forwardError(error)
        case .completed:
            if let element {
                forwardNext(element)
                forwardCompleted()
            } else if requireOne {
                forwardError(RxError.noElements)
            } else {
                forwardCompleted()
            }
        }
    }
}
