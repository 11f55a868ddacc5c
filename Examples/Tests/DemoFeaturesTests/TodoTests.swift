import DemoFeatures
import Ripple
import RippleCollections
import RippleTest
import TerminalUI
import XCTest

final class TodoViewModelTests: XCTestCase {
    /// Each visible change as "edits titles", for marbles.
    private func describe(_ change: ArrayChange<TodoItem>) -> String {
        let titles = change.elements.map { ($0.isDone ? "+" : "") + $0.title }.joined(separator: ",")
        return change.isInitial ? "initial \(titles)" : "\(change.edits) \(titles)"
    }

    func testIntentsBecomeEditsOfTheVisibleListInVirtualTime() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let add = try scheduler.createHotObservable("--a-b-c-----------", values: ["a": "milk", "b": "eggs", "c": "bread"])
        let toggle = try scheduler.createHotObservable("--------t---------", values: ["t": 2])
        let move = try scheduler.createHotObservable("----------m-------", values: ["m": (id: 3, offset: -1)])
        let remove = try scheduler.createHotObservable("------------r-----", values: ["r": 1])
        let filter = try scheduler.createHotObservable("f-------------g-h-", values: ["f": "", "g": "gg", "h": ""])
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = TodoViewModel(input: .init(
                add: add.asSignal(onErrorSignalWith: .empty()),
                remove: remove.asSignal(onErrorSignalWith: .empty()),
                toggle: toggle.asSignal(onErrorSignalWith: .empty()),
                move: move.map { $0 }.asSignal(onErrorSignalWith: .empty()),
                filter: filter.asDriver(onErrorJustReturn: "")
            ))
            let result = scheduler.start { viewModel.visible.map(self.describe) }
            assertMarbles(result, "a-b-c-d-e-f-g-h-i-", values: [
                "a": "initial ",
                "b": "[insert(0)] milk",
                "c": "[insert(1)] milk,eggs",
                "d": "[insert(2)] milk,eggs,bread",
                "e": "[update(1)] milk,+eggs,bread",
                "f": "[move(2→1)] milk,bread,+eggs",
                "g": "[delete(0)] bread,+eggs",
                "h": "[delete(0)] +eggs",              // filter "gg": only eggs
                "i": "[insert(0)] bread,+eggs",
            ])
        }
    }
}

final class TodoKeyboardTests: XCTestCase {
    let items = [TodoItem(id: 1, title: "a"), TodoItem(id: 2, title: "b")]

    func testBrowsingKeysBecomeCommandsOnTheSelectedItem() {
        var keyboard = TodoKeyboard()
        XCTAssertEqual(keyboard.handle(.down, visible: items), nil)
        XCTAssertEqual(keyboard.handle(.character(" "), visible: items), .toggle(2))
        XCTAssertEqual(keyboard.handle(.character("K"), visible: items), .move(2, -1))
        XCTAssertEqual(keyboard.selection, 0, "the selection follows the moved item")
        XCTAssertEqual(keyboard.handle(.character("K"), visible: items), nil, "already first")
        XCTAssertEqual(keyboard.handle(.character("d"), visible: items), .remove(1))
        XCTAssertEqual(keyboard.handle(.character("q"), visible: items), .quit)
    }

    func testAddingEditingAndFilteringUseATextField() {
        var keyboard = TodoKeyboard()
        _ = keyboard.handle(.character("a"), visible: items)
        for character in "milk" { XCTAssertNil(keyboard.handle(.character(character), visible: items)) }
        XCTAssertEqual(keyboard.handle(.enter, visible: items), .add("milk"))
        XCTAssertEqual(keyboard.mode, .browsing)
        keyboard.selection = 0
        _ = keyboard.handle(.character("e"), visible: items)
        _ = keyboard.handle(.backspace, visible: items)
        _ = keyboard.handle(.character("z"), visible: items)
        XCTAssertEqual(keyboard.handle(.enter, visible: items), .rename(1, "z"))
        _ = keyboard.handle(.character("/"), visible: items)
        XCTAssertEqual(keyboard.handle(.character("b"), visible: items), .filter("b"))
        XCTAssertEqual(keyboard.handle(.escape, visible: items), nil)
        XCTAssertEqual(keyboard.filter, "b")
    }
}

