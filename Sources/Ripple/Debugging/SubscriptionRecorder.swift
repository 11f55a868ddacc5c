import CRippleAtomics
import Foundation


extension Hooks {
    /// When `true`, every subscription made from now on is recorded: which
    /// operator (with its ``OperatorSite``) subscribed to which, how many events
    /// went through each, and where errors went.
    ///
    /// That gives the live subscription graph (`SubscriptionGraph.current()`,
    /// in the `RippleDebugExport` product), error traces that list every
    /// operator an error passed through (``Swift/Error/rippleTrace``, and the
    /// default ``defaultErrorHandler``'s output), and leak reports that name
    /// each leaked subscription's chain.
    ///
    /// Off by default. The sites themselves are always stored (three words per
    /// operator); what recording adds is per subscription and per event (see
    /// docs/Debugging.md), so turn it on in debug builds, early: only the
    /// subscriptions made while it is on are recorded.
    ///
    /// ```swift
    /// #if DEBUG
    /// Hooks.recordsOperatorSites = true
    /// #endif
    /// ```
    public static var recordsOperatorSites: Bool {
        get { ripple_recording() }
        set { ripple_set_recording(newValue) }
    }
}

/// How the subscription graph shows an observable.
enum GraphRole {
    /// A node per subscription (cold: each subscriber runs its own copy).
    case perSubscription
    /// One node for the observable, with an edge to each subscriber (subjects,
    /// `share`, `publish`, `refCount`).
    case shared
    /// Not shown: an observable that another one uses internally (the subject
    /// inside `share`), whose events that one counts.
    case hidden
}

/// One node of the live graph: a subscription of a cold observable, or a shared
/// observable (a subject, `share`) with all its subscribers, or a subscriber.
/// Its structure (`edgeCount`) changes under ``SubscriptionRecorder``'s lock;
/// its counters are atomics, updated by events without any lock.
@usableFromInline
package final class GraphNode: @unchecked Sendable {
    package enum Role { case operation, shared, subscriber }

    package let id: UInt64
    /// The ids of the steps fused into this node, upstream first; the last one is
    /// `id` (edges leave from it), the first one receives the node's edges.
    package let stepIDs: [UInt64]
    package let role: Role
    let operators: [SiteLiteral]
    package let name: String?
    /// The observable (for shared nodes, to find the node again; for naming).
    weak var observable: AnyObject?
    /// For a shared node: its key in the recorder's index of shared nodes
    /// (``SubscriptionRecorder/sharedKey(of:)``).
    let sharedKey: UInt64?
    let observableType: Any.Type?
    package let elementType: Any.Type
    package let scopes: [NamedSubscriptionScope]
    /// The type of the subscription its observable returned (to name an operator
    /// that recorded no site). Under the recorder's lock.
    var subscriptionType: Any.Type?
    /// Under the recorder's lock: live edges into and out of this node.
    var edgeCount: Int
    /// Events delivered to the node's subscribers (each subscriber counts).
    @exclusivity(unchecked) final var delivered: AtomicCell<Int>
    /// Wall-clock nanoseconds of the last delivery, 0 before the first.
    @exclusivity(unchecked) final var lastEvent: AtomicCell<UInt64>

    init(
        id: UInt64, stepIDs: [UInt64], role: Role, operators: [SiteLiteral], name: String?,
        observable: AnyObject?, elementType: Any.Type, scopes: [NamedSubscriptionScope]
    ) {
        edgeCount = 0
        delivered = AtomicCell(0)
        lastEvent = AtomicCell(0)
        self.id = id
        self.stepIDs = stepIDs
        self.role = role
        self.operators = operators
        self.name = name
        self.observable = observable
        self.sharedKey = role == .shared ? observable.map(SubscriptionRecorder.sharedKey(of:)) : nil
        self.observableType = observable.map { type(of: $0) }
        self.elementType = elementType
        self.scopes = scopes
    }
}

extension GraphNode {
    /// The site of each step (`package`, like the other members the subscription
    /// graph reads: RippleDebugExport builds `SubscriptionGraph` from them).
    package var sites: [OperatorSite?] {
        operators.map(\.site)
    }

    /// Events delivered so far.
    package var deliveredCount: Int {
        AtomicCell.load(&delivered, ordering: .relaxed)
    }

    /// Wall-clock nanoseconds of the last delivery, 0 before the first.
    package var lastEventNanoseconds: UInt64 {
        AtomicCell.load(&lastEvent, ordering: .relaxed)
    }
}

