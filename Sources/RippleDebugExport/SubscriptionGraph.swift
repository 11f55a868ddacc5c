import Foundation
import Ripple

/// A snapshot of what is subscribed to what: the live subscription graph.
///
/// Recorded while `Hooks.recordsOperatorSites` is on. Each node is an operator
/// subscription (a cold operator subscribed twice is two nodes: two copies of its
/// work), a shared observable (a subject, a relay, `share`, `publish`) that
/// appears once with all its subscribers, or a subscriber (`subscribe`, `bind`,
/// `drive`). Each edge goes from upstream to downstream and counts the events
/// delivered along it.
///
/// ```swift
/// Hooks.recordsOperatorSites = true
/// let bag = DisposeBag()
/// query.debounce(.milliseconds(300), scheduler: scheduler)
///     .flatMapLatest(search)
///     .subscribe(onNext: show)
///     .disposed(by: bag)
/// let graph = SubscriptionGraph.current()
/// print(graph.textTree)
/// try graph.html.write(to: URL(fileURLWithPath: "graph.html"), atomically: true, encoding: .utf8)
/// ```
///
/// Recording is `Ripple`'s; the graph's types and formats are this module's
/// (`import RippleDebugExport`), so that an app carries them only where it looks
/// at a graph. ``textTree`` prints the graph for a terminal, ``dot`` for
/// Graphviz, ``mermaid`` renders on GitHub, ``json()`` is a stable,
/// documented schema (docs/Debugging.md) and ``html`` a self-contained page that
/// draws the graph. A snapshot is
/// consistent: every edge's ends are in ``nodes``, even while other threads
/// subscribe and dispose.
public struct SubscriptionGraph: Sendable, Equatable {
    /// What a node is.
    public enum Kind: String, Sendable {
        /// An operator or source subscription with nothing recorded upstream of it
        /// (`just`, `create`, a timer).
        case source
        /// An operator's subscription.
        case `operator`
        /// A shared observable: a subject, a relay, `share`, `publish`,
        /// `refCount`. One node, an edge to each of its subscribers.
        case shared
        /// A subscriber: `subscribe`, `bind`, `drive`, an observer.
        case subscriber
    }

    /// A node of the graph.
    public struct Node: Sendable, Equatable, Identifiable {
        /// Unique in the process; stable while the subscription lives.
        public let id: Int
        /// What the node is.
        public let kind: Kind
        /// The operator (`map`), the shared observable's type (`PublishRelay`),
        /// or `subscriber`.
        public let operatorName: String
        /// Where the operator was applied, when known.
        public let site: OperatorSite?
        /// `named(_:)`'s name, or `checkpoint(_:)`'s description.
        public let name: String?
        /// The type of the elements it delivers (`String`, `[Repository]`).
        public let elementType: String
        /// How many subscribers it delivers to now (its outgoing edges).
        public let subscribers: Int
        /// Events it delivered, each subscriber counted (a subject with three
        /// subscribers that emitted two elements delivered six); `nil` for an
        /// operator fused into the next one, whose events that one counts.
        public let events: Int?
        /// When it last delivered an event; `nil` before the first.
        public let lastEventAt: Date?
        /// The subscriptions that are one unit of work, when operators were
        /// fused: the same value for each operator of the unit.
        public let fusedGroup: Int?

        /// A node (for tests of code that consumes graphs).
        public init(
            id: Int, kind: Kind, operatorName: String, site: OperatorSite?, name: String?, elementType: String,
            subscribers: Int, events: Int?, lastEventAt: Date?, fusedGroup: Int? = nil
        ) {
            self.id = id
            self.kind = kind
            self.operatorName = operatorName
            self.site = site
            self.name = name
            self.elementType = elementType
            self.subscribers = subscribers
            self.events = events
            self.lastEventAt = lastEventAt
            self.fusedGroup = fusedGroup
        }

        /// `map at SearchViewModel.swift:42`, `named("query") at File.swift:3`,
        /// `PublishRelay`.
        public var title: String {
            let label = name.map { "\(operatorName)(\"\($0)\")" } ?? operatorName
            guard let site, site.isKnown else { return label }
            return "\(label) at \(site.fileName):\(site.line)"
        }
    }

