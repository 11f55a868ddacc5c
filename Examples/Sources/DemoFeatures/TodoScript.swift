import Foundation
import Ripple

/// Runs the to-do demo without a terminal: one command a line, through the same
/// view model, synchronously.
public enum TodoScript {
    /// A command that could not run.
    public struct Failure: Error, CustomStringConvertible {
        /// The script line, from 1.
        public let line: Int
        /// What went wrong.
        public let message: String
        /// `line N: message`.
        public var description: String { "line \(line): \(message)" }
    }

    /// Runs `script`; returns what `list` commands printed, then the final list.
    public static func run(_ script: String) throws -> String {
        var output = ""
        try run(script) { output += $0 }
        return output
    }

    /// Runs `script`, handing `print` the text of each `list` command as it runs and
    /// the final list at the end; throws at the first line that cannot run, after
    /// the lines before it have printed.
    public static func run(_ script: String, print: (String) -> Void) throws {
        // Drivers and Signals deliver on the sharing scheduler: make it a
        // historical scheduler run to completion after each command, so that each
        // command has taken effect when the next one runs (no run loop needed).
        let scheduler = HistoricalScheduler()
        try SharingScheduler.mock(scheduler: scheduler) {
            try execute(script, print: print, settle: { scheduler.start() })
        }
    }

    private static func execute(_ script: String, print: (String) -> Void, settle: () -> Void) throws {
        let add = PublishRelay<String>()
        let remove = PublishRelay<Int>()
        let toggle = PublishRelay<Int>()
        let rename = PublishRelay<(id: Int, title: String)>()
        let move = PublishRelay<(id: Int, offset: Int)>()
        let filter = BehaviorRelay(value: "")
        let viewModel = TodoViewModel(input: .init(
            add: add.asSignal(), remove: remove.asSignal(), toggle: toggle.asSignal(), rename: rename.asSignal(),
            move: move.asSignal(), filter: filter.asDriver()))
        var visible: [TodoItem] = []
        var summary = ""
        let bag = DisposeBag()
        viewModel.visible.drive(onNext: { change in
            change.apply(to: &visible)
        }).disposed(by: bag)
        viewModel.summary.drive(onNext: { summary = $0 }).disposed(by: bag)
        settle()
        func list() {
            var output = ""
            if visible.isEmpty, !viewModel.todos.value.isEmpty {
                output += "(no item matches the filter '\(filter.value)')\n"
            }
            for (index, item) in visible.enumerated() {
                output += "\(index + 1). [\(item.isDone ? "x" : " ")] \(item.title)\n"
            }
            print(output + "(\(summary))\n")
        }
        for (number, rawLine) in script.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            func item(_ word: String?) throws -> TodoItem {
                guard let word, let position = Int(word), visible.indices.contains(position - 1) else {
                    throw Failure(line: number + 1, message: "no item \(word ?? "") (the list has \(visible.count))")
                }
                return visible[position - 1]
            }
            func rest(from index: Int) -> String {
                line.split(separator: " ", maxSplits: index).dropFirst(index).joined(separator: " ")
            }
            func title(from index: Int, usage: String) throws -> String {
                let title = rest(from: index)
                guard !title.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw Failure(line: number + 1, message: "\(words[0]) needs a title (\(usage))")
                }
                return title
            }
            switch words[0] {
            case "add": add.accept(try title(from: 1, usage: "add TITLE"))
            case "remove": remove.accept(try item(words.count > 1 ? words[1] : nil).id)
            case "toggle": toggle.accept(try item(words.count > 1 ? words[1] : nil).id)
            case "edit":
                let target = try item(words.count > 1 ? words[1] : nil)
                rename.accept((target.id, try title(from: 2, usage: "edit N TITLE")))
            case "move":
                let target = try item(words.count > 1 ? words[1] : nil)
                switch words.count > 2 ? words[2] : "" {
                case "up": move.accept((target.id, -1))
                case "down": move.accept((target.id, 1))
                default: throw Failure(line: number + 1, message: "move N up|down")
                }
            case "filter": filter.accept(rest(from: 1))
            case "list": list()
            default: throw Failure(line: number + 1, message: "unknown command '\(words[0])'")
            }
            settle()
        }
        list()
    }
}
