import Ripple
import RippleCollections
import RippleTest
import XCTest

/// `ObservableArray`: what each mutation sends, and that every change applies to
/// the elements of the change before it.
final class CollectionsObservableArrayTests: RippleTestCase {
    /// Subscribes to `array.changes` and returns the recorded changes.
    private func recordChanges<T>(_ array: ObservableArray<T>) -> (Recorder<ArrayChange<T>>, Disposable) {
        let recorder = Recorder<ArrayChange<T>>()
        let subscription = array.changes.subscribe(onNext: { recorder.append($0) })
        return (recorder, subscription)
    }

    func testSubscribingDeliversTheCurrentContentsAsAnInitialChange() {
        let array = ObservableArray(["a", "b"])
        let (changes, subscription) = recordChanges(array)
        XCTAssertEqual(changes.values, [.initial(["a", "b"])])
        XCTAssertTrue(changes.values[0].isInitial)
        subscription.dispose()
    }

    /// `subscribe(onNext:)` to `changes` subscribes on the trampoline, as a
    /// subscription through an observer does (and as RxSwift subscribes
    /// anything): work a handler schedules on `CurrentThreadScheduler` during the
    /// initial change runs after the handler, before `subscribe` returns.
    /// (Before, the handlers' path skipped the trampoline, and the scheduled
    /// work ran inside the handler, first.) Pipelines of operators: see
    /// `CurrentThreadSchedulerTests`.
    func testChangesSubscribedWithHandlersUseTheTrampolineLikeAnObserver() {
        XCTAssertEqual(trampolineOrder(ObservableArray([1]).changes), ["handler", "scheduled", "returned"])
    }

    /// A single-edit mutation keeps its edit without an array: the change must
    /// still equal, and hash like, the same change made with an edits array.
    func testASingleEditChangeEqualsAndHashesLikeOneMadeFromAnArray() {
        let array = ObservableArray([1, 2])
        let (changes, subscription) = recordChanges(array)
        array.append(3)
        array[0] = 10
        array.move(from: 0, to: 2)
        array.insert(0, at: 0)
        XCTAssertEqual(array.remove(at: 0), 0)
        let expected = [
            ArrayChange(elements: [1, 2, 3], edits: [.insert(2)]),
            ArrayChange(elements: [10, 2, 3], edits: [.update(0)]),
            ArrayChange(elements: [2, 3, 10], edits: [.move(from: 0, to: 2)]),
            ArrayChange(elements: [0, 2, 3, 10], edits: [.insert(0)]),
            ArrayChange(elements: [2, 3, 10], edits: [.delete(0)]),
        ]
        let sent = Array(changes.values.dropFirst())
        XCTAssertEqual(sent, expected)
        XCTAssertEqual(expected, sent)
        XCTAssertEqual(sent.map(\.hashValue), expected.map(\.hashValue))
        XCTAssertEqual(Set(sent + expected).count, expected.count)
        XCTAssertEqual(sent.map(\.edits), expected.map(\.edits))
        XCTAssertEqual(sent.map(\.description), expected.map(\.description))
        XCTAssertNotEqual(sent[0], ArrayChange(elements: [1, 2, 3], edits: [.insert(2), .insert(2)]))
        XCTAssertNotEqual(sent[0], ArrayChange(elements: [1, 2, 3], edits: []))
        XCTAssertNotEqual(sent[0], ArrayChange(elements: [1, 2, 3], edits: [.insert(1)]))
        XCTAssertNotEqual(ArrayChange.initial([1]), ArrayChange(elements: [1], edits: []))
        var previous = [1, 2]
        for change in sent { change.apply(to: &previous) }
        XCTAssertEqual(previous, [2, 3, 10])
        subscription.dispose()
    }

    func testEachMutationIsOneChangeWithItsEdits() {
        let array = ObservableArray([1, 2, 3])
        let (changes, subscription) = recordChanges(array)
        array.append(4)
        array.append(contentsOf: [5, 6])
        array.insert(0, at: 0)
        array.insert(contentsOf: [10, 11], at: 2)
        XCTAssertEqual(array.remove(at: 1), 1)
        array[0] = 100
        array.move(from: 0, to: 3)
        array.replaceSubrange(1..<3, with: [7])
        XCTAssertEqual(array.value, [10, 7, 100, 3, 4, 5, 6])
        array.removeAll(where: { $0 > 6 })
        array.removeAll()
        XCTAssertEqual(changes.values.map(\.edits), [
            [],
            [.insert(3)],
            [.insert(4), .insert(5)],
            [.insert(0)],
            [.insert(2), .insert(3)],
            [.delete(1)],
            [.update(0)],
            [.move(from: 0, to: 3)],
            [.delete(1), .delete(2), .insert(1)],
            [.delete(0), .delete(1), .delete(2)],
            [.delete(0), .delete(1), .delete(2), .delete(3)],
        ])
        XCTAssertEqual(changes.values.last?.elements, [])
        assertChangeStream(changes.values)
        subscription.dispose()
    }

