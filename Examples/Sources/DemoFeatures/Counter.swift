import Ripple
import TerminalUI

/// The counter from the brief: count up, count down, reset; the view model never
/// references the view.
public final class CounterViewModel {
    public struct Input {
        public let countUp: Signal<Void>
        public let countDown: Signal<Void>
        public let reset: Signal<Void>

        public init(countUp: Signal<Void>, countDown: Signal<Void>, reset: Signal<Void>) {
            self.countUp = countUp
            self.countDown = countDown
            self.reset = reset
        }
    }

    /// The count as text, starting with "0".
    public let count: Driver<String>

    public init(input: Input) {
        enum Action { case up, down, reset }
        count = Signal.merge(
            input.countUp.map { Action.up },
            input.countDown.map { Action.down },
            input.reset.map { Action.reset }
        )
        .scan(0) { count, action in
            switch action {
            case .up: return count + 1
            case .down: return count - 1
            case .reset: return 0
            }
        }
        .map(String.init)
        .asDriver(onErrorJustReturn: "0")
        .startWith("0")
    }
}

/// The counter on a terminal: `+`/Up counts up, `-`/Down counts down, `r` resets,
/// Esc or Ctrl-C quits.
public final class CounterScreen: TerminalScreen {
    public let frames: Driver<Frame>
    public let quit: Signal<Void>
    public let viewModel: CounterViewModel

    public init(host: TerminalHost) {
        let keys = host.keySignal
        viewModel = CounterViewModel(input: .init(
            countUp: keys.filter { $0 == .up || $0 == .character("+") }.map { _ in () },
            countDown: keys.filter { $0 == .down || $0 == .character("-") }.map { _ in () },
            reset: keys.filter { $0 == .character("r") }.map { _ in () }
        ))
        quit = Signal.merge(host.quitKeys, keys.filter { $0 == .character("q") }.map { _ in () })
        frames = Driver.combineLatest(viewModel.count, host.sizeDriver) { count, _ in
            Frame(lines: [
                Line("Ripple counter", style: TextStyle(bold: true)),
                "",
                Line([Span("Count: "), Span(count, style: TextStyle(bold: true, foreground: .cyan))]),
                "",
                Line("+ / Up: count up   - / Down: count down   r: reset   q / Esc: quit", style: TextStyle(dim: true)),
            ])
        }
    }
}
