import Ripple
/// One change of an observed array: the array after the change and the
/// ``ArrayEdit``s that lead to it from the array before.
///
/// A stream of changes (``ObservableArray/changes``, `changes()` on an
/// `Observable` of arrays) starts with an *initial* change, the whole array with
/// no edits; every later change carries the edits from the previous change's
/// ``elements``:
///
/// ```swift
/// var rows: [String] = []
/// todos.changes.subscribe(onNext: { change in
///     if change.isInitial { rows = change.elements; tableView.reloadData(); return }
///     change.apply(to: &rows)          // rows == change.elements
///     tableView.performBatchUpdates { /* change.edits, unchanged */ }
/// })
/// ```
///
/// The edits follow the convention of UIKit's batch updates (see ``ArrayEdit``),
/// so they can be handed to `performBatchUpdates` as they are.
public struct ArrayChange<Element> {
    /// The array after the change.
    public let elements: [Element]
    /// The edits, without an array for the single edit of most mutations, and
    /// whether the change is initial (see ``StoredEdits``).
    @usableFromInline
    let storedEdits: StoredEdits

    /// `true` for the first change of a stream: ``elements`` is the whole
    /// current array, to be displayed as it is (no previous array, no edits).
    @_alwaysEmitIntoClient
    public var isInitial: Bool {
        if case .initial = storedEdits { return true }
        return false
    }

    /// The edits from the previous array to ``elements``; empty for an initial change.
    @_alwaysEmitIntoClient
    public var edits: [ArrayEdit] {
        storedEdits.array
    }

    /// A change to `elements` made of `edits` (not an initial change).
    ///
    /// The edits are not checked here; ``apply(to:)`` stops with a precondition
    /// failure if they do not describe a change from the array it is given to
    /// `elements`.
    public init(elements: [Element], edits: [ArrayEdit]) {
        self.elements = elements
        self.storedEdits = .many(edits)
    }

    /// `edits` is ignored for an initial change, which has none.
    @inlinable
    init(elements: [Element], edits: [ArrayEdit], isInitial: Bool) {
        self.elements = elements
        self.storedEdits = isInitial ? .initial : .many(edits)
    }

    /// A change made of one edit: no array is allocated for it.
    @inlinable
    init(elements: [Element], edit: ArrayEdit) {
        self.elements = elements
        self.storedEdits = .one(edit)
    }

    /// A change with the edits of another change (``Observable/mapElements(_:)``).
    @inlinable
    init(elements: [Element], storedEdits: StoredEdits) {
        self.elements = elements
        self.storedEdits = storedEdits
    }

    /// The first change of a stream: the whole of `elements`, no edits.
    @_alwaysEmitIntoClient
    public static func initial(_ elements: [Element]) -> ArrayChange {
        ArrayChange(elements: elements, edits: [], isInitial: true)
    }

    /// Turns `previous`, the array before this change, into ``elements``.
    ///
    /// Elements that are inserted or updated are taken from ``elements``; every
    /// other element is kept from `previous` (moved where a `.move` says). For an
    /// initial change, `previous` simply becomes ``elements``.
    ///
    /// - Precondition: the edits describe a change from `previous` to
    ///   ``elements`` (indices in range, none used twice, counts that add up).
    public func apply(to previous: inout [Element]) {
        guard let result = applying(to: previous) else {
            preconditionFailure(
                "ArrayChange.apply(to:): edits \(edits) do not turn an array of \(previous.count) elements into one of \(elements.count)")
        }
        previous = result
    }

    /// Applies this change to an array *derived* from the previous elements
    /// (row view models, rendered rows): inserted and updated elements are made
    /// with `transform` from ``elements``, every other one is kept from `derived`.
    /// `transform` runs only for those elements, so a list view renders only
    /// the rows that changed. For an initial change, `derived` becomes
    /// ``elements`` transformed.
    ///
    /// - Precondition: `derived` has one element per element of the array before
    ///   this change, and the edits describe a change from it.
    public func apply<Derived>(to derived: inout [Derived], transform: (Element) throws -> Derived) rethrows {
        if isInitial {
            derived = try elements.map(transform)
            return
        }
        guard let mapping = EditMapping(oldCount: derived.count, newCount: elements.count, edits: edits) else {
            preconditionFailure(
                "ArrayChange.apply(to:transform:): edits \(edits) do not turn an array of \(derived.count) elements into one of \(elements.count)")
        }
        derived = try mapping.apply(to: derived) { try transform(elements[$0]) }
    }

