import Ripple
import RippleCollections
import RippleTest
import XCTest

/// `changes()` on streams of arrays, and the derived views `mapElements`,
/// `filterElements` and `sortedElements`: examples, then properties over random
/// mutation sequences (each derived change must apply to the previous derived
/// elements and equal the view computed from scratch).
final class CollectionsChangeOperatorTests: RippleTestCase {
    private func changes<T>(of source: Observable<ArrayChange<T>>) -> (Recorder<ArrayChange<T>>, Disposable) {
        let recorder = Recorder<ArrayChange<T>>()
        return (recorder, source.subscribe(onNext: { recorder.append($0) }))
    }

    // MARK: changes()

    func testChangesOfAStreamOfArrays() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let source = try scheduler.createColdObservable("-a-b-c|", values: ["a": [1, 2], "b": [2, 1, 3], "c": [3]])
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1_000) { source.changes() }
        XCTAssertEqual(observer.events, [
            .next(10, .initial([1, 2])),
            .next(30, ArrayChange(elements: [2, 1, 3], edits: [.insert(2), .move(from: 1, to: 0)])),
            .next(50, ArrayChange(elements: [3], edits: [.delete(0), .delete(1)])),
            .completed(60),
        ])
        XCTAssertEqual(source.subscriptions, [Subscription(0, 60)])
    }

    func testChangesFailWithTheSource() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let source = try scheduler.createColdObservable("-a#", values: ["a": [1]])
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1_000) { source.changes() }
        XCTAssertEqual(observer.events.count, 2)
        XCTAssertNotNil(observer.events.last?.value.error)
    }

    func testChangesPickTheIdentityOverloadForIdentifiableHashableElements() {
        let (items, first) = changes(of: Observable.of([Item(1, "a")], [Item(1, "b")]).changes())
        let (rows, second) = changes(of: Observable.of([Row(id: 1, value: 0)], [Row(id: 1, value: 1)]).changes())
        let (words, third) = changes(of: Observable.of(["a"], ["A"]).changes(identifiedBy: { $0.lowercased() }))
        XCTAssertEqual(items.values.last?.edits, [.update(0)])
        XCTAssertEqual(rows.values.last?.edits, [.update(0)])
        XCTAssertEqual(words.values.last?.edits, [.update(0)])
        [first, second, third].forEach { $0.dispose() }
    }

    func testPropertyChangesOfRandomArraysApply() {
        var random = SeededRandomNumberGenerator(seed: 152)
        var arrays: [[Int]] = [random.array()]
        for _ in 0..<2_000 {
            arrays.append(Int.random(in: 0..<4, using: &random) == 0 ? random.array() : random.edited(arrays.last!))
        }
        let (recorded, subscription) = changes(of: Observable.from(arrays).changes())
        // An array equal to the one before brings no edits and is not sent.
        let distinct = arrays.reduce(into: [[Int]]()) { if $0.last != $1 { $0.append($1) } }
        XCTAssertEqual(recorded.values.map(\.elements), distinct)
        assertChangeStream(recorded.values)
        subscription.dispose()
    }

    // MARK: Derived views: examples

    func testMapElementsKeepsTheEditsAndTransformsOnlyNewElements() {
        let array = ObservableArray([1, 2])
        let transformed = Recorder<Int>()
        let (mapped, subscription) = changes(of: array.changes.mapElements { (value: Int) -> String in
            transformed.append(value)
            return "#\(value)"
        })
        array.append(3)
        array[0] = 10
        array.move(from: 2, to: 0)
        XCTAssertEqual(mapped.values.map(\.elements), [["#1", "#2"], ["#1", "#2", "#3"], ["#10", "#2", "#3"], ["#3", "#10", "#2"]])
        XCTAssertEqual(mapped.values.map(\.edits), [[], [.insert(2)], [.update(0)], [.move(from: 2, to: 0)]])
        XCTAssertEqual(transformed.values, [1, 2, 3, 10])
        subscription.dispose()
    }

    func testFilterElementsRecomputesTheEdits() {
        let array = ObservableArray([1, 2, 3])
        let (evens, subscription) = changes(of: array.changes.filterElements { $0 % 2 == 0 })
        array.append(4)          // insert in the view
        array.append(5)          // nothing in the view
        array[0] = 6             // 1 -> 6: starts matching, an insert
        array[1] = 7             // 2 -> 7: stops matching, a delete
        XCTAssertEqual(evens.values.map(\.elements), [[2], [2, 4], [6, 2, 4], [6, 4]])
        XCTAssertEqual(evens.values.map(\.edits), [[], [.insert(1)], [.insert(0)], [.delete(1)]])
        subscription.dispose()
    }

    func testSortedElementsRecomputesTheEdits() {
        let array = ObservableArray([3, 1])
        let (sorted, subscription) = changes(of: array.changes.sortedElements(by: <))
        array.append(2)
        array[0] = 0            // 3 -> 0: moves to the front and changes: delete + insert
        array.move(from: 0, to: 2)  // no change in the sorted view: nothing sent
        XCTAssertEqual(sorted.values.map(\.elements), [[1, 3], [1, 2, 3], [0, 1, 2]])
        XCTAssertEqual(sorted.values.map(\.edits), [[], [.insert(1)], [.delete(2), .insert(0)]])
        subscription.dispose()
    }

    // MARK: Derived views: properties

    /// Applies `rounds` random batches of mutations to `array`.
    private func mutateRandomly(_ array: ObservableArray<Item>, rounds: Int, using random: inout SeededRandomNumberGenerator) {
        let texts = ["a", "b", "c", "d"]
        for _ in 0..<rounds {
            array.batchUpdate { list in
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let item = Item(Int.random(in: 0..<20, using: &random), texts.randomElement(using: &random)!)
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0, 1: list.insert(item, at: Int.random(in: 0...list.count, using: &random))
                    case 2 where !list.isEmpty: list.remove(at: Int.random(in: 0..<list.count, using: &random))
                    case 3 where !list.isEmpty:
                        list.move(from: Int.random(in: 0..<list.count, using: &random), to: Int.random(in: 0..<list.count, using: &random))
                    case 4 where !list.isEmpty: list[Int.random(in: 0..<list.count, using: &random)].text = item.text
                    default: list.removeAll(where: { $0.id == item.id })
                    }
                }
            }
        }
    }

    func testPropertyDerivedViewsMatchTheirDefinition() {
        var random = SeededRandomNumberGenerator(seed: 153)
        let array = ObservableArray<Item>()
        let (source, s0) = changes(of: array.changes)
        let (mapped, s1) = changes(of: array.changes.mapElements { $0.text + "\($0.id)" })
        let (filtered, s2) = changes(of: array.changes.filterElements { $0.text != "a" })
        let (sorted, s3) = changes(of: array.changes.sortedElements { $0.text < $1.text })
        let (chained, s4) = changes(of: array.changes.filterElements { $0.id % 3 != 0 }.sortedElements { $0.text > $1.text })
        mutateRandomly(array, rounds: 2_000, using: &random)
        let final = array.value
        assertChangeStream(source.values)
        assertChangeStream(mapped.values)
        assertChangeStream(filtered.values)
        assertChangeStream(sorted.values)
        assertChangeStream(chained.values)
        // Each derived change equals the view of the source change it came from.
        XCTAssertEqual(mapped.values.map(\.elements), source.values.map { $0.elements.map { $0.text + "\($0.id)" } })
        XCTAssertEqual(filtered.values.last?.elements, final.filter { $0.text != "a" })
        XCTAssertEqual(sorted.values.last?.elements, final.sorted { $0.text < $1.text })
        XCTAssertEqual(chained.values.last?.elements, final.filter { $0.id % 3 != 0 }.sorted { $0.text > $1.text })
        [s0, s1, s2, s3, s4].forEach { $0.dispose() }
    }

    func testPropertyEveryDerivedChangeMatchesTheViewOfItsSource() {
        var random = SeededRandomNumberGenerator(seed: 154)
        let array = ObservableArray<Item>()
        // Pair each derived change with the source elements it was computed from.
        let pairs = Recorder<([Item], [Item], [Item])>()
        let latest = Recorder<[Item]>()
        let bag = DisposeBag()
        array.changes.subscribe(onNext: { latest.append($0.elements) }).disposed(by: bag)
        array.changes.filterElements { $0.text < "c" }.subscribe(onNext: { change in
            pairs.append((latest.values.last!, change.elements, latest.values.last!.filter { $0.text < "c" }))
        }).disposed(by: bag)
        array.changes.sortedElements { $0.id < $1.id }.subscribe(onNext: { change in
            pairs.append((latest.values.last!, change.elements, latest.values.last!.sorted { $0.id < $1.id }))
        }).disposed(by: bag)
        mutateRandomly(array, rounds: 1_000, using: &random)
        XCTAssertGreaterThan(pairs.values.count, 1_000)
        for (source, derived, expected) in pairs.values {
            XCTAssertEqual(derived, expected, "from \(source)")
        }
    }
}
