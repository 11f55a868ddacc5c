extension ObservableType {
    /// Feeds every element into the relays. An error is reported through
    /// ``Hooks/contractViolationHandler`` (RxSwift crashes in debug builds) and ends
    /// the binding; completion just ends it, the relays stay open.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        bindRelays(relays.map { relay in relay.accept }, kind: "publish relay")
    }

    /// Feeds every element, wrapped in an optional, into the relays.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        bindRelays(relays.map { relay in { relay.accept($0) } }, kind: "publish relay")
    }

    /// Feeds every element into the relays, as their current value.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        bindRelays(relays.map { relay in relay.accept }, kind: "behavior relay")
    }

    /// Feeds every element, wrapped in an optional, into the relays.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        bindRelays(relays.map { relay in { relay.accept($0) } }, kind: "behavior relay")
    }

    /// Feeds every element into the relays.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        bindRelays(relays.map { relay in relay.accept }, kind: "replay relay")
    }

    /// Feeds every element, wrapped in an optional, into the relays.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        bindRelays(relays.map { relay in { relay.accept($0) } }, kind: "replay relay")
    }

    private func bindRelays(_ accepts: [(Element) -> Void], kind: String) -> Disposable {
        subscribe(
            onNext: { element in accepts.forEach { $0(element) } },
            onError: { error in Hooks.reportContractViolation("Binding error to \(kind): \(error)") }
        )
    }
}
