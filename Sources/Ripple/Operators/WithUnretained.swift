extension ObservableType {
    /// Combines each element with `obj`, held weakly, through `resultSelector`.
    ///
    /// As in RxSwift, when an element arrives after `obj` has been deallocated,
    /// the result completes (and disposes the source) instead of passing it on.
    /// Completes and fails with the source otherwise.
    ///
    /// ```
    /// source:                                  --1--------2--------3--
    /// withUnretained(self) { ($0.name, $1) }:  --("a",1)--("a",2)--|    (self gone before 3)
    /// ```
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object, resultSelector: @escaping (Object, Element) -> Out,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Observable<Out> {
        let source = asObservable()
        return Producer(site: SiteLiteral("withUnretained", file, line)) { [weak obj] observer in
            let sink = WithUnretainedSink(object: obj, resultSelector: resultSelector, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }

    /// Pairs each element with `obj`, held weakly; completes when an element
    /// arrives after `obj` has been deallocated.
    ///
    /// ```
    /// source:                --1------2--3--
    /// withUnretained(owner): --(o,1)--(o,2)--|    (owner deallocated before 3)
    /// ```
    ///
    /// ```swift
    /// button.taps
    ///     .withUnretained(self)
    ///     .subscribe(onNext: { owner, _ in owner.save() })
    /// ```
    public func withUnretained<Object: AnyObject>(_ obj: Object, file: StaticString = #fileID, line: UInt = #line) -> Observable<(Object, Element)> {
        withUnretained(obj, resultSelector: { ($0, $1) }, file: file, line: line)
    }
}

final class WithUnretainedSink<Object: AnyObject, Element, Out>: Sink<Out>, @unchecked Sendable {
    private weak var object: Object?
    private let resultSelector: (Object, Element) -> Out

    init(object: Object?, resultSelector: @escaping (Object, Element) -> Out, observer: AnyObserver<Out>) {
        self.object = object
        self.resultSelector = resultSelector
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard !isDisposed else { return }
            guard let object else {
                forwardCompleted()
                return
            }
            forwardNext(resultSelector(object, element))
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}
