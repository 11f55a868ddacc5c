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
    /// Traces are kept for the 256 most recent errors. An error is recognised as
    /// the same value (a copy of it), so a new error equal to a traced one reads
    /// the newer trace.
    public var rippleTrace: RippleErrorTrace? {
        ErrorTraces.trace(for: self)
    }
}

/// The traces of recent errors, keyed by the identity of their existential box
/// (an `any Error` is a reference to a box that copies share), with the error
/// retained so that the box is not reused while its entry lives.
@usableFromInline
enum ErrorTraces {
    /// One thing that happened to an error.
    struct Hop {
        /// Where the error came from (a node of the graph), or the checkpoint.
        let from: NodeDescription
        /// The node it was delivered to; `nil` for a checkpoint.
        let to: NodeDescription?
    }

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
            fallbackName = SubscriptionRecorder.state.withLock { _ in SubscriptionGraph.fallbackName(for: node) }
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

    struct Entry {
        let error: any Error
        var hops: [Hop]
    }

    struct State {
        var entries: [UnsafeRawPointer: Entry] = [:]
        var order: [UnsafeRawPointer] = []
    }

    static let capacity = 256
    static let state = LockedState(State())

    /// The box of an `any Error`: copies of the existential share it.
    static func identity(of error: any Error) -> UnsafeRawPointer {
        unsafeBitCast(error, to: UnsafeRawPointer.self)
    }

    static func recordHop(_ error: any Error, from: GraphNode, to: GraphNode) {
        append(Hop(from: NodeDescription(from), to: NodeDescription(to)), to: error)
    }

    /// A `checkpoint(_:)` saw `error`.
    @usableFromInline
    static func recordCheckpoint(_ error: any Error, name: String, site: SiteLiteral) {
        append(Hop(from: NodeDescription(checkpoint: name, site: site), to: nil), to: error)
    }

    private static func append(_ hop: Hop, to error: any Error) {
        let key = identity(of: error)
        state.withLock { state in
            if state.entries[key] != nil {
                state.entries[key]!.hops.append(hop)
                return
            }
            if state.order.count >= capacity {
                let oldest = state.order.removeFirst()
                state.entries[oldest] = nil
            }
            state.entries[key] = Entry(error: error, hops: [hop])
            state.order.append(key)
        }
    }

    /// The trace of `error`: found by identity when it is the boxed error that was
    /// recorded, else by value among the recorded errors of its type, newest first.
    static func trace<E: Error>(for error: E) -> RippleErrorTrace? {
        let hops: [Hop]? = state.withLock { state in
            for key in state.order.reversed() {
                guard let entry = state.entries[key], let stored = entry.error as? E else { continue }
                if sameValue(stored, error) {
                    return entry.hops
                }
            }
            return nil
        }
        return hops.map(render)
    }

    /// Whether `a` is a copy of `b`: the same bytes (the same references, for a
    /// value holding any), or failing that (padding may differ between copies of
    /// a value with references) the same reflection.
    private static func sameValue<E>(_ a: E, _ b: E) -> Bool {
        var a = a
        var b = b
        let bytesEqual = withUnsafeBytes(of: &a) { left in
            withUnsafeBytes(of: &b) { right in left.elementsEqual(right) }
        }
        return bytesEqual || String(reflecting: a) == String(reflecting: b)
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
