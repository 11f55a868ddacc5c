/// Whether the element that ends a `take(while:)` or `take(until:)` is passed on.
public enum TakeBehavior: Sendable, Equatable {
    /// The element that ends the sequence is passed on before the completion.
    case inclusive
    /// The element that ends the sequence is dropped.
    case exclusive
}

extension ObservableType {
    /// Passes on the elements that arrive within `duration` of the subscription,
    /// then completes and disposes the source.
    ///
    /// The timer starts before the source is subscribed, so an element the source
    /// sends exactly at the deadline is dropped when the source schedules it after
    /// the subscription. Fails with the source.
    ///
    /// ```
    /// source:                    --1--2--3--4--|
    /// take(for: 7, scheduler):   --1--2-|
    /// ```
    @_alwaysEmitIntoClient
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Producer(site: SiteLiteral("take")) { observer in
            let sink = TakeTimeSink(observer: observer)
            sink.timer.setDisposable(scheduler.scheduleRelative(sink, dueTime: duration) { sink in
                sink.update { _, outbox in outbox.terminate(.completed) }
                return Disposables.create()
            })
            if sink.isDisposed { return sink }
            sink.setUpstream(source.subscribe(sink: AnyObserver { event in
                sink.update { _, outbox in
                    switch event {
                    case .next(let element): outbox.next(element)
                    case .error, .completed: outbox.terminate(event)
                    }
                }
            }))
            return sink
        }
    }

    /// Passes on elements while `predicate` returns `true`; at the first element
    /// for which it returns `false`, completes (passing that element on first if
    /// `behavior` is `.inclusive`) and disposes the source.
    ///
    /// Fails with the source or when `predicate` throws.
    ///
    /// ```
    /// source:                                          --1--2--5--1--|
    /// take(while: { $0 < 3 }):                         --1--2--|
    /// take(while: { $0 < 3 }, behavior: .inclusive):   --1--2--(5|)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        appending(
            TakeUntilPredicateStep(predicate: predicate, stopsWhen: false, inclusive: behavior == .inclusive),
            site: SiteLiteral("take")
        )
    }

    /// Passes on elements until `predicate` returns `true`; then completes
    /// (passing that element on first if `behavior` is `.inclusive`) and disposes
    /// the source.
    ///
    /// Fails with the source or when `predicate` throws.
    ///
    /// ```
    /// source:                                          --1--2--5--1--|
    /// take(until: { $0 > 3 }):                         --1--2--|
    /// take(until: { $0 > 3 }, behavior: .inclusive):   --1--2--(5|)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        appending(
            TakeUntilPredicateStep(predicate: predicate, stopsWhen: true, inclusive: behavior == .inclusive),
            site: SiteLiteral("take")
        )
    }

    /// Passes on the source's elements until `other` sends its first element;
    /// then completes and disposes both.
    ///
    /// `other` is subscribed first. If it completes without an element, nothing
    /// changes (only `other`'s subscription ends); if it fails, the result fails
    /// with its error. Completes or fails with the source too. If `other` sends
    /// an element while being subscribed, the result completes at once and the
    /// source is not subscribed at all.
    ///
    /// ```
    /// source:               --1--2--3--4--|
    /// other:                --------x-----
    /// take(until: other):   --1--2--|
    /// ```
    @_alwaysEmitIntoClient
    public func take<Source: ObservableConvertibleType>(until other: Source) -> Observable<Element> {
        let source = asObservable()
        let other = other.asObservable()
        return Producer(site: SiteLiteral("take")) { observer in
            let sink = TakeUntilSink<Element>(observer: observer)
            let otherSubscription = other.subscribe(sink: AnyObserver { event in
                sink.update { _, outbox in
                    switch event {
                    case .next: outbox.terminate(.completed)
                    case .error(let error): outbox.terminate(.error(error))
                    case .completed: break
                    }
                }
                if event.isCompleted {
                    sink.other.dispose()
                }
            })
            sink.other.setDisposable(otherSubscription ?? Disposables.create())
            if sink.isDisposed { return sink }
            sink.setUpstream(source.subscribe(sink: AnyObserver { event in
                sink.update { _, outbox in
                    switch event {
                    case .next(let element): outbox.next(element)
                    case .error, .completed: outbox.terminate(event)
                    }
                }
            }))
            return sink
        }
    }

    /// Passes on only the last `count` elements, when the source completes.
    ///
    /// Fails with the source (dropping the buffered elements). A negative `count`
    /// fails with `RxError.argumentOutOfRange`.
    ///
    /// ```
    /// source:       --1--2--3--4--|
    /// takeLast(2):  --------------(34|)
    /// ```
    @_alwaysEmitIntoClient
    public func takeLast(_ count: Int) -> Observable<Element> {
        guard count >= 0 else { return .error(RxError.argumentOutOfRange("takeLast(_:)", "count", count, minimum: 0)) }
        let source = asObservable()
        return Producer(site: SiteLiteral("takeLast")) { observer in
            let sink = TakeLastSink(count: count, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

/// `take(for:scheduler:)`: the timer and the source race to the outbox.
@usableFromInline
final class TakeTimeSink<Element>: SerializingSink<Void, Element>, @unchecked Sendable {
    @usableFromInline
    let timer: SingleAssignmentDisposable

    @usableFromInline
    init(observer: AnyObserver<Element>) {
        timer = SingleAssignmentDisposable()
        super.init(state: (), observer: observer)
    }

    override func disposeResources() {
        timer.dispose()
    }
}

/// `take(until:)` with another sequence as the trigger.
@usableFromInline
final class TakeUntilSink<Element>: SerializingSink<Void, Element>, @unchecked Sendable {
    @usableFromInline
    let other: SingleAssignmentDisposable

    @usableFromInline
    init(observer: AnyObserver<Element>) {
        other = SingleAssignmentDisposable()
        super.init(state: (), observer: observer)
    }

    override func disposeResources() {
        other.dispose()
    }
}

/// The step of `take(while:)` and `take(until:)` (see ``PipelineStep``): passes
/// elements on until `predicate` returns `stopsWhen`, then completes (passing
/// that element on first when `inclusive`).
@usableFromInline
struct TakeUntilPredicateStep<Element>: PipelineStep {
    @usableFromInline
    let predicate: (Element) throws -> Bool
    /// The predicate's answer that ends the sequence: `false` for `take(while:)`,
    /// `true` for `take(until:)` (one step for both, without a closure around
    /// the predicate to negate it).
    @usableFromInline
    let stopsWhen: Bool
    @usableFromInline
    let inclusive: Bool

    @_alwaysEmitIntoClient
    init(predicate: @escaping (Element) throws -> Bool, stopsWhen: Bool, inclusive: Bool) {
        self.predicate = predicate
        self.stopsWhen = stopsWhen
        self.inclusive = inclusive
    }

    @_alwaysEmitIntoClient
    func next(_ element: Element, _ state: inout Void) throws -> StepResult<Element> {
        if try predicate(element) != stopsWhen {
            return (element, false)
        }
        return inclusive ? (element, true) : (nil, true)
    }
}

@usableFromInline
final class TakeLastSink<Element>: Sink<Element>, @unchecked Sendable {
    private let count: Int
    /// Only touched by serialized upstream events.
    private var buffer: RingBuffer<Element>

    @usableFromInline
    init(count: Int, observer: AnyObserver<Element>) {
        buffer = RingBuffer()
        self.count = count
        super.init(observer: observer)
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard count > 0 else { return }
            buffer.append(element)
            if buffer.count > count {
                _ = buffer.popFirst()
            }
        case .error:
            buffer.removeAll()
            forwardTerminal(event)
        case .completed:
            while let element = buffer.popFirst() {
                if isDisposed { return }
                forwardNext(element)
            }
            forwardCompleted()
        }
    }
}