    func testReadingReflectsMutationsAtOnce() {
        let array = ObservableArray<Int>()
        XCTAssertTrue(array.isEmpty)
        array.append(1)
        array.append(2)
        XCTAssertEqual(array.count, 2)
        XCTAssertEqual(array[1], 2)
        XCTAssertEqual(array.value, [1, 2])
    }

    func testMutationsThatChangeNothingSendNothing() {
        let array = ObservableArray([1])
        let (changes, subscription) = recordChanges(array)
        array.append(contentsOf: [])
        array.insert(contentsOf: [], at: 0)
        array.move(from: 0, to: 0)
        array.removeAll(where: { _ in false })
        array.replaceSubrange(0..<0, with: [])
        array.batchUpdate { _ in }
        array.replace(with: [1])
        array.removeAll()
        array.removeAll()
        XCTAssertEqual(changes.values.count, 2, "the initial change and one removeAll")
        subscription.dispose()
    }

    func testEverySubscriberStartsFromItsOwnSnapshot() {
        let array = ObservableArray([1])
        let (first, firstSubscription) = recordChanges(array)
        array.append(2)
        let (second, secondSubscription) = recordChanges(array)
        array.remove(at: 0)
        XCTAssertEqual(first.values, [.initial([1]), ArrayChange(elements: [1, 2], edits: [.insert(1)]), ArrayChange(elements: [2], edits: [.delete(0)])])
        XCTAssertEqual(second.values, [.initial([1, 2]), ArrayChange(elements: [2], edits: [.delete(0)])])
        firstSubscription.dispose()
        secondSubscription.dispose()
    }

    func testNothingArrivesAfterDispose() {
        let array = ObservableArray([1])
        let (changes, subscription) = recordChanges(array)
        subscription.dispose()
        array.append(2)
        XCTAssertEqual(changes.values.count, 1)
    }

    // MARK: batchUpdate

    func testBatchUpdateIsOneChange() {
        let array = ObservableArray(["a", "b", "c", "d"])
        let (changes, subscription) = recordChanges(array)
        let removed = array.batchUpdate { list -> String in
            let removed = list.remove(at: 0)
            list.append("e")
            list.move(from: 2, to: 0)
            list[1] = "B"
            return removed
        }
        XCTAssertEqual(removed, "a")
        XCTAssertEqual(array.value, ["d", "B", "c", "e"])
        XCTAssertEqual(changes.values.count, 2)
        XCTAssertEqual(changes.values[1].edits, [.delete(0), .insert(3), .move(from: 3, to: 0), .update(1)])
        assertChangeStream(changes.values)
        subscription.dispose()
    }

    func testBatchUpdateThatThrowsChangesNothing() {
        let array = ObservableArray([1, 2])
        let (changes, subscription) = recordChanges(array)
        XCTAssertThrowsError(try array.batchUpdate { list -> Void in
            list.removeAll()
            throw TestError()
        })
        XCTAssertEqual(array.value, [1, 2])
        XCTAssertEqual(changes.values.count, 1)
        subscription.dispose()
    }

    func testBatchReorderingsAreMoves() {
        let array = ObservableArray([3, 1, 2])
        let (changes, subscription) = recordChanges(array)
        array.batchUpdate { $0.sort() }
        XCTAssertEqual(changes.values.last?.edits, [.move(from: 0, to: 2)])
        array.batchUpdate { $0.reverse() }
        XCTAssertEqual(array.value, [3, 2, 1])
        XCTAssertTrue(changes.values.last!.edits.allSatisfy { if case .move = $0 { return true } else { return false } })
        assertChangeStream(changes.values)
        subscription.dispose()
    }

