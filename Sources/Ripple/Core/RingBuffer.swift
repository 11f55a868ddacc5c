/// A growable FIFO queue on a circular buffer: O(1) append and removal at the
/// front, no element moves. Used by the trampoline, the subjects' pending work and
/// the buffering operators.
@usableFromInline
struct RingBuffer<Element> {
    @usableFromInline var storage: ContiguousArray<Element?>
    @usableFromInline var head: Int
    @usableFromInline var count: Int

    @_alwaysEmitIntoClient
    init() {
        storage = []
        head = 0
        count = 0
    }

    @_alwaysEmitIntoClient
    init(capacity: Int) {
        storage = ContiguousArray(repeating: nil, count: Swift.max(capacity, 0))
        head = 0
        count = 0
    }

    @_alwaysEmitIntoClient
    var isEmpty: Bool { count == 0 }

    @_alwaysEmitIntoClient
    mutating func append(_ element: Element) {
        if count == storage.count { grow() }
        var index = head + count
        if index >= storage.count { index -= storage.count }
        storage[index] = element
        count += 1
    }

    @_alwaysEmitIntoClient
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head += 1
        if head == storage.count { head = 0 }
        count -= 1
        return element
    }

    @_alwaysEmitIntoClient
    var first: Element? {
        count > 0 ? storage[head] : nil
    }

    /// The element at logical position `offset` (0 is the front).
    @_alwaysEmitIntoClient
    subscript(offset: Int) -> Element {
        var index = head + offset
        if index >= storage.count { index -= storage.count }
        return storage[index]!
    }

    @_alwaysEmitIntoClient
    mutating func removeAll() {
        storage = []
        head = 0
        count = 0
    }

    /// The elements from front to back.
    @_alwaysEmitIntoClient
    var elements: [Element] {
        (0..<count).map { self[$0] }
    }

    @usableFromInline
    mutating func grow() {
        let newCapacity = Swift.max(8, storage.count * 2)
        var newStorage = ContiguousArray<Element?>(repeating: nil, count: newCapacity)
        for offset in 0..<count {
            var index = head + offset
            if index >= storage.count { index -= storage.count }
            newStorage[offset] = storage[index]
        }
        storage = newStorage
        head = 0
    }
}
