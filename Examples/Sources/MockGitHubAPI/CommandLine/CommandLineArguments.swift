/// The command-line arguments of the executables built on this package
/// (`mock-github-api`, `github-search`), made ready for ArgumentParser.
public enum CommandLineArguments {
    /// `arguments` (without the executable's name) with a leading `--` removed
    /// (`swift run app -- --flag` passes it on), and a negative number after an
    /// option joined to it (`--port -1` becomes `--port=-1`).
    ///
    /// ArgumentParser reads `-1` as an option and reports `Missing value for
    /// '--port <port>'`; joined, the value reaches the option's validation, which
    /// says what the range is. These commands take no positional arguments, so a
    /// number after an option is always its value.
    public static func normalized(_ arguments: [String]) -> [String] {
        var arguments = arguments[...]
        if arguments.first == "--" { arguments = arguments.dropFirst() }
        var result: [String] = []
        for argument in arguments {
            if let last = result.last, last.hasPrefix("--"), !last.contains("="), isNegativeNumber(argument) {
                result[result.count - 1] = last + "=" + argument
            } else {
                result.append(argument)
            }
        }
        return result
    }

    /// `-1`, `-0.5`, `-.5`, `-5-10`: a minus sign, then a digit or a point and a digit.
    static func isNegativeNumber(_ argument: String) -> Bool {
        let characters = Array(argument)
        guard characters.count >= 2, characters[0] == "-" else { return false }
        if characters[1].isASCII, characters[1].isNumber { return true }
        return characters[1] == "." && characters.count >= 3 && characters[2].isASCII && characters[2].isNumber
    }
}
