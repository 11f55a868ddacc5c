import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The command line of the small demo apps (`counter`, `characters-left`,
/// `signup`): `--help`, and a non-interactive mode for scripts and tests.
///
/// ```
/// counter                        in a terminal: the interactive app
/// counter --input '++{down}'     those keys, then print the screen and exit
/// printf '++' | counter          keys from standard input when it is not a terminal
/// counter --help
/// ```
///
/// A leading `--` (as in `swift run counter -- --help`) is ignored.
public struct DemoCommandLine {
    /// The executable's name.
    public var name: String
    /// One line: what the app is.
    public var abstract: String
    /// The keys the app understands, one per line.
    public var keys: [String]
    /// How the non-interactive mode waits for the app (see ``ScriptedRun``).
    public var scriptedRun = ScriptedRun()
    /// Other ways to run the app, each its own form of the usage line
    /// (`["--script <file>"]`: `USAGE: todo [--input <keys>] | todo --script <file>`).
    public var otherUsage: [String] = []

    public init(name: String, abstract: String, keys: [String]) {
        self.name = name
        self.abstract = abstract
        self.keys = keys
    }

    /// `USAGE: name [--input <keys>]`, and the ``otherUsage`` forms.
    public var usage: String {
        "USAGE: " + (["\(name) [--input <keys>]"] + otherUsage.map { "\(name) \($0)" }).joined(separator: " | ")
    }

    /// What `--help` prints.
    public var help: String {
        """
        \(abstract)

        \(usage)

        OPTIONS:
          --input <keys>   Don't open the terminal: press these keys, print the screen and
                           exit. Text is typed; {enter} {esc} {tab} {backtab} {backspace}
                           {delete} {up} {down} {left} {right} {home} {end} {pageup}
                           {pagedown} {ctrl-x} are keys; \\n is Enter, \\t Tab, \\e Esc,
                           \\{ and \\\\ are the characters.
          -h, --help       Show this help.

        When standard input is not a terminal, its bytes are the keys (as a terminal
        would send them) and the screen is printed at the end of the input.

        KEYS:
        \(keys.map { "  " + $0 }.joined(separator: "\n"))
        """
    }

    /// What the arguments ask for.
    public enum Mode: Equatable {
        case help
        case interactive
        case scripted([Key])
        case standardInput
    }

    /// Reads the arguments (without the executable's name).
    public func mode(for arguments: [String], standardInputIsTerminal: Bool) throws(DemoCommandLineError) -> Mode {
        var arguments = arguments[...]
        if arguments.first == "--" { arguments = arguments.dropFirst() }
        var script: String?
        while let argument = arguments.popFirst() {
            switch argument {
            case "-h", "--help":
                return .help
            case "--input":
                guard let value = arguments.popFirst() else { throw DemoCommandLineError(message: "missing value for '--input <keys>'") }
                script = value
            default:
                if argument.hasPrefix("--input=") {
                    script = String(argument.dropFirst("--input=".count))
                } else {
                    throw DemoCommandLineError(message: "unexpected argument '\(argument)'")
                }
            }
        }
        if let script {
            do {
                return .scripted(try ScriptedRun.keys(fromScript: script))
            } catch {
                throw DemoCommandLineError(message: error.message)
            }
        }
        return standardInputIsTerminal ? .interactive : .standardInput
    }

    /// Runs the app as the process's arguments say. Never returns.
    @MainActor
    public func main(_ makeScreen: (TerminalHost) -> TerminalScreen) -> Never {
        let mode: Mode
        do {
            mode = try self.mode(for: Array(CommandLine.arguments.dropFirst()), standardInputIsTerminal: isatty(STDIN_FILENO) == 1)
        } catch {
            FileHandle.standardError.write(Data("error: \(error.message)\n\(usage)\n  See '\(name) --help' for more information.\n".utf8))
            exit(64)
        }
        switch mode {
        case .help:
            print(help)
            exit(0)
        case .interactive:
            TerminalApp.run(makeScreen)
        case .scripted(let keys):
            scriptedRun.run(keys: keys, makeScreen)
        case .standardInput:
            let bytes = FileHandle.standardInput.readDataToEndOfFile()
            scriptedRun.run(keys: ScriptedRun.keys(fromBytes: Array(bytes)), makeScreen)
        }
    }
}

/// Arguments a demo app does not understand.
public struct DemoCommandLineError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
