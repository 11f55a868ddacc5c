import Foundation
import Ripple
import RippleDebugExport

/// Subscription graphs of a given size shaped like a real app's screens, for the
/// page's tests: shares with many subscribers, long chains, `flatMapLatest` with
/// its inner sequence (a request merged with a cache branch), a `combineLatest`
/// joining a short branch to a deep one (a long edge), fused steps, and names and
/// element types too long for a node's box. Deterministic for a given size.
struct SubscriptionGraphSample {
    private(set) var nodes: [SubscriptionGraph.Node] = []
    private(set) var edges: [SubscriptionGraph.Edge] = []
    /// The `flatMapLatest` nodes, and how many nodes only their inner sequence has.
    private(set) var flatMapLatest: [(id: Int, inner: Int)] = []
    private let limit: Int
    private var state: UInt64

    var graph: SubscriptionGraph {
        SubscriptionGraph(capturedAt: Date(timeIntervalSince1970: 1_800_000_000), nodes: nodes, edges: edges)
    }

    init(nodes count: Int) {
        limit = count
        state = UInt64(count) &* 0x9E37_79B9_7F4A_7C15 | 1
        var block = 0
        while nodes.count < limit {
            switch block % 4 {
            case 0: addSharedQuery(feature: block)
            case 1: addLongChain(feature: block)
            case 2: addSearch(feature: block)
            default: addJoin(feature: block)
            }
            block += 1
        }
        // Blocks end where the size runs out; cut what went past it, and count
        // each node's subscribers from the edges.
        let limit = self.limit
        edges = edges.filter { $0.from <= limit && $0.to <= limit }
        let outgoing = Dictionary(grouping: edges, by: \.from).mapValues(\.count)
        nodes = nodes.prefix(limit).map { node in
            SubscriptionGraph.Node(
                id: node.id, kind: node.kind, operatorName: node.operatorName, site: node.site, name: node.name,
                elementType: node.elementType, subscribers: outgoing[node.id] ?? 0, events: node.events,
                lastEventAt: node.lastEventAt, fusedGroup: node.fusedGroup)
        }
        flatMapLatest = flatMapLatest.filter { $0.id <= limit }
    }

    /// The nodes whose every path downstream goes through `id`: what collapsing
    /// `id`'s upstream folds into it.
    func exclusiveUpstream(of id: Int) -> Set<Int> {
        var inside: Set<Int> = [id]
        var changed = true
        while changed {
            changed = false
            for node in nodes where !inside.contains(node.id) {
                let outs = edges.filter { $0.from == node.id }
                if !outs.isEmpty, outs.allSatisfy({ inside.contains($0.to) }) {
                    inside.insert(node.id)
                    changed = true
                }
            }
        }
        inside.remove(id)
        return inside
    }

    /// `id` and every node upstream of it.
    func upstream(of id: Int) -> Set<Int> {
        var found: Set<Int> = [id]
        var frontier = [id]
        while let next = frontier.popLast() {
            for edge in edges where edge.to == next && !found.contains(edge.from) {
                found.insert(edge.from)
                frontier.append(edge.from)
            }
        }
        return found
    }

    private var room: Int { limit - nodes.count }

