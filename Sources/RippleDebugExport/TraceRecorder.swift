import Dispatch
import Foundation
import Ripple
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One thing a named stream did, as recorded by a ``TraceRecorder``.
public struct TraceEvent: Sendable, Equatable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// A subscription started (the beginning of its span).
        case subscribed
        /// An element; its description when the recorder records values.
        case next(String?)
        /// The sequence failed with an error of this description.
        case error(String)
        /// The sequence completed.
        case completed
        /// The subscription ended, by a terminal event or by `dispose()` (the end of
        /// its span).
        case disposed
    }

    /// What happened.
    public let kind: Kind
    /// The name of the stream (see `named(_:)`).
    public let stream: String
    /// The subscription, unique in the process (`NamedSubscription.id`).
    public let subscription: UInt64
    /// Nanoseconds since the recorder first started, on a monotonic clock.
    public let timestamp: UInt64
    /// The thread it happened on: a small number Ripple gives each thread that
    /// records trace events (1, 2, 3, ...).
    public let thread: UInt64

    /// Creates an event (for tests of code that consumes traces).
    public init(kind: Kind, stream: String, subscription: UInt64, timestamp: UInt64, thread: UInt64) {
        self.kind = kind
        self.stream = stream
        self.subscription = subscription
        self.timestamp = timestamp
        self.thread = thread
    }

    /// `12.345ms search #3 next(a)`.
    public var description: String {
        let milliseconds = Double(timestamp) / 1_000_000
        let what: String
        switch kind {
        case .subscribed: what = "subscribed"
        case .next(let value): what = "next(\(value ?? "…"))"
        case .error(let error): what = "error(\(error))"
        case .completed: what = "completed"
        case .disposed: what = "disposed"
        }
        return "\(String(format: "%.3f", milliseconds))ms \(stream) #\(subscription) \(what)"
    }
}

/// Records what named streams do, from any thread, into a bounded buffer, and
/// writes it as a Chrome Trace Event Format file (``writeChromeTrace(to:)``) that
/// Perfetto (ui.perfetto.dev) and `chrome://tracing` open directly.
///
/// ```swift
/// let recorder = TraceRecorder(capacity: 10_000)
/// recorder.start()
/// results.named("results").subscribe(onNext: show).disposed(by: bag)
/// // ... use the app ...
/// recorder.stop()
/// try recorder.writeChromeTrace(to: URL(fileURLWithPath: "ripple-trace.json"))
/// ```
///
/// Each subscription of a stream tagged with `named(_:)` becomes a span from
/// subscription to termination or disposal; each event becomes an instant on the
/// thread that delivered it. Unnamed streams are not recorded.
///
/// **Memory is bounded**: the recorder keeps at most ``capacity`` events. When it
/// is full, each new event overwrites the oldest one and ``droppedEventCount``
/// grows, so the recording always holds the most recent events. A span whose
/// beginning was overwritten loses its end as well when exported; a span that is
/// still open when exported ends at the export time, marked `"still subscribed"`.
///
/// **Cost**: when no recorder runs, a named stream pays one relaxed atomic load and
/// a branch per event. While recording, each event takes a lock and, when
/// ``recordsValues`` is `true`, builds the element's description.
///
/// Several recorders may run at once (parallel tests); each one receives the
/// events its `filter` accepts.
///
/// Named streams are `Ripple`'s; the recorder is this module's
/// (`import RippleDebugExport`), so that an app that records no trace does not
/// carry it.
public final class TraceRecorder: NamedStreamTracer, @unchecked Sendable {
    /// The maximum number of events kept (at least 1).
    public let capacity: Int
    /// Whether `next` events carry the element's description.
    public let recordsValues: Bool

    let filter: (@Sendable (String) -> Bool)?

    /// The events; `head`: the index of the oldest event once the buffer is full;
    /// the number dropped; whether recording; the timeline's origin; the names of
    /// the threads seen (a tuple: see "State is a tuple" in docs/Architecture.md).
    typealias State = (
        buffer: ContiguousArray<TraceEvent>, head: Int, dropped: Int, isRecording: Bool, origin: UInt64?,
        threadNames: [UInt64: String]
    )

    let state: LockedState<State>

    /// A recorder that keeps at most `capacity` events (values below 1 count as 1).
    ///
    /// - Parameters:
    ///   - capacity: The most events kept; past it, the oldest are dropped.
    ///   - recordsValues: When `true` (the default), `next` events carry the
    ///     element's `String(describing:)`, cut to 120 characters.
    ///   - filter: Records only the streams whose name it accepts (all by default).
    public init(capacity: Int = 100_000, recordsValues: Bool = true, filter: (@Sendable (String) -> Bool)? = nil) {
        state = LockedState((buffer: [], head: 0, dropped: 0, isRecording: false, origin: nil, threadNames: [:]))
        self.capacity = Swift.max(1, capacity)
        self.recordsValues = recordsValues
        self.filter = filter
    }

    /// Starts (or resumes) recording. Timestamps count from the first start.
    ///
    /// A running recorder is referenced by Ripple until ``stop()`` is called.
    public func start() {
        let wasRecording = state.withLock { state -> Bool in
            if state.origin == nil { state.origin = TraceThreads.now() }
            defer { state.isRecording = true }
            return state.isRecording
        }
        if !wasRecording {
            Tracing.activate(self)
        }
    }

    /// Stops recording; the events recorded so far stay available.
    public func stop() {
        let wasRecording = state.withLock { state -> Bool in
            defer { state.isRecording = false }
            return state.isRecording
        }
        if wasRecording {
            Tracing.deactivate(self)
        }
    }

    /// Whether the recorder is recording.
    public var isRecording: Bool {
        state.withLock { $0.isRecording }
    }