    /// ``apply(to:)`` without the precondition: `nil` if the edits do not fit.
    @usableFromInline
    func applying(to previous: [Element]) -> [Element]? {
        if isInitial { return elements }
        guard let mapping = EditMapping(oldCount: previous.count, newCount: elements.count, edits: edits) else {
            return nil
        }
        return mapping.apply(to: previous) { elements[$0] }
    }
}

/// The edits of an ``ArrayChange``. Most mutations make one edit: keeping it
/// inline spares every such change the allocation of a one-element array (an
/// append was 1 allocation, now 0); ``ArrayChange/edits`` builds the array when
/// asked. An initial change (no edits) is a case of its own, which keeps
/// ``ArrayChange`` two fields wide.
@usableFromInline
enum StoredEdits: Sendable {
    case initial
    case one(ArrayEdit)
    case many([ArrayEdit])

    @_alwaysEmitIntoClient
    var array: [ArrayEdit] {
        switch self {
        case .initial: return []
        case .one(let edit): return [edit]
        case .many(let edits): return edits
        }
    }

    /// The same edits in the same order, however they are stored, and both
    /// initial or neither.
    @_alwaysEmitIntoClient
    static func == (lhs: StoredEdits, rhs: StoredEdits) -> Bool {
        switch (lhs, rhs) {
        case (.initial, .initial): return true
        case (.initial, _), (_, .initial): return false
        case (.one(let left), .one(let right)): return left == right
        case (.many(let left), .many(let right)): return left == right
        case (.one(let edit), .many(let edits)), (.many(let edits), .one(let edit)):
            return edits.count == 1 && edits[0] == edit
        }
    }
}

extension ArrayChange: Sendable where Element: Sendable {}

extension ArrayChange: Equatable where Element: Equatable {
    /// Equal elements, edits and ``isInitial`` (the synthesised comparison of the
    /// three, whichever way the edits are stored).
    @_alwaysEmitIntoClient
    public static func == (lhs: ArrayChange, rhs: ArrayChange) -> Bool {
        lhs.elements == rhs.elements && lhs.storedEdits == rhs.storedEdits
    }
}

extension ArrayChange: Hashable where Element: Hashable {
    /// Hashes the elements, the edits (as an array) and ``isInitial``, in that
    /// order, as the synthesised conformance did.
    @_alwaysEmitIntoClient
    public func hash(into hasher: inout Hasher) {
        hasher.combine(elements)
        hasher.combine(edits)
        hasher.combine(isInitial)
    }
}

extension ArrayChange: CustomStringConvertible {
    /// The elements and the edits, for logs and test failures.
    public var description: String {
        isInitial ? "initial \(elements)" : "\(edits) -> \(elements)"
    }
}

// MARK: - Diffing

extension ArrayChange where Element: Hashable {
    /// The change from `old` to `new`, by diffing: elements are their own
    /// identity (equal elements are the same element), so there are inserts,
    /// deletes and moves but never updates.
    ///
    /// Linear in the common case; equal elements that occur several times are
    /// paired in order of occurrence (see `changes()` on `Observable`).
    @inlinable
    public init(from old: [Element], to new: [Element]) {
        self.init(elements: new, edits: ArrayDiff.edits(from: old, to: new, id: { $0 }, isUpdated: nil), isInitial: false)
    }
}

extension ArrayChange where Element: Equatable {
    /// The change from `old` to `new`, by diffing: `id` decides which elements
    /// are the same (inserts, deletes, moves); an element whose identity is kept
    /// but which is no longer equal is updated.
    @inlinable
    public init<ID: Hashable>(from old: [Element], to new: [Element], identifiedBy id: (Element) -> ID) {
        self.init(elements: new, edits: ArrayDiff.edits(from: old, to: new, id: id, isUpdated: { $0 != $1 }), isInitial: false)
    }
}

extension ArrayChange where Element: Identifiable & Equatable {
    /// The change from `old` to `new`, by diffing on `Identifiable.id`: the same
    /// `id` with different contents is an update.
    @inlinable
    public init(from old: [Element], to new: [Element]) {
        self.init(from: old, to: new, identifiedBy: { $0.id })
    }
}

extension ArrayChange where Element: Identifiable & Hashable {
    /// The change from `old` to `new` for elements that are both `Identifiable`
    /// and `Hashable`: identity is the `id` (this overload is chosen over the
    /// `Hashable` one), so the same `id` with different contents is an update.
    @inlinable
    public init(from old: [Element], to new: [Element]) {
        self.init(from: old, to: new, identifiedBy: { $0.id })
    }
}
