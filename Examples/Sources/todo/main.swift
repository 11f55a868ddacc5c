import DemoFeatures
import Foundation
import TerminalUI

// The to-do demo: an ObservableArray edited from the keyboard, drawn with a
// ListView that renders only the rows a change inserts or updates.
// `todo --help` for the options.

var commandLine = DemoCommandLine(
    name: "todo",
    abstract: "A to-do list on an ObservableArray: every edit is one ArrayChange, drawn incrementally.",
    keys: [
        "Up / Down          select",
        "a                  add (type, then Enter)",
        "e or Enter         edit the selected item",
        "Space or x         toggle done",
        "d or Delete        remove",
        "K or [ / J or ]    move the selected item up / down",
        "/                  filter (type; Enter or Esc to leave)",
        "q or Esc           quit",
    ]
)

let scriptHelp = """

    SCRIPTS:
      --script <file>  Run to-do commands from <file> (- for standard input), one a
                       line, print the list after each `list` and at the end, and exit:
                         add TITLE        remove N        toggle N       edit N TITLE
                         move N up|down   filter TEXT     list
                       (N: position in the visible list, from 1)
    """

commandLine.otherUsage = ["--script <file>"]

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--" { arguments.removeFirst() }
if arguments.contains("-h") || arguments.contains("--help") {
    print(commandLine.help + "\n" + scriptHelp)
    exit(0)
}
if let index = arguments.firstIndex(of: "--script") {
    func usageError(_ message: String) -> Never {
        FileHandle.standardError.write(Data("error: \(message)\n\(commandLine.usage)\n  See 'todo --help' for more information.\n".utf8))
        exit(64)
    }
    guard arguments.indices.contains(index + 1) else { usageError("missing value for '--script <file>'") }
    var others = arguments
    others.removeSubrange(index...index + 1)
    if let other = others.first {
        usageError(other == "--input" || other.hasPrefix("--input=")
            ? "--script and --input cannot be used together (a script runs commands, --input presses keys)"
            : "unexpected argument '\(other)' with --script")
    }
    let path = arguments[index + 1]
    let text: String
    if path == "-" {
        text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    } else if let contents = try? String(contentsOfFile: path, encoding: .utf8) {
        text = contents
    } else {
        FileHandle.standardError.write(Data("error: cannot read \(path)\n".utf8))
        exit(1)
    }
    do {
        // Printed as each `list` runs, so that a later failing line keeps it.
        try TodoScript.run(text) { FileHandle.standardOutput.write(Data($0.utf8)) }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(1)
    }
}

commandLine.main { TodoScreen(host: $0, items: [
    TodoItem(id: 1, title: "Read docs/Collections.md"),
    TodoItem(id: 2, title: "Try batchUpdate"),
    TodoItem(id: 3, title: "Filter with /", isDone: true),
]) }