    func testPropertyRandomBatchesApply() {
        var random = SeededRandomNumberGenerator(seed: 151)
        let array = ObservableArray<Int>()
        let (changes, subscription) = recordChanges(array)
        for _ in 0..<2_000 {
            array.batchUpdate { list in
                for _ in 0..<Int.random(in: 0...6, using: &random) {
                    let value = Int.random(in: 0..<5, using: &random)
                    switch Int.random(in: 0..<9, using: &random) {
                    case 0: list.append(value)
                    case 1: list.insert(value, at: Int.random(in: 0...list.count, using: &random))
                    case 2 where !list.isEmpty: list.remove(at: Int.random(in: 0..<list.count, using: &random))
                    case 3 where !list.isEmpty:
                        list.move(from: Int.random(in: 0..<list.count, using: &random), to: Int.random(in: 0..<list.count, using: &random))
                    case 4 where !list.isEmpty: list[Int.random(in: 0..<list.count, using: &random)] = value
                    case 5: list.removeAll(where: { $0 == value })
                    case 6 where !list.isEmpty: list.swapAt(Int.random(in: 0..<list.count, using: &random), Int.random(in: 0..<list.count, using: &random))
                    case 7:
                        let lower = Int.random(in: 0...list.count, using: &random)
                        list.replaceSubrange(lower..<Int.random(in: lower...list.count, using: &random), with: [value, value])
                    case 8: list.sort()
                    default: list.append(contentsOf: [value, value + 1])
                    }
                }
            }
        }
        XCTAssertGreaterThan(changes.values.count, 1_000)
        assertChangeStream(changes.values)
        subscription.dispose()
    }

    // MARK: replace(with:)

    func testReplaceDeliversTheDiffNotAReset() {
        let array = ObservableArray(["a", "b", "c"])
        let (changes, subscription) = recordChanges(array)
        array.replace(with: ["c", "a", "d"])
        XCTAssertEqual(changes.values.last?.edits, [.delete(1), .insert(2), .move(from: 2, to: 0)])
        assertChangeStream(changes.values)
        subscription.dispose()
    }

    func testReplaceOfIdentifiedElementsUpdatesChangedOnes() {
        let items = ObservableArray([Item(1, "a"), Item(2, "b")])
        let rows = ObservableArray([Row(id: 1, value: 1)])
        let words = ObservableArray(["apple"])
        let (itemChanges, first) = recordChanges(items)
        let (rowChanges, second) = recordChanges(rows)
        let (wordChanges, third) = recordChanges(words)
        items.replace(with: [Item(1, "a"), Item(2, "B")])
        rows.replace(with: [Row(id: 1, value: 2)])
        words.replace(with: ["Apple"], identifiedBy: { $0.lowercased() })
        XCTAssertEqual(itemChanges.values.last?.edits, [.update(1)])
        XCTAssertEqual(rowChanges.values.last?.edits, [.update(0)])
        XCTAssertEqual(wordChanges.values.last?.edits, [.update(0)])
        [first, second, third].forEach { $0.dispose() }
    }

    // MARK: Snapshots

    func testAsObservableSendsTheContentsAfterEachChange() {
        let array = ObservableArray([1])
        let (events, subscription) = record(array.asObservable())
        array.append(2)
        XCTAssertEqual(events.values, [.next([1]), .next([1, 2])])
        subscription.dispose()
    }

    func testAsDriverDeliversOnTheMainScheduler() {
        let array = ObservableArray([1])
        let values = Recorder<[Int]>()
        let subscription = array.asDriver().drive(onNext: { values.append($0) })
        array.append(2)
        XCTAssertTrue(waitUntil { values.values.last == [1, 2] })
        XCTAssertEqual(values.values.first, [1])
        subscription.dispose()
    }

    // MARK: Re-entrancy

    func testAMutationFromAnObserverIsDeliveredAfterTheCurrentChange() {
        let array = ObservableArray<Int>()
        let first = Recorder<ArrayChange<Int>>()
        let second = Recorder<ArrayChange<Int>>()
        let bag = DisposeBag()
        array.changes.subscribe(onNext: { change in
            first.append(change)
            // Each value below 3 appends its successor.
            if let last = change.elements.last, last < 3, !change.isInitial { array.append(last + 1) }
        }).disposed(by: bag)
        array.changes.subscribe(onNext: { second.append($0) }).disposed(by: bag)
        array.append(1)
        XCTAssertEqual(array.value, [1, 2, 3])
        XCTAssertEqual(first.values.map(\.elements), [[], [1], [1, 2], [1, 2, 3]])
        XCTAssertEqual(second.values.map(\.elements), [[], [1], [1, 2], [1, 2, 3]])
        assertChangeStream(first.values)
        assertChangeStream(second.values)
    }

