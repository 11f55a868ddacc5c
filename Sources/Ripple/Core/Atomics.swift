import CRippleAtomics

/// A value read and written only atomically, stored inline in the object that owns
/// it: Ripple's replacement for `Synchronization.Atomic`, which Apple platforms
/// have only from macOS 15 / iOS 18 on.
///
/// The operations are C11 atomics (`CRippleAtomics`) on the cell's address, which
/// the caller passes with `&`. They are inlined into the caller, except in a thunk
/// (a protocol witness, or a generic closure specialized for its caller), where the
/// compiler keeps every call a call: there an operation costs about 9 instructions
/// instead of one (see "The lock and the atomics" in docs/Architecture.md).
///
/// ```swift
/// @usableFromInline @exclusivity(unchecked)
/// final var lifecycle = AtomicCell<Int>(0)
///
/// if AtomicCell.load(&lifecycle, ordering: .acquiring) & flag != 0 { ... }
/// let old = AtomicCell.bitwiseOr(&lifecycle, flag, ordering: .acquiringAndReleasing).oldValue
/// ```
///
/// Rules for the property that holds a cell (each one is why it works):
/// - a stored `var` of a class (`final`, or in a `final class`), a global or a
///   `static var`, without observers, marked `@exclusivity(unchecked)`;
/// - never read, assigned or passed `inout` after its initialisation: every
///   access is one of the functions below, called with `&cell`.
///
/// Why `&cell` passed straight to these functions, and nothing else:
/// - *Same address every time.* Passing a stored property without observers to
///   a pointer parameter gives the address of its storage (the compiler's
///   `ref_element_addr`), not of a temporary copy: nothing calls a getter or a
///   setter, and an object never moves. Swift promises such a pointer only for
///   the duration of the call, which is all an operation needs; the address
///   being the storage's own is what the compiler does for a stored property
///   (and promises outright for globals and static properties), and
///   `AtomicsConcurrencyTests` checks it for a class property against
///   `_getUnsafePointerToStoredProperties`.
/// - *No exclusivity check.* `@exclusivity(unchecked)` removes the run-time
///   access tracking (`swift_beginAccess`, about 100 instructions per access in
///   `LockedState`'s measurement), which would also be meaningless here: the
///   accesses overlap by design, and are atomic.
/// - *Not `withUnsafeMutablePointer(to: &cell)`, nor a `mutating` method.* Those
///   are `inout` accesses, which a `-sanitize=thread` build instruments as Swift
///   accesses (`__tsan_external_write`): two threads operating on one cell at
///   once were reported as a "Swift access race" in a scratch test (Swift
///   6.3.1), although every memory access was atomic. A pointer argument is not
///   instrumented that way; the C functions themselves are, as atomics.
/// - *Not a heap box per cell* (swift-atomics' `ManagedAtomic`): an allocation
///   and its release cost about 300 instructions, once per subscription for
///   `SubscriptionBase.lifecycle`.
/// - *Not `@_rawLayout`* (how the standard library's `Atomic` gets a stable
///   address): an underscored attribute behind an experimental compiler feature,
///   which a package cannot rely on (and `Atomic`, built on it, is available only
///   from macOS 15 / iOS 18 on).
///
/// The storage is 64 bits on every platform (see the C header). On a 32-bit
/// platform (watchOS's arm64_32) an `Int` or `UInt` is stored sign-extended, and
/// arithmetic that overflows 32 bits would leave bits the next
/// ``compareExchange(_:expected:desired:ordering:)`` does not expect; Ripple's
/// counters stay far from that.
@usableFromInline
struct AtomicCell<Value: AtomicCellValue> {
    /// The value's bits. Only the C functions read or write it after `init`.
    @usableFromInline
    var bits: UInt64

    @_alwaysEmitIntoClient
    init(_ value: Value) {
        bits = value.atomicBits
    }
}

/// A type whose values fit an ``AtomicCell``'s 64 bits.
@usableFromInline
protocol AtomicCellValue {
    init(atomicBits: UInt64)
    var atomicBits: UInt64 { get }
}

extension Int: AtomicCellValue {
    @inlinable init(atomicBits: UInt64) { self.init(truncatingIfNeeded: Int64(bitPattern: atomicBits)) }
    @inlinable var atomicBits: UInt64 { UInt64(bitPattern: Int64(self)) }
}

extension UInt: AtomicCellValue {
    @inlinable init(atomicBits: UInt64) { self.init(bitPattern: Int(atomicBits: atomicBits)) }
    @inlinable var atomicBits: UInt64 { Int(bitPattern: self).atomicBits }
}

extension UInt64: AtomicCellValue {
    @inlinable init(atomicBits: UInt64) { self = atomicBits }
    @inlinable var atomicBits: UInt64 { self }
}

extension Bool: AtomicCellValue {
    @inlinable init(atomicBits: UInt64) { self = atomicBits != 0 }
    @inlinable var atomicBits: UInt64 { self ? 1 : 0 }
}

