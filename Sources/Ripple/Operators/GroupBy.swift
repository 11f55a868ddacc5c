/// A sequence of the elements of one group made by `groupBy(keySelector:)`,
/// with the group's key.
///
/// Subscribing to a group keeps the source subscribed, even after the
/// subscription to the sequence of groups was disposed.
public struct GroupedObservable<Key, Element>: ObservableType {
    /// The key shared by the group's elements.
    public let key: Key

    private let source: Observable<Element>

    /// A group with `key` whose elements come from `source`.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    /// Subscribes `observer` to the group's elements.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// The group's elements as an ``Observable``.
    public func asObservable() -> Observable<Element> {
        source
    }
}

extension GroupedObservable: Sendable where Key: Sendable {}

extension ObservableType {
    /// Splits the elements into groups by the key `keySelector` computes, and
    /// sends each group, as a ``GroupedObservable``, when its first element
    /// arrives.
    ///
    /// A group is hot: subscribe to it when you receive it (as `flatMap` does)
    /// to get its first element; a group subscribed later receives only later
    /// elements, and a group subscribed after the source terminated receives
    /// only the terminal event. When the source completes or fails, every group
    /// and then the result completes or fails. If `keySelector` throws, every
    /// group and the result fail with that error.
    ///
    /// Disposing the subscription to the groups keeps the source subscribed as
    /// long as some group is subscribed.
    ///
    /// ```
    /// source:                          --1--2--3--4--|
    /// groupBy { $0 % 2 }:              --A--B--------|
    /// A (key 1):                         1-----3-----|
    /// B (key 0):                            2-----4--|
    /// ```
    @_alwaysEmitIntoClient
    public func groupBy<Key: Hashable>(keySelector: @escaping (Element) throws -> Key) -> Observable<GroupedObservable<Key, Element>> {
        let source = asObservable()
        return Producer(site: SiteLiteral("groupBy")) { observer in
            let sink = GroupBySink(keySelector: keySelector, observer: observer)
            sink.run(source)
            return sink
        }
    }
}

@usableFromInline
final class GroupBySink<Key: Hashable, Element>: Sink<GroupedObservable<Key, Element>>, @unchecked Sendable {
    private let keySelector: (Element) throws -> Key
    private let sourceSubscription: SingleAssignmentDisposable
    private let refCount: RefCountDisposable
    /// Only touched by serialized upstream events.
    private var groups: [Key: PublishSubject<Element>]
    private var isStopped: Bool

    @usableFromInline
    init(keySelector: @escaping (Element) throws -> Key, observer: AnyObserver<GroupedObservable<Key, Element>>) {
        sourceSubscription = SingleAssignmentDisposable()
        groups = [:]
        isStopped = false
        self.keySelector = keySelector
        refCount = RefCountDisposable(disposable: sourceSubscription)
        super.init(observer: observer)
    }

    @usableFromInline
    func run(_ source: Observable<Element>) {
        // Disposing this sink releases only the primary reference: the source
        // stays subscribed while groups are.
        setUpstream(disposable: refCount)
        let subscription = source.subscribe(sink: AnyObserver { [self] event in on(event) })
        sourceSubscription.setDisposable(subscription ?? Disposables.create())
    }

    private func on(_ event: Event<Element>) {
        guard !isStopped else { return }
        switch event {
        case .next(let element):
            let key: Key
            do {
                key = try keySelector(element)
            } catch {
                terminate(.error(error))
                return
            }
            let group: PublishSubject<Element>
            if let existing = groups[key] {
                group = existing
            } else {
                group = PublishSubject()
                groups[key] = group
                forwardNext(GroupedObservable(key: key, source: groupObservable(group)))
            }
            group.onNext(element)
        case .error, .completed:
            terminate(event)
        }
    }

    /// The group's subject, wrapped so that subscribing keeps the source alive.
    private func groupObservable(_ subject: PublishSubject<Element>) -> Observable<Element> {
        let refCount = self.refCount
        // Subscribed without the trampoline, like the subject it listens to (as
        // in RxSwift).
        return Producer(kind: .direct, site: SiteLiteral(label: "group")) { observer in
            let retained = refCount.retain()
            let sink = ForwardingSink(observer: observer)
            sink.setUpstream(disposable: Disposables.create(subject.subscribe(AnyObserver { sink.forward($0) }), retained))
            return sink
        }
    }

    private func terminate(_ event: Event<Element>) {
        isStopped = true
        let groups = Array(self.groups.values)
        self.groups = [:]
        for group in groups {
            group.on(event)
        }
        if case .error(let error) = event {
            forwardError(error)
        } else {
            forwardCompleted()
        }
        sourceSubscription.dispose()
    }
}