final class TodoScreenTests: XCTestCase {
    func testTheListFollowsTheKeyboard() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 10, columns: 60))
        let screen = TodoScreen(host: terminal, items: [TodoItem(id: 1, title: "milk"), TodoItem(id: 2, title: "eggs")])
        var quit = false
        let binding = TerminalApp.bind(screen, to: terminal) { quit = true }
        XCTAssertTrue(waitForMain { terminal.screen.lines[2] == "> [ ] milk" })
        XCTAssertEqual(terminal.screen.lines[3], "  [ ] eggs")
        terminal.press(.down, .character(" "))
        XCTAssertTrue(waitForMain { terminal.screen.lines[3] == "> [x] eggs" })
        terminal.press(.character("K"))
        XCTAssertTrue(waitForMain { terminal.screen.lines[2] == "> [x] eggs" && terminal.screen.lines[3] == "  [ ] milk" })
        terminal.press(.character("a"))
        terminal.type("bread")
        terminal.press(.enter)
        XCTAssertTrue(waitForMain { terminal.screen.lines[4] == "> [ ] bread" })
        terminal.press(.character("/"))
        terminal.type("e")
        XCTAssertTrue(waitForMain { terminal.screen.lines[1] == "Filter: e" && terminal.screen.lines[2] == "  [x] eggs" })
        XCTAssertTrue(waitForMain { terminal.screen.lines[3] == "> [ ] bread" })
        terminal.press(.escape, .character("q"))
        XCTAssertTrue(waitForMain { quit })
        binding.dispose()
    }

    func testTheFooterShowsTheKeysOfTheCurrentModeAndTheFilterShowsOnce() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 10, columns: 70))
        let screen = TodoScreen(host: terminal, items: [TodoItem(id: 1, title: "milk"), TodoItem(id: 2, title: "eggs")])
        let binding = TerminalApp.bind(screen, to: terminal) {}
        let browsing = "a add  e edit  space done  d delete  K/J move  / filter  q quit"
        XCTAssertTrue(waitForMain { terminal.screen.lines[5] == browsing }, "\(terminal.screen.lines)")
        terminal.press(.character("a"))
        terminal.type("bread")
        XCTAssertTrue(waitForMain { terminal.screen.lines[5] == "New: bread" }, "\(terminal.screen.lines)")
        XCTAssertEqual(terminal.screen.lines[6], "Enter saves  Esc cancels", "adding: how to save or cancel")
        terminal.press(.escape)
        XCTAssertTrue(waitForMain { terminal.screen.lines[5] == browsing }, "\(terminal.screen.lines)")
        terminal.press(.character("e"))
        XCTAssertTrue(waitForMain { terminal.screen.lines[6] == "Enter saves  Esc cancels" }, "editing: \(terminal.screen.lines)")
        terminal.press(.escape, .character("/"))
        terminal.type("mi")
        XCTAssertTrue(waitForMain { terminal.screen.lines[1] == "Filter: mi" && terminal.screen.lines[2] == "> [ ] milk" },
                      "\(terminal.screen.lines)")
        XCTAssertEqual(terminal.screen.lines.filter { $0.contains("Filter:") }.count, 1, "one filter line: \(terminal.screen.lines)")
        XCTAssertEqual(terminal.screen.cursor?.row, 1, "the cursor is in the filter line")
        XCTAssertEqual(terminal.screen.lines[4], "type to filter, Ctrl-U clears  Enter, Esc or ↓ back to the list")
        terminal.press(.enter)
        XCTAssertTrue(waitForMain { terminal.screen.lines[4] == browsing }, "\(terminal.screen.lines)")
        XCTAssertEqual(terminal.screen.lines[1], "Filter: mi", "the filter stays, once")
        XCTAssertEqual(terminal.screen.lines.filter { $0.contains("Filter:") }.count, 1)
        withExtendedLifetime(screen) { binding.dispose() }
    }

    func testAFilterThatHidesEveryItemSaysSo() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 10, columns: 60))
        let screen = TodoScreen(host: terminal, items: [TodoItem(id: 1, title: "milk")])
        let binding = TerminalApp.bind(screen, to: terminal) {}
        XCTAssertTrue(waitForMain { terminal.screen.lines[2] == "> [ ] milk" })
        terminal.press(.character("/"))
        terminal.type("zz")
        XCTAssertTrue(waitForMain { terminal.screen.lines[2] == "  (no item matches the filter: press / to change it)" }, "\(terminal.screen.lines)")
        terminal.press(.enter, .character("/"), .backspace, .backspace, .enter, .character("d"))
        XCTAssertTrue(waitForMain { terminal.screen.lines[2] == "  (nothing here: press a to add)" }, "\(terminal.screen.lines)")
        withExtendedLifetime(screen) { binding.dispose() }
    }

    func testTheTextFieldScrolls() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 10, columns: 40))
        let screen = TodoScreen(host: terminal)
        let binding = TerminalApp.bind(screen, to: terminal) {}
        XCTAssertTrue(waitForMain { terminal.screen.lines[2] == "  (nothing here: press a to add)" })
        terminal.send("a" + String(repeating: "y", count: 60) + "END")
        XCTAssertTrue(waitForMain { terminal.screen.lines.contains("New: …" + String(repeating: "y", count: 30) + "END") },
                      "\(terminal.screen.lines)")
        XCTAssertEqual(terminal.screen.cursor?.column, 39)
        withExtendedLifetime(screen) { binding.dispose() }
    }

    /// Runs the main queue (where Drivers deliver) until `condition` holds.
    private func waitForMain(timeout: TimeInterval = 2, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.005))
        }
        return true
    }
}

