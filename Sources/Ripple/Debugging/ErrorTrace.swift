#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where an error went: the operators it passed through, nearest first, with
/// their sites, and where it was handled.
///
/// Ask an error for it with ``Swift/Error/rippleTrace``. The default
/// ``Hooks/defaultErrorHandler`` prints it for an error that reached a subscriber
/// without `onError`:
///
/// ```
/// Unhandled error happened: notFound
///  passed through (nearest first):
///   map at SearchViewModel.swift:42
///   flatMapLatest at SearchViewModel.swift:40
///   debounce at SearchViewModel.swift:38
///   named("query") at SearchViewModel.swift:37
///   PublishRelay
/// ```
///
/// With ``Hooks/recordsOperatorSites`` on, every operator is listed. Without it,
/// only the `checkpoint(_:)`s the error passed (which cost nothing until an error
/// goes through them).
public struct RippleErrorTrace: Sendable, Equatable, CustomStringConvertible {
    /// One place the error went through.
    public struct Step: Sendable, Equatable, CustomStringConvertible {
        /// What the error did there.
        public enum Kind: String, Sendable, Equatable {
            /// Passed through the operator (or was emitted by it, for the last step).
            case passed
            /// Reached this operator, which did not pass it on: `catch`, `retry`
            /// and the like handled it.
            case handled
            /// Reached a subscriber (its `onError`, or the default error handler).
            case subscriber
            /// Passed a `checkpoint(_:)`.
            case checkpoint
        }

        /// What the error did there.
        public let kind: Kind
        /// The operator and where it was applied (for ``Kind/subscriber``, the
        /// name "subscriber" and no file).
        public let site: OperatorSite
        /// The stream's name (`named(_:)`) or the checkpoint's description.
        public let name: String?

        /// A step (for tests of code that consumes traces).
        public init(kind: Kind, site: OperatorSite, name: String?) {
            self.kind = kind
            self.site = site
            self.name = name
        }

        /// `map at SearchViewModel.swift:42`, `named("query") at File.swift:3`,
        /// `catch at File.swift:9 (handled here)`.
        public var description: String {
            var text: String
            if let name {
                let label = "\(site.operatorName)(\"\(name)\")"
                text = site.isKnown ? "\(label) at \(site.fileName):\(site.line)" : label
            } else {
                text = site.description
            }
            if kind == .handled {
                text += " (handled here)"
            }
            return text
        }
    }

    /// The steps, nearest first: the last operator before the place the error
    /// was observed first, the place it came from last.
    public let steps: [Step]

    /// A trace (for tests of code that consumes traces).
    public init(steps: [Step]) {
        self.steps = steps
    }

    /// The steps joined by ` ← `, nearest first.
    public var description: String {
        steps.map(\.description).joined(separator: " ← ")
    }
}

extension Error {
    /// The operators this error passed through, nearest first (see
    /// ``RippleErrorTrace``), or `nil` if it went through no recorded subscription
    /// and no `checkpoint(_:)`.
    ///
    /// ```swift
    /// results.subscribe(onError: { error in
    ///     print(error.rippleTrace ?? "no trace")
    /// })
    /// ```
    ///
    /// Read while the error is being delivered (in `onError`, a `catch` handler,
    /// the default error handler), the trace is the path of *this* delivery,
    /// whatever other errors other threads deliver at the same time. Read later,
    /// it is the latest path recorded for the same error: the same instance for
    /// an error that is a class (`NSError` included), an equal value otherwise
    /// (a value-type error has no identity: two equal errors are one error to
    /// the trace). Traces are kept for the 256 most recent errors.
    public var rippleTrace: RippleErrorTrace? {
        ErrorTraces.trace(for: self)
    }
}

/// How the traces of errors are recorded.
///
/// An error has no identity Ripple could rely on: the box of an `any Error` may
/// be opened and re-made by the optimizer, and most errors are values. So the
/// path of an error is kept **where it is delivered**: the recorded edges of the
/// subscription graph and `checkpoint(_:)` push a hop on the delivering
/// thread's trail for that error before passing it on, and pop it after, so
/// that code reading ``Swift/Error/rippleTrace`` during the delivery (an
/// `onError`, a `catch` handler) reads exactly the path that led to it. Each
/// push also leaves the path in a table keyed by the error (its instance for a
/// class, its type and value otherwise), for reads after the delivery.
///
/// A path that continues on another thread (after `observe(on:)`, a subject or
/// an operator of several sources that queued the error for another thread) is
/// carried over by the operator that moves the error: it takes the thread's
/// trail with the error (``trail(of:)``) and delivers it within
/// ``resuming(_:_:)``. While subscriptions are recorded, a delivery that starts
/// where a recorded path ended (the same graph node) continues that path too.
@usableFromInline
enum ErrorTraces {
    /// One thing that happened to an error: where it came from (a node of the
    /// graph, or the checkpoint) and the node it was delivered to (`nil` for a
    /// checkpoint). A tuple: see "State is a tuple" in docs/Architecture.md.
    typealias Hop = (from: NodeDescription, to: NodeDescription?)

