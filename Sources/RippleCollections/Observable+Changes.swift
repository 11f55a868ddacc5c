import Ripple
// Turning streams of arrays into streams of changes, and deriving change
// streams from change streams (map, filter, sort), edits included.

extension ObservableType {
    /// Runs `step` on each element with per-subscription state; `nil` results
    /// are not forwarded. Errors thrown by `step` fail the stream.
    ///
    /// `deferred` makes the state per subscription; `compactMap` calls `step`
    /// once per element, serialized, so the captured state needs no lock.
    @_alwaysEmitIntoClient
    func statefulMap<State, Output>(
        _ makeState: @escaping () -> State, _ step: @escaping (inout State, Element) throws -> Output?
    ) -> Observable<Output> {
        let source = asObservable()
        return .deferred {
            var state = makeState()
            return source.compactMap { try step(&state, $0) }
        }
    }
}

// MARK: - Diffing a stream of arrays

extension ObservableType {
    /// Diffs each array against the previous one: an initial change for the
    /// first array, then the edits from each array to the next.
    @_alwaysEmitIntoClient
    func diffedChanges<T>(_ diff: @escaping ([T], [T]) -> [ArrayEdit]) -> Observable<ArrayChange<T>> where Element == [T] {
        statefulMap({ nil as [T]? }) { previous, elements in
            defer { previous = elements }
            guard let old = previous else { return .initial(elements) }
            let edits = diff(old, elements)
            return edits.isEmpty ? nil : ArrayChange(elements: elements, edits: edits)
        }
    }

    /// Turns a stream of arrays into a stream of ``ArrayChange``s: the first
    /// array as an initial change, then each array with the edits from the one
    /// before, found by diffing. Elements are their own identity, so there are
    /// inserts, deletes and moves, never updates.
    ///
    /// ```
    /// source:     --[a,b]-----[b,a,c]-------------[c]---|
    /// changes():  --initial---move(1→0),insert(2)--delete(0),delete(1)--|
    /// ```
    ///
    /// The diff is linear in the common case (a variant of Heckel's algorithm;
    /// the fewest moves for the pairing it finds). Equal elements that occur
    /// several times are paired in order: in step where the arrays agree, then
    /// the first unmatched `x` of the new array with the first unmatched `x` of
    /// the old one; surplus ones are inserts or deletes. Completes and fails with the
    /// source. An array that brings no edits (the same list again) sends
    /// nothing. Every change applies to the previous change's elements
    /// (``ArrayChange/apply(to:)``).
    @_alwaysEmitIntoClient
    @inline(never)
    public func changes<T: Hashable>() -> Observable<ArrayChange<T>> where Element == [T] {
        diffedChanges { ArrayDiff.edits(from: $0, to: $1, id: { $0 }, isUpdated: nil) }
    }

    /// Like `changes()` for `Hashable` elements, with `Identifiable.id` as the
    /// identity: the same `id` with different contents is an `.update`.
    @_alwaysEmitIntoClient
    @inline(never)
    public func changes<T: Identifiable & Equatable>() -> Observable<ArrayChange<T>> where Element == [T] {
        diffedChanges { ArrayDiff.edits(from: $0, to: $1, id: { $0.id }, isUpdated: { $0 != $1 }) }
    }

    /// `changes()` for elements that are both `Identifiable` and `Hashable`:
    /// identity is the `id` (this overload is chosen over the `Hashable` one),
    /// so the same `id` with different contents is an `.update`.
    @_alwaysEmitIntoClient
    @inline(never)
    public func changes<T: Identifiable & Hashable>() -> Observable<ArrayChange<T>> where Element == [T] {
        diffedChanges { ArrayDiff.edits(from: $0, to: $1, id: { $0.id }, isUpdated: { $0 != $1 }) }
    }