final class TodoScriptTests: XCTestCase {
    func testAScriptRunsWithoutATerminal() throws {
        let output = try TodoScript.run("""
            add buy milk
            add call mum
            add water the plants
            toggle 2
            move 3 up
            list
            filter m
            remove 1
            """)
        XCTAssertEqual(output, """
            1. [ ] buy milk
            2. [ ] water the plants
            3. [x] call mum
            (2 to do, 1 done)
            1. [x] call mum
            (1 to do, 1 done)

            """)
    }

    /// A failing line keeps what the `list` lines before it printed: they are
    /// handed out as they run.
    func testListOutputIsPrintedAsTheScriptRuns() {
        var printed: [String] = []
        XCTAssertThrowsError(try TodoScript.run("add milk\nlist\nremove 9\nlist") { printed.append($0) }) { error in
            XCTAssertEqual("\(error)", "line 3: no item 9 (the list has 1)")
        }
        XCTAssertEqual(printed, ["1. [ ] milk\n(1 to do, 0 done)\n"])
    }

    func testAddAndEditWithoutATitleAreErrors() {
        XCTAssertThrowsError(try TodoScript.run("add")) { error in
            XCTAssertEqual("\(error)", "line 1: add needs a title (add TITLE)")
        }
        XCTAssertThrowsError(try TodoScript.run("add milk\nadd   ")) { error in
            XCTAssertEqual("\(error)", "line 2: add needs a title (add TITLE)")
        }
        XCTAssertThrowsError(try TodoScript.run("add milk\nedit 1")) { error in
            XCTAssertEqual("\(error)", "line 2: edit needs a title (edit N TITLE)")
        }
        XCTAssertThrowsError(try TodoScript.run("edit 1 title")) { error in
            XCTAssertEqual("\(error)", "line 1: no item 1 (the list has 0)")
        }
    }

    func testAListThatTheFilterEmptiesSaysSo() throws {
        XCTAssertEqual(try TodoScript.run("add milk\nfilter zz"), "(no item matches the filter 'zz')\n(1 to do, 0 done)\n")
        XCTAssertEqual(try TodoScript.run("list"), "(0 to do, 0 done)\n(0 to do, 0 done)\n")
    }

    func testABadCommandNamesItsLine() {
        XCTAssertThrowsError(try TodoScript.run("add x\nremove 5")) { error in
            XCTAssertEqual("\(error)", "line 2: no item 5 (the list has 1)")
        }
    }
}
