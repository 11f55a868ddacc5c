import Foundation
import Ripple
import RippleCollections
import TerminalUI

/// A to-do item.
public struct TodoItem: Identifiable, Equatable, Sendable {
    /// The item's identity: the same item keeps it through edits.
    public let id: Int
    /// What to do.
    public var title: String
    /// `true` once done.
    public var isDone: Bool

    /// An item; not done unless `isDone`.
    public init(id: Int, title: String, isDone: Bool = false) {
        self.id = id
        self.title = title
        self.isDone = isDone
    }
}

/// The to-do list: an `ObservableArray` of items, edited through intents, and the
/// visible (filtered) list as a stream of changes.
public final class TodoViewModel {
    /// What the user asks for. Items are named by `id`.
    public struct Input {
        /// Adds an item with this title (blank titles are ignored).
        public let add: Signal<String>
        /// Removes the item with this id.
        public let remove: Signal<Int>
        /// Marks the item with this id done, or not done.
        public let toggle: Signal<Int>
        /// Gives an item a new title (blank titles are ignored).
        public let rename: Signal<(id: Int, title: String)>
        /// Moves an item one visible position up (`-1`) or down (`+1`).
        public let move: Signal<(id: Int, offset: Int)>
        /// Shows only items whose title contains the text (case-insensitive).
        public let filter: Driver<String>

        /// The intents; any left out never fire.
        public init(
            add: Signal<String> = .empty(), remove: Signal<Int> = .empty(), toggle: Signal<Int> = .empty(),
            rename: Signal<(id: Int, title: String)> = .empty(), move: Signal<(id: Int, offset: Int)> = .empty(),
            filter: Driver<String> = .just("")
        ) {
            self.add = add
            self.remove = remove
            self.toggle = toggle
            self.rename = rename
            self.move = move
            self.filter = filter
        }
    }

    /// All items, in order.
    public let todos: ObservableArray<TodoItem>
    /// The visible items as changes: the filtered list diffed from one state to
    /// the next, so adding, removing, reordering and filtering are edits.
    public let visible: Driver<ArrayChange<TodoItem>>
    /// "3 to do, 1 done".
    public let summary: Driver<String>

    private let bag = DisposeBag()
    private let filterText = BehaviorRelay(value: "")
    private var nextID: Int

    /// A list holding `items`, edited by `input`.
    public init(input: Input, items: [TodoItem] = []) {
        let todos = ObservableArray(items)
        self.todos = todos
        nextID = (items.map(\.id).max() ?? 0) + 1
        let filterText = self.filterText
        visible = Observable.combineLatest(todos.asObservable(), input.filter.asObservable()) { items, text in
            Self.matching(items, text)
        }
        .changes()
        .asDriver(onErrorDriveWith: .empty())
        summary = todos.asDriver().map { items in
            let done = items.filter(\.isDone).count
            return "\(items.count - done) to do, \(done) done"
        }
        input.filter.drive(filterText).disposed(by: bag)
        input.add.emit(onNext: { [unowned self] title in
            let trimmed = title.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return }
            todos.append(TodoItem(id: nextID, title: trimmed))
            nextID += 1
        }).disposed(by: bag)
        input.remove.emit(onNext: { id in
            todos.removeAll(where: { $0.id == id })
        }).disposed(by: bag)
        input.toggle.emit(onNext: { id in
            todos.batchUpdate { list in
                if let index = list.firstIndex(where: { $0.id == id }) { list[index].isDone.toggle() }
            }
        }).disposed(by: bag)
        input.rename.emit(onNext: { id, title in
            todos.batchUpdate { list in
                if let index = list.firstIndex(where: { $0.id == id }), !title.isEmpty { list[index].title = title }
            }
        }).disposed(by: bag)
        input.move.emit(onNext: { id, offset in
            let filter = filterText.value
            todos.batchUpdate { list in
                // The neighbour in the visible list, and its place in the whole list.
                let visible = Self.matching(Array(list), filter)
                guard let position = visible.firstIndex(where: { $0.id == id }),
                      visible.indices.contains(position + offset),
                      let from = list.firstIndex(where: { $0.id == id }),
                      let to = list.firstIndex(where: { $0.id == visible[position + offset].id }) else { return }
                list.move(from: from, to: to)
            }
        }).disposed(by: bag)
    }

    /// The items whose title contains `filter` (all of them for an empty filter).
    public static func matching(_ items: [TodoItem], _ filter: String) -> [TodoItem] {
        let text = filter.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return items }
        return items.filter { $0.title.localizedCaseInsensitiveContains(text) }
    }
}

