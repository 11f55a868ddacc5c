import Ripple

/// The outcome of comparing what was recorded with a marble string.
///
/// Use it directly with Swift Testing's `#expect`, or let `assertMarbles(_:_:values:)`
/// report it:
///
/// ```swift
/// let comparison = try Marbles.compare(res.events, "--A--B--|")
/// #expect(comparison.matches, "\(comparison)")
/// ```
///
/// When they differ, ``message`` shows both timelines one above the other, a caret
/// under the first difference, and the exact events with their times:
///
/// ```
/// Marbles differ (1 frame = 10 ticks, frame 0 = time 200)
///   expected: --A--B--|
///   actual:   --A---B-|
///                  ^ first difference at frame 5 (time 250)
///   expected events: next(A) @ 220, next(B) @ 250, completed @ 280
///   actual events:   next(A) @ 220, next(B) @ 260, completed @ 280
/// ```
public struct MarbleComparison: Equatable, Sendable, CustomStringConvertible {
    /// Whether the recording matches the marbles (at frame resolution, see
    /// ``MarbleTiming``).
    public let matches: Bool
    /// The expected marbles, redrawn (one line per subscription for subscription
    /// marbles).
    public let expected: [String]
    /// The recording, drawn on the same columns as ``expected``.
    public let actual: [String]
    /// The explanation of a mismatch; empty when they match.
    public let message: String

    /// ``message``, or `marbles match: <actual>`.
    public var description: String {
        matches ? "marbles match: \(actual.joined(separator: " / "))" : message
    }
}

extension Marbles {
    /// Compares recorded events (a ``TestableObserver``'s `events`) with the marbles
    /// `marbles`, whose tokens are looked up in `values`.
    ///
    /// Events are compared one by one, in order: same frame (see ``MarbleTiming``)
    /// and equal events (errors compare with `==` when `Equatable`, else by type
    /// and description).
    ///
    /// - Throws: ``MarbleSyntaxError`` for malformed marbles.
    public static func compare<Element: Equatable>(
        _ events: [Recorded<Event<Element>>], _ marbles: String, values: [String: Element],
        error: Swift.Error = MarbleError(), timing: MarbleTiming = .default
    ) throws -> MarbleComparison {
        let expected = try Marbles.events(marbles, kind: .events, values: values, error: error, timing: timing)
        return compareEvents(events, expected: expected, marbles: marbles, values: values, timing: timing)
    }

    /// ``compare(_:_:values:error:timing:)`` for elements that tokens stand for by
    /// themselves (`String`, `Character`, `Int` digits).
    public static func compare<Element: Equatable & MarbleValue>(
        _ events: [Recorded<Event<Element>>], _ marbles: String, values: [String: Element] = [:],
        error: Swift.Error = MarbleError(), timing: MarbleTiming = .default
    ) throws -> MarbleComparison {
        let expected = try Marbles.events(marbles, kind: .events, values: values, error: error, timing: timing)
        return compareEvents(events, expected: expected, marbles: marbles, values: values, timing: timing, label: { $0.marbleLabel })
    }

    /// Compares subscriptions (a ``TestableObservable``'s `subscriptions`) with
    /// subscription marbles, one string per subscription, in order.
    ///
    /// ```swift
    /// try Marbles.compare(xs.subscriptions, ["^-----!"])
    /// ```
    ///
    /// - Throws: ``MarbleSyntaxError`` for malformed marbles.
    public static func compare(
        _ subscriptions: [Subscription], _ marbles: [String], timing: MarbleTiming = .default
    ) throws -> MarbleComparison {
        let expected = try marbles.map { try Marbles.subscription($0, timing: timing) }
        func frames(_ subscription: Subscription) -> (Int, Int?) {
            (timing.frame(of: subscription.subscribe),
             subscription.unsubscribe == Int.max ? nil : timing.frame(of: subscription.unsubscribe))
        }
        let matches = expected.count == subscriptions.count
            && zip(expected, subscriptions).allSatisfy { frames($0) == frames($1) }
        let expectedTimelines = expected.map { MarbleTimeline($0, timing: timing) }
        let actualTimelines = subscriptions.map { MarbleTimeline($0, timing: timing) }
        let drawing = MarbleRenderer.render(expectedTimelines + actualTimelines)
        let expectedLines = Array(drawing.lines.prefix(expected.count))
        let actualLines = Array(drawing.lines.suffix(subscriptions.count))
        guard !matches else {
            return MarbleComparison(matches: true, expected: expectedLines, actual: actualLines, message: "")
        }
        var message = ["Subscriptions differ (\(timing))"]
        message += labelled("expected: ", expectedLines.isEmpty ? ["(none)"] : expectedLines)
        message += labelled("actual:   ", actualLines.isEmpty ? ["(none)"] : actualLines)
        message.append("  expected subscriptions: \(describe(expected))")
        message.append("  actual subscriptions:   \(describe(subscriptions))")
        return MarbleComparison(matches: false, expected: expectedLines, actual: actualLines, message: message.joined(separator: "\n"))
    }

