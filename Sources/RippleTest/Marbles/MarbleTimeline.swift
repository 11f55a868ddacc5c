import Ripple

/// How marble frames map to ``TestScheduler`` ticks.
///
/// Each non-space character of a marble string is one *frame*. Frame `f` of a hot
/// observable, of an expected output or of a subscription marble is at virtual
/// time `origin + f * ticksPerFrame`; a cold observable's frames count from each
/// subscription instead.
///
/// The defaults (10 ticks per frame, frame 0 at time 200) match RxTest's habits:
/// `scheduler.start { ... }` subscribes at 200, so `"--a"` is an event at 220.
///
/// Comparisons are made **at frame resolution**: an event recorded anywhere in
/// `[origin + f * ticksPerFrame, origin + (f + 1) * ticksPerFrame)` is in frame `f`.
/// This absorbs the one-tick processing delay of `TestScheduler` (a cold
/// observable's first frame arrives at 201, `observe(on: scheduler)` adds 1) while
/// keeping the order of events. Use `ticksPerFrame: 1` to compare exact ticks.
public struct MarbleTiming: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Virtual-time ticks per frame (one `-`). Must be at least 1.
    public var ticksPerFrame: Int
    /// The virtual time of frame 0: when the stream under test is subscribed.
    public var origin: TestTime

    /// - Parameters:
    ///   - ticksPerFrame: Ticks per frame; 10 by default.
    ///   - origin: The time of frame 0; `TestScheduler.Defaults.subscribed` (200)
    ///     by default. Set it when you subscribe at another time.
    public init(ticksPerFrame: Int = 10, origin: TestTime = TestScheduler.Defaults.subscribed) {
        self.ticksPerFrame = ticksPerFrame
        self.origin = origin
    }

    /// 10 ticks per frame, frame 0 at 200.
    public static let `default` = MarbleTiming()

    /// The virtual time of frame `frame`, saturating at `Int.min` / `Int.max`
    /// when it does not fit in a ``TestTime`` (marble strings are checked for
    /// that before use, see `validate(_:)`).
    public func time(ofFrame frame: Int) -> TestTime {
        let (offset, productOverflow) = frame.multipliedReportingOverflow(by: ticksPerFrame)
        let (time, sumOverflow) = origin.addingReportingOverflow(offset)
        if productOverflow || sumOverflow {
            return (frame < 0) == (ticksPerFrame < 0) ? Int.max : Int.min
        }
        return time
    }

    /// The frame that contains virtual time `time` (rounding down). `ticksPerFrame`
    /// below 1 counts as 1.
    public func frame(of time: TestTime) -> Int {
        let step = Swift.max(1, ticksPerFrame)
        let (offset, overflow) = time.subtractingReportingOverflow(origin)
        guard !overflow else {
            // More than `Int.max` ticks apart (a time near `Int.max` and a
            // negative origin, say): saturate instead of trapping.
            return time > origin ? Int.max : Int.min
        }
        let quotient = offset / step
        return offset % step < 0 ? quotient - 1 : quotient
    }

    /// `1 frame = 10 ticks, frame 0 = time 200`.
    public var description: String {
        "1 frame = \(ticksPerFrame) tick\(ticksPerFrame == 1 ? "" : "s"), frame 0 = time \(origin)"
    }

    /// Checks that every frame `marbles` can use (from minus its length, for the
    /// frames before a hot observable's `^`, to its length) has a time that fits
    /// in a ``TestTime``.
    func validate(_ marbles: String) throws {
        guard ticksPerFrame >= 1 else {
            throw MarbleSyntaxError(
                marbles: marbles, column: 0, character: nil,
                expected: "a timing with at least 1 tick per frame (got \(ticksPerFrame))"
            )
        }
        let frames = marbles.count
        for frame in [frames, -frames] {
            let (offset, productOverflow) = frame.multipliedReportingOverflow(by: ticksPerFrame)
            if productOverflow || origin.addingReportingOverflow(offset).overflow {
                throw MarbleSyntaxError(
                    marbles: marbles, column: 0, character: nil,
                    expected: "a timing whose frame times fit in TestTime (\(self): frame \(frame) would be beyond Int.\(frame < 0 ? "min" : "max"))"
                )
            }
        }
    }
}