    /// What a trace needs of a graph node, copied so that the trace outlives it.
    struct NodeDescription {
        let id: UInt64
        let operators: [SiteLiteral]
        let name: String?
        let role: GraphNode.Role
        let fallbackName: String
        let isCheckpoint: Bool

        init(_ node: GraphNode) {
            id = node.id
            operators = node.operators
            name = node.name
            role = node.role
            // `subscriptionType` is written under the recorder's lock.
            fallbackName = SubscriptionRecorder.state.withLock { _ in SubscriptionRecorder.fallbackName(for: node) }
            isCheckpoint = false
        }

        init(checkpoint name: String, site: SiteLiteral) {
            id = 0
            operators = [site]
            self.name = name
            role = .operation
            fallbackName = "checkpoint"
            isCheckpoint = true
        }
    }

    /// What identifies an error to its trace: the instance of a class, else the
    /// type and the value (its reflection: equal values of a type print the
    /// same).
    struct Key: Hashable {
        enum Identity: Hashable {
            case object(ObjectIdentifier)
            case value(String)
        }

        let typeID: ObjectIdentifier
        let identity: Identity

        init<E: Error>(_ error: E) {
            // The dynamic type: `E` may be an existential.
            let dynamicType = Swift.type(of: error as Any)
            typeID = ObjectIdentifier(dynamicType)
            if dynamicType is AnyObject.Type {
                identity = .object(ObjectIdentifier(error as AnyObject))
            } else {
                identity = .value(String(reflecting: error))
            }
        }
    }

    /// The path of an error being delivered by one thread, origin first (a
    /// tuple: see "State is a tuple" in docs/Architecture.md).
    typealias Delivery = (key: Key, hops: [Hop])

    /// A thread's deliveries of errors under way: usually none or one (a second
    /// when an error handler delivers another error).
    final class ThreadTrail {
        var deliveries: [Delivery] = []
    }

    /// An error's path as one thread left it, for the operator that delivers the
    /// error on another thread (``trail(of:)``, ``resuming(_:_:)``).
    ///
    /// A class: operators keep an optional one beside their queues, where a
    /// reference costs one word.
    @usableFromInline
    final class Trail: @unchecked Sendable {
        let key: Key
        let hops: [Hop]

        init(key: Key, hops: [Hop]) {
            self.key = key
            self.hops = hops
        }
    }

    /// The latest path of an error, for reads after its delivery; `error` is
    /// kept so that an instance's identity is not reused while its entry lives
    /// (a tuple: see "State is a tuple" in docs/Architecture.md).
    typealias Entry = (error: any Error, hops: [Hop])

    /// The remembered paths, and their keys oldest first (a tuple: see "State
    /// is a tuple" in docs/Architecture.md).
    typealias State = (entries: [Key: Entry], order: [Key])

    static let capacity = 256
    /// Hops kept per remembered path: an error that goes round a cycle
    /// (`retry` of a source that fails at once) adds a hop per turn.
    static let maximumHops = 512
    static let state = LockedState<State>((entries: [:], order: []))