    /// Like `changes()`, with `id` as the identity of an element: the same
    /// identity with different contents (`!=`) is an `.update`.
    ///
    /// ```swift
    /// repositories.changes(identifiedBy: \.fullName)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func changes<T: Equatable, ID: Hashable>(identifiedBy id: @escaping (T) -> ID) -> Observable<ArrayChange<T>>
    where Element == [T] {
        diffedChanges { ArrayDiff.edits(from: $0, to: $1, id: id, isUpdated: { $0 != $1 }) }
    }
}

// MARK: - Derived views

extension ObservableType {
    /// Transforms the elements of each change and keeps its edits: a view of the
    /// same list in another type (row view models, display strings).
    ///
    /// `transform` runs for the elements of the initial change and, afterwards,
    /// only for inserted and updated elements: the others are kept from the
    /// previous mapped array.
    ///
    /// ```
    /// source:                  --initial[1,2]--insert(2)[1,2,3]--|
    /// mapElements { $0 * 10 }: --initial[10,20]-insert(2)[10,20,30]--|
    /// ```
    ///
    /// Completes and fails with the source; fails if `transform` throws.
    @_alwaysEmitIntoClient
    @inline(never)
    public func mapElements<T, Mapped>(_ transform: @escaping (T) throws -> Mapped) -> Observable<ArrayChange<Mapped>>
    where Element == ArrayChange<T> {
        statefulMap({ [Mapped]() }) { mapped, change in
            if change.isInitial {
                mapped = try change.elements.map(transform)
                return .initial(mapped)
            }
            let mapping = EditMapping.of(change, oldCount: mapped.count, in: "mapElements")
            mapped = try mapping.apply(to: mapped) { try transform(change.elements[$0]) }
            return ArrayChange(elements: mapped, storedEdits: change.storedEdits)
        }
    }

    /// The elements for which `isIncluded` returns `true`, as a change stream of
    /// its own: its edits are recomputed for the filtered array (an update that
    /// makes an element match is an insert there, one that makes it stop
    /// matching a delete).
    ///
    /// `isIncluded` runs for the elements of the initial change, then only for
    /// inserted and updated ones. A change that leaves the filtered array as it
    /// was sends nothing.
    ///
    /// ```
    /// source:                   --initial[1,2,3]--insert(3)[1,2,3,4]--delete(0)[2,3,4]--|
    /// filterElements { $0 > 1 }: --initial[2,3]----insert(2)[2,3,4]------------------------|
    /// ```
    ///
    /// Completes and fails with the source; fails if `isIncluded` throws.
    @_alwaysEmitIntoClient
    @inline(never)
    public func filterElements<T>(_ isIncluded: @escaping (T) throws -> Bool) -> Observable<ArrayChange<T>>
    where Element == ArrayChange<T> {
        statefulMap({ (included: [Bool](), count: 0) }) { state, change in
            let elements = change.elements
            if change.isInitial {
                state.included = try elements.map(isIncluded)
                state.count = state.included.lazy.filter { $0 }.count
                return .initial(Self.kept(elements, state.included))
            }
            let mapping = EditMapping.of(change, oldCount: state.included.count, in: "filterElements")
            // Old source index -> old filtered position (-1: excluded), and back.
            var oldPosition = [Int](repeating: -1, count: state.included.count)
            var oldSource: [Int] = []
            oldSource.reserveCapacity(state.count)
            for (index, isIn) in state.included.enumerated() where isIn {
                oldPosition[index] = oldSource.count
                oldSource.append(index)
            }
            var included = [Bool](repeating: false, count: elements.count)
            var newToOld: [Int] = []
            newToOld.reserveCapacity(state.count)
            for index in elements.indices {
                let old = mapping.newToOld[index]
                included[index] = try mapping.takesNewValue(at: index) ? isIncluded(elements[index]) : state.included[old]
                if included[index] {
                    newToOld.append(old >= 0 ? oldPosition[old] : -1)
                }
            }
            let oldFilteredCount = state.count
            state.included = included
            state.count = newToOld.count
            let edits = ArrayDiff.batch(oldCount: oldFilteredCount, newToOld: newToOld) { old, _ in
                mapping.isUpdated[oldSource[old]]
            }
            guard !edits.isEmpty else { return nil }
            return ArrayChange(elements: Self.kept(elements, included), edits: edits, isInitial: false)
        }
    }

