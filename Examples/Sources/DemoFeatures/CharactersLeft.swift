import Ripple
import TerminalUI

/// A text field with an "N characters left" label.
public final class CharactersLeftViewModel {
    /// "140 characters left", "1 character left", "3 characters too many".
    public let remaining: Driver<String>
    /// `true` once the text is longer than the limit.
    public let isOverLimit: Driver<Bool>

    public init(text: Driver<String>, limit: Int) {
        let left = text.map { limit - $0.count }
        remaining = left.map { left in
            switch left {
            case 1: return "1 character left"
            case 0...: return "\(left) characters left"
            case -1: return "1 character too many"
            default: return "\(-left) characters too many"
            }
        }
        isOverLimit = left.map { $0 < 0 }.distinctUntilChanged()
    }
}

/// The characters-left field on a terminal.
public final class CharactersLeftScreen: TerminalScreen {
    public static let limit = 40
    public let frames: Driver<Frame>
    public let quit: Signal<Void>

    public init(host: TerminalHost) {
        let field = host.keySignal
            .scan(TextFieldState()) { state, key in
                var state = state
                state.apply(key)
                return state
            }
            .asDriver(onErrorDriveWith: .empty())
            .startWith(TextFieldState())
        let viewModel = CharactersLeftViewModel(text: field.map(\.text), limit: CharactersLeftScreen.limit)
        quit = host.quitKeys
        frames = Driver.combineLatest(field, viewModel.remaining, viewModel.isOverLimit, host.sizeDriver) { field, remaining, over, size in
            let prompt = "Status: "
            let window = field.window(width: size.columns - prompt.count)
            return Frame(
                lines: [
                    Line("Say something (at most \(CharactersLeftScreen.limit) characters)", style: TextStyle(bold: true)),
                    "",
                    Line([Span(prompt)] + window.spans(style: TextStyle(underline: true))),
                    Line(remaining, style: TextStyle(foreground: over ? .red : .green)),
                    "",
                    Line("Esc: quit", style: TextStyle(dim: true)),
                ],
                cursor: (row: 2, column: prompt.count + window.cursorColumn)
            )
        }
    }
}
