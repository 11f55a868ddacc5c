import Ripple
import RippleCollections

// Observable collections. These rows compare Ripple with a *reference* rather than
// with other libraries: the standard library's `difference(from:).inferringMoves()`
// for the diff, Ripple's own `PublishSubject → subscribe` for one append.

let collectionWorkloads: [Workload] = [collectionDiff, collectionAppend]

/// An element with an identity and contents (a revision that updates change).
struct IdentifiedElement: Identifiable, Hashable, Sendable {
    let id: Int
    var revision: Int
}

/// 10 000 identified elements and the same list after 100 random edits: inserts,
/// deletes, moves and updates, 25 of each, from a fixed seed.
let diffInput: (old: [IdentifiedElement], new: [IdentifiedElement]) = {
    var random = SplitMix(seed: 2026)
    let old = (0..<10_000).map { IdentifiedElement(id: $0, revision: 0) }
    var new = old
    for edit in 0..<100 {
        switch edit % 4 {
        case 0: new.insert(IdentifiedElement(id: 10_000 + edit, revision: 0), at: random.next(below: new.count + 1))
        case 1: new.remove(at: random.next(below: new.count))
        case 2: new.insert(new.remove(at: random.next(below: new.count)), at: random.next(below: new.count))
        default: new[random.next(below: new.count)].revision += 1
        }
    }
    return (old, new)
}()

/// A seeded generator, so that every run diffs the same input.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

// 13. Diff of 10 000 identified elements with 100 random edits, per element.
let collectionDiff = Workload(
    id: "collection-diff", title: "diff of 10 000 identified elements, 100 random edits", unit: "element",
    operations: 200_000, instructionScale: 100,
    implementations: [
        .ripple: { n in
            let (old, new) = diffInput
            return {
                var checksum = 0
                for _ in 0..<Swift.max(1, n / old.count) {
                    checksum &+= ArrayChange(from: old, to: new).edits.count
                }
                return checksum
            }
        },
        .reference: { n in
            let (old, new) = diffInput
            return {
                var checksum = 0
                for _ in 0..<Swift.max(1, n / old.count) {
                    checksum &+= new.difference(from: old).inferringMoves().count
                }
                return checksum
            }
        },
    ]
)

// 14. One append to an ObservableArray with one subscriber, per append; the
// reference is one event through PublishSubject → subscribe.
let collectionAppend = Workload(
    id: "collection-append", title: "ObservableArray.append, one subscriber (reference: subject → subscribe)", unit: "event",
    operations: 1_000_000,
    implementations: [
        .ripple: { n in
            let array = ObservableArray<Int>()
            let counter = Counter()
            let subscription = array.changes.subscribe(onNext: { counter.value &+= $0.elements.count })
            return {
                for i in 0..<n { array.append(i) }
                subscription.dispose()
                return counter.value
            }
        },
        .reference: rippleSubjectEvents { $0 },
    ]
)