    @_alwaysEmitIntoClient
    static func kept<T>(_ elements: [T], _ included: [Bool]) -> [T] {
        var result: [T] = []
        for index in elements.indices where included[index] {
            result.append(elements[index])
        }
        return result
    }

    /// The elements sorted by `areInIncreasingOrder` (stable: equal elements
    /// keep their order in the source), as a change stream of its own whose edits
    /// are recomputed for the sorted array: an element whose change moves it is
    /// a move there (or a delete and an insert if its contents changed too).
    ///
    /// After the initial sort, each change re-sorts only the inserted, updated
    /// and moved elements and merges them with the rest: O(n + k log k) for k
    /// such elements. A change that leaves the sorted array as it was sends
    /// nothing.
    ///
    /// ```
    /// source:                    --initial[3,1]--insert(2)[3,1,2]--|
    /// sortedElements(by: <):     --initial[1,3]--insert(1)[1,2,3]--|
    /// ```
    ///
    /// Completes and fails with the source; fails if `areInIncreasingOrder` throws.
    @_alwaysEmitIntoClient
    @inline(never)
    public func sortedElements<T>(by areInIncreasingOrder: @escaping (T, T) throws -> Bool) -> Observable<ArrayChange<T>>
    where Element == ArrayChange<T> {
        // State: `order[p]` is the source index at sorted position p.
        statefulMap({ [Int]() }) { order, change in
            let elements = change.elements
            // Stable: ties are ordered by source index.
            func precedes(_ left: Int, _ right: Int) throws -> Bool {
                if try areInIncreasingOrder(elements[left], elements[right]) { return true }
                if try areInIncreasingOrder(elements[right], elements[left]) { return false }
                return left < right
            }
            if change.isInitial {
                order = try Array(elements.indices).sorted(by: precedes)
                return .initial(order.map { elements[$0] })
            }
            let mapping = EditMapping.of(change, oldCount: order.count, in: "sortedElements")
            let oldToNew = mapping.oldToNew(oldCount: order.count)
            // Elements that changed value or relative source order are placed anew.
            var isDirty = [Bool](repeating: false, count: elements.count)
            var dirty: [Int] = []
            for index in elements.indices {
                let old = mapping.newToOld[index]
                if old < 0 || mapping.isUpdated[old] || mapping.isMoved[old] {
                    isDirty[index] = true
                    dirty.append(index)
                }
            }
            try dirty.sort(by: precedes)
            // The others keep their sorted order (same values, same relative
            // source order): merge the two sorted runs.
            var merged: [Int] = []
            merged.reserveCapacity(elements.count)
            var next = 0
            for old in order {
                let index = oldToNew[old]
                guard index >= 0, !isDirty[index] else { continue }
                while next < dirty.count, try precedes(dirty[next], index) {
                    merged.append(dirty[next])
                    next += 1
                }
                merged.append(index)
            }
            merged.append(contentsOf: dirty[next...])
            // Match sorted positions: new position -> old position of the same source element.
            var oldPosition = [Int](repeating: -1, count: order.count)
            for (position, old) in order.enumerated() { oldPosition[old] = position }
            let newToOld = merged.map { index -> Int in
                let old = mapping.newToOld[index]
                return old >= 0 ? oldPosition[old] : -1
            }
            let oldOrder = order
            order = merged
            let edits = ArrayDiff.batch(oldCount: oldOrder.count, newToOld: newToOld) { old, _ in
                mapping.isUpdated[oldOrder[old]]
            }
            guard !edits.isEmpty else { return nil }
            return ArrayChange(elements: merged.map { elements[$0] }, edits: edits, isInitial: false)
        }
    }
}
