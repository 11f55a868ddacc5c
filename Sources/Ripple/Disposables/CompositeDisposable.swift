/// A group of disposables disposed together.
///
/// Each inserted disposable gets a key, so one of them can be removed (and
/// disposed) on its own. After the group is disposed, inserting disposes the new
/// member immediately and returns `nil`.
public final class CompositeDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    /// Identifies a member of the group.
    public typealias DisposeKey = BagKey

    /// The members and whether this one is disposed (a tuple: see "State is a
    /// tuple" in docs/Architecture.md).
    private typealias State = (members: Bag<Disposable>, isDisposed: Bool)

    private let state: LockedState<State>

    /// An empty group.
    public override init() {
        state = LockedState((members: Bag(), isDisposed: false))
        super.init()
    }

    /// A group of two.
    public convenience init(_ disposable1: Disposable, _ disposable2: Disposable) {
        self.init(disposables: [disposable1, disposable2])
    }

    /// A group of three.
    public convenience init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) {
        self.init(disposables: [disposable1, disposable2, disposable3])
    }

    /// A group of four or more: `CompositeDisposable(a, b, c, d, e)` (RxSwift's
    /// shape: four unlabelled members, then any number more).
    public convenience init(
        _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposable4: Disposable,
        _ disposables: Disposable...
    ) {
        self.init(disposables: [disposable1, disposable2, disposable3, disposable4] + disposables)
    }

    /// A group of the array's elements.
    public init(disposables: [Disposable]) {
        var members = Bag<Disposable>()
        for disposable in disposables {
            _ = members.insert(disposable)
        }
        state = LockedState((members: members, isDisposed: false))
        super.init()
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// The number of members.
    public var count: Int {
        state.withLock { $0.members.count }
    }

    /// Adds `disposable` to the group.
    ///
    /// - Returns: The key to remove it with, or `nil` if the group is already
    ///   disposed (then `disposable` has been disposed).
    public func insert(_ disposable: Disposable) -> DisposeKey? {
        let key = state.withLock { state -> DisposeKey? in
            if state.isDisposed { return nil }
            return state.members.insert(disposable)
        }
        if key == nil {
            disposable.dispose()
        }
        return key
    }

    /// Removes the member for `disposeKey` and disposes it.
    public func remove(for disposeKey: DisposeKey) {
        let member = state.withLock { $0.members.remove(forKey: disposeKey) }
        member?.dispose()
    }

    /// Disposes every member, in insertion order.
    public func dispose() {
        let members = state.withLock { state -> [Disposable] in
            if state.isDisposed { return [] }
            state.isDisposed = true
            return state.members.removeAll()
        }
        for member in members {
            member.dispose()
        }
    }
}