    /// The recorded events, oldest first.
    public var events: [TraceEvent] {
        state.withLock { state in
            // Index by index rather than joining two slices: the slices' joining
            // code was 3.5 KB of every app's binary (docs/Performance.md, "State
            // as tuples").
            var events: [TraceEvent] = []
            events.reserveCapacity(state.buffer.count)
            for index in state.buffer.indices {
                events.append(state.buffer[(state.head + index) % state.buffer.count])
            }
            return events
        }
    }

    /// How many events were overwritten because the buffer was full.
    public var droppedEventCount: Int {
        state.withLock { $0.dropped }
    }

    /// Forgets every recorded event (the recorder keeps running if it was).
    public func removeAll() {
        state.withLock { state in
            state.buffer.removeAll()
            state.head = 0
            state.dropped = 0
        }
    }

    package func accepts(_ stream: String) -> Bool {
        filter?(stream) ?? true
    }

    package func record(_ activity: NamedStreamActivity, stream: String, subscription: UInt64) {
        let kind: TraceEvent.Kind
        switch activity {
        case .subscribed: kind = .subscribed
        case .next(let value): kind = .next(value)
        case .error(let error): kind = .error(error)
        case .completed: kind = .completed
        case .disposed: kind = .disposed
        }
        append(kind, stream: stream, subscription: subscription, thread: TraceThreads.id(), threadName: TraceThreads.name)
    }

    func append(_ kind: TraceEvent.Kind, stream: String, subscription: UInt64, thread: UInt64, threadName: () -> String) {
        state.withLock { state in
            guard state.isRecording, let origin = state.origin else { return }
            let now = TraceThreads.now()
            let event = TraceEvent(
                kind: kind, stream: stream, subscription: subscription,
                timestamp: now >= origin ? now - origin : 0, thread: thread
            )
            if state.threadNames[thread] == nil {
                state.threadNames[thread] = threadName()
            }
            if state.buffer.count < capacity {
                if state.buffer.capacity == state.buffer.count {
                    state.buffer.reserveCapacity(Swift.min(capacity, Swift.max(64, state.buffer.count * 2)))
                }
                state.buffer.append(event)
            } else {
                state.buffer[state.head] = event
                state.head += 1
                if state.head == capacity { state.head = 0 }
                state.dropped += 1
            }
        }
    }

    /// The names of the threads seen, by thread identifier (the Chrome trace
    /// export reads it).
    var threadNames: [UInt64: String] {
        state.withLock { $0.threadNames }
    }

    /// The current time on the recorder's timeline, in nanoseconds.
    var elapsed: UInt64 {
        state.withLock { state in
            guard let origin = state.origin else { return 0 }
            let now = TraceThreads.now()
            return now >= origin ? now - origin : 0
        }
    }
}

/// The clock and the thread identities and names of a trace.
enum TraceThreads {
    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    /// The last number given to a thread (under its lock: each thread asks once).
    private static let lastThreadNumber = LockedState<UInt>(0)

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        // Nothing to release: the value is a number, not a pointer to memory.
        _ = pthread_key_create(&key, nil)
        return key
    }()

    /// A small number identifying the calling thread (1 for the first thread that
    /// recorded anything, then 2, 3, ...), kept in thread-local storage.
    static func id() -> UInt64 {
        if let raw = pthread_getspecific(threadKey) {
            return UInt64(UInt(bitPattern: raw))
        }
        let id = lastThreadNumber.withLock { number -> UInt in
            number += 1
            return number
        }
        pthread_setspecific(threadKey, UnsafeRawPointer(bitPattern: id))
        return UInt64(id)
    }

    /// The calling thread's name in a trace: "main", the whole label of the
    /// dispatch queue it runs (`com.example.search`), the name its code gave it
    /// (`Thread.current.name`), or "thread N".
    ///
    /// The queue label is read from libdispatch because Linux cuts a thread's own
    /// name to 15 bytes and libdispatch names a worker thread after the end of its
    /// root queue's label (`oot.default-qos` for `com.apple.root.default-qos`).
    static func name() -> String {
        if Thread.isMainThread { return "main" }
        let given = Thread.current.name ?? ""
        let label = currentQueueLabel() ?? ""
        return name(queueLabel: label, threadName: given) ?? "thread \(id())"
    }

    /// Picks a trace name from what the thread reports (see `name()`).
    /// A thread outside any queue reports the label of a root queue
    /// (`com.apple.root.*`), so a root label gives way to a name set by code.
    static func name(queueLabel label: String, threadName name: String) -> String? {
        let rootQueue = label.hasPrefix("com.apple.root.")
        if !label.isEmpty && !rootQueue { return label }
        if !name.isEmpty && !label.hasSuffix(name) { return name }
        if !label.isEmpty { return label }
        return name.isEmpty ? nil : name
    }

    /// The label of the dispatch queue the caller runs on (`DispatchQueue` has no
    /// API for the current queue's label).
    static func currentQueueLabel() -> String? {
        #if canImport(Darwin)
        return String(validatingCString: __dispatch_queue_get_label(nil))
        #else
        guard let getLabel = queueLabelFunction, let label = getLabel(nil) else { return nil }
        return String(validatingCString: label)
        #endif
    }

    #if !canImport(Darwin)
    private typealias QueueLabelFunction = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?

    /// libdispatch's `dispatch_queue_get_label`, which the Swift overlay marks
    /// unavailable (in favour of `DispatchQueue.label`, which needs the queue),
    /// looked up once in the loaded libraries.
    private static let queueLabelFunction: QueueLabelFunction? = dlsym(nil, "dispatch_queue_get_label")
        .map { unsafeBitCast($0, to: QueueLabelFunction.self) }
    #endif
}
