import Dispatch
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `true` while at least one ``TraceRecorder`` records: the only thing the event
/// path of a named stream reads when tracing is off.
@usableFromInline
@exclusivity(unchecked) nonisolated(unsafe) var _tracingIsActive = AtomicCell<Bool>(false)

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
    /// The subscription, unique in the process (``NamedSubscription/id``).
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
/// writes it as a Chrome Trace Event Format file (`writeChromeTrace(to:)`, in the
/// `RippleDebugExport` module) that Perfetto (ui.perfetto.dev) and
/// `chrome://tracing` open directly.
///
/// ```swift
/// let recorder = TraceRecorder(capacity: 10_000)
/// recorder.start()
/// results.named("results").subscribe(onNext: show).disposed(by: bag)
/// // ... use the app ...
/// recorder.stop()
/// // with `import RippleDebugExport`:
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
public final class TraceRecorder: @unchecked Sendable {
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
            if state.origin == nil { state.origin = Tracing.now() }
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

    func accepts(_ stream: String) -> Bool {
        filter?(stream) ?? true
    }

    func append(_ kind: TraceEvent.Kind, stream: String, subscription: UInt64, thread: UInt64, threadName: () -> String) {
        state.withLock { state in
            guard state.isRecording, let origin = state.origin else { return }
            let now = Tracing.now()
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

    /// The names of the threads seen, by thread identifier (`package`: the
    /// Chrome trace export in RippleDebugExport reads it).
    package var threadNames: [UInt64: String] {
        state.withLock { $0.threadNames }
    }

    /// The current time on the recorder's timeline, in nanoseconds (`package`:
    /// see ``threadNames``).
    package var elapsed: UInt64 {
        state.withLock { state in
            guard let origin = state.origin else { return 0 }
            let now = Tracing.now()
            return now >= origin ? now - origin : 0
        }
    }
}

/// The running recorders and the recording entry points used by named streams.
enum Tracing {
    private static let recorders = LockedState<[TraceRecorder]>([])

    static func activate(_ recorder: TraceRecorder) {
        recorders.withLock { recorders in
            if !recorders.contains(where: { $0 === recorder }) {
                recorders.append(recorder)
            }
            AtomicCell.store(&_tracingIsActive, true, ordering: .relaxed)
        }
    }

    static func deactivate(_ recorder: TraceRecorder) {
        recorders.withLock { recorders in
            recorders.removeAll { $0 === recorder }
            AtomicCell.store(&_tracingIsActive, !recorders.isEmpty, ordering: .relaxed)
        }
    }

    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    @exclusivity(unchecked) private nonisolated(unsafe) static var threadCounter = AtomicCell<UInt>(0)

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        // Nothing to release: the value is a number, not a pointer to memory.
        _ = pthread_key_create(&key, nil)
        return key
    }()

    /// A small number identifying the calling thread (1 for the first thread that
    /// recorded anything, then 2, 3, ...), kept in thread-local storage.
    static func threadID() -> UInt64 {
        if let raw = pthread_getspecific(threadKey) {
            return UInt64(UInt(bitPattern: raw))
        }
        let id = AtomicCell.add(&threadCounter, 1, ordering: .relaxed).newValue
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
    static func threadName() -> String {
        if Thread.isMainThread { return "main" }
        let name = Thread.current.name ?? ""
        let label = currentQueueLabel() ?? ""
        return threadName(queueLabel: label, threadName: name) ?? "thread \(threadID())"
    }

    /// Picks a trace name from what the thread reports (see `threadName()`).
    /// A thread outside any queue reports the label of a root queue
    /// (`com.apple.root.*`), so a root label gives way to a name set by code.
    static func threadName(queueLabel label: String, threadName name: String) -> String? {
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

    /// The active recorders, at this moment.
    private static var active: [TraceRecorder] {
        recorders.withLock { $0 }
    }

    /// Appends an event to each of `recorders` that accepts `stream`: `kind`,
    /// or `withoutValue` to one that does not record values. (Kinds, not a
    /// closure that makes them: the optimiser compiled a closure-taking form
    /// again for each caller's closure, five copies in every app.)
    private static func deliver(
        _ kind: TraceEvent.Kind, withoutValue: TraceEvent.Kind? = nil,
        to recorders: [TraceRecorder], stream: String, subscription: UInt64
    ) {
        guard !recorders.isEmpty else { return }
        let thread = threadID()
        for recorder in recorders where recorder.accepts(stream) {
            let recorded = recorder.recordsValues ? kind : withoutValue ?? kind
            recorder.append(recorded, stream: stream, subscription: subscription, thread: thread, threadName: threadName)
        }
    }

    static func record<Element>(_ event: Event<Element>, stream: String, subscription: UInt64) {
        let recorders = active
        guard !recorders.isEmpty else { return }
        switch event {
        case .next(let element):
            // The element's text is made once, and only if a recorder keeps it.
            let keepsValues = recorders.contains { $0.recordsValues && $0.accepts(stream) }
            let text = keepsValues ? describe(element) : nil
            deliver(.next(text), withoutValue: .next(nil), to: recorders, stream: stream, subscription: subscription)
        case .error(let error):
            deliver(.error(String(describing: error)), to: recorders, stream: stream, subscription: subscription)
        case .completed:
            deliver(.completed, to: recorders, stream: stream, subscription: subscription)
        }
    }

    /// An element's text as a trace keeps it: at most 120 characters.
    private static func describe(_ element: Any) -> String {
        let text = String(describing: element)
        return text.count > 120 ? String(text.prefix(119)) + "…" : text
    }

    static func recordSubscribed(stream: String, subscription: UInt64) {
        deliver(.subscribed, to: active, stream: stream, subscription: subscription)
    }

    static func recordDisposed(stream: String, subscription: UInt64) {
        deliver(.disposed, to: active, stream: stream, subscription: subscription)
    }
}