    private mutating func random(_ upperBound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(max(upperBound, 1)))
    }

    private static let operators = ["map", "filter", "distinctUntilChanged", "debounce", "scan", "observe(on:)", "compactMap",
                                    "startWith", "throttle", "catchAndReturn", "skip", "take(until:)"]
    private static let types = ["String", "Int", "Bool", "[Repository]", "SearchSummary", "RepositoryDetails?",
                                "Result<[(repository: Repository, owner: Account, topics: [String], stars: Int)], GitHubError>"]

    @discardableResult
    private mutating func node(
        _ kind: SubscriptionGraph.Kind, _ name: String, label: String? = nil, feature: Int, type: String? = nil,
        fused: Int? = nil
    ) -> Int {
        let id = nodes.count + 1
        let file = "Sources/App/Feature\(feature)/\(["SearchViewModel", "Deep", "QueryInput", "Screen"][feature % 4]).swift"
        nodes.append(SubscriptionGraph.Node(
            id: id, kind: kind, operatorName: name,
            site: kind == .subscriber ? nil : OperatorSite(operatorName: name, file: file, line: 10 + id),
            name: label, elementType: type ?? Self.types[random(Self.types.count)], subscribers: 1,
            events: fused == nil ? random(400) : nil, lastEventAt: nil, fusedGroup: fused))
        return id
    }

    private mutating func edge(_ from: Int, _ to: Int, fused: Bool = false) {
        edges.append(SubscriptionGraph.Edge(from: from, to: to, events: fused ? nil : random(500)))
    }

    /// `length` operators after `from`; the last one's id.
    private mutating func chain(from: Int, length: Int, feature: Int) -> Int {
        var last = from
        for _ in 0..<min(length, max(room - 1, 0)) {
            let next = node(.operator, Self.operators[random(Self.operators.count)], feature: feature)
            edge(last, next)
            last = next
        }
        return last
    }

    private mutating func subscriber(after last: Int, feature: Int) {
        guard room > 0 else { return }
        edge(last, node(.subscriber, "subscriber", feature: feature))
    }

    /// A relay, a named map and a `share` with many subscribers, each a short chain.
    private mutating func addSharedQuery(feature: Int) {
        let relay = node(.shared, "PublishRelay", feature: feature, type: "String")
        let named = node(.operator, "named", label: "search query typed into the field at the top of the screen", feature: feature)
        edge(relay, named)
        guard room > 0 else { return }
        let share = node(.shared, "share", feature: feature)
        edge(named, share)
        for _ in 0..<min(12 + random(14), room / 3 + 1) where room > 0 {
            subscriber(after: chain(from: share, length: random(3), feature: feature), feature: feature)
        }
    }

    /// A chain of 20 to 30 operators, two of them fused into one step.
    private mutating func addLongChain(feature: Int) {
        var last = node(.source, "interval", feature: feature, type: "Int")
        let group = nodes.count + 1000
        if room > 2 {
            let first = node(.operator, "map", feature: feature, type: "", fused: group)
            edge(last, first)
            let second = node(.operator, "filter", feature: feature, fused: group)
            edge(first, second, fused: true)
            last = second
        }
        last = chain(from: last, length: 20 + random(10), feature: feature)
        subscriber(after: last, feature: feature)
    }

    /// The query's `flatMapLatest` whose inner sequence runs a request (deferred,
    /// create, retry, map, catch) merged with a cache branch.
    private mutating func addSearch(feature: Int) {
        let query = node(.shared, "BehaviorRelay", feature: feature, type: "String")
        var last = chain(from: query, length: 3, feature: feature)
        guard room > 9 else { return subscriber(after: last, feature: feature) }
        let before = nodes.count
        let request = chain(from: node(.source, "deferred", feature: feature), length: 4, feature: feature)
        let cache = chain(from: node(.source, "create", label: "SQLite cache", feature: feature), length: 1, feature: feature)
        let merge = node(.operator, "merge", feature: feature)
        edge(request, merge)
        edge(cache, merge)
        let inner = nodes.count - before
        let flat = node(.operator, "flatMapLatest", feature: feature, type: "SearchSummary")
        edge(last, flat)
        edge(merge, flat)
        flatMapLatest.append((flat, inner))
        last = chain(from: flat, length: 2, feature: feature)
        let share = node(.shared, "share", feature: feature)
        edge(last, share)
        for _ in 0..<min(4 + random(6), room / 2 + 1) where room > 0 {
            subscriber(after: chain(from: share, length: random(2), feature: feature), feature: feature)
        }
    }

    /// A deep chain and a short one into `combineLatest` (a long edge), plus an
    /// edge from an earlier block's node (shared across features).
    private mutating func addJoin(feature: Int) {
        let deep = chain(from: node(.shared, "PublishSubject", feature: feature), length: 8, feature: feature)
        let short = node(.source, "just", feature: feature)
        guard room > 1 else { return }
        let join = node(.operator, "combineLatest", feature: feature)
        edge(deep, join)
        edge(short, join)
        if let earlier = nodes.first(where: { $0.kind == .shared && $0.id < deep - 20 }) {
            edge(earlier.id, join)
        }
        subscriber(after: chain(from: join, length: 2, feature: feature), feature: feature)
    }
}
