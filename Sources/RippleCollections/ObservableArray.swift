import Ripple
/// A thread-safe array that you mutate and observe: the `BehaviorRelay` of
/// collections.
///
/// Every mutation is one ``ArrayChange`` for the subscribers of ``changes``,
/// carrying the array after the mutation and the edits that describe it (in the
/// index convention of UIKit batch updates, see ``ArrayEdit``):
///
/// ```swift
/// let todos = ObservableArray(["buy milk", "call mum"])
/// todos.changes.subscribe(onNext: { change in print(change.edits) })  // [] (initial)
/// todos.append("water the plants")     // [insert(2)]
/// todos.move(from: 2, to: 0)           // [move(2→0)]
/// todos.batchUpdate { list in           // one change: [delete(0), insert(2)]
///     list.remove(at: 0)
///     list.append("read")
/// }
/// ```
///
/// Mutations may come from any thread. Changes reach each subscriber one at a
/// time, in the order the mutations happened, never while a lock is held; a
/// subscriber that mutates the array from its handler sees its change delivered
/// after the current one reached every subscriber. A mutation that leaves the
/// array as it was (appending nothing, removing from an empty array, moving an
/// element to where it is) sends nothing.
///
/// Changes are delivered on the thread that mutates (or on a thread already
/// delivering an earlier change, which delivers this one too). Main-actor code
/// that mutates off the main thread observes through ``asDriver()`` or
/// `observe(on: MainScheduler.instance)`.
///
/// A bad index stops the program with a precondition failure naming the method,
/// the index and the count, before anything is changed.
public final class ObservableArray<Element>: @unchecked Sendable {
    @usableFromInline
    let store: ChangeStore<[Element], ArrayChange<Element>>

    /// Creates an array holding `elements`.
    public init(_ elements: [Element] = []) {
        store = ChangeStore(elements, typeName: "ObservableArray") { .initial($0) }
    }

    // MARK: Reading

    /// A snapshot of the current contents.
    @_alwaysEmitIntoClient
    public var value: [Element] {
        store.read("value") { $0 }
    }

    /// The number of elements.
    @_alwaysEmitIntoClient
    public var count: Int {
        store.read("count") { $0.count }
    }

    /// `true` if the array is empty.
    @_alwaysEmitIntoClient
    public var isEmpty: Bool {
        store.read("isEmpty") { $0.isEmpty }
    }

    /// The element at `index`; assigning replaces it, which subscribers see as
    /// an `.update(index)`.
    @_alwaysEmitIntoClient
    public subscript(index: Int) -> Element {
        get {
            store.read("subscript") { elements in
                precondition(index >= 0 && index < elements.count, Self.message("subscript", index, elements.count))
                return elements[index]
            }
        }
        set {
            // The element replaced is returned, to be released after the lock
            // (its `deinit` may use this array; see "User code" in `ChangeStore`).
            _ = store.mutate("subscript") { elements in
                precondition(index >= 0 && index < elements.count, Self.message("subscript", index, elements.count))
                let replaced = elements[index]
                elements[index] = newValue
                return (ArrayChange(elements: elements, edit: .update(index)), replaced)
            }
        }
    }

    // MARK: Observing

    /// The changes of the array: at once, an initial change with the current
    /// contents (``ArrayChange/isInitial``, no edits); then one change per
    /// mutation. Never fails or completes.
    ///
    /// "At once" means before `subscribe` returns, on the subscribing thread, even
    /// while another thread is delivering changes: that thread parks the later
    /// changes for the new subscriber, which receives them after its initial
    /// change, in order, before `subscribe` returns.
    ///
    /// ```
    /// ObservableArray([a]), then append(b), remove(at: 0)
    /// changes:  initial[a]--insert(1)[a,b]--delete(0)[b]--
    /// ```
    public var changes: Observable<ArrayChange<Element>> {
        store.changes
    }

    /// The contents after each change, starting with the current contents (like a
    /// `BehaviorRelay`'s values). Never fails or completes.
    public func asObservable() -> Observable<[Element]> {
        changes.map { $0.elements }
    }

