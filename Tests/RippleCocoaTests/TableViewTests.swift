#if RIPPLE_COCOA_INTERFACE
import Foundation
import RippleUIKitInterface
import RippleCocoa
import RippleTest
import XCTest

/// The app's own table view delegate: it implements some methods, not others.
@MainActor
private final class AppTableDelegate: NSObject, UITableViewDelegate {
    var selected: [IndexPath] = []
    var displayed = 0
    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) { selected.append(indexPath) }
    func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) { displayed += 1 }
    func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { 80 }
}

final class TableViewTests: RippleTestCase {
    /// Static, so that the main-actor test bodies do not capture the test case.
    @MainActor
    private static func makeTable() -> UITableView {
        let table = UITableView(frame: .zero, style: .plain)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "Cell")
        return table
    }

    func testItemsWithCellIdentifierShowsTheElementsAndModelSelectedReturnsThem() {
        MainActor.assumeIsolated {
            let table = Self.makeTable()
            let items = BehaviorRelay(value: ["a", "b", "c"])
            let bag = DisposeBag()
            items.bind(to: table.rx.items(cellIdentifier: "Cell", cellType: UITableViewCell.self)) { row, element, cell in
                cell.textLabel?.text = "\(element)\(row)"
            }.disposed(by: bag)
            var models: [String] = []
            var paths: [IndexPath] = []
            table.rx.modelSelected(String.self).subscribe(onNext: { models.append($0) }).disposed(by: bag)
            table.rx.itemSelected.subscribe(onNext: { paths.append($0) }).disposed(by: bag)
            XCTAssertEqual(table.simulatedRowTexts, [["a0", "b1", "c2"]])
            table.simulateTap(at: IndexPath(row: 1, section: 0))
            items.accept(["x", "y"])
            XCTAssertEqual(table.simulatedRowTexts, [["x0", "y1"]])
            table.simulateTap(at: IndexPath(row: 0, section: 0))
            XCTAssertEqual(models, ["b", "x"])
            XCTAssertEqual(paths, [IndexPath(row: 1, section: 0), IndexPath(row: 0, section: 0)])
            XCTAssertEqual(table.simulatedUpdates.filter { $0 == .reloadData }.count, 2)
        }
    }

    func testItemsWithACellFactory() {
        MainActor.assumeIsolated {
            let table = Self.makeTable()
            let subscription = Observable.just([1, 2]).bind(to: table.rx.items) { tableView, row, element in
                let cell = tableView.dequeueReusableCell(withIdentifier: "Cell")!
                cell.textLabel?.text = "\(element * 10) @ \(row)"
                return cell
            }
            // The source completed: its last elements stay until disposal.
            XCTAssertEqual(table.simulatedRowTexts, [["10 @ 0", "20 @ 1"]])
            subscription.dispose()
        }
    }

    /// After every mutation, the table shows exactly the array: UIKit's reading
    /// of the batch (simulated) applied to the cells shown before it gives the
    /// array's new contents, and no index is one UIKit would reject.
    func testObservableArrayMutationsReachTheTableAsBatchUpdatesWhoseIndicesMatchTheChange() {
        MainActor.assumeIsolated {
            let table = Self.makeTable()
            let todos = ObservableArray(["a", "b", "c", "d"])
            let subscription = todos.changes.bind(to: table.rx.items(cellIdentifier: "Cell", cellType: UITableViewCell.self)) { _, todo, cell in
                cell.textLabel?.text = todo
            }
            XCTAssertEqual(table.simulatedUpdates, [.reloadData])
            var generator = SeededGenerator(seed: 36)
            for step in 0..<200 {
                switch Int.random(in: 0..<6, using: &generator) {
                case 0: todos.append("n\(step)")
                case 1 where todos.count > 0: todos.remove(at: Int.random(in: 0..<todos.count, using: &generator))
                case 2 where todos.count > 1:
                    todos.move(from: Int.random(in: 0..<todos.count, using: &generator), to: Int.random(in: 0..<todos.count, using: &generator))
                case 3 where todos.count > 0: todos[Int.random(in: 0..<todos.count, using: &generator)] = "u\(step)"
                case 4: todos.insert("i\(step)", at: Int.random(in: 0...todos.count, using: &generator))
                default:
                    todos.batchUpdate { list in
                        if !list.isEmpty { list.remove(at: 0) }
                        list.append("b\(step)")
                        list.shuffle(using: &generator)
                        if !list.isEmpty { list[0] = "bu\(step)" }
                    }
                }
                XCTAssertEqual(table.simulatedRowTexts, [todos.value.map { Optional($0) }], "step \(step)")
            }
            XCTAssertEqual(table.simulatedInconsistencies, [])
            XCTAssertEqual(table.simulatedUpdates.filter { $0 == .reloadData }.count, 1)
            subscription.dispose()
        }
    }

    func testABatchUpdateCarriesTheChangesEditsUnchanged() {
        MainActor.assumeIsolated {
            let table = Self.makeTable()
            let list = ObservableArray(["a", "b", "c", "d"])
            let subscription = list.changes.bind(to: table.rx.items(cellIdentifier: "Cell", cellType: UITableViewCell.self)) { _, e, cell in
                cell.textLabel?.text = e
            }
            list.batchUpdate { batch in
                batch.remove(at: 1)            // b
                batch.move(from: 2, to: 0)     // d first
                batch.insert("x", at: 2)
            }
            guard case .batch(let operations)? = table.simulatedUpdates.last else { return XCTFail("no batch") }
            XCTAssertEqual(Set(operations.map(\.description)), [
                "delete [0,1]", "move [0,3]→[0,0]", "insert [0,2]",
            ])
            XCTAssertEqual(table.simulatedRowTexts, [["d", "a", "x", "c"]])
            subscription.dispose()
        }
    }

    func testModelSelectedReturnsTheRightElementAfterMoves() {
        MainActor.assumeIsolated {
            let table = Self.makeTable()
            let list = ObservableArray(["a", "b", "c"])
            let bag = DisposeBag()
            list.changes.bind(to: table.rx.items(cellIdentifier: "Cell", cellType: UITableViewCell.self)) { _, e, cell in
                cell.textLabel?.text = e
            }.disposed(by: bag)
            var selected: [String] = []
            table.rx.modelSelected(String.self).subscribe(onNext: { selected.append($0) }).disposed(by: bag)
            // The user drags a row; the app moves the array the same way.
            table.rx.itemMoved.subscribe(onNext: { list.move(from: $0.sourceIndex.row, to: $0.destinationIndex.row) }).disposed(by: bag)
            list.move(from: 0, to: 2)                                   // b c a
            table.simulateTap(at: IndexPath(row: 2, section: 0))
            XCTAssertTrue(table.simulateMove(from: IndexPath(row: 0, section: 0), to: IndexPath(row: 1, section: 0)))   // c b a
            XCTAssertEqual(list.value, ["c", "b", "a"])
            table.simulateTap(at: IndexPath(row: 0, section: 0))
            table.simulateTap(at: IndexPath(row: 1, section: 0))
            XCTAssertEqual(selected, ["a", "c", "b"])
            XCTAssertEqual(table.simulatedRowTexts, [["c", "b", "a"]])
            XCTAssertEqual(table.simulatedInconsistencies, [])
        }
    }

    func testTheAppsDelegateSetWithSetDelegateStillReceivesItsCalls() {
        MainActor.assumeIsolated {
            let table = Self.makeTable()
            let appDelegate = AppTableDelegate()
            let bag = DisposeBag()
            var selected: [IndexPath] = []
            table.rx.itemSelected.subscribe(onNext: { selected.append($0) }).disposed(by: bag)
            table.rx.setDelegate(appDelegate).disposed(by: bag)
            Observable.just(["a", "b"]).bind(to: table.rx.items(cellIdentifier: "Cell", cellType: UITableViewCell.self)) { _, e, cell in
                cell.textLabel?.text = e
            }.disposed(by: bag)
            _ = table.numberOfSections
            table.simulateTap(at: IndexPath(row: 1, section: 0))
            XCTAssertEqual(selected, [IndexPath(row: 1, section: 0)])           // Ripple's
            XCTAssertEqual(appDelegate.selected, [IndexPath(row: 1, section: 0)]) // and the app's
            XCTAssertEqual(appDelegate.displayed, 2)                             // passed on
            // A method Ripple does not implement reaches the app's delegate by forwarding.
            XCTAssertEqual(table.rectForRow(at: IndexPath(row: 0, section: 0)).height, 80)
        }
    }

    func testADelegateSetBeforeTheBindingGoesBehindTheProxy() {
        MainActor.assumeIsolated {
            let table = Self.makeTable()
            let appDelegate = AppTableDelegate()
            table.delegate = appDelegate
            var selected = 0
            let subscription = table.rx.itemSelected.subscribe(onNext: { _ in selected += 1 })
            XCTAssertFalse(table.delegate === appDelegate)
            table.simulateTap(at: IndexPath(row: 0, section: 0))
            XCTAssertEqual(selected, 1)
            XCTAssertEqual(appDelegate.selected.count, 1)
            XCTAssertEqual(table.rectForRow(at: IndexPath(row: 0, section: 0)).height, 80)
            subscription.dispose()
        }
    }

    func testItemDeletedOffersDeletionOnlyWhileObserved() {
        MainActor.assumeIsolated {
            let table = Self.makeTable()
            let bag = DisposeBag()
            Observable.just(["a", "b"]).bind(to: table.rx.items(cellIdentifier: "Cell", cellType: UITableViewCell.self)) { _, e, cell in
                cell.textLabel?.text = e
            }.disposed(by: bag)
            XCTAssertFalse(table.simulateCommit(.delete, at: IndexPath(row: 0, section: 0)))
            var deleted: [IndexPath] = []
            var models: [String] = []
            let subscription = table.rx.itemDeleted.subscribe(onNext: { deleted.append($0) })
            let modelSubscription = table.rx.modelDeleted(String.self).subscribe(onNext: { models.append($0) })
            XCTAssertTrue(table.simulateCommit(.delete, at: IndexPath(row: 1, section: 0)))
            XCTAssertEqual(deleted, [IndexPath(row: 1, section: 0)])
            XCTAssertEqual(models, ["b"])
            subscription.dispose()
            modelSubscription.dispose()
            XCTAssertFalse(table.simulateCommit(.delete, at: IndexPath(row: 0, section: 0)))
        }
    }

    func testObservableSectionsReachTheTableAsBatchUpdates() {
        MainActor.assumeIsolated {
            let table = Self.makeTable()
            let sections = ObservableSections<String, String>(
                [SectionModel("A", items: ["a1", "a2"]), SectionModel("B", items: ["b1"])],
                sectionID: { $0 }, itemID: { $0 })
            let subscription = sections.changes.bind(to: table.rx.items(cellIdentifier: "Cell", cellType: UITableViewCell.self)) { _, item, cell in
                cell.textLabel?.text = item
            }
            sections.append("a3", toSection: 0)
            sections.move(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 1, item: 1))
            sections.appendSection(SectionModel("C", items: ["c1"]))
            _ = sections.removeSection(at: 0)
            XCTAssertEqual(table.simulatedRowTexts, sections.value.map { $0.items.map { Optional($0) } })
            XCTAssertEqual(table.simulatedInconsistencies, [])
            subscription.dispose()
        }
    }

    func testTheBindingReleasesTheTableAndCompletesWhenItGoes() {
        MainActor.assumeIsolated {
            weak var released: UITableView?
            var completed = false
            let list = ObservableArray(["a"])
            do {
                let table = Self.makeTable()
                released = table
                _ = list.changes.bind(to: table.rx.items(cellIdentifier: "Cell", cellType: UITableViewCell.self)) { _, e, cell in
                    cell.textLabel?.text = e
                }
                _ = table.rx.itemSelected.subscribe(onCompleted: { completed = true })
            }
            XCTAssertNil(released)
            XCTAssertTrue(completed)
            list.append("b")   // nobody is bound any more
        }
    }
}

/// A deterministic random number generator (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
#endif
