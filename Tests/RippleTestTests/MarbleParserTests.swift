import Ripple
import RippleTest
import Testing

@Suite struct MarbleParserTests {
    typealias Entry = MarbleTimeline.Entry

    @Test func dashesValuesAndTerminals() throws {
        let timeline = try MarbleTimeline("--a--b--|")
        #expect(timeline.entries == [
            Entry(frame: 2, marble: .next("a")), Entry(frame: 5, marble: .next("b")), Entry(frame: 8, marble: .completed),
        ])
        #expect(timeline.subscriptionFrame == nil)
        #expect(try MarbleTimeline("-1-#").entries == [Entry(frame: 1, marble: .next("1")), Entry(frame: 3, marble: .error)])
        #expect(try MarbleTimeline("").entries.isEmpty)
        #expect(try MarbleTimeline("----").entries.isEmpty)
    }

    @Test func groupsAreSimultaneousAndTakeTheirWidth() throws {
        // Every character is a frame, parentheses included: `|` is at frame 7.
        let timeline = try MarbleTimeline("--(ab)-|")
        #expect(timeline.entries == [
            Entry(frame: 2, marble: .next("a")), Entry(frame: 2, marble: .next("b")), Entry(frame: 7, marble: .completed),
        ])
        #expect(try MarbleTimeline("(a|)").entries == [Entry(frame: 0, marble: .next("a")), Entry(frame: 0, marble: .completed)])
    }

    @Test func spacesAreIgnored() throws {
        #expect(try MarbleTimeline("  --a --b -|") == MarbleTimeline("--a--b-|"))
        #expect(try MarbleTimeline("\t--a") == MarbleTimeline("--a"))
    }

    @Test func hotSubscriptionPointIsFrameZero() throws {
        let timeline = try MarbleTimeline("-a-^-b-|", kind: .hot)
        #expect(timeline.entries == [
            Entry(frame: -2, marble: .next("a")), Entry(frame: 2, marble: .next("b")), Entry(frame: 4, marble: .completed),
        ])
        #expect(timeline.subscriptionFrame == 0)
        #expect(try MarbleTimeline("--a", kind: .hot).entries == [Entry(frame: 2, marble: .next("a"))])
    }

    @Test func markersMayShareAFrameInAGroup() throws {
        #expect(try Marbles.subscription("--(^!)") == Subscription(220, 220))
        let hot = try MarbleTimeline("-a-(^b)-|", kind: .hot)
        #expect(hot.entries == [Entry(frame: -2, marble: .next("a")), Entry(frame: 0, marble: .next("b")), Entry(frame: 5, marble: .completed)])
        #expect(hot.subscriptionFrame == 0)
    }

    @Test func subscriptionMarbles() throws {
        let timeline = try MarbleTimeline("--^---!", kind: .subscription)
        #expect(timeline.subscriptionFrame == 2)
        #expect(timeline.unsubscriptionFrame == 6)
        #expect(try Marbles.subscription("^-----!") == Subscription(200, 260))
        #expect(try Marbles.subscription("--^--") == Subscription(220))
        #expect(try Marbles.subscription("   ^--!", timing: MarbleTiming(ticksPerFrame: 1, origin: 0)) == Subscription(0, 3))
    }

    @Test func eventsBecomeRecordedTimes() throws {
        #expect(try Marbles.events("--a-(bc)|", values: ["a": 1, "b": 2, "c": 3])
            == [.next(220, 1), .next(240, 2), .next(240, 3), .completed(280)])
        #expect(try Marbles.events("-a|", kind: .cold, values: ["a": 1]) == [.next(10, 1), .completed(20)])
        #expect(try Marbles.events("-a-^-b", kind: .hot, values: ["a": 1, "b": 2]) == [.next(180, 1), .next(220, 2)])
        let timing = MarbleTiming(ticksPerFrame: 5, origin: 300)
        #expect(try Marbles.events("-a-|", values: ["a": "x"], timing: timing) == [.next(305, "x"), .completed(315)])
    }

    @Test func tokensStandForThemselves() throws {
        let strings: [Recorded<Event<String>>] = try Marbles.events("-a-b")
        #expect(strings == [.next(210, "a"), .next(230, "b")])
        let characters: [Recorded<Event<Character>>] = try Marbles.events("-x")
        #expect(characters == [.next(210, "x")])
        let numbers: [Recorded<Event<Int>>] = try Marbles.events("-1-2-|")
        #expect(numbers == [.next(210, 1), .next(230, 2), .completed(250)])
        // `values` wins over the token itself.
        let mixed: [Recorded<Event<Int>>] = try Marbles.events("-1-x", values: ["x": 42])
        #expect(mixed == [.next(210, 1), .next(230, 42)])
    }

    @Test func errorValueIsConfigurable() throws {
        struct Boom: Error, Equatable {}
        let events: [Recorded<Event<String>>] = try Marbles.events("-#", error: Boom())
        #expect(events == [.error(210, Boom())])
        let defaultError: [Recorded<Event<String>>] = try Marbles.events("#")
        #expect(defaultError == [.error(200, MarbleError())])
    }

    // MARK: - Syntax errors

    struct BadMarbles: CustomTestStringConvertible, Sendable {
        let marbles: String
        let kind: MarbleKind
        let column: Int
        let character: Character?
        let expected: String
        var testDescription: String { "\"\(marbles)\"" }
    }

    static let badMarbles: [BadMarbles] = [
        BadMarbles(marbles: "--a-*", kind: .events, column: 5, character: "*",
                   expected: "'-', a letter or digit, '|', '#', '(' or a space"),
        BadMarbles(marbles: "--(ab", kind: .events, column: 6, character: nil,
                   expected: "')' to close the group opened at column 3"),
        BadMarbles(marbles: "-(a(b))", kind: .events, column: 4, character: "(",
                   expected: "an event (a letter or digit, '|' or '#') or ')' inside a group (groups do not nest)"),
        BadMarbles(marbles: "-()", kind: .events, column: 3, character: ")",
                   expected: "an event inside the group opened at column 2"),
        BadMarbles(marbles: "-a)", kind: .events, column: 3, character: ")",
                   expected: "'-', a letter or digit, '|', '#', '(' or a space (no group is open)"),
        BadMarbles(marbles: "(a-b)", kind: .events, column: 3, character: "-",
                   expected: "an event (a letter or digit, '|' or '#') or ')' inside a group"),
        BadMarbles(marbles: "-^-a", kind: .cold, column: 2, character: "^",
                   expected: "'-', a letter or digit, '|', '#', '(' or a space ('^' marks the subscription point of hot observables and subscription marbles only)"),
        BadMarbles(marbles: "-^-^", kind: .hot, column: 4, character: "^",
                   expected: "'-', a letter or digit, '|', '#', '(' or a space (only one '^' is allowed)"),
        BadMarbles(marbles: "-a-!", kind: .hot, column: 4, character: "!",
                   expected: "'-', a letter or digit, '|', '#', '(', '^' or a space ('!' belongs in subscription marbles)"),
        BadMarbles(marbles: "--!", kind: .subscription, column: 3, character: "!", expected: "'^' before '!'"),
        BadMarbles(marbles: "----", kind: .subscription, column: 5, character: nil,
                   expected: "'^' (a subscription marble marks when the subscription was made)"),
        BadMarbles(marbles: "^-a-!", kind: .subscription, column: 3, character: "a", expected: "'-', '^', '!', '(' or a space"),
        BadMarbles(marbles: "(^a)", kind: .subscription, column: 3, character: "a", expected: "'^', '!' or ')' inside a group"),
        BadMarbles(marbles: "-()", kind: .subscription, column: 3, character: ")", expected: "'^' or '!' inside the group opened at column 2"),
        BadMarbles(marbles: "(^-!)", kind: .subscription, column: 3, character: "-", expected: "'^', '!' or ')' inside a group"),
        BadMarbles(marbles: "-(a^)^", kind: .hot, column: 6, character: "^",
                   expected: "'-', a letter or digit, '|', '#', '(' or a space (only one '^' is allowed)"),
        BadMarbles(marbles: "(a^)", kind: .cold, column: 3, character: "^",
                   expected: "an event (a letter or digit, '|' or '#') or ')' inside a group ('^' marks the subscription point of hot observables and subscription marbles only)"),
        BadMarbles(marbles: "^-!-!", kind: .subscription, column: 5, character: "!",
                   expected: "'-' or a space (only one '!' is allowed)"),
        BadMarbles(marbles: "--a--|--b", kind: .events, column: 9, character: "b",
                   expected: "'-' or a space (nothing happens after the completion '|' at column 6)"),
        BadMarbles(marbles: "--|--#", kind: .cold, column: 6, character: "#",
                   expected: "'-' or a space (nothing happens after the completion '|' at column 3)"),
        BadMarbles(marbles: "-#|", kind: .events, column: 3, character: "|",
                   expected: "'-' or a space (nothing happens after the error '#' at column 2)"),
        BadMarbles(marbles: "-(|a)", kind: .events, column: 4, character: "a",
                   expected: "')' (nothing happens after the completion '|' at column 3)"),
        BadMarbles(marbles: "-a-#-^-b", kind: .hot, column: 8, character: "b",
                   expected: "'-' or a space (nothing happens after the error '#' at column 4)"),
        BadMarbles(marbles: "--|-(ab)", kind: .events, column: 6, character: "a",
                   expected: "')' (nothing happens after the completion '|' at column 3)"),
    ]

    @Test(arguments: badMarbles)
    func syntaxErrorsSayWhereAndWhat(_ bad: BadMarbles) {
        #expect(throws: MarbleSyntaxError(marbles: bad.marbles, column: bad.column, character: bad.character, expected: bad.expected)) {
            try MarbleTimeline(bad.marbles, kind: bad.kind)
        }
    }

    @Test func syntaxErrorDescriptionPointsAtTheColumn() {
        let error = MarbleSyntaxError(marbles: "--a-(bx-c)", column: 8, character: "-",
                                      expected: "an event (a letter or digit, '|' or '#') or ')' inside a group")
        #expect(throws: error) { try MarbleTimeline("--a-(bx-c)") }
        #expect(error.description == """
        Invalid marbles at column 8 ('-'): expected an event (a letter or digit, '|' or '#') or ')' inside a group
          --a-(bx-c)
                 ^
        """)
    }

    @Test func unknownTokenIsReportedAtItsColumn() {
        #expect(throws: MarbleSyntaxError(marbles: "--a--z", column: 6, character: "z", expected: "a key of `values` (a, b)")) {
            try Marbles.events("--a--z", values: ["a": 1.0, "b": 2.0])
        }
        #expect(throws: MarbleSyntaxError(marbles: "-1-q", column: 4, character: "q", expected: "a digit or a key of `values` (x)")) {
            let _: [Recorded<Event<Int>>] = try Marbles.events("-1-q", values: ["x": 5])
        }
        #expect(throws: MarbleSyntaxError(marbles: "-a", column: 2, character: "a", expected: "a key of `values` (the dictionary is empty)")) {
            let _: [Recorded<Event<Double>>] = try Marbles.events("-a", values: [:])
        }
    }

    @Test func invalidTimingIsAnErrorNotACrash() {
        #expect(throws: MarbleSyntaxError(marbles: "-a", column: 0, character: nil,
                                          expected: "a timing with at least 1 tick per frame (got 0)")) {
            let _: [Recorded<Event<String>>] = try Marbles.events("-a", timing: MarbleTiming(ticksPerFrame: 0))
        }
        #expect(throws: MarbleSyntaxError.self) {
            try Marbles.subscription("^-!", timing: MarbleTiming(ticksPerFrame: -1))
        }
        #expect(throws: MarbleSyntaxError.self) {
            try Marbles.events("^-!", kind: .subscription, values: ["a": 1])
        }
    }

    @Test func timingConvertsBothWays() {
        let timing = MarbleTiming.default
        #expect(timing.time(ofFrame: 3) == 230)
        #expect(timing.frame(of: 230) == 3)
        #expect(timing.frame(of: 239) == 3)
        #expect(timing.frame(of: 199) == -1)
        #expect(timing.frame(of: 190) == -1)
        #expect(timing.frame(of: 189) == -2)
        #expect(timing.description == "1 frame = 10 ticks, frame 0 = time 200")
        #expect(MarbleTiming(ticksPerFrame: 1, origin: 0).description == "1 frame = 1 tick, frame 0 = time 0")
    }
}