    /// ``asObservable()`` as a `Driver`: the current contents first, then the
    /// contents after each change, delivered on the main scheduler.
    public func asDriver() -> Driver<[Element]> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }

    // MARK: Mutating

    /// Adds `element` at the end: `.insert(count)`.
    @_alwaysEmitIntoClient
    public func append(_ element: Element) {
        store.mutate("append(_:)") { elements in
            elements.append(element)
            return (ArrayChange(elements: elements, edit: .insert(elements.count - 1)), ())
        }
    }

    /// Adds `newElements` at the end: one `.insert` per element.
    @_alwaysEmitIntoClient
    public func append<S: Sequence>(contentsOf newElements: S) where S.Element == Element {
        let added = Array(newElements)
        store.mutate("append(contentsOf:)") { elements in
            guard !added.isEmpty else { return (nil, ()) }
            let start = elements.count
            elements.append(contentsOf: added)
            return (ArrayChange(elements: elements, edits: (start..<elements.count).map { .insert($0) }, isInitial: false), ())
        }
    }

    /// Inserts `element` at `index` (`0...count`): `.insert(index)`.
    @_alwaysEmitIntoClient
    public func insert(_ element: Element, at index: Int) {
        store.mutate("insert(_:at:)") { elements in
            precondition(index >= 0 && index <= elements.count, Self.message("insert(_:at:)", index, elements.count, end: true))
            elements.insert(element, at: index)
            return (ArrayChange(elements: elements, edit: .insert(index)), ())
        }
    }

    /// Inserts `newElements` at `index` (`0...count`): one `.insert` per element.
    @_alwaysEmitIntoClient
    public func insert<C: Collection>(contentsOf newElements: C, at index: Int) where C.Element == Element {
        let added = Array(newElements)
        store.mutate("insert(contentsOf:at:)") { elements in
            precondition(index >= 0 && index <= elements.count,
                         Self.message("insert(contentsOf:at:)", index, elements.count, end: true))
            guard !added.isEmpty else { return (nil, ()) }
            elements.insert(contentsOf: added, at: index)
            return (ArrayChange(elements: elements, edits: (index..<index + added.count).map { .insert($0) }, isInitial: false), ())
        }
    }

    /// Removes and returns the element at `index`: `.delete(index)`.
    @_alwaysEmitIntoClient
    @discardableResult
    public func remove(at index: Int) -> Element {
        store.mutate("remove(at:)") { elements in
            precondition(index >= 0 && index < elements.count, Self.message("remove(at:)", index, elements.count))
            let removed = elements.remove(at: index)
            return (ArrayChange(elements: elements, edit: .delete(index)), removed)
        }
    }

    /// Removes every element: one `.delete` per element.
    @_alwaysEmitIntoClient
    public func removeAll() {
        // The elements removed are returned, to be released after the lock.
        _ = store.mutate("removeAll()") { elements -> (ArrayChange<Element>?, [Element]) in
            guard !elements.isEmpty else { return (nil, []) }
            let edits = elements.indices.map { ArrayEdit.delete($0) }
            let removed = elements
            elements = []
            return (ArrayChange(elements: elements, edits: edits, isInitial: false), removed)
        }
    }

    /// Removes the elements for which `shouldBeRemoved` returns `true`: one
    /// `.delete` per removed element.
    ///
    /// `shouldBeRemoved` runs while the array is locked (other threads wait); it
    /// must not use this `ObservableArray`. If it throws, nothing is removed.
    @_alwaysEmitIntoClient
    public func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        let (outcome, _) = store.mutate("removeAll(where:)", runsUserCode: true) { elements -> (ArrayChange<Element>?, (Result<Void, any Error>, [Element])) in
            // `kept` ends up holding the elements removed, released after the lock.
            var kept: [Element] = []
            var edits: [ArrayEdit] = []
            for index in elements.indices {
                do {
                    if try shouldBeRemoved(elements[index]) {
                        edits.append(.delete(index))
                    } else {
                        kept.append(elements[index])
                    }
                } catch {
                    return (nil, (.failure(error), kept))
                }
            }
            guard !edits.isEmpty else { return (nil, (.success(()), kept)) }
            swap(&elements, &kept)
            return (ArrayChange(elements: elements, edits: edits, isInitial: false), (.success(()), kept))
        }
        try rethrowing(outcome, rescue: { throw $0 })
    }

    /// Moves the element at `from` so that it ends up at `to` (both in
    /// `0..<count`): `.move(from: from, to: to)`, as `moveRow(at:to:)` means it.
    @_alwaysEmitIntoClient
    public func move(from: Int, to: Int) {
        store.mutate("move(from:to:)") { elements in
            precondition(from >= 0 && from < elements.count, Self.message("move(from:to:)", from, elements.count))
            precondition(to >= 0 && to < elements.count, Self.message("move(from:to:)", to, elements.count))
            guard from != to else { return (nil, ()) }
            elements.insert(elements.remove(at: from), at: to)
            return (ArrayChange(elements: elements, edit: .move(from: from, to: to)), ())
        }
    }

    /// Replaces the elements in `range` with `newElements`: a `.delete` per
    /// element removed and an `.insert` per element added.
    @_alwaysEmitIntoClient
    public func replaceSubrange<C: Collection>(_ range: Range<Int>, with newElements: C) where C.Element == Element {
        let added = Array(newElements)
        _ = store.mutate("replaceSubrange(_:with:)") { elements -> (ArrayChange<Element>?, [Element]) in
            precondition(range.lowerBound >= 0 && range.upperBound <= elements.count,
                         "ObservableArray.replaceSubrange(_:with:): range \(range) is out of range (count \(elements.count), valid bounds 0...\(elements.count))")
            guard !range.isEmpty || !added.isEmpty else { return (nil, []) }
            var edits = range.map { ArrayEdit.delete($0) }
            edits += (range.lowerBound..<range.lowerBound + added.count).map { .insert($0) }
            let removed = Array(elements[range])
            elements.replaceSubrange(range, with: added)
            return (ArrayChange(elements: elements, edits: edits, isInitial: false), removed)
        }
    }

    /// Makes any number of mutations, delivered as **one** change.
    ///
    /// `body` mutates an ``ArrayBatch``, which records the mutations so that the
    /// change's edits are exact for any element type. It is a
    /// `RangeReplaceableCollection`, `MutableCollection` and
    /// `RandomAccessCollection`: whatever you would do to an `inout [Element]`
    /// works on it. If `body` throws, the array is left as it was and nothing is
    /// sent; if it changes nothing, nothing is sent.
    ///
    /// `body` runs while the array is locked (other threads wait); it must not
    /// use this `ObservableArray` (only the batch it is given).
    @discardableResult
    @_alwaysEmitIntoClient
    public func batchUpdate<Result>(_ body: (inout ArrayBatch<Element>) throws -> Result) rethrows -> Result {
        // The start and the batch are returned, to be released after the lock:
        // the elements dropped (or made and thrown away) go with them.
        let (outcome, _, _) = store.mutate("batchUpdate(_:)", runsUserCode: true) {
            elements -> (ArrayChange<Element>?, (Swift.Result<Result, any Error>, BatchStart<Element>, ArrayBatch<Element>)) in
            let start = BatchStart(elements)
            var batch = ArrayBatch(start)
            let result: Result
            do {
                result = try body(&batch)
            } catch {
                return (nil, (.failure(error), start, batch))
            }
            let edits = batch.edits(from: start)
            elements = batch.elements
            guard !edits.isEmpty else { return (nil, (.success(result), start, batch)) }
            return (ArrayChange(elements: elements, edits: edits, isInitial: false), (.success(result), start, batch))
        }
        return try rethrowing(outcome, rescue: { throw $0 })
    }

    /// Replaces the contents with `newElements` using `diff` for the edits.
    @_alwaysEmitIntoClient
    func replace(with newElements: [Element], diff: ([Element], [Element]) -> [ArrayEdit]) {
        // The elements replaced are returned, to be released after the lock.
        _ = store.mutate("replace(with:)") { elements -> (ArrayChange<Element>?, [Element]) in
            let edits = diff(elements, newElements)
            let replaced = elements
            elements = newElements
            guard !edits.isEmpty else { return (nil, replaced) }
            return (ArrayChange(elements: elements, edits: edits, isInitial: false), replaced)
        }
    }

    @usableFromInline
    static func message(_ method: String, _ index: Int, _ count: Int, end: Bool = false) -> String {
        collectionIndexMessage("ObservableArray.\(method)", index: index, count: count, allowsEnd: end)
    }
}

