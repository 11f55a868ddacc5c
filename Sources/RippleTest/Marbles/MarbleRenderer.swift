import Ripple

/// Marble strings drawn from timelines, aligned column by column.
public struct RenderedMarbles: Equatable, Sendable, CustomStringConvertible {
    /// A placeholder used for a label that is not a single letter or digit.
    public struct LegendEntry: Equatable, Sendable {
        /// The character drawn in the diagram.
        public let token: Character
        /// The label it stands for.
        public let label: String

        /// `token` drawn for `label`.
        public init(token: Character, label: String) {
            self.token = token
            self.label = label
        }
    }

    /// One marble string per timeline, padded with spaces so that the same column
    /// is the same frame in every line.
    public let lines: [String]
    /// The placeholders used, in order of first use.
    public let legend: [LegendEntry]
    /// `false` when the strings could not place every marble at its frame (a
    /// marble right after a group, whose parentheses take frames too; more than 62
    /// distinct long labels; timelines wider than
    /// ``MarbleRenderer/maximumWidth``). The drawing is then approximate;
    /// comparisons never depend on it.
    public let isExact: Bool
    /// Whether the timelines were too wide to draw (see
    /// ``MarbleRenderer/maximumWidth``): each line then only says so.
    let isTooWide: Bool

    init(lines: [String], legend: [LegendEntry], isExact: Bool, isTooWide: Bool = false) {
        self.lines = lines
        self.legend = legend
        self.isExact = isExact
        self.isTooWide = isTooWide
    }

    /// The lines, then one `x = "label"` line per placeholder.
    public var description: String {
        (lines + legendLines).joined(separator: "\n")
    }

    /// `  a = "hello"` for each placeholder.
    public var legendLines: [String] {
        legend.map { "  \($0.token) = \(String(reflecting: $0.label))" }
    }
}

/// Draws ``MarbleTimeline``s as marble strings, the inverse of the parser:
/// parsing a rendered timeline gives the timeline back.
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// let xs = try scheduler.createHotObservable("--a--b--|")
/// let res = scheduler.start { xs.map { $0.uppercased() } }
/// MarbleRenderer.render(res.events).description   // "--A--B--|"
/// ```
///
/// Each frame is one column. A group `(ab)` is drawn for marbles at the same
/// frame; `^` and `!` for the subscription points (grouped too when they share a
/// frame with something else: `(^a)`, `(^!)`). Labels that are a single letter
/// or digit are drawn as is; longer labels get a placeholder letter listed in
/// ``RenderedMarbles/legend``.
public enum MarbleRenderer {
    /// The widest drawing, in frames from the first to the last marble of all
    /// timelines: 1000. Wider timelines (an event at time `Int.max` is
    /// 922 337 203 685 477 560 frames away) are not drawn; each line then reads
    /// `(not drawn: N frames, more than 1000)` and comparisons rely on their exact
    /// event lists. Drawing them would take time and memory in proportion to the
    /// width.
    public static let maximumWidth = 1_000

    /// Draws `timelines` one per line, aligned.
    ///
    /// - Parameters:
    ///   - timelines: The timelines to draw, top to bottom.
    ///   - reserved: Characters not to use as placeholders.
    public static func render(_ timelines: [MarbleTimeline], reserved: Set<Character> = []) -> RenderedMarbles {
        let starts = timelines.map(startFrame)
        let globalStart = starts.min() ?? 0
        let globalEnd = timelines.map(endFrame).max() ?? 0
        let (width, overflow) = globalEnd.subtractingReportingOverflow(globalStart)
        if overflow || width > maximumWidth {
            let frames = overflow ? "more than \(Int.max)" : "\(width)"
            let line = "(not drawn: \(frames) frames, more than \(maximumWidth))"
            return RenderedMarbles(lines: timelines.map { _ in line }, legend: [], isExact: false, isTooWide: true)
        }
        var tokens = TokenTable(reserved: reserved.union(singleCharacterLabels(timelines)))
        var isExact = true
        var lines: [String] = []
        for (timeline, start) in zip(timelines, starts) {
            var line = String(repeating: " ", count: start - globalStart)
            var cursor = start
            for item in items(of: timeline) {
                var frame = item.frame
                if frame < cursor {
                    isExact = false
                    frame = cursor
                }
                line += String(repeating: "-", count: frame - cursor)
                let drawn = item.symbols.map { symbol -> Character in
                    switch symbol {
                    case .marker(let marker): return marker
                    case .marble(.completed): return "|"
                    case .marble(.error): return "#"
                    case .marble(.next(let label)):
                        let (token, exact) = tokens.token(for: label)
                        if !exact { isExact = false }
                        return token
                    }
                }
                let text = drawn.count == 1 ? String(drawn) : "(" + String(drawn) + ")"
                line += text
                cursor = frame + text.count
            }
            lines.append(line)
        }
        return RenderedMarbles(lines: lines, legend: tokens.legend, isExact: isExact)
    }

    /// Draws recorded events (a ``TestableObserver``'s `events`), frames computed
    /// with `timing`.
    public static func render<Element>(
        _ events: [Recorded<Event<Element>>], timing: MarbleTiming = .default,
        label: (Element) -> String = { String(describing: $0) }
    ) -> RenderedMarbles {
        render([MarbleTimeline(events, timing: timing, label: label)])
    }

    /// Draws subscriptions (a ``TestableObservable``'s `subscriptions`), one line each.
    public static func render(_ subscriptions: [Subscription], timing: MarbleTiming = .default) -> RenderedMarbles {
        render(subscriptions.map { MarbleTimeline($0, timing: timing) })
    }