/// An edge of the live graph: `from` delivers to `to`.
package final class GraphEdge: @unchecked Sendable {
    package let id: UInt64
    package let from: GraphNode
    package let to: GraphNode
    @exclusivity(unchecked) final var events = AtomicCell<Int>(0)
    /// Under the recorder's lock.
    var isEnded = false

    init(id: UInt64, from: GraphNode, to: GraphNode) {
        self.id = id
        self.from = from
        self.to = to
    }

    /// Events delivered along this edge so far.
    package var eventCount: Int {
        AtomicCell.load(&events, ordering: .relaxed)
    }

    /// Counts an event delivered along this edge.
    func record<Element>(_ event: Event<Element>) {
        AtomicCell.add(&events, 1, ordering: .relaxed)
        AtomicCell.add(&from.delivered, 1, ordering: .relaxed)
        AtomicCell.store(&from.lastEvent, SubscriptionRecorder.wallClockNanoseconds(), ordering: .relaxed)
    }
}

/// The subscription an observable returns while subscriptions are recorded: its
/// own subscription as upstream, and the edge to end when it goes.
final class RecordedSubscription: SubscriptionBase, @unchecked Sendable {
    let edge: GraphEdge

    init(edge: GraphEdge) {
        self.edge = edge
        super.init()
    }

    deinit {
        // Dropped without being disposed (an operator that keeps no reference to
        // a subscription it has no use for): it is no longer live either.
        SubscriptionRecorder.end(edge)
    }

    override func disposeResources() {
        SubscriptionRecorder.end(edge)
    }
}