    func testASubscriptionFromAnObserverStartsFromTheCurrentContents() {
        let array = ObservableArray([0])
        let late = Recorder<ArrayChange<Int>>()
        let bag = DisposeBag()
        let lateBag = DisposeBag()
        array.changes.subscribe(onNext: { change in
            if change.elements.count == 2 {
                array.changes.subscribe(onNext: { late.append($0) }).disposed(by: lateBag)
            }
        }).disposed(by: bag)
        array.append(1)
        array.append(2)
        XCTAssertEqual(late.values.map(\.elements), [[0, 1], [0, 1, 2]])
        assertChangeStream(late.values)
    }

    /// With one subscriber the mutating thread delivers without retaining it:
    /// the re-entrancy rules must hold there too.
    func testTheOnlySubscriberMutatingFromItsHandlerSeesItsChangeAfterTheCurrentOne() {
        let array = ObservableArray<Int>()
        let received = Recorder<ArrayChange<Int>>()
        let subscription = array.changes.subscribe(onNext: { change in
            received.append(change)
            if let last = change.elements.last, last < 3, !change.isInitial { array.append(last + 1) }
        })
        array.append(1)
        XCTAssertEqual(array.value, [1, 2, 3])
        XCTAssertEqual(received.values.map(\.elements), [[], [1], [1, 2], [1, 2, 3]])
        assertChangeStream(received.values)
        subscription.dispose()
    }

    /// The only subscriber disposing itself from its handler: it is released
    /// after the delivery that is running (not during it, which would free the
    /// handler while it runs), and receives nothing more.
    func testTheOnlySubscriberDisposingItselfIsReleasedAfterTheDelivery() {
        final class Holder: @unchecked Sendable {
            var subscription: Disposable?
        }
        let array = ObservableArray<Int>()
        let released = ReleaseFlag()
        let releasedDuringDelivery = ReleaseFlag()
        let received = Recorder<ArrayChange<Int>>()
        let holder = Holder()
        do {
            let token = ReleaseToken(released)
            holder.subscription = array.changes.subscribe(onNext: { change in
                withExtendedLifetime(token) {}
                received.append(change)
                guard !change.isInitial else { return }
                holder.subscription?.dispose()
                holder.subscription = nil
                if released.isSet { releasedDuringDelivery.set() }
            })
        }
        XCTAssertFalse(released.isSet)
        array.append(1)
        XCTAssertFalse(releasedDuringDelivery.isSet)
        XCTAssertTrue(released.isSet)
        array.append(2)
        XCTAssertEqual(received.values.map(\.elements), [[], [1]])
    }

    /// `subscribe(onNext:...)` on `changes` gets the changes without an `Event`
    /// and an observer closure in between; it must behave like any other
    /// subscriber: same changes, `onDisposed` once on dispose, nothing after it,
    /// next to subscribers that go through an operator (which take the other path).
    func testSubscribeHandlersAndOperatorSubscribersSeeTheSameChanges() {
        let array = ObservableArray([1])
        let direct = Recorder<ArrayChange<Int>>()
        let disposed = Recorder<String>()
        let first = array.changes.subscribe(
            onNext: { direct.append($0) },
            onError: { _ in disposed.append("error") },
            onCompleted: { disposed.append("completed") },
            onDisposed: { disposed.append("disposed") }
        )
        let throughMap = Recorder<[Int]>()
        let second = array.changes.map(\.elements).subscribe(onNext: { throughMap.append($0) })
        let lone = Recorder<ArrayChange<Int>>()
        array.append(2)  // two subscribers: the snapshot path
        first.dispose()
        first.dispose()
        array.append(3)  // the only subscriber goes through `map`: an observer
        let third = array.changes.subscribe(onNext: { lone.append($0) })
        second.dispose()
        array.remove(at: 0)  // the only subscriber is the handlers
        third.dispose()
        array.append(4)
        XCTAssertEqual(direct.values, [.initial([1]), ArrayChange(elements: [1, 2], edits: [.insert(1)])])
        XCTAssertEqual(disposed.values, ["disposed"])
        XCTAssertEqual(throughMap.values, [[1], [1, 2], [1, 2, 3]])
        XCTAssertEqual(lone.values, [.initial([1, 2, 3]), ArrayChange(elements: [2, 3], edits: [.delete(0)])])
    }

    func testSubscribersDoNotKeepTheArrayAlive() {
        weak var weakArray: ObservableArray<Int>?
        var subscription: Disposable?
        do {
            let array = ObservableArray([1])
            weakArray = array
            subscription = array.changes.subscribe(onNext: { _ in })
        }
        XCTAssertNil(weakArray)
        subscription?.dispose()
    }
}