/// What the to-do screen is doing with the keyboard.
public enum TodoMode: Equatable, Sendable {
    case browsing
    case adding(TextFieldState)
    case editing(id: Int, TextFieldState)
    case filtering(TextFieldState)
}

/// The keyboard logic of the to-do screen as a value: a key and the visible items
/// in, the new state and at most one command out. No Rx, no terminal: tested with
/// plain asserts.
public struct TodoKeyboard: Equatable, Sendable {
    /// What a key asks the view model (or the app) to do; items by `id`.
    public enum Command: Equatable, Sendable {
        case add(String), remove(Int), toggle(Int), rename(Int, String), move(Int, Int), filter(String), quit
    }

    /// Browsing, or editing a text field.
    public var mode: TodoMode = .browsing
    /// The selected position in the visible list.
    public var selection = 0
    /// The filter text.
    public var filter = ""

    /// Browsing, nothing selected but the first row, no filter.
    public init() {}

    /// Handles `key` with `visible` on screen; returns the command it gives, if any.
    public mutating func handle(_ key: Key, visible: [TodoItem]) -> Command? {
        selection = visible.isEmpty ? 0 : min(max(selection, 0), visible.count - 1)
        let selected = visible.indices.contains(selection) ? visible[selection] : nil
        switch mode {
        case .browsing:
            switch key {
            case .up: selection = max(selection - 1, 0)
            case .down: selection = min(selection + 1, max(visible.count - 1, 0))
            case .character("a"): mode = .adding(TextFieldState())
            case .character("e"), .enter:
                if let selected { mode = .editing(id: selected.id, TextFieldState(text: selected.title)) }
            case .character("/"): mode = .filtering(TextFieldState(text: filter))
            case .character(" "), .character("x"): return selected.map { .toggle($0.id) }
            case .character("d"), .delete, .backspace: return selected.map { .remove($0.id) }
            case .character("K"), .character("["):
                guard let selected, selection > 0 else { return nil }
                selection -= 1
                return .move(selected.id, -1)
            case .character("J"), .character("]"):
                guard let selected, selection < visible.count - 1 else { return nil }
                selection += 1
                return .move(selected.id, 1)
            case .character("q"), .escape, .control("c"), .control("d"): return .quit
            default: break
            }
        case .adding(var field):
            switch key {
            case .enter:
                mode = .browsing
                selection = visible.count
                return .add(field.text)
            case .escape: mode = .browsing
            default:
                field.apply(key)
                mode = .adding(field)
            }
        case .editing(let id, var field):
            switch key {
            case .enter:
                mode = .browsing
                return .rename(id, field.text)
            case .escape: mode = .browsing
            default:
                field.apply(key)
                mode = .editing(id: id, field)
            }
        case .filtering(var field):
            switch key {
            case .enter, .escape, .down: mode = .browsing
            default:
                field.apply(key)
                mode = .filtering(field)
                filter = field.text
                return .filter(field.text)
            }
        }
        return nil
    }
}

/// The to-do list on a terminal.
///
/// Up/Down select, `a` adds, `e`/Enter edits, Space/`x` toggles done, `d`/Delete
/// removes, `K`/`[` and `J`/`]` move the selected item up and down, `/` edits the
/// filter, `q`/Esc quits. The list is drawn with a ``ListView``: a row is rendered
/// only when it is inserted or updated.
public final class TodoScreen: TerminalScreen {
    /// What to draw.
    public let frames: Driver<Frame>
    /// Fires on `q`, Esc or Ctrl-C.
    public let quit: Signal<Void>
    /// The list behind the screen.
    public let viewModel: TodoViewModel
    private let bag = DisposeBag()