    // MARK: - Implementation

    static func compareEvents<Element: Equatable>(
        _ actual: [Recorded<Event<Element>>], expected: [Recorded<Event<Element>>], marbles: String,
        values: [String: Element], timing: MarbleTiming, label: (Element) -> String = { String(describing: $0) }
    ) -> MarbleComparison {
        let matches = actual.count == expected.count && zip(actual, expected).allSatisfy { actual, expected in
            timing.frame(of: actual.time) == timing.frame(of: expected.time) && actual.value == expected.value
        }

        // The expected elements keep the tokens written in `marbles`; a recorded
        // element equal to one of them is drawn with the same token.
        let parsed = (try? MarbleParser.parse(marbles, kind: .events))?.entries ?? []
        var known: [(element: Element, token: String)] = []
        for (entry, recorded) in zip(parsed, expected) {
            if case .next(let element) = recorded.value, let token = entry.token {
                known.append((element, String(token)))
            }
        }
        for key in values.keys.sorted() {
            if let element = values[key] { known.append((element, key)) }
        }
        let reservedTokens = Set(known.compactMap { $0.token.first })
        func actualLabel(_ element: Element) -> String {
            if let match = known.first(where: { $0.element == element }) {
                return match.token
            }
            let text = label(element)
            if text.count == 1, let character = text.first, reservedTokens.contains(character) {
                // Drawn like an expected token, but it is another value.
                let reflected = String(reflecting: element)
                return reflected.count > 1 ? reflected : text + " "
            }
            return text
        }
        func expectedLabel(_ element: Element) -> String {
            known.first(where: { $0.element == element })?.token ?? label(element)
        }

        let expectedTimeline = MarbleTimeline(expected, timing: timing, label: expectedLabel)
        let actualTimeline = MarbleTimeline(actual, timing: timing, label: actualLabel)
        let drawing = MarbleRenderer.render([expectedTimeline, actualTimeline], reserved: reservedTokens.union(values.keys.compactMap(\.first)))
        let expectedLine = drawing.lines[0]
        let actualLine = drawing.lines[1]
        guard !matches else {
            return MarbleComparison(matches: true, expected: [expectedLine], actual: [actualLine], message: "")
        }

        var message = ["Marbles differ (\(timing))"]
        message.append("  expected: \(expectedLine)")
        message.append("  actual:   \(actualLine)")
        if drawing.isTooWide {
            message.append("  (the timelines are too wide to draw; compare the event lists)")
        } else if let column = zip(expectedLine, actualLine).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
            ?? (expectedLine.count != actualLine.count ? Swift.min(expectedLine.count, actualLine.count) : nil) {
            let frame = MarbleRenderer.startFrame(expectedTimeline, actualTimeline) + column
            let where_ = drawing.isExact ? " first difference at frame \(frame) (time \(timing.time(ofFrame: frame)))" : " first difference"
            message.append("            " + String(repeating: " ", count: column) + "^" + where_)
        } else {
            message.append("  (the drawings are the same; the events differ)")
        }
        message += drawing.legendLines
        message.append("  expected events: \(describe(expected))")
        message.append("  actual events:   \(describe(actual))")
        if !drawing.isExact && !drawing.isTooWide {
            message.append("  (some marbles could not be drawn at their frame; the event lists are exact)")
        }
        return MarbleComparison(matches: false, expected: [expectedLine], actual: [actualLine], message: message.joined(separator: "\n"))
    }

    static func labelled(_ label: String, _ lines: [String]) -> [String] {
        lines.enumerated().map { index, line in
            "  " + (index == 0 ? label : String(repeating: " ", count: label.count)) + line
        }
    }

