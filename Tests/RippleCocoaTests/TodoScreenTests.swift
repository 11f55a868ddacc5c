#if RIPPLE_COCOA_INTERFACE
import Foundation
import RippleUIKitInterface
import RippleCocoa
import RippleTest
import XCTest

// The screen of docs/UIKit.md ("A screen: sign-up form and a list"), compiled in
// Swift 6 mode with warnings as errors against the UIKit interface, and driven.
// Two changes from the guide, both forced by Linux: the interface is imported
// instead of UIKit, and the outlets lose `@IBOutlet` (it needs Objective-C
// interop); the test assigns them instead of a storyboard. The last test checks
// that the guide's block, without its imports and its `@IBOutlet`s, appears here
// word for word.

@MainActor
final class TodoViewModel {
    let name = BehaviorRelay(value: "")
    let password = BehaviorRelay(value: "")
    let todos = ObservableArray<String>([])
    let canAdd: Driver<Bool>
    let nameHint: Driver<String>

    init() {
        let nameValid = name.map { $0.contains("@") }
        let passwordValid = password.map { $0.count >= 6 }
        canAdd = Observable.combineLatest(nameValid, passwordValid) { $0 && $1 }.asDriver(onErrorJustReturn: false)
        nameHint = nameValid.map { $0 ? "" : "Enter an email address" }.asDriver(onErrorJustReturn: "")
    }

    func add() { todos.append(name.value) }
}

final class TodoViewController: UIViewController {
    var nameField: UITextField!
    var passwordField: UITextField!
    var hintLabel: UILabel!
    var addButton: UIButton!
    var tableView: UITableView!
    private let viewModel = TodoViewModel()
    private let bag = DisposeBag()

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "Todo")

        nameField.rx.text.orEmpty.bind(to: viewModel.name).disposed(by: bag)
        passwordField.rx.text.orEmpty.bind(to: viewModel.password).disposed(by: bag)
        viewModel.nameHint.drive(hintLabel.rx.text).disposed(by: bag)
        viewModel.canAdd.drive(addButton.rx.isEnabled).disposed(by: bag)
        addButton.rx.tap.bind(onNext: { [viewModel] in viewModel.add() }).disposed(by: bag)

        // Each append, removal, move or update is one animated batch update.
        viewModel.todos.changes
            .bind(to: tableView.rx.items(cellIdentifier: "Todo", cellType: UITableViewCell.self)) { _, todo, cell in
                cell.textLabel?.text = todo
            }
            .disposed(by: bag)
        tableView.rx.modelSelected(String.self)
            .bind(onNext: { print("selected", $0) })
            .disposed(by: bag)
        tableView.rx.itemDeleted
            .bind(onNext: { [viewModel] in viewModel.todos.remove(at: $0.row) })
            .disposed(by: bag)
    }
}

final class TodoScreenTests: RippleTestCase {
    /// The outlets a storyboard would connect.
    @MainActor
    private static func makeScreen() -> TodoViewController {
        let screen = TodoViewController()
        screen.nameField = UITextField()
        screen.passwordField = UITextField()
        screen.hintLabel = UILabel()
        screen.addButton = UIButton()
        screen.tableView = UITableView(frame: .zero, style: .plain)
        screen.loadViewIfNeeded()
        return screen
    }

    func testTheFormEnablesAddAndTheListFollowsAddsAndDeletions() {
        MainActor.assumeIsolated {
            let screen = Self.makeScreen()
            XCTAssertEqual(screen.hintLabel.text, "Enter an email address")
            XCTAssertFalse(screen.addButton.isEnabled)

            screen.nameField.simulateTyping("a@b")
            screen.passwordField.simulateTyping("secret")
            XCTAssertEqual(screen.hintLabel.text, "")
            XCTAssertTrue(screen.addButton.isEnabled)

            screen.addButton.simulateTap()
            screen.addButton.simulateTap()
            XCTAssertEqual(screen.tableView.simulatedRowTexts, [["a@b", "a@b"]])

            XCTAssertTrue(screen.tableView.simulateCommit(.delete, at: IndexPath(row: 0, section: 0)))
            XCTAssertEqual(screen.tableView.simulatedRowTexts, [["a@b"]])
        }
    }

    func testTheGuideShowsThisScreen() throws {
        let tests = URL(fileURLWithPath: #filePath)
        let root = tests.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let source = Self.normalized(try String(contentsOf: tests, encoding: .utf8))
        let guide = try String(contentsOf: root.appendingPathComponent("docs/UIKit.md"), encoding: .utf8)
        let block = try XCTUnwrap(Self.firstSwiftBlock(in: guide))
        let expected = block.components(separatedBy: "\n")
            .filter { !$0.hasPrefix("import ") }
            .map { $0.replacingOccurrences(of: "@IBOutlet ", with: "") }
            .joined(separator: "\n")
        XCTAssertTrue(block.contains("@IBOutlet "), "the guide's first Swift block is not the screen any more")
        XCTAssertTrue(
            source.contains(Self.normalized(expected)),
            "docs/UIKit.md shows a screen that this file does not compile:\n\(block)"
        )
    }

    private static func firstSwiftBlock(in text: String) -> String? {
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            if current == nil, line.hasPrefix("```swift") {
                current = []
            } else if current != nil, line.hasPrefix("```") {
                return current!.joined(separator: "\n")
            } else {
                current?.append(line)
            }
        }
        return nil
    }

    /// Lines without leading spaces, blank lines dropped.
    private static func normalized(_ text: String) -> String {
        text.components(separatedBy: "\n")
            .map { $0.drop { $0 == " " } }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
    }
}
#endif
