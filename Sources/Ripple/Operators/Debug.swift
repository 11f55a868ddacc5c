import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ObservableType {
    /// Prints every subscription, event and disposal of this sequence, with a
    /// timestamp and `identifier`, in RxSwift's format:
    ///
    /// ```
    /// 2026-11-22 10:00:00.000: search -> subscribed
    /// 2026-11-22 10:00:00.301: search -> Event next(ripple)
    /// 2026-11-22 10:00:00.302: search -> isDisposed
    /// ```
    ///
    /// The events pass through unchanged: completes when the source completes,
    /// fails when it fails.
    ///
    /// ```
    /// source:          --a--b--|
    /// debug("search"): --a--b--|     (and prints each of them)
    /// ```
    ///
    /// `identifier` defaults to the name of the stream when `debug` is applied
    /// right after `named(_:)`, otherwise to the call site (`file:line (function)`).
    /// With `trimOutput`, event descriptions longer than 40 characters are cut in
    /// the middle. Each subscription gets a number (``DebugOutput/Entry/subscription``);
    /// set ``DebugOutput/showsSubscriptionID`` to print it (`search #3 -> ...`).
    /// Output goes to ``DebugOutput/entryHandler`` if set, else as lines to
    /// ``DebugOutput/sink`` (standard output by default).
    @_alwaysEmitIntoClient
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        file: String = #file, line: UInt = #line, function: String = #function
    ) -> Observable<Element> {
        let source = asObservable()
        let identifier = identifier
            ?? (source as? NamedObservable<Element>)?.name
            ?? "\((file as NSString).lastPathComponent):\(line) (\(function))"
        // `file` is a `String` here (RxSwift's signature): the graph shows the name only.
        return Producer(site: SiteLiteral("debug")) { observer in
            let subscription = DebugOutput.nextSubscriptionID()
            DebugOutput.emit(identifier: identifier, subscription: subscription, kind: .subscribed)
            let sink = DebugSink(identifier: identifier, subscription: subscription, trimOutput: trimOutput, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

@usableFromInline
final class DebugSink<Element>: Sink<Element>, @unchecked Sendable {
    private let identifier: String
    private let subscription: UInt64
    private let trimOutput: Bool

    @usableFromInline
    init(identifier: String, subscription: UInt64, trimOutput: Bool, observer: AnyObserver<Element>) {
        self.identifier = identifier
        self.subscription = subscription
        self.trimOutput = trimOutput
        super.init(observer: observer)
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        if !isDisposed {
            let maxLength = 40
            var text = event.debugDescription
            if trimOutput && text.count > maxLength {
                text = String(text.prefix(maxLength / 2)) + "..." + String(text.suffix(maxLength / 2))
            }
            DebugOutput.emit(identifier: identifier, subscription: subscription, kind: .event(text))
        }
        forward(event)
    }

    override func disposeResources() {
        DebugOutput.emit(identifier: identifier, subscription: subscription, kind: .disposed)
    }
}

/// Where the `debug` operator writes.
///
/// By default each entry becomes a line in RxSwift's format and goes to ``sink``,
/// which prints it. Route the output elsewhere by replacing ``sink`` (lines) or
/// ``entryHandler`` (structured entries):
///
/// ```swift
/// // In a test: collect the lines.
/// let lines = LinesCollector()
/// DebugOutput.sink = { lines.append($0) }
///
/// // In an app: send structured entries to a logger.
/// DebugOutput.entryHandler = { entry in
///     logger.debug("\(entry.identifier) #\(entry.subscription): \(entry.message)")
/// }
/// ```
///
/// All properties are thread-safe; handlers are called on the thread of the
/// event, without any lock held.
public enum DebugOutput {
    /// One line of `debug` output, before formatting.
    public struct Entry: Sendable, CustomStringConvertible {
        /// What happened.
        public enum Kind: Sendable, Equatable {
            /// A subscription was made.
            case subscribed
            /// An event passed, described as RxSwift does (`next(1)`, `completed`,
            /// `error(...)`), trimmed when the operator was asked to.
            case event(String)
            /// The subscription ended (terminal event or `dispose()`).
            case disposed
        }

        /// When it happened.
        public let date: Date
        /// The `debug` operator's identifier (or the stream's name).
        public let identifier: String
        /// A number unique to the subscription in this process, starting at 1.
        public let subscription: UInt64
        /// What happened.
        public let kind: Kind

        /// Creates an entry.
        public init(date: Date, identifier: String, subscription: UInt64, kind: Kind) {
            self.date = date
            self.identifier = identifier
            self.subscription = subscription
            self.kind = kind
        }

        /// `subscribed`, `Event next(1)` or `isDisposed`: the text after the arrow.
        public var message: String {
            switch kind {
            case .subscribed: return "subscribed"
            case .event(let text): return "Event \(text)"
            case .disposed: return "isDisposed"
            }
        }

        /// The line `debug` prints: `2026-11-22 10:00:00.301: search -> Event next(a)`,
        /// with `search #3` instead of `search` when `showsSubscriptionID` is `true`.
        @_alwaysEmitIntoClient
        public func line(showsSubscriptionID: Bool) -> String {
            let who = showsSubscriptionID ? "\(identifier) #\(subscription)" : identifier
            return "\(DebugOutput.timestamp(date)): \(who) -> \(message)"
        }

        /// The line in RxSwift's format.
        public var description: String {
            line(showsSubscriptionID: false)
        }
    }

    private struct Configuration {
        var sink: @Sendable (String) -> Void = { print($0) }
        var entryHandler: (@Sendable (Entry) -> Void)?
        var showsSubscriptionID = false
    }

    private static let configuration = LockedState(Configuration())
    @exclusivity(unchecked) private nonisolated(unsafe) static var subscriptionIDs = AtomicCell<UInt64>(0)

    /// Receives each line the `debug` operator produces (without a trailing
    /// newline) when ``entryHandler`` is `nil`. Prints by default.
    public static var sink: @Sendable (String) -> Void {
        get { configuration.withLock { $0.sink } }
        set { configuration.withLock { $0.sink = newValue } }
    }

    /// When set, receives every entry instead of ``sink``: the place to plug a
    /// logger that wants the parts (identifier, subscription, kind, date) rather
    /// than a formatted line. `nil` by default.
    public static var entryHandler: (@Sendable (Entry) -> Void)? {
        get { configuration.withLock { $0.entryHandler } }
        set { configuration.withLock { $0.entryHandler = newValue } }
    }

    /// When `true`, lines sent to ``sink`` carry the subscription number after the
    /// identifier (`search #3 -> Event next(a)`), which tells interleaved
    /// subscriptions apart. `false` by default (RxSwift's exact format).
    public static var showsSubscriptionID: Bool {
        get { configuration.withLock { $0.showsSubscriptionID } }
        set { configuration.withLock { $0.showsSubscriptionID = newValue } }
    }

    @usableFromInline
    static func nextSubscriptionID() -> UInt64 {
        AtomicCell.add(&subscriptionIDs, 1, ordering: .relaxed).newValue
    }

    @usableFromInline
    static func emit(identifier: String, subscription: UInt64, kind: Entry.Kind) {
        let entry = Entry(date: Date(), identifier: identifier, subscription: subscription, kind: kind)
        let configuration = configuration.withLock { $0 }
        if let handler = configuration.entryHandler {
            handler(entry)
        } else {
            configuration.sink(entry.line(showsSubscriptionID: configuration.showsSubscriptionID))
        }
    }

    /// `yyyy-MM-dd HH:mm:ss.SSS` in local time, as RxSwift prints it.
    @usableFromInline
    static func timestamp(_ date: Date) -> String {
        // Whole milliseconds first, so that 0.123 (stored as 0.12299...) prints as 123.
        let totalMilliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        var seconds = time_t((totalMilliseconds / 1000).rounded(.down))
        let milliseconds = Int(totalMilliseconds - Double(seconds) * 1000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        // The C library formats the rest (one call rather than six paddings:
        // about 1 KB less code in every app).
        let dateAndTime = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer in
            let count = strftime(buffer.baseAddress.unsafelyUnwrapped, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), as: UTF8.self)
        }
        let fraction = String(milliseconds)
        return dateAndTime + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