    static func describe<T>(_ items: [T]) -> String {
        items.isEmpty ? "(none)" : items.map { String(reflecting: $0) }.joined(separator: ", ")
    }
}

extension MarbleRenderer {
    /// The frame of column 0 when `timelines` are drawn together.
    static func startFrame(_ timelines: MarbleTimeline...) -> Int {
        timelines.map(startFrame).min() ?? 0
    }
}

// MARK: - Assertions for XCTest and Swift Testing

/// Asserts that `observer` recorded the events of `marbles`; on failure, reports
/// both timelines aligned (see ``MarbleComparison``) at the call site.
///
/// Works in XCTest (calls `XCTFail` with file and line) and in Swift Testing
/// (records an `Issue` at the source location), from any thread. A malformed
/// marble string is reported as a failure too, with the column at fault.
///
/// ```swift
/// let xs = try scheduler.createHotObservable("--a--b--|", values: ["a": 1, "b": 2])
/// let res = scheduler.start { xs.map { $0 * 10 } }
/// assertMarbles(res, "--x--y--|", values: ["x": 10, "y": 20])
/// ```
///
/// It reports its own failure, exactly once, and returns nothing: write it as a
/// statement, not inside `#expect` or `XCTAssertTrue` (which would report the
/// same failure a second time). For a `Bool`, use
/// ``Marbles/compare(_:_:values:error:timing:)`` and its `matches`.
public func assertMarbles<Element: Equatable>(
    _ observer: TestableObserver<Element>, _ marbles: String, values: [String: Element],
    error: Swift.Error = MarbleError(), timing: MarbleTiming = .default,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)) {
        try Marbles.compare(observer.events, marbles, values: values, error: error, timing: timing)
    }
}

/// ``assertMarbles(_:_:values:error:timing:fileID:filePath:line:column:)`` for
/// elements that tokens stand for by themselves (`String`, `Character`, `Int`).
///
/// ```swift
/// let xs = try scheduler.createHotObservable("--a--b--|")
/// let res = scheduler.start { xs.map { $0.uppercased() } }
/// assertMarbles(res, "--A--B--|")
/// ```
public func assertMarbles<Element: Equatable & MarbleValue>(
    _ observer: TestableObserver<Element>, _ marbles: String, values: [String: Element] = [:],
    error: Swift.Error = MarbleError(), timing: MarbleTiming = .default,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)) {
        try Marbles.compare(observer.events, marbles, values: values, error: error, timing: timing)
    }
}

/// Asserts that recorded `events` are those of `marbles` (tokens looked up in
/// `values`).
public func assertMarbles<Element: Equatable>(
    _ events: [Recorded<Event<Element>>], _ marbles: String, values: [String: Element],
    error: Swift.Error = MarbleError(), timing: MarbleTiming = .default,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)) {
        try Marbles.compare(events, marbles, values: values, error: error, timing: timing)
    }
}

/// Asserts that recorded `events` are those of `marbles` (tokens stand for
/// themselves).
public func assertMarbles<Element: Equatable & MarbleValue>(
    _ events: [Recorded<Event<Element>>], _ marbles: String, values: [String: Element] = [:],
    error: Swift.Error = MarbleError(), timing: MarbleTiming = .default,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)) {
        try Marbles.compare(events, marbles, values: values, error: error, timing: timing)
    }
}

/// Asserts when `observable` was subscribed and unsubscribed: one subscription
/// marble per subscription, in order (none: no subscription expected).
///
/// ```swift
/// let xs = try scheduler.createHotObservable("--a--b--|")
/// _ = scheduler.start { xs.take(1) }
/// assertSubscriptions(xs, "^-!")
/// ```
///
/// Reports like `assertMarbles(_:_:values:)`.
public func assertSubscriptions<Element>(
    _ observable: TestableObservable<Element>, _ marbles: String..., timing: MarbleTiming = .default,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)) {
        try Marbles.compare(observable.subscriptions, marbles, timing: timing)
    }
}

/// Reports a mismatch or a malformed marble string at `location`: exactly one
/// failure per assertion.
func check(_ location: AssertionLocation, _ compare: () throws -> MarbleComparison) {
    do {
        let comparison = try compare()
        if !comparison.matches {
            TestFailure.report(comparison.message, at: location)
        }
    } catch {
        TestFailure.report(String(describing: error), at: location)
    }
}
