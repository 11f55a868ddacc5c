/// Holds subscriptions and disposes them all when the bag is deallocated.
///
/// Keep a bag in the object whose lifetime the subscriptions should follow (a view
/// model, a screen) and add each subscription with ``Disposable/disposed(by:)``. To
/// cancel everything early, replace the bag: `bag = DisposeBag()`.
///
/// ```swift
/// let bag = DisposeBag()
/// counter.subscribe(onNext: { print($0) }).disposed(by: bag)
/// ```
///
/// Thread-safe. Subscriptions are disposed in the order they were added; a
/// subscription added after the bag was disposed is disposed immediately.
public final class DisposeBag: DisposeBase, @unchecked Sendable {
    /// The disposables and whether the bag is disposed (a tuple: see "State is a
    /// tuple" in docs/Architecture.md).
    private typealias State = (disposables: [Disposable], isDisposed: Bool)

    private let state: LockedState<State>

    /// An empty bag.
    public override init() {
        state = LockedState((disposables: [], isDisposed: false))
        super.init()
    }

    /// Adds `disposable` to the bag.
    public func insert(_ disposable: Disposable) {
        let accepted = state.withLock { state -> Bool in
            if state.isDisposed { return false }
            state.disposables.append(disposable)
            return true
        }
        if !accepted {
            disposable.dispose()
        }
    }

    /// Adds every element of `disposables`.
    public func insert(_ disposables: [Disposable]) {
        let accepted = state.withLock { state -> Bool in
            if state.isDisposed { return false }
            state.disposables.append(contentsOf: disposables)
            return true
        }
        if !accepted {
            disposables.forEach { $0.dispose() }
        }
    }

    private func dispose() {
        let disposables = state.withLock { state -> [Disposable] in
            state.isDisposed = true
            defer { state.disposables = [] }
            return state.disposables
        }
        for disposable in disposables {
            disposable.dispose()
        }
    }

    deinit {
        dispose()
    }
}

extension DisposeBag {
    /// A bag that already holds the arguments.
    public convenience init(disposing disposables: Disposable...) {
        self.init()
        insert(disposables)
    }

    /// A bag that already holds the array's elements.
    public convenience init(disposing disposables: [Disposable]) {
        self.init()
        insert(disposables)
    }

    /// A bag that holds the disposables listed in `builder`.
    ///
    /// ```swift
    /// let bag = DisposeBag {
    ///     a.subscribe(onNext: { print($0) })
    ///     b.bind(to: relay)
    /// }
    /// ```
    public convenience init(@DisposableBuilder builder: () -> [Disposable]) {
        self.init(disposing: builder())
    }

    /// Adds the arguments.
    @_alwaysEmitIntoClient
    public func insert(_ disposables: Disposable...) {
        insert(disposables)
    }

    /// Adds the disposables listed in `builder`.
    @_alwaysEmitIntoClient
    public func insert(@DisposableBuilder builder: () -> [Disposable]) {
        insert(builder())
    }

    /// Builds a list of disposables from statements, one per line.
    @resultBuilder
    public enum DisposableBuilder {
        /// Collects the block's disposables.
        @_alwaysEmitIntoClient
        public static func buildBlock(_ disposables: Disposable...) -> [Disposable] {
            disposables
        }
    }
}

extension Disposable {
    /// Adds this disposable to `bag`: it is disposed when the bag is deallocated.
    @_alwaysEmitIntoClient
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
