import Ripple

extension TestScheduler {
    /// A hot observable that sends the events of a marble string at their times,
    /// whether or not anybody is subscribed.
    ///
    /// ```swift
    /// let xs = try scheduler.createHotObservable("--a--b--|", values: ["a": 1, "b": 2])
    /// let res = scheduler.start { xs.map { $0 * 10 } }
    /// assertMarbles(res, "--x--y--|", values: ["x": 10, "y": 20])
    /// ```
    ///
    /// Frame 0 is `timing.origin` (200, when `start` subscribes), or the position of
    /// `^` if the string has one: `"-a-^-b-|"` sends `a` at 180 and `b` at 220. Each
    /// letter or digit is looked up in `values`; `#` sends `error`. The syntax is
    /// described in `docs/Marbles.md`.
    ///
    /// - Throws: ``MarbleSyntaxError`` for a malformed string or a token missing
    ///   from `values`.
    public func createHotObservable<Element>(
        _ marbles: String, values: [String: Element], error: Swift.Error = MarbleError(),
        timing: MarbleTiming = .default
    ) throws -> TestableObservable<Element> {
        createHotObservable(try Marbles.events(marbles, kind: .hot, values: values, error: error, timing: timing))
    }

    /// A hot observable from a marble string whose tokens stand for themselves
    /// (`String`, `Character`) or for digits (`Int`), unless `values` says
    /// otherwise.
    ///
    /// ```swift
    /// let xs: TestableObservable<Int> = try scheduler.createHotObservable("--1--2--|")
    /// ```
    public func createHotObservable<Element: MarbleValue>(
        _ marbles: String, values: [String: Element] = [:], error: Swift.Error = MarbleError(),
        timing: MarbleTiming = .default
    ) throws -> TestableObservable<Element> {
        createHotObservable(try Marbles.events(marbles, kind: .hot, values: values, error: error, timing: timing))
    }

    /// A hot observable of one-character strings: `"--a--b--|"` sends `"a"` and
    /// `"b"` (used when nothing else decides the element type).
    public func createHotObservable(
        _ marbles: String, values: [String: String] = [:], error: Swift.Error = MarbleError(),
        timing: MarbleTiming = .default
    ) throws -> TestableObservable<String> {
        createHotObservable(try Marbles.events(marbles, kind: .hot, values: values, error: error, timing: timing))
    }

    /// A cold observable that sends the events of a marble string relative to each
    /// subscription: `"-x-y|"` sends `x` one frame after subscribing.
    ///
    /// ```swift
    /// let inner = try scheduler.createColdObservable("-x-y|")
    /// ```
    ///
    /// `^` is not allowed. Events at frame 0 arrive one tick after the subscription
    /// (``TestScheduler``'s processing delay), which is still frame 0 for marble
    /// comparisons.
    ///
    /// - Throws: ``MarbleSyntaxError`` for a malformed string or a token missing
    ///   from `values`.
    public func createColdObservable<Element>(
        _ marbles: String, values: [String: Element], error: Swift.Error = MarbleError(),
        timing: MarbleTiming = .default
    ) throws -> TestableObservable<Element> {
        createColdObservable(try Marbles.events(marbles, kind: .cold, values: values, error: error, timing: timing))
    }

    /// A cold observable from a marble string whose tokens stand for themselves
    /// (`String`, `Character`) or for digits (`Int`), unless `values` says
    /// otherwise.
    public func createColdObservable<Element: MarbleValue>(
        _ marbles: String, values: [String: Element] = [:], error: Swift.Error = MarbleError(),
        timing: MarbleTiming = .default
    ) throws -> TestableObservable<Element> {
        createColdObservable(try Marbles.events(marbles, kind: .cold, values: values, error: error, timing: timing))
    }

    /// A cold observable of one-character strings (used when nothing else decides
    /// the element type).
    public func createColdObservable(
        _ marbles: String, values: [String: String] = [:], error: Swift.Error = MarbleError(),
        timing: MarbleTiming = .default
    ) throws -> TestableObservable<String> {
        createColdObservable(try Marbles.events(marbles, kind: .cold, values: values, error: error, timing: timing))
    }
}

/// Marble strings as recorded events and subscriptions, for tests that compare
/// exact ticks or build their own sources.
///
/// ```swift
/// try Marbles.events("--a-(bc)|", values: ["a": 1, "b": 2, "c": 3])
/// // [.next(220, 1), .next(240, 2), .next(240, 3), .completed(280)]
/// ```
public enum Marbles {
    /// The events of `marbles` at their virtual times (`kind` `.hot` or `.events`:
    /// frame 0 at `timing.origin`; `.cold`: frame 0 at time 0).
    ///
    /// - Throws: ``MarbleSyntaxError``.
    public static func events<Element>(
        _ marbles: String, kind: MarbleKind = .events, values: [String: Element],
        error: Swift.Error = MarbleError(), timing: MarbleTiming = .default
    ) throws -> [Recorded<Event<Element>>] {
        try checkKind(kind, marbles)
        return try MarbleParser.recordedEvents(
            marbles, kind: kind, timing: timing, error: error,
            tokenDescription: MarbleParser.tokenDescription(values: values, selfDescribing: nil),
            resolve: { values[String($0)] }
        )
    }

    /// ``events(_:kind:values:error:timing:)`` for elements that tokens stand for
    /// by themselves (`String`, `Character`, `Int` digits).
    public static func events<Element: MarbleValue>(
        _ marbles: String, kind: MarbleKind = .events, values: [String: Element] = [:],
        error: Swift.Error = MarbleError(), timing: MarbleTiming = .default
    ) throws -> [Recorded<Event<Element>>] {
        try checkKind(kind, marbles)
        return try MarbleParser.recordedEvents(
            marbles, kind: kind, timing: timing, error: error,
            tokenDescription: MarbleParser.tokenDescription(values: values, selfDescribing: selfDescription(Element.self)),
            resolve: { values[String($0)] ?? Element(marbleToken: $0) }
        )
    }

    /// The subscription a subscription marble describes: `"^---!"` is
    /// `Subscription(200, 240)` with the default timing.
    ///
    /// - Throws: ``MarbleSyntaxError``.
    public static func subscription(_ marbles: String, timing: MarbleTiming = .default) throws -> Subscription {
        try MarbleParser.subscription(marbles, timing: timing)
    }

    static func checkKind(_ kind: MarbleKind, _ marbles: String) throws {
        if kind == .subscription {
            throw MarbleSyntaxError(
                marbles: marbles, column: 0, character: nil,
                expected: "events (.hot, .cold or .events); use Marbles.subscription(_:) for subscription marbles"
            )
        }
    }

    static func selfDescription<Element>(_ type: Element.Type) -> String? {
        if Element.self == Int.self { return "a digit" }
        return nil
    }
}
