import DemoFeatures
import Foundation
import Ripple
import TerminalUI

// The to-do demo: an ObservableArray edited from the keyboard, drawn with a
// ListView that renders only the rows a change inserts or updates.

let usage = """
    usage: todo [--script FILE | --script -] [--help]

    Interactive (no options): Up/Down select, a add, e or Enter edit, Space or x
    toggle done, d or Delete remove, K/[ and J/] move the selected item up/down,
    / filter, q or Esc quit.

    --script FILE   run commands from FILE (- reads standard input), print the list
                    after each `list` and at the end, and exit. One command a line:
                      add TITLE          remove N          toggle N
                      edit N TITLE       move N up|down    filter TEXT
                      list               (N: position in the visible list, from 1)
    --help          print this help
    """

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(0)
}

if let index = arguments.firstIndex(of: "--script") {
    guard arguments.indices.contains(index + 1) else {
        FileHandle.standardError.write("error: --script needs a file name (or -)\n\n\(usage)\n".data(using: .utf8)!)
        exit(2)
    }
    let path = arguments[index + 1]
    let text: String
    if path == "-" {
        text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    } else if let contents = try? String(contentsOfFile: path, encoding: .utf8) {
        text = contents
    } else {
        FileHandle.standardError.write("error: cannot read \(path)\n".data(using: .utf8)!)
        exit(1)
    }
    do {
        let output = try TodoScript.run(text)
        print(output, terminator: "")
        exit(0)
    } catch {
        FileHandle.standardError.write("error: \(error)\n".data(using: .utf8)!)
        exit(1)
    }
}

if let unknown = arguments.first {
    FileHandle.standardError.write("error: unknown option \(unknown)\n\n\(usage)\n".data(using: .utf8)!)
    exit(2)
}

TerminalApp.run { TodoScreen(host: $0, items: [
    TodoItem(id: 1, title: "Read docs/Collections.md"),
    TodoItem(id: 2, title: "Try batchUpdate"),
    TodoItem(id: 3, title: "Filter with /", isDone: true),
]) }
