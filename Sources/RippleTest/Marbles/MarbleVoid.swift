import Ripple

// `Void` elements (taps, triggers, `Observable<Void>`): a tuple type cannot
// conform to `MarbleValue` or `Equatable`, so these overloads take its place.
// Every letter or digit stands for `()`; `"--x--x--|"` is two taps and completion.
// The scheduler's overloads are disfavoured so that a call without a type
// context still builds `String` observables.

extension TestScheduler {
    /// A hot observable of `Void` elements: each letter or digit of `marbles`
    /// sends `()`.
    ///
    /// ```swift
    /// let taps: TestableObservable<Void> = try scheduler.createHotObservable("--x--x--|")
    /// ```
    ///
    /// - Throws: ``MarbleSyntaxError`` for a malformed string.
    @_disfavoredOverload
    public func createHotObservable(
        _ marbles: String, error: Swift.Error = MarbleError(), timing: MarbleTiming = .default
    ) throws -> TestableObservable<Void> {
        createHotObservable(try Marbles.voidEvents(marbles, kind: .hot, error: error, timing: timing))
    }

    /// A cold observable of `Void` elements: each letter or digit of `marbles`
    /// sends `()`, relative to each subscription.
    ///
    /// - Throws: ``MarbleSyntaxError`` for a malformed string.
    @_disfavoredOverload
    public func createColdObservable(
        _ marbles: String, error: Swift.Error = MarbleError(), timing: MarbleTiming = .default
    ) throws -> TestableObservable<Void> {
        createColdObservable(try Marbles.voidEvents(marbles, kind: .cold, error: error, timing: timing))
    }
}

extension Marbles {
    /// Compares recorded `Void` events with `marbles`, in which every letter or
    /// digit stands for `()`: `""` expects nothing, `"--x--|"` one element at
    /// frame 2 and completion at frame 5.
    ///
    /// - Throws: ``MarbleSyntaxError`` for malformed marbles.
    public static func compare(
        _ events: [Recorded<Event<Void>>], _ marbles: String,
        error: Swift.Error = MarbleError(), timing: MarbleTiming = .default
    ) throws -> MarbleComparison {
        let expected = try voidEvents(marbles, kind: .events, error: error, timing: timing)
        return compareEvents(drawable(events), expected: drawable(expected), marbles: marbles, values: [:], timing: timing)
    }

    static func voidEvents(
        _ marbles: String, kind: MarbleKind, error: Swift.Error, timing: MarbleTiming
    ) throws -> [Recorded<Event<Void>>] {
        try MarbleParser.recordedEvents(
            marbles, kind: kind, timing: timing, error: error,
            tokenDescription: "a letter or digit (each stands for `()`)", resolve: { _ in () }
        )
    }

    /// `Void` events as `"()"` strings, which compare and draw like any other
    /// element (an expected token is drawn as written).
    private static func drawable(_ events: [Recorded<Event<Void>>]) -> [Recorded<Event<String>>] {
        events.map { recorded in
            switch recorded.value {
            case .next: return Recorded(time: recorded.time, value: .next("()"))
            case .error(let error): return Recorded(time: recorded.time, value: .error(error))
            case .completed: return Recorded(time: recorded.time, value: .completed)
            }
        }
    }
}

/// Asserts that `observer` recorded the `Void` events of `marbles` (every letter
/// or digit stands for `()`; `""` expects nothing). Reports like
/// `assertMarbles(_:_:values:)`.
///
/// ```swift
/// let res = scheduler.start { taps.asObservable() }
/// assertMarbles(res, "--x--x--|")
/// ```
public func assertMarbles(
    _ observer: TestableObserver<Void>, _ marbles: String,
    error: Swift.Error = MarbleError(), timing: MarbleTiming = .default,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)) {
        try Marbles.compare(observer.events, marbles, error: error, timing: timing)
    }
}

/// Asserts that recorded `Void` events are those of `marbles` (every letter or
/// digit stands for `()`).
public func assertMarbles(
    _ events: [Recorded<Event<Void>>], _ marbles: String,
    error: Swift.Error = MarbleError(), timing: MarbleTiming = .default,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    check(AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)) {
        try Marbles.compare(events, marbles, error: error, timing: timing)
    }
}
