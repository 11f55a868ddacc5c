/// A subject that emits only the last element it received, and only when it
/// completes.
///
/// ```
/// source:      --1--2--3--|
/// AsyncSubject:           3|
/// ```
///
/// If it completes without elements, subscribers receive only `.completed`; an error
/// is forwarded without an element. Late subscribers receive the same outcome.
/// Thread-safe.
public final class AsyncSubject<Element>: SubjectBase<Element>, SubjectType, ObserverType, @unchecked Sendable {
    /// The observer side is the subject itself.
    public typealias SubjectObserverType = AsyncSubject<Element>

    /// Owner-only: the last element received.
    @exclusivity(unchecked)
    final var lastElement: Element?

    /// Creates a subject.
    @_alwaysEmitIntoClient
    public override init() {
        super.init()
    }

    /// Sends `event`: a `.next` replaces the last element; `.completed` emits it.
    @_alwaysEmitIntoClient
    public func on(_ event: Event<Element>) {
        emit(event, tracked: false)
    }

    @usableFromInline
    override func process(_ event: Event<Element>) {
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            lastElement = element
        case .error:
            lastElement = nil
            terminate(with: event)
        case .completed:
            if let lastElement {
                let subscriptions = observers.elements
                deliveryDepth += 1
                for entry in subscriptions {
                    SubjectBase<Element>.withSubscription(entry) { subscription in
                        if !subscription.isDisposed {
                            subscription.send(.next(lastElement))
                        }
                    }
                }
                deliveryDepth -= 1
            }
            terminate(with: event)
        }
    }

    @usableFromInline
    override func subscribeOwned(_ subscription: SubjectSubscription<Element>) {
        guard let stopEvent else {
            addObserver(subscription)
            return
        }
        if case .completed = stopEvent, let lastElement {
            subscription.send(.next(lastElement))
        }
        subscription.send(stopEvent)
        subscription.detach()
    }

    @usableFromInline
    override func clearOnDispose() {
        lastElement = nil
    }

    /// Returns the subject itself.
    @_alwaysEmitIntoClient
    public func asObserver() -> AsyncSubject<Element> {
        self
    }
}