extension ObservableArray where Element: Hashable {
    /// Replaces the contents with `newElements`, delivered as the *diff* from the
    /// current contents (inserts, deletes and moves; equal elements are the same
    /// element), not as a reset. Sends nothing if nothing changed.
    @_alwaysEmitIntoClient
    public func replace(with newElements: [Element]) {
        replace(with: newElements) { ArrayDiff.edits(from: $0, to: $1, id: { $0 }, isUpdated: nil) }
    }
}

extension ObservableArray where Element: Identifiable & Equatable {
    /// Replaces the contents with `newElements`, delivered as the *diff* from the
    /// current contents: `id` decides inserts, deletes and moves, and an element
    /// with the same `id` but different contents is an update. Sends nothing if
    /// nothing changed.
    @_alwaysEmitIntoClient
    public func replace(with newElements: [Element]) {
        replace(with: newElements) { ArrayDiff.edits(from: $0, to: $1, id: { $0.id }, isUpdated: !=) }
    }
}

extension ObservableArray where Element: Identifiable & Hashable {
    /// Replaces the contents with `newElements`, delivered as the *diff* from the
    /// current contents; identity is the `id` (this overload is chosen over the
    /// `Hashable` one), so the same `id` with other contents is an update.
    @_alwaysEmitIntoClient
    public func replace(with newElements: [Element]) {
        replace(with: newElements) { ArrayDiff.edits(from: $0, to: $1, id: { $0.id }, isUpdated: !=) }
    }
}

extension ObservableArray where Element: Equatable {
    /// Replaces the contents with `newElements`, delivered as the *diff* from the
    /// current contents, with `id` as the identity of an element: the same
    /// identity with different contents is an update.
    @_alwaysEmitIntoClient
    public func replace<ID: Hashable>(with newElements: [Element], identifiedBy id: (Element) -> ID) {
        replace(with: newElements) { ArrayDiff.edits(from: $0, to: $1, id: id, isUpdated: !=) }
    }
}