/// The error a `#` stands for, unless you pass your own.
public struct MarbleError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A free text, `"error"` by default.
    public let message: String

    /// An error described by `message`.
    public init(_ message: String = "error") {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// A value that a one-character marble token can stand for by itself, without a
/// `values:` dictionary: `String` and `Character` (the token itself) and `Int`
/// (a digit).
///
/// ```swift
/// let xs: TestableObservable<Int> = try scheduler.createHotObservable("--1--2--|")
/// ```
public protocol MarbleValue {
    /// The value `token` stands for, or `nil` if it stands for none.
    init?(marbleToken token: Character)
    /// How the value is drawn in a diagram.
    var marbleLabel: String { get }
}

extension String: MarbleValue {
    /// The token as a one-character string.
    public init?(marbleToken token: Character) {
        self = String(token)
    }

    /// The string itself.
    public var marbleLabel: String { self }
}

extension Character: MarbleValue {
    /// The token itself.
    public init?(marbleToken token: Character) {
        self = token
    }

    /// The character as a string.
    public var marbleLabel: String { String(self) }
}

extension Int: MarbleValue {
    /// The value of a decimal digit token (`"7"` is 7); `nil` for other tokens.
    public init?(marbleToken token: Character) {
        guard token.isASCII, let digit = token.wholeNumberValue else { return nil }
        self = digit
    }

    /// The number in decimal.
    public var marbleLabel: String { String(self) }
}

/// Which marble syntax a string is written in.
public enum MarbleKind: Sendable, Equatable {
    /// A hot observable: may contain one `^`, the subscription point, which is
    /// frame 0; frames before it are negative.
    case hot
    /// A cold observable: frames count from each subscription; no `^`.
    case cold
    /// The events the stream under test should send: like `cold`, frame 0 is the
    /// origin of the ``MarbleTiming``.
    case events
    /// A subscription marble: `-`, one `^` (subscribed) and at most one `!`
    /// (unsubscribed), frames counted from the first character.
    case subscription
}

/// A marble diagram as data: events at frames, plus the subscription and
/// unsubscription points. The parser produces it, the renderers draw it.
///
/// ```swift
/// let timeline = try MarbleTimeline("--a--(bc)--|")
/// timeline.entries      // a at frame 2, b and c at frame 5, completed at frame 11
/// timeline.ascii()      // "--a--(bc)--|"
/// ```
public struct MarbleTimeline: Equatable, Sendable, CustomStringConvertible {
    /// What a marble is.
    public enum Marble: Equatable, Sendable {
        /// An element, drawn with `label`.
        case next(String)
        /// The sequence failed.
        case error
        /// The sequence completed.
        case completed
    }

    /// A marble at a frame.
    public struct Entry: Equatable, Sendable {
        /// The frame, relative to the timeline's frame 0.
        public var frame: Int
        /// The marble.
        public var marble: Marble

        /// A marble at `frame`.
        public init(frame: Int, marble: Marble) {
            self.frame = frame
            self.marble = marble
        }
    }

    /// The marbles, by frame; marbles at the same frame keep their order.
    public var entries: [Entry]
    /// The frame of `^` (subscription), if any.
    public var subscriptionFrame: Int?
    /// The frame of `!` (unsubscription), if any.
    public var unsubscriptionFrame: Int?

    /// A timeline of `entries` (sorted by frame, keeping the order of equal frames).
    public init(entries: [Entry] = [], subscriptionFrame: Int? = nil, unsubscriptionFrame: Int? = nil) {
        self.entries = entries.enumerated()
            .sorted { $0.element.frame != $1.element.frame ? $0.element.frame < $1.element.frame : $0.offset < $1.offset }
            .map(\.element)
        self.subscriptionFrame = subscriptionFrame
        self.unsubscriptionFrame = unsubscriptionFrame
    }

    /// Parses `marbles` (the syntax is described in `docs/Marbles.md`).
    ///
    /// - Throws: ``MarbleSyntaxError`` with the column and character at fault.
    public init(_ marbles: String, kind: MarbleKind = .events) throws {
        let parsed = try MarbleParser.parse(marbles, kind: kind)
        self.init(
            entries: parsed.entries.map { Entry(frame: $0.frame, marble: $0.marble) },
            subscriptionFrame: parsed.subscriptionFrame,
            unsubscriptionFrame: parsed.unsubscriptionFrame
        )
    }

    /// The timeline of recorded events (a ``TestableObserver``'s `events`, a
    /// ``TestableObservable``'s `recordedEvents`), frames computed with `timing`.
    ///
    /// - Parameters:
    ///   - events: The recorded events, in time order.
    ///   - timing: How virtual times map to frames.
    ///   - label: How an element is drawn; its description by default.
    public init<Element>(
        _ events: [Recorded<Event<Element>>], timing: MarbleTiming = .default,
        label: (Element) -> String = { String(describing: $0) }
    ) {
        let step = MarbleTiming(ticksPerFrame: Swift.max(1, timing.ticksPerFrame), origin: timing.origin)
        self.init(entries: events.map { recorded in
            let marble: Marble
            switch recorded.value {
            case .next(let element): marble = .next(label(element))
            case .error: marble = .error
            case .completed: marble = .completed
            }
            return Entry(frame: step.frame(of: recorded.time), marble: marble)
        })
    }

    /// The timeline of a subscription: `^` when it was made, `!` when it ended
    /// (none while still subscribed).
    public init(_ subscription: Subscription, timing: MarbleTiming = .default) {
        let step = MarbleTiming(ticksPerFrame: Swift.max(1, timing.ticksPerFrame), origin: timing.origin)
        self.init(
            subscriptionFrame: step.frame(of: subscription.subscribe),
            unsubscriptionFrame: subscription.unsubscribe == Int.max ? nil : step.frame(of: subscription.unsubscribe)
        )
    }

    /// The diagram as a marble string (see ``MarbleRenderer``); labels longer than
    /// one character are replaced by placeholders explained after the diagram.
    public func ascii() -> String {
        MarbleRenderer.render([self]).description
    }

    /// ``ascii()``.
    public var description: String { ascii() }
}