    /// An edge: `from` delivers events to `to`.
    public struct Edge: Sendable, Equatable {
        /// The upstream node's id.
        public let from: Int
        /// The downstream node's id.
        public let to: Int
        /// Events delivered along this edge; `nil` inside a fused unit.
        public let events: Int?

        /// An edge (for tests of code that consumes graphs).
        public init(from: Int, to: Int, events: Int?) {
            self.from = from
            self.to = to
            self.events = events
        }
    }

    /// When the snapshot was taken.
    public let capturedAt: Date
    /// The nodes, upstream-most first within each subscription, in id order.
    public let nodes: [Node]
    /// The edges, in the order their subscriptions were made.
    public let edges: [Edge]

    /// A graph (for tests of code that consumes graphs).
    public init(capturedAt: Date, nodes: [Node], edges: [Edge]) {
        self.capturedAt = capturedAt
        self.nodes = nodes
        self.edges = edges
    }

    /// Every live recorded subscription (empty unless
    /// `Hooks.recordsOperatorSites` was on when they were made).
    public static func current() -> SubscriptionGraph {
        snapshot(where: nil)
    }

    /// The node with this id.
    public func node(_ id: Int) -> Node? {
        nodes.first { $0.id == id }
    }

    /// The nodes that deliver to `node`.
    public func upstream(of node: Node) -> [Node] {
        edges.filter { $0.to == node.id }.compactMap { self.node($0.from) }
    }

    /// The nodes `node` delivers to.
    public func downstream(of node: Node) -> [Node] {
        edges.filter { $0.from == node.id }.compactMap { self.node($0.to) }
    }
}

extension NamedSubscriptionScope {
    /// The recorded subscriptions made while this scope ran (one screen's, say)
    /// that are still alive, with everything upstream of them (the subjects and
    /// shared sequences that feed them, wherever those were subscribed).
    ///
    /// ```swift
    /// let scope = NamedSubscriptionScope()
    /// scope.run { viewModel.bind(to: view) }
    /// print(scope.subscriptionGraph().textTree)
    /// ```
    public func subscriptionGraph() -> SubscriptionGraph {
        SubscriptionGraph.snapshot(where: { node in node.scopes.contains { $0 === self } })
    }
}

extension SubscriptionGraph {
    /// A snapshot of the recorded nodes `include` accepts (all when `nil`) and
    /// every node upstream of them, taken under the recorder's lock.
    static func snapshot(where include: ((GraphNode) -> Bool)?) -> SubscriptionGraph {
        let (liveNodes, liveEdges, names) = SubscriptionRecorder.state.withLock { state -> ([GraphNode], [GraphEdge], [UInt64: String]) in
            var nodes = Array(state.nodes.values)
            var edges = Array(state.edges.values)
            if let include {
                var kept = Set(nodes.filter(include).map(\.id))
                var frontier = Array(kept)
                let incoming = Dictionary(grouping: edges, by: { $0.to.id })
                while let id = frontier.popLast() {
                    for edge in incoming[id] ?? [] where !kept.contains(edge.from.id) {
                        kept.insert(edge.from.id)
                        frontier.append(edge.from.id)
                    }
                }
                nodes = nodes.filter { kept.contains($0.id) }
                edges = edges.filter { kept.contains($0.from.id) && kept.contains($0.to.id) }
            }
            // Under the lock: a node's subscription type is written under it.
            var names: [UInt64: String] = [:]
            for node in nodes { names[node.id] = SubscriptionRecorder.fallbackName(for: node) }
            return (nodes, edges, names)
        }
        return build(nodes: liveNodes, edges: liveEdges, fallbackNames: names)
    }

