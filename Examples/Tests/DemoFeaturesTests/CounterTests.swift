import DemoFeatures
import Ripple
import RippleTest
import TerminalUI
import XCTest

final class CounterViewModelTests: XCTestCase {
    func testCountsUpDownAndResetsInVirtualTime() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let up = try scheduler.createHotObservable("--u-----u-u---", values: ["u": ()])
        let down = try scheduler.createHotObservable("-----d-------d", values: ["d": ()])
        let reset = try scheduler.createHotObservable("------------r-", values: ["r": ()])
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = CounterViewModel(input: .init(
                countUp: up.asSignal(onErrorSignalWith: .empty()),
                countDown: down.asSignal(onErrorSignalWith: .empty()),
                reset: reset.asSignal(onErrorSignalWith: .empty())
            ))
            let res = scheduler.start { viewModel.count }
            assertMarbles(res, "a-b--a--b-c-az", values: ["a": "0", "b": "1", "c": "2", "z": "-1"])
        }
    }
}

final class CounterScreenTests: XCTestCase {
    func testKeysUpdateWhatTheUserSees() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 6, columns: 80))
        let screen = CounterScreen(host: terminal)
        var quit = false
        let binding = TerminalApp.bind(screen, to: terminal) { quit = true }
        XCTAssertEqual(terminal.screen.lines[2], "Count: 0")
        terminal.press(.up, .up, .character("+"))
        XCTAssertEqual(terminal.screen.lines[2], "Count: 3")
        terminal.press(.down, .character("-"), .character("-"), .character("-"))
        XCTAssertEqual(terminal.screen.lines[2], "Count: -1")
        terminal.press(.character("r"))
        XCTAssertEqual(terminal.screen.lines[2], "Count: 0")
        XCTAssertTrue(terminal.screen.style(row: 2, column: 7).bold)
        XCTAssertFalse(quit)
        terminal.press(.escape)
        XCTAssertTrue(quit)
        binding.dispose()
    }

    func testResizeRedrawsAndCutsLines() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 6, columns: 80))
        let binding = TerminalApp.bind(CounterScreen(host: terminal), to: terminal) {}
        terminal.press(.up)
        terminal.resize(to: TerminalSize(rows: 4, columns: 10))
        XCTAssertEqual(terminal.screen.lines, ["Ripple cou", "", "Count: 1", ""])
        binding.dispose()
    }
}

final class CharactersLeftTests: XCTestCase {
    func testRemainingCountAndLimit() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let text = scheduler.createHotObservable([.next(210, "hi"), .next(220, "hello"), .next(230, "hello world")])
            let viewModel = CharactersLeftViewModel(text: text.asDriver(onErrorJustReturn: ""), limit: 5)
            let remaining = scheduler.start { viewModel.remaining }
            XCTAssertEqual(remaining.events.map(\.value.element), ["3 characters left", "0 characters left", "6 characters too many"])
        }
    }

    func testSingularForms() {
        let relay = BehaviorRelay(value: "abcd")
        let viewModel = CharactersLeftViewModel(text: relay.asDriver(), limit: 5)
        var messages: [String] = []
        let subscription = viewModel.remaining.drive(onNext: { messages.append($0) })
        relay.accept("abcdef")
        XCTAssertEqual(messages, ["1 character left", "1 character too many"])
        subscription.dispose()
    }

    func testTypingAndEditingOnTheScreen() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 6, columns: 80))
        let binding = TerminalApp.bind(CharactersLeftScreen(host: terminal), to: terminal) {}
        XCTAssertEqual(terminal.screen.lines[3], "40 characters left")
        terminal.type("hello")
        XCTAssertEqual(terminal.screen.lines[2], "Status: hello")
        XCTAssertEqual(terminal.screen.lines[3], "35 characters left")
        terminal.press(.left, .left, .backspace)
        XCTAssertEqual(terminal.screen.lines[2], "Status: helo")
        XCTAssertEqual(terminal.screen.cursor?.column, "Status: ".count + 2)
        terminal.type(String(repeating: "x", count: 40))
        XCTAssertEqual(terminal.screen.lines[3], "4 characters too many")
        XCTAssertEqual(terminal.screen.style(row: 3, column: 0).foreground, .red)
        binding.dispose()
    }
}