// The orderings are structs, as the standard library's `Synchronization`
// declares its own: an enum would bring its value witnesses and its implicit
// `Hashable` conformance (about 15 functions, 1.5 KB with their unwind entries)
// into every app, for values that only ever select a C function at compile
// time. A `switch` over one matches with `~=` (its last case is `default`).

/// The ordering of an atomic load (C11's `memory_order`, with the names of the
/// standard library's `AtomicLoadOrdering`).
@usableFromInline
struct AtomicLoadOrdering {
    @usableFromInline let rawValue: UInt8

    @_alwaysEmitIntoClient init(rawValue: UInt8) { self.rawValue = rawValue }

    @_alwaysEmitIntoClient static var relaxed: Self { Self(rawValue: 0) }
    @_alwaysEmitIntoClient static var acquiring: Self { Self(rawValue: 1) }
    @_alwaysEmitIntoClient static var sequentiallyConsistent: Self { Self(rawValue: 2) }

    @_alwaysEmitIntoClient @inline(__always)
    static func ~= (pattern: Self, ordering: Self) -> Bool { pattern.rawValue == ordering.rawValue }
}

/// The ordering of an atomic store.
@usableFromInline
struct AtomicStoreOrdering {
    @usableFromInline let rawValue: UInt8

    @_alwaysEmitIntoClient init(rawValue: UInt8) { self.rawValue = rawValue }

    @_alwaysEmitIntoClient static var relaxed: Self { Self(rawValue: 0) }
    @_alwaysEmitIntoClient static var releasing: Self { Self(rawValue: 1) }
    @_alwaysEmitIntoClient static var sequentiallyConsistent: Self { Self(rawValue: 2) }

    @_alwaysEmitIntoClient @inline(__always)
    static func ~= (pattern: Self, ordering: Self) -> Bool { pattern.rawValue == ordering.rawValue }
}

/// The ordering of an atomic read-modify-write. A compare-and-exchange that fails
/// has the strongest ordering C allows for a load that is part of it (`acquiring`
/// for `acquiringAndReleasing`, `relaxed` for `releasing`).
@usableFromInline
struct AtomicUpdateOrdering {
    @usableFromInline let rawValue: UInt8

    @_alwaysEmitIntoClient init(rawValue: UInt8) { self.rawValue = rawValue }

    @_alwaysEmitIntoClient static var relaxed: Self { Self(rawValue: 0) }
    @_alwaysEmitIntoClient static var acquiring: Self { Self(rawValue: 1) }
    @_alwaysEmitIntoClient static var releasing: Self { Self(rawValue: 2) }
    @_alwaysEmitIntoClient static var acquiringAndReleasing: Self { Self(rawValue: 3) }
    @_alwaysEmitIntoClient static var sequentiallyConsistent: Self { Self(rawValue: 4) }

    @_alwaysEmitIntoClient @inline(__always)
    static func ~= (pattern: Self, ordering: Self) -> Bool { pattern.rawValue == ordering.rawValue }
}

extension AtomicCell {
    // Each operation picks the C function of its ordering; with the ordering a
    // constant at the call site (as everywhere in Ripple), the switch folds away.

    @_alwaysEmitIntoClient
    @inline(__always)
    static func load(_ cell: UnsafeMutablePointer<Self>, ordering: AtomicLoadOrdering) -> Value {
        let bits: UInt64
        switch ordering {
        case .relaxed: bits = ripple_atomic_load_relaxed(cell)
        case .acquiring: bits = ripple_atomic_load_acquire(cell)
        default: bits = ripple_atomic_load_seq_cst(cell)
        }
        return Value(atomicBits: bits)
    }

    @_alwaysEmitIntoClient
    @inline(__always)
    static func store(_ cell: UnsafeMutablePointer<Self>, _ value: Value, ordering: AtomicStoreOrdering) {
        switch ordering {
        case .relaxed: ripple_atomic_store_relaxed(cell, value.atomicBits)
        case .releasing: ripple_atomic_store_release(cell, value.atomicBits)
        default: ripple_atomic_store_seq_cst(cell, value.atomicBits)
        }
    }

    /// Stores `value` and returns the value it replaced.
    @_alwaysEmitIntoClient
    @inline(__always)
    @discardableResult
    static func exchange(_ cell: UnsafeMutablePointer<Self>, _ value: Value, ordering: AtomicUpdateOrdering) -> Value {
        let bits = value.atomicBits
        let old: UInt64
        switch ordering {
        case .relaxed: old = ripple_atomic_exchange_relaxed(cell, bits)
        case .acquiring: old = ripple_atomic_exchange_acquire(cell, bits)
        case .releasing: old = ripple_atomic_exchange_release(cell, bits)
        case .acquiringAndReleasing: old = ripple_atomic_exchange_acq_rel(cell, bits)
        default: old = ripple_atomic_exchange_seq_cst(cell, bits)
        }
        return Value(atomicBits: old)
    }

