/// An event of an ``Infallible`` built with ``Infallible/create(subscribe:)``:
/// an element or completion, never an error.
@frozen
public enum InfallibleEvent<Element> {
    /// An element.
    case next(Element)
    /// Completion: nothing is sent after it.
    case completed
}

extension InfallibleEvent: Sendable where Element: Sendable {}

extension Infallible {
    /// The observer handed to ``create(subscribe:)``: call it with `.next` any
    /// number of times, then at most once with `.completed`.
    public typealias InfallibleObserver = (InfallibleEvent<Element>) -> Void

    /// Creates an infallible sequence from a subscription function.
    ///
    /// `subscribe` runs once per subscriber; it sends events to the observer it
    /// receives and returns what to dispose when the subscription ends. Events
    /// sent after `.completed` or after disposal are dropped.
    ///
    /// ```swift
    /// let ticks = Infallible<Int>.create { observer in
    ///     observer(.next(1))
    ///     observer(.next(2))
    ///     observer(.completed)
    ///     return Disposables.create()
    /// }
    /// // (12|)
    /// ```
    @_alwaysEmitIntoClient
    public static func create(subscribe: @escaping (@escaping InfallibleObserver) -> Disposable) -> Infallible<Element> {
        Infallible(Observable.create { observer in
            subscribe { event in
                switch event {
                case .next(let element):
                    observer.on(.next(element))
                case .completed:
                    observer.on(.completed)
                }
            }
        })
    }

    /// One element, then completion.
    ///
    /// ```
    /// just(1):  (1|)
    /// ```
    @_alwaysEmitIntoClient
    public static func just(_ element: Element) -> Infallible<Element> {
        Infallible(Observable.just(element))
    }

    /// One element, then completion, each sent in a step scheduled on `scheduler`.
    ///
    /// ```
    /// just(1, scheduler: s):  -1|     (both on s)
    /// ```
    @_alwaysEmitIntoClient
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(Observable.just(element, scheduler: scheduler))
    }

    /// Completes at once, without elements.
    ///
    /// ```
    /// empty():  |
    /// ```
    @_alwaysEmitIntoClient
    public static func empty() -> Infallible<Element> {
        Infallible(Observable.empty())
    }

    /// Never sends anything (and never completes).
    ///
    /// ```
    /// never():  ----------...
    /// ```
    @_alwaysEmitIntoClient
    public static func never() -> Infallible<Element> {
        Infallible(Observable.never())
    }

    /// Calls `observableFactory` for each subscriber and subscribes it to the
    /// sequence it returns, so the work is decided at subscription time.
    ///
    /// ```
    /// deferred { .just(now()) }:  (t|)   (t: the time of each subscription)
    /// ```
    ///
    /// Completes when the returned sequence does. (RxSwift's factory may throw; an
    /// `Infallible` cannot carry that error, so here it cannot.)
    @_alwaysEmitIntoClient
    public static func deferred(_ observableFactory: @escaping () -> Infallible<Element>) -> Infallible<Element> {
        Infallible(Observable.deferred { observableFactory().asObservable() })
    }

    /// The elements, one after the other, then completion; sent on `scheduler`
    /// (the current thread's trampoline by default).
    ///
    /// ```
    /// of(1, 2, 3):  (123|)
    /// ```
    @_alwaysEmitIntoClient
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(Observable.from(elements, scheduler: scheduler))
    }

    /// The array's elements, then completion; sent on `scheduler`.
    ///
    /// ```
    /// from([1, 2, 3]):  (123|)
    /// ```
    @_alwaysEmitIntoClient
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(Observable.from(array, scheduler: scheduler))
    }

    /// The sequence's elements, then completion; sent on `scheduler`.
    ///
    /// ```
    /// from(1...3):  (123|)
    /// ```
    @_alwaysEmitIntoClient
    public static func from<Source: Swift.Sequence>(
        _ sequence: Source, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Infallible<Element> where Source.Element == Element {
        Infallible(Observable.from(sequence, scheduler: scheduler))
    }

    /// One element if `optional` is not `nil`, then completion.
    ///
    /// ```
    /// from(optional: 1):    (1|)
    /// from(optional: nil):  |
    /// ```
    @_alwaysEmitIntoClient
    public static func from(optional: Element?) -> Infallible<Element> {
        Infallible(Observable.from(optional: optional))
    }

    /// Like ``from(optional:)``, with the element and the completion each sent in
    /// a step scheduled on `scheduler`.
    ///
    /// ```
    /// from(optional: 1, scheduler: s):  -1|     (each step on s)
    /// ```
    @_alwaysEmitIntoClient
    public static func from(optional: Element?, scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(Observable.from(optional: optional, scheduler: scheduler))
    }

    /// The same element forever, sent on `scheduler`.
    ///
    /// ```
    /// repeatElement(1):  111111...
    /// ```
    @_alwaysEmitIntoClient
    public static func repeatElement(_ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(Observable.repeatElement(element, scheduler: scheduler))
    }
}

extension Infallible where Element: RxAbstractInteger {
    /// `count` consecutive integers starting at `start`, then completion.
    ///
    /// ```
    /// range(start: 1, count: 3):  (123|)
    /// ```
    ///
    /// A negative `count`, or a range that overflows `Element`, is reported to
    /// ``Hooks/contractViolationHandler`` and the sequence completes without
    /// elements (an `Infallible` cannot fail).
    @_alwaysEmitIntoClient
    public static func range(
        start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Infallible<Element> {
        guarding(Observable.range(start: start, count: count, scheduler: scheduler), "range(start: \(start), count: \(count))")
    }

    /// Emits 0, 1, 2, ... every `period` on `scheduler`, forever.
    ///
    /// ```
    /// interval(10):  ---------0---------1---------2--...
    /// ```
    @_alwaysEmitIntoClient
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(Observable.interval(period, scheduler: scheduler))
    }

    /// Emits 0 after `dueTime`; then, if `period` is given, 1, 2, ... every
    /// `period` forever, otherwise completes right after the 0.
    ///
    /// ```
    /// timer(5):              ----(0|)
    /// timer(5, period: 10):  ----0---------1---------2--...
    /// ```
    @_alwaysEmitIntoClient
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(Observable.timer(dueTime, period: period, scheduler: scheduler))
    }
}