    static func build(nodes liveNodes: [GraphNode], edges liveEdges: [GraphEdge], fallbackNames: [UInt64: String]) -> SubscriptionGraph {
        let hasUpstream = Set(liveEdges.map(\.to.id))
        var nodes: [Node] = []
        var edges: [Edge] = []
        for node in liveNodes.sorted(byKey: { $0.stepIDs[0] }) {
            let subscribers = liveEdges.reduce(0) { $0 + ($1.from === node ? 1 : 0) }
            let last = node.lastEventNanoseconds
            let lastEventAt = last == 0 ? nil : Date(timeIntervalSince1970: Double(last) / 1_000_000_000)
            let events = node.deliveredCount
            let element = String(describing: node.elementType)
            let kind: Kind
            switch node.role {
            case .subscriber: kind = .subscriber
            case .shared: kind = .shared
            case .operation: kind = hasUpstream.contains(node.stepIDs[0]) ? .operator : .source
            }
            let sites = node.sites
            let steps = node.stepIDs.count
            for (index, id) in node.stepIDs.enumerated() {
                let isLast = index == steps - 1
                let site = index < sites.count ? sites[index] : nil
                nodes.append(Node(
                    id: Int(id),
                    kind: index == 0 ? kind : .operator,
                    operatorName: site?.operatorName ?? fallbackNames[node.id] ?? "operator",
                    site: site.flatMap { $0.isKnown ? $0 : nil },
                    name: isLast ? node.name : nil,
                    // A fused step's own element type is not recorded: the unit's
                    // output type is shown on its last step only.
                    elementType: isLast ? element : "",
                    subscribers: isLast ? subscribers : 1,
                    events: isLast ? events : nil,
                    lastEventAt: isLast ? lastEventAt : nil,
                    fusedGroup: steps > 1 ? Int(node.id) : nil
                ))
                if index > 0 {
                    edges.append(Edge(from: Int(node.stepIDs[index - 1]), to: Int(id), events: nil))
                }
            }
        }
        for edge in liveEdges.sorted(byKey: { $0.id }) {
            edges.append(Edge(from: Int(edge.from.id), to: Int(edge.to.stepIDs[0]), events: edge.eventCount))
        }
        return SubscriptionGraph(capturedAt: Date(), nodes: nodes, edges: edges)
    }
}

extension SubscriptionGraph {
    /// The graph as a tree for a terminal: one tree per subscriber, upstream
    /// towards the leaves; a shared node met again is not expanded twice.
    ///
    /// ```
    /// subscriber #12 (String)
    /// └─ map at SearchViewModel.swift:42 · String · 3 events
    ///    └─ share at SearchViewModel.swift:41 · String · 2 subscribers · 6 events
    ///       └─ PublishRelay · String · 1 subscriber · 3 events
    /// ```
    public var textTree: String {
        var lines: [String] = []
        var expanded = Set<Int>()
        let incoming = Dictionary(grouping: edges, by: \.to)
        let hasDownstream = Set(edges.map(\.from))
        func visit(_ node: Node, prefix: String, isLast: Bool, depth: Int) {
            let branch = depth == 0 ? "" : (isLast ? "└─ " : "├─ ")
            var line = prefix + branch + summary(node)
            let upstream = incoming[node.id] ?? []
            if expanded.contains(node.id) && !upstream.isEmpty {
                line += " (see above)"
                lines.append(line)
                return
            }
            lines.append(line)
            expanded.insert(node.id)
            let childPrefix = depth == 0 ? "" : prefix + (isLast ? "   " : "│  ")
            for (index, edge) in upstream.enumerated() {
                guard let child = self.node(edge.from) else { continue }
                visit(child, prefix: childPrefix, isLast: index == upstream.count - 1, depth: depth + 1)
            }
        }
        for node in nodes where !hasDownstream.contains(node.id) {
            visit(node, prefix: "", isLast: true, depth: 0)
        }
        return lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
    }

    /// One line of ``textTree``.
    func summary(_ node: Node) -> String {
        if node.kind == .subscriber {
            return "subscriber #\(node.id) (\(node.elementType))"
        }
        var parts = [node.title]
        if !node.elementType.isEmpty { parts.append(node.elementType) }
        if node.kind == .shared || node.subscribers > 1 {
            parts.append(node.subscribers == 1 ? "1 subscriber" : "\(node.subscribers) subscribers")
        }
        if let events = node.events {
            parts.append(events == 1 ? "1 event" : "\(events) events")
        } else {
            parts.append("fused")
        }
        return parts.joined(separator: " · ")
    }
}
