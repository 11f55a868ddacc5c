/// A subject that broadcasts each event to the observers subscribed at that time.
///
/// Late subscribers receive only later events. After a terminal event, new
/// subscribers receive that terminal event; after ``SubjectBase/dispose()`` they
/// receive `RxError.disposed`.
///
/// ```
/// subject:      --1--2--3--|
/// subscriber A: --1--2--3--|       (subscribed at the start)
/// subscriber B:       --3--|       (subscribed after 2)
/// ```
///
/// Thread-safe; events reach each observer one at a time even when several
/// threads send them (see ``SubjectBase`` for the re-entrancy rules).
public final class PublishSubject<Element>: SubjectBase<Element>, SubjectType, ObserverType, @unchecked Sendable {
    /// The observer side is the subject itself.
    public typealias SubjectObserverType = PublishSubject<Element>

    /// Creates a subject with no observers.
    @_alwaysEmitIntoClient
    public override init() {
        super.init()
    }

    /// Broadcasts `event` to the current observers.
    @_alwaysEmitIntoClient
    public func on(_ event: Event<Element>) {
        guard tryAcquireUntracked() else {
            enqueue((event, nil, false))
            return
        }
        if case .next = event {
            if !isStopped {
                deliver(event)
            }
        } else {
            process(event)
        }
        release()
    }

    @usableFromInline
    override func process(_ event: Event<Element>) {
        guard !isStopped else { return }
        if case .next = event {
            deliver(event)
        } else {
            terminate(with: event)
        }
    }

    /// Returns the subject itself.
    @_alwaysEmitIntoClient
    public func asObserver() -> PublishSubject<Element> {
        self
    }
}