/// Records subscriptions while ``Hooks/recordsOperatorSites`` is on: the registry
/// of live nodes and edges behind the subscription graph (`SubscriptionGraph`, in
/// RippleDebugExport, reads ``state`` through `package` declarations).
///
/// Everything goes through ``run(_:_:)``, which ``Observable/start(_:recorded:)`` calls
/// for every subscription: it creates the node (or finds a shared one), the edge
/// to the subscribing node, wraps the observer to count events, and marks the
/// node as the thread's current one while the observable subscribes upstream (so
/// that those subscriptions become edges into it). Events delivered along an edge
/// mark its downstream node as current too: an operator that subscribes while
/// handling an event (`flatMap`'s inner sequences, `concat`'s next source,
/// `retry`) gets its edges as well.
@usableFromInline
package enum SubscriptionRecorder {
    /// Whether subscriptions are recorded: one relaxed load of a C global
    /// (`ripple_records_operator_sites`, CRippleAtomics.h), the only thing
    /// the subscription machinery reads when recording is off.
    @_alwaysEmitIntoClient
    static var isRecording: Bool {
        ripple_recording()
    }

    /// The live nodes and edges, and the shared nodes by object (a tuple: see
    /// "State is a tuple" in docs/Architecture.md).
    package typealias State = (nodes: [UInt64: GraphNode], edges: [UInt64: GraphEdge], shared: [UInt64: GraphNode])

    /// A shared observable's key in `shared`: its address, as a `UInt64` so that
    /// the index is the same kind of dictionary as `nodes` (one copy of the
    /// dictionary's code in every app rather than two).
    static func sharedKey(of observable: AnyObject) -> UInt64 {
        UInt64(UInt(bitPattern: ObjectIdentifier(observable)))
    }

    package static let state = LockedState<State>((nodes: [:], edges: [:], shared: [:]))
    @exclusivity(unchecked) private nonisolated(unsafe) static var ids = AtomicCell<UInt64>(0)

    static func nextID() -> UInt64 {
        AtomicCell.add(&ids, 1, ordering: .relaxed).newValue
    }

    /// The highest id given so far (leak checks count the nodes made after it).
    static var lastID: UInt64 {
        AtomicCell.load(&ids, ordering: .relaxed)
    }

    static func wallClockNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// The node this thread subscribes or delivers for, if any.
    @usableFromInline
    static var currentNode: GraphNode? {
        guard let raw = Trampoline.current.pointee.graphContext else { return nil }
        return Unmanaged<GraphNode>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Runs `body` with `node` as this thread's current node.
    @usableFromInline
    static func with<Result>(current node: GraphNode?, _ body: () -> Result) -> Result {
        let state = Trampoline.current
        let saved = state.pointee.graphContext
        state.pointee.graphContext = node.map { Unmanaged.passUnretained($0).toOpaque() }
        defer { state.pointee.graphContext = saved }
        return body()
    }

    /// Runs `body` (a `connect()`) on behalf of `observable`'s shared node, so
    /// that the connection's subscription is drawn into it. Just runs `body` when
    /// nothing is recorded.
    static func connecting<Element, Result>(_ observable: Observable<Element>, _ body: () -> Result) -> Result {
        guard ripple_recording() else { return body() }
        let node = state.withLock { $0.shared[sharedKey(of: observable)] }
        guard let node, node.observable === observable else { return body() }
        return with(current: node, body)
    }

    /// Subscribes `observer` to `observable`, recording the subscription.
    @usableFromInline
    static func run<Element>(_ observable: Observable<Element>, _ observer: AnyObserver<Element>) -> SubscriptionBase? {
        let role = observable.graphRole
        if case .hidden = role {
            return observable.run(observer)
        }
        let edge = attach(
            observable, operators: observable.graphOperators, name: observable.graphName, elementType: Element.self,
            shared: role == .shared, parent: currentNode
        )
        let downstream = edge.to
        let recorded = AnyObserver<Element> { event in
            edge.record(event)
            if case .error(let error) = event {
                // The hop is on the thread's trail of the error while it goes on.
                ErrorTraces.delivering(error, from: edge.from, to: downstream) {
                    with(current: downstream) { observer.on(event) }
                }
            } else {
                with(current: downstream) { observer.on(event) }
            }
            if event.isStopEvent {
                end(edge)
            }
        }
        let subscription = with(current: edge.from) { observable.run(recorded) }
        if let subscription {
            state.withLock { _ in edge.from.subscriptionType = type(of: subscription) }
            if subscription.isDisposed {
                end(edge)
                return subscription
            }
        }
        let alive = state.withLock { _ in !edge.isEnded }
        guard alive else { return subscription }
        let wrapper = RecordedSubscription(edge: edge)
        wrapper.setUpstream(subscription)
        return wrapper
    }

    /// Adds the node for a subscription of `observable` (or finds its shared
    /// node) and the edge to `parent`, or to a new subscriber node when it is
    /// subscribed from outside any operator. Not generic (the element type is
    /// a value): one copy in every app rather than one beside each
    /// specialisation.
    static func attach(
        _ observable: AnyObject, operators: [SiteLiteral], name: String?, elementType: Any.Type, shared: Bool,
        parent: GraphNode?
    ) -> GraphEdge {
        let scopes = NamedStreams.activeScopes()
        let inherited = parent.map { parent in parent.scopes + scopes.filter { scope in !parent.scopes.contains { $0 === scope } } } ?? scopes
        return state.withLock { state in
            let downstream: GraphNode
            if let parent {
                downstream = parent
            } else {
                let id = nextID()
                downstream = GraphNode(
                    id: id, stepIDs: [id], role: .subscriber, operators: [], name: nil,
                    observable: nil, elementType: elementType, scopes: inherited
                )
            }
            state.nodes[downstream.id] = downstream
            var node: GraphNode?
            if shared, let existing = state.shared[sharedKey(of: observable)], existing.observable === observable {
                node = existing
            }
            if node == nil {
                var stepIDs: [UInt64] = []
                for _ in 0..<max(1, operators.count) { stepIDs.append(nextID()) }
                let made = GraphNode(
                    id: stepIDs[stepIDs.count - 1], stepIDs: stepIDs, role: shared ? .shared : .operation,
                    operators: operators, name: name, observable: observable, elementType: elementType,
                    scopes: inherited
                )
                if shared {
                    state.shared[sharedKey(of: observable)] = made
                }
                node = made
            }
            let upstream = node!
            state.nodes[upstream.id] = upstream
            let edge = GraphEdge(id: nextID(), from: upstream, to: downstream)
            state.edges[edge.id] = edge
            upstream.edgeCount += 1
            downstream.edgeCount += 1
            return edge
        }
    }

    /// Ends `edge` (its subscription terminated, was disposed or released); a
    /// node left with no edge leaves the graph.
    static func end(_ edge: GraphEdge) {
        state.withLock { state in
            guard !edge.isEnded else { return }
            edge.isEnded = true
            state.edges[edge.id] = nil
            for node in [edge.from, edge.to] {
                node.edgeCount -= 1
                guard node.edgeCount <= 0 else { continue }
                state.nodes[node.id] = nil
                if let key = node.sharedKey, state.shared[key] === node {
                    state.shared[key] = nil
                }
            }
        }
    }
}

extension SubscriptionRecorder {
    /// The name of a node whose operator recorded no site: its shared
    /// observable's type (`PublishSubject`), else the operator's observable or
    /// subscription type (`DebounceSink` → `debounce`). Under the recorder's
    /// lock (the subscription type is written under it).
    package static func fallbackName(for node: GraphNode) -> String {
        if node.role == .subscriber { return "subscriber" }
        if let site = node.operators.first?.site { return site.operatorName }
        let observable = node.observableType.map(bareTypeName) ?? ""
        if node.role == .shared { return observable }
        for (candidate, suffixes) in [(observable, ["Producer", "Observable"]), (node.subscriptionType.map(bareTypeName) ?? "", ["Sink"])] {
            for suffix in suffixes where candidate.hasSuffix(suffix) && candidate != suffix {
                let stem = candidate.dropLast(suffix.count)
                return stem.prefix(1).lowercased() + stem.dropFirst()
            }
        }
        return observable.isEmpty ? "operator" : observable
    }

    /// A class's name without its generic arguments (`PublishSubject`).
    private static func bareTypeName(_ type: Any.Type) -> String {
        let name = String(describing: type)
        return name.firstIndex(of: "<").map { String(name[..<$0]) } ?? name
    }
}