    private static let trailKey: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key) { raw in
            #if canImport(Darwin)
            Unmanaged<ThreadTrail>.fromOpaque(raw).release()
            #else
            guard let raw else { return }
            Unmanaged<ThreadTrail>.fromOpaque(raw).release()
            #endif
        }
        precondition(result == 0, "Ripple: pthread_key_create failed (\(result))")
        return key
    }()

    /// This thread's trail, if it has delivered a traced error.
    private static var existingTrail: ThreadTrail? {
        guard let raw = pthread_getspecific(trailKey) else { return nil }
        return Unmanaged<ThreadTrail>.fromOpaque(raw).takeUnretainedValue()
    }

    private static var threadTrail: ThreadTrail {
        if let trail = existingTrail {
            return trail
        }
        let trail = ThreadTrail()
        pthread_setspecific(trailKey, Unmanaged.passRetained(trail).toOpaque())
        return trail
    }

    /// Delivers an error along a recorded edge: `body` runs with the hop on
    /// this thread's trail for `error`.
    static func delivering(_ error: any Error, from: GraphNode, to: GraphNode, _ body: () -> Void) {
        delivering(error, (from: NodeDescription(from), to: NodeDescription(to)), body)
    }

    /// A `checkpoint(_:)` passes `error` on: `body` runs with the checkpoint on
    /// this thread's trail for `error`.
    @usableFromInline
    static func delivering(_ error: any Error, checkpoint name: String, site: SiteLiteral, _ body: () -> Void) {
        delivering(error, (from: NodeDescription(checkpoint: name, site: site), to: nil), body)
    }

    /// Pushes `hop` on this thread's path for `error` (a new path if the thread
    /// is not delivering it yet), runs `body`, pops the hop. Deliveries nest
    /// like calls, so the trail is a stack: whatever `body` pushes, it pops.
    private static func delivering(_ error: any Error, _ hop: Hop, _ body: () -> Void) {
        let key = Key(error)
        let trail = threadTrail
        let index: Int
        let depth: Int
        if let existing = trail.deliveries.lastIndex(where: { $0.key == key }) {
            index = existing
            depth = trail.deliveries[existing].hops.count
            trail.deliveries[existing].hops.append(hop)
        } else {
            index = trail.deliveries.count
            depth = -1
            trail.deliveries.append((key: key, hops: continuedPath(for: key, startingWith: hop) + [hop]))
        }
        remember(error, key: key, hops: trail.deliveries[index].hops)
        defer {
            if depth < 0 {
                trail.deliveries.remove(at: index)
            } else {
                trail.deliveries[index].hops.removeSubrange(depth...)
            }
        }
        return body()
    }

    /// The hops a delivery starting with `hop` continues: those of a recorded
    /// path that ended at the node `hop` comes from (the error crossed to this
    /// thread in a way no operator carried over).
    private static func continuedPath(for key: Key, startingWith hop: Hop) -> [Hop] {
        guard !hop.from.isCheckpoint else { return [] }
        return state.withLock { state in
            guard let hops = state.entries[key]?.hops, let last = hops.last(where: { !$0.from.isCheckpoint }),
                  last.to?.id == hop.from.id else { return [] }
            return hops
        }
    }

    private static func remember(_ error: any Error, key: Key, hops: [Hop]) {
        let hops = hops.count > maximumHops ? Array(hops.suffix(maximumHops)) : hops
        state.withLock { state in
            if state.entries[key] != nil {
                state.entries[key]!.hops = hops
                return
            }
            if state.order.count >= capacity {
                let oldest = state.order.removeFirst()
                state.entries[oldest] = nil
            }
            state.entries[key] = (error: error, hops: hops)
            state.order.append(key)
        }
    }

    /// The path `error` has on this thread, for an operator that will deliver
    /// it on another one; `nil` when it has none (one thread-local load).
    @usableFromInline
    static func trail(of error: any Error) -> Trail? {
        guard let trail = existingTrail, !trail.deliveries.isEmpty else { return nil }
        let key = Key(error)
        guard let delivery = trail.deliveries.last(where: { $0.key == key }) else { return nil }
        return Trail(key: key, hops: delivery.hops)
    }

    /// Runs `body`, the delivery of an error another thread handed over with
    /// its `trail`, with that path on this thread's trail.
    @usableFromInline
    static func resuming(_ carried: Trail?, _ body: () -> Void) {
        guard let carried else { return body() }
        let trail = threadTrail
        trail.deliveries.append((key: carried.key, hops: carried.hops))
        let index = trail.deliveries.count - 1
        defer {
            if index < trail.deliveries.count {
                trail.deliveries.remove(at: index)
            }
        }
        return body()
    }

    /// The trace of `error`: the path of its delivery under way on this thread,
    /// else the latest one recorded for it.
    static func trace<E: Error>(for error: E) -> RippleErrorTrace? {
        let key = Key(error)
        if let trail = existingTrail, let delivery = trail.deliveries.last(where: { $0.key == key }), !delivery.hops.isEmpty {
            return render(delivery.hops)
        }
        let hops = state.withLock { $0.entries[key]?.hops }
        return hops.map(render)
    }

    /// Turns the hops into a path: from the last delivery back, following each
    /// node to the delivery that brought the error to it (so that an error that
    /// fanned out to several subscribers reads the path to the latest one).
    static func render(_ hops: [Hop]) -> RippleErrorTrace {
        var steps: [RippleErrorTrace.Step] = []
        let deliveries = hops.filter { !$0.from.isCheckpoint }
        if let last = deliveries.last, let end = last.to {
            switch end.role {
            case .subscriber:
                steps.append(.init(kind: .subscriber, site: OperatorSite(operatorName: "subscriber", file: "", line: 0), name: nil))
            case .operation, .shared:
                steps += describe(end, kind: .handled)
            }
            var current = last
            var index = deliveries.count - 1
            while true {
                steps += describe(current.from, kind: .passed)
                guard let previous = deliveries[..<index].lastIndex(where: { $0.to?.id == current.from.id }) else { break }
                index = previous
                current = deliveries[previous]
            }
            return RippleErrorTrace(steps: steps)
        }
        // Nothing recorded but checkpoints: those, nearest first.
        for hop in hops.reversed() {
            steps += describe(hop.from, kind: .checkpoint)
        }
        return RippleErrorTrace(steps: steps)
    }

    private static func describe(_ node: NodeDescription, kind: RippleErrorTrace.Step.Kind) -> [RippleErrorTrace.Step] {
        let sites = node.operators.compactMap(\.site)
        if sites.isEmpty {
            return [.init(kind: kind, site: OperatorSite(operatorName: node.fallbackName, file: "", line: 0), name: node.name)]
        }
        // A fused node lists its operators nearest first, like the rest; the
        // handling mark goes on the first one the error reached.
        var result: [RippleErrorTrace.Step] = []
        for (offset, site) in sites.enumerated().reversed() {
            let stepKind: RippleErrorTrace.Step.Kind = (kind == .handled && offset != 0) ? .passed : kind
            result.append(.init(kind: stepKind, site: site, name: offset == sites.count - 1 ? node.name : nil))
        }
        return result
    }
}