    /// Stores `desired` if the cell holds `expected`; returns whether it did and
    /// the value the cell held.
    @_alwaysEmitIntoClient
    @inline(__always)
    @discardableResult
    static func compareExchange(
        _ cell: UnsafeMutablePointer<Self>, expected: Value, desired: Value, ordering: AtomicUpdateOrdering
    ) -> (exchanged: Bool, original: Value) {
        var found = expected.atomicBits
        let bits = desired.atomicBits
        let exchanged: Bool
        switch ordering {
        case .relaxed: exchanged = ripple_atomic_compare_exchange_relaxed(cell, &found, bits)
        case .acquiring: exchanged = ripple_atomic_compare_exchange_acquire(cell, &found, bits)
        case .releasing: exchanged = ripple_atomic_compare_exchange_release(cell, &found, bits)
        case .acquiringAndReleasing: exchanged = ripple_atomic_compare_exchange_acq_rel(cell, &found, bits)
        default: exchanged = ripple_atomic_compare_exchange_seq_cst(cell, &found, bits)
        }
        return (exchanged, Value(atomicBits: found))
    }
}

extension AtomicCell where Value: FixedWidthInteger {
    /// Adds `operand`, wrapping around on overflow; returns the values before and
    /// after.
    @_alwaysEmitIntoClient
    @inline(__always)
    @discardableResult
    static func add(
        _ cell: UnsafeMutablePointer<Self>, _ operand: Value, ordering: AtomicUpdateOrdering
    ) -> (oldValue: Value, newValue: Value) {
        let bits = operand.atomicBits
        let old: UInt64
        switch ordering {
        case .relaxed: old = ripple_atomic_fetch_add_relaxed(cell, bits)
        case .acquiring: old = ripple_atomic_fetch_add_acquire(cell, bits)
        case .releasing: old = ripple_atomic_fetch_add_release(cell, bits)
        case .acquiringAndReleasing: old = ripple_atomic_fetch_add_acq_rel(cell, bits)
        default: old = ripple_atomic_fetch_add_seq_cst(cell, bits)
        }
        let oldValue = Value(atomicBits: old)
        return (oldValue, oldValue &+ operand)
    }

    /// Subtracts `operand`, wrapping around on overflow; returns the values before
    /// and after.
    @_alwaysEmitIntoClient
    @inline(__always)
    @discardableResult
    static func subtract(
        _ cell: UnsafeMutablePointer<Self>, _ operand: Value, ordering: AtomicUpdateOrdering
    ) -> (oldValue: Value, newValue: Value) {
        let bits = operand.atomicBits
        let old: UInt64
        switch ordering {
        case .relaxed: old = ripple_atomic_fetch_sub_relaxed(cell, bits)
        case .acquiring: old = ripple_atomic_fetch_sub_acquire(cell, bits)
        case .releasing: old = ripple_atomic_fetch_sub_release(cell, bits)
        case .acquiringAndReleasing: old = ripple_atomic_fetch_sub_acq_rel(cell, bits)
        default: old = ripple_atomic_fetch_sub_seq_cst(cell, bits)
        }
        let oldValue = Value(atomicBits: old)
        return (oldValue, oldValue &- operand)
    }

    @_alwaysEmitIntoClient
    @inline(__always)
    @discardableResult
    static func bitwiseOr(
        _ cell: UnsafeMutablePointer<Self>, _ operand: Value, ordering: AtomicUpdateOrdering
    ) -> (oldValue: Value, newValue: Value) {
        let bits = operand.atomicBits
        let old: UInt64
        switch ordering {
        case .relaxed: old = ripple_atomic_fetch_or_relaxed(cell, bits)
        case .acquiring: old = ripple_atomic_fetch_or_acquire(cell, bits)
        case .releasing: old = ripple_atomic_fetch_or_release(cell, bits)
        case .acquiringAndReleasing: old = ripple_atomic_fetch_or_acq_rel(cell, bits)
        default: old = ripple_atomic_fetch_or_seq_cst(cell, bits)
        }
        let oldValue = Value(atomicBits: old)
        return (oldValue, oldValue | operand)
    }

    @_alwaysEmitIntoClient
    @inline(__always)
    @discardableResult
    static func bitwiseAnd(
        _ cell: UnsafeMutablePointer<Self>, _ operand: Value, ordering: AtomicUpdateOrdering
    ) -> (oldValue: Value, newValue: Value) {
        let bits = operand.atomicBits
        let old: UInt64
        switch ordering {
        case .relaxed: old = ripple_atomic_fetch_and_relaxed(cell, bits)
        case .acquiring: old = ripple_atomic_fetch_and_acquire(cell, bits)
        case .releasing: old = ripple_atomic_fetch_and_release(cell, bits)
        case .acquiringAndReleasing: old = ripple_atomic_fetch_and_acq_rel(cell, bits)
        default: old = ripple_atomic_fetch_and_seq_cst(cell, bits)
        }
        let oldValue = Value(atomicBits: old)
        return (oldValue, oldValue & operand)
    }
}