    /// The screen on `host`, starting with `items`.
    public init(host: TerminalHost, items: [TodoItem] = []) {
        let add = PublishRelay<String>()
        let remove = PublishRelay<Int>()
        let toggle = PublishRelay<Int>()
        let rename = PublishRelay<(id: Int, title: String)>()
        let move = PublishRelay<(id: Int, offset: Int)>()
        let filter = BehaviorRelay(value: "")
        let quitRelay = PublishRelay<Void>()
        let viewModel = TodoViewModel(input: .init(
            add: add.asSignal(), remove: remove.asSignal(), toggle: toggle.asSignal(), rename: rename.asSignal(),
            move: move.asSignal(), filter: filter.asDriver()
        ), items: items)
        self.viewModel = viewModel
        quit = quitRelay.asSignal()
        let keyboard = BehaviorRelay(value: TodoKeyboard())
        let visibleItems = viewModel.visible.map(\.elements)
        host.keySignal.withLatestFrom(visibleItems) { ($0, $1) }
            .emit(onNext: { key, visible in
                var state = keyboard.value
                let command = state.handle(key, visible: visible)
                keyboard.accept(state)
                switch command {
                case .add(let title): add.accept(title)
                case .remove(let id): remove.accept(id)
                case .toggle(let id): toggle.accept(id)
                case .rename(let id, let title): rename.accept((id, title))
                case .move(let id, let offset): move.accept((id, offset))
                case .filter(let text): filter.accept(text)
                case .quit: quitRelay.accept(())
                case nil: break
                }
            })
            .disposed(by: bag)
        let rows = viewModel.visible.asObservable().listRows { (item: TodoItem) in
            Line([Span(item.isDone ? "[x] " : "[ ] ", style: TextStyle(foreground: item.isDone ? .green : nil)),
                  Span(item.title, style: TextStyle(dim: item.isDone))])
        }
        .asDriver(onErrorJustReturn: [])
        let hasItems = viewModel.todos.asDriver().map { !$0.isEmpty }.distinctUntilChanged()
        frames = Driver.combineLatest(rows, keyboard.asDriver(), viewModel.summary, hasItems, host.sizeDriver) {
            rows, keyboard, summary, hasItems, size in
            TodoScreen.frame(rows: rows, keyboard: keyboard, summary: summary, hasItems: hasItems, width: size.columns)
        }
    }

    static func frame(rows: [Line], keyboard: TodoKeyboard, summary: String, hasItems: Bool, width: Int) -> Frame {
        var lines: [Line] = [Line([Span("Ripple to-do", style: TextStyle(bold: true)), Span("   " + summary, style: TextStyle(dim: true))])]
        var cursor: (row: Int, column: Int)?
        // One filter line: the field while the filter is edited, its text otherwise.
        if case .filtering(let field) = keyboard.mode {
            (lines, cursor) = fieldLine("Filter: ", field, below: lines, width: width)
        } else {
            lines.append(keyboard.filter.isEmpty ? "" : Line("Filter: \(keyboard.filter)", style: TextStyle(foreground: .yellow)))
        }
        let selection = rows.isEmpty ? -1 : min(keyboard.selection, rows.count - 1)
        for (index, row) in rows.enumerated() {
            let marker = index == selection ? "> " : "  "
            lines.append(Line([Span(marker)] + row.spans))
        }
        if rows.isEmpty {
            let message = hasItems ? "  (no item matches the filter: press / to change it)" : "  (nothing here: press a to add)"
            lines.append(Line(message, style: TextStyle(dim: true)))
        }
        lines.append("")
        switch keyboard.mode {
        case .browsing, .filtering:
            break
        case .adding(let field):
            (lines, cursor) = fieldLine("New: ", field, below: lines, width: width)
        case .editing(_, let field):
            (lines, cursor) = fieldLine("Edit: ", field, below: lines, width: width)
        }
        // The keys of the current mode, always on the last line.
        lines.append(Line(keyHints(for: keyboard.mode), style: TextStyle(dim: true)))
        return Frame(lines: lines, cursor: cursor)
    }

    /// The footer: what the keys do in `mode`.
    static func keyHints(for mode: TodoMode) -> String {
        switch mode {
        case .browsing: return "a add  e edit  space done  d delete  K/J move  / filter  q quit"
        case .adding: return "Enter saves  Esc cancels"
        case .editing: return "Enter saves  Esc cancels"
        case .filtering: return "type to filter, Ctrl-U clears  Enter, Esc or ↓ back to the list"
        }
    }

    /// `lines` with a labelled text field added, and the cursor in it.
    static func fieldLine(
        _ label: String, _ field: TextFieldState, below lines: [Line], width: Int
    ) -> ([Line], (row: Int, column: Int)?) {
        let window = field.window(width: width - label.count)
        return (lines + [Line([Span(label)] + window.spans())], (lines.count, label.count + window.cursorColumn))
    }
}