    // MARK: - Layout

    enum Symbol {
        case marker(Character)
        case marble(MarbleTimeline.Marble)
    }

    /// What is drawn at one frame: one symbol, or a group.
    struct Item {
        let frame: Int
        let symbols: [Symbol]
    }

    /// Where a timeline's drawing starts: frame 0, or earlier for marbles (or a
    /// subscription point) before frame 0.
    static func startFrame(_ timeline: MarbleTimeline) -> Int {
        let frames = timeline.entries.map(\.frame) + [timeline.subscriptionFrame, timeline.unsubscriptionFrame].compactMap { $0 }
        return Swift.min(0, frames.min() ?? 0)
    }

    /// The last frame a timeline draws something at.
    static func endFrame(_ timeline: MarbleTimeline) -> Int {
        let frames = timeline.entries.map(\.frame) + [timeline.subscriptionFrame, timeline.unsubscriptionFrame].compactMap { $0 }
        return Swift.max(0, frames.max() ?? 0)
    }

    /// The things to draw, frame by frame: `^`, the marbles, then `!`. A timeline
    /// with marbles before frame 0 and no subscription point gets `^` at frame 0, so
    /// that parsing it as a hot observable gives the same frames.
    static func items(of timeline: MarbleTimeline) -> [Item] {
        var subscriptionFrame = timeline.subscriptionFrame
        if subscriptionFrame == nil, let first = timeline.entries.first, first.frame < 0 {
            subscriptionFrame = 0
        }
        var byFrame: [Int: [Symbol]] = [:]
        if let frame = subscriptionFrame {
            byFrame[frame, default: []].append(.marker("^"))
        }
        for entry in timeline.entries {
            byFrame[entry.frame, default: []].append(.marble(entry.marble))
        }
        if let frame = timeline.unsubscriptionFrame {
            byFrame[frame, default: []].append(.marker("!"))
        }
        return byFrame.keys.sorted().map { Item(frame: $0, symbols: byFrame[$0]!) }
    }

    static func singleCharacterLabels(_ timelines: [MarbleTimeline]) -> Set<Character> {
        var result = Set<Character>()
        for timeline in timelines {
            for entry in timeline.entries {
                if case .next(let label) = entry.marble, label.count == 1, let character = label.first, MarbleParser.isToken(character) {
                    result.insert(character)
                }
            }
        }
        return result
    }

    /// Chooses the character drawn for each label.
    struct TokenTable {
        static let pool = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

        let reserved: Set<Character>
        var assigned: [String: Character] = [:]
        var legend: [RenderedMarbles.LegendEntry] = []
        var next = 0

        init(reserved: Set<Character>) {
            self.reserved = reserved
        }

        /// The token for `label`, and whether it is an honest drawing.
        mutating func token(for label: String) -> (Character, Bool) {
            if label.count == 1, let character = label.first, MarbleParser.isToken(character) {
                return (character, true)
            }
            if let token = assigned[label] {
                return (token, true)
            }
            while next < Self.pool.count {
                let candidate = Self.pool[next]
                next += 1
                if !reserved.contains(candidate) {
                    assigned[label] = candidate
                    legend.append(.init(token: candidate, label: label))
                    return (candidate, true)
                }
            }
            return ("?", false)
        }
    }
}

/// Several labelled timelines drawn on one time axis, as text or as an SVG
/// picture (see ``svg(style:)``).
///
/// ```swift
/// let diagram = MarbleDiagram([
///     ("source", MarbleTimeline(xs.recordedEvents)),
///     ("map { $0 * 10 }", MarbleTimeline(res.events)),
/// ])
/// print(diagram.ascii())
/// // source:          --1--2--|
/// // map { $0 * 10 }: --a--b--|
/// //   a = "10"
/// //   b = "20"
/// ```
public struct MarbleDiagram: Equatable, Sendable, CustomStringConvertible {
    /// A labelled timeline.
    public struct Row: Equatable, Sendable {
        /// The text drawn left of the timeline.
        public var label: String
        /// The timeline.
        public var timeline: MarbleTimeline

        /// A row drawing `timeline` after `label`.
        public init(label: String, timeline: MarbleTimeline) {
            self.label = label
            self.timeline = timeline
        }
    }

    /// The rows, top to bottom.
    public var rows: [Row]

    /// A diagram of `rows`.
    public init(rows: [Row]) {
        self.rows = rows
    }

    /// A diagram of `(label, timeline)` pairs, top to bottom.
    public init(_ rows: [(String, MarbleTimeline)]) {
        self.rows = rows.map { Row(label: $0.0, timeline: $0.1) }
    }

    /// The rows as aligned marble strings after their labels, then the legend of
    /// placeholders for labels longer than one character, and a note when a marble
    /// could not be drawn at its frame (see ``RenderedMarbles/isExact``).
    public func ascii() -> String {
        let drawing = MarbleRenderer.render(rows.map(\.timeline))
        let width = rows.map { $0.label.count }.max() ?? 0
        let lines = zip(rows, drawing.lines).map { row, line -> String in
            guard width > 0 else { return line }
            let label = row.label + ":"
            return label + String(repeating: " ", count: width + 2 - label.count) + line
        }
        let note = drawing.isExact ? [] : ["  (approximate: some marbles are drawn after the group before them)"]
        return (lines + drawing.legendLines + note).joined(separator: "\n")
    }

    /// ``ascii()``.
    public var description: String { ascii() }
}
