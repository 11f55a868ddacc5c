import Ripple
import RippleTest
import Testing

/// Random marble strings, over the marble alphabet plus junk: the parser never
/// crashes, and either parses or reports a syntax error at a column inside the
/// string (or just past its end).
@Suite struct MarbleParserFuzzTests {
    static let alphabet: [Character] = Array("--------abcxyz0129|#()^!  ") + ["\t", "*", "@", "é", "🙂", "\n", "e\u{301}", "_", "."]
    static let kinds: [MarbleKind] = [.events, .cold, .hot, .subscription]

    @Test func randomStringsParseOrFailAtAColumnInsideTheString() {
        var generator = SeededRandomNumberGenerator(seed: 0x5EED_0F_4AB1E5)
        var failures: [String] = []
        var parsed = 0
        for _ in 0..<100_000 {
            let length = Int.random(in: 0...20, using: &generator)
            let marbles = String((0..<length).map { _ in Self.alphabet.randomElement(using: &generator)! })
            let kind = Self.kinds.randomElement(using: &generator)!
            let characters = Array(marbles)
            do {
                let timeline = try MarbleTimeline(marbles, kind: kind)
                parsed += 1
                // Nothing follows a terminal event.
                if let terminal = timeline.entries.firstIndex(where: { $0.marble == .completed || $0.marble == .error }),
                   terminal != timeline.entries.count - 1 {
                    failures.append("\"\(marbles)\" (\(kind)): an entry after the terminal event")
                }
            } catch let error as MarbleSyntaxError {
                let columnInRange = (1...characters.count + 1).contains(error.column)
                let expectedCharacter = error.column <= characters.count ? characters[error.column - 1] : nil
                if !columnInRange || error.character != expectedCharacter || error.marbles != marbles {
                    failures.append("\"\(marbles)\" (\(kind)): column \(error.column), character \(String(describing: error.character))")
                }
            } catch {
                failures.append("\"\(marbles)\" (\(kind)): unexpected error \(error)")
            }
            if failures.count >= 10 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // The alphabet is rich enough that a fair share parses.
        #expect(parsed > 1_000)
    }
}
