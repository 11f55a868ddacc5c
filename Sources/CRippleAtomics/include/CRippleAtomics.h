// Ripple's atomic operations, for `AtomicCell` (Sources/Ripple/Core/Atomics.swift)
// and nothing else.
//
// C11 <stdatomic.h> on one 64-bit word. Every function is `static inline`: the
// Swift compiler compiles the inline functions of an imported header itself, and
// LLVM inlines each call into the Swift code that makes it, where it becomes the
// one instruction it stands for. One exception, measured with Swift 6.3.1: a call
// made from a thunk (a protocol witness, or a generic closure specialized for its
// caller) is never inlined (IRGen marks every call in a thunk `noinline`), so
// there the operation costs a call, about 9 instructions on x86-64 (see
// docs/Architecture.md). Built with `-sanitize=thread`, these functions are
// instrumented as atomic accesses, so ThreadSanitizer orders the memory they
// publish.
//
// The storage is a plain `uint64_t` that Swift code never reads or writes itself:
// only these functions touch it, through its address, as an `_Atomic(uint64_t)`
// (same size, alignment and representation on every platform Ripple supports).
// A 64-bit word everywhere, so that one family serves `Int`, `UInt`, `Bool` and
// `UInt64` values; on 64-bit platforms it is the machine word, and the 32-bit
// watchOS ABI (arm64_32) has native 64-bit atomics.

#ifndef RIPPLE_ATOMICS_H
#define RIPPLE_ATOMICS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define RIPPLE_ATOMIC_INLINE static inline __attribute__((always_inline))
#define RIPPLE_ATOMIC_WORD(word) ((_Atomic(uint64_t) *)(word))

// One function per operation and ordering, rather than an ordering parameter:
// where a call is not inlined (in a thunk, above), it then costs the call alone,
// not also a switch over the orderings (12 instructions per call with the
// parameter, 9 without, in `subject-fanout`).

#define RIPPLE_ATOMIC_LOAD(name, order) \
    RIPPLE_ATOMIC_INLINE uint64_t ripple_atomic_load_##name(void *word) { \
        return atomic_load_explicit(RIPPLE_ATOMIC_WORD(word), order); \
    }

#define RIPPLE_ATOMIC_STORE(name, order) \
    RIPPLE_ATOMIC_INLINE void ripple_atomic_store_##name(void *word, uint64_t value) { \
        atomic_store_explicit(RIPPLE_ATOMIC_WORD(word), value, order); \
    }

// The read-modify-writes return the value before the operation; addition and
// subtraction wrap around. The compare-and-exchange is the strong one: `true` if
// `*word` was `*expected` and is now `desired`; otherwise `*expected` receives
// the value found. Its failure ordering is the strongest C11 allows for the
// load it then is: no release part, never stronger than the success ordering.
#define RIPPLE_ATOMIC_UPDATES(name, order, failure) \
    RIPPLE_ATOMIC_INLINE uint64_t ripple_atomic_exchange_##name(void *word, uint64_t value) { \
        return atomic_exchange_explicit(RIPPLE_ATOMIC_WORD(word), value, order); \
    } \
    RIPPLE_ATOMIC_INLINE bool ripple_atomic_compare_exchange_##name(void *word, uint64_t *expected, uint64_t desired) { \
        return atomic_compare_exchange_strong_explicit(RIPPLE_ATOMIC_WORD(word), expected, desired, order, failure); \
    } \
    RIPPLE_ATOMIC_INLINE uint64_t ripple_atomic_fetch_add_##name(void *word, uint64_t operand) { \
        return atomic_fetch_add_explicit(RIPPLE_ATOMIC_WORD(word), operand, order); \
    } \
    RIPPLE_ATOMIC_INLINE uint64_t ripple_atomic_fetch_sub_##name(void *word, uint64_t operand) { \
        return atomic_fetch_sub_explicit(RIPPLE_ATOMIC_WORD(word), operand, order); \
    } \
    RIPPLE_ATOMIC_INLINE uint64_t ripple_atomic_fetch_or_##name(void *word, uint64_t operand) { \
        return atomic_fetch_or_explicit(RIPPLE_ATOMIC_WORD(word), operand, order); \
    } \
    RIPPLE_ATOMIC_INLINE uint64_t ripple_atomic_fetch_and_##name(void *word, uint64_t operand) { \
        return atomic_fetch_and_explicit(RIPPLE_ATOMIC_WORD(word), operand, order); \
    }

RIPPLE_ATOMIC_LOAD(relaxed, memory_order_relaxed)
RIPPLE_ATOMIC_LOAD(acquire, memory_order_acquire)
RIPPLE_ATOMIC_LOAD(seq_cst, memory_order_seq_cst)

RIPPLE_ATOMIC_STORE(relaxed, memory_order_relaxed)
RIPPLE_ATOMIC_STORE(release, memory_order_release)
RIPPLE_ATOMIC_STORE(seq_cst, memory_order_seq_cst)

RIPPLE_ATOMIC_UPDATES(relaxed, memory_order_relaxed, memory_order_relaxed)
RIPPLE_ATOMIC_UPDATES(acquire, memory_order_acquire, memory_order_acquire)
RIPPLE_ATOMIC_UPDATES(release, memory_order_release, memory_order_relaxed)
RIPPLE_ATOMIC_UPDATES(acq_rel, memory_order_acq_rel, memory_order_acquire)
RIPPLE_ATOMIC_UPDATES(seq_cst, memory_order_seq_cst, memory_order_seq_cst)

// One flag read on every operator application and subscription: whether
// subscriptions and operator sites are recorded (`Hooks.recordsOperatorSites`).
// A C global rather than a Swift one: Swift code in another module (an app, where
// Ripple's inlinable operators are compiled) reaches a Swift global through its
// addressor, a call and a once-check; this one is a load from its address.
extern uint64_t ripple_records_operator_sites;

RIPPLE_ATOMIC_INLINE bool ripple_recording(void) {
    return atomic_load_explicit(RIPPLE_ATOMIC_WORD(&ripple_records_operator_sites), memory_order_relaxed) != 0;
}

RIPPLE_ATOMIC_INLINE void ripple_set_recording(bool on) {
    atomic_store_explicit(RIPPLE_ATOMIC_WORD(&ripple_records_operator_sites), on ? 1 : 0, memory_order_relaxed);
}

#undef RIPPLE_ATOMIC_UPDATES
#undef RIPPLE_ATOMIC_STORE
#undef RIPPLE_ATOMIC_LOAD
#undef RIPPLE_ATOMIC_WORD
#undef RIPPLE_ATOMIC_INLINE

#endif
