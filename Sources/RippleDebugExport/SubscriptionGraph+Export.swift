import Foundation
import Ripple

extension SubscriptionGraph {
    /// The graph in Graphviz's DOT language (`dot -Tsvg graph.dot > graph.svg`):
    /// operators as boxes, shared nodes doubled, subscribers as ellipses, edges
    /// labelled with their event counts.
    public var dot: String {
        var lines = [
            "digraph subscriptions {",
            "  rankdir=LR;",
            "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];",
            "  edge [fontname=\"Helvetica\", fontsize=9];",
        ]
        for node in nodes {
            let label = labelLines(node).map(dotEscape).joined(separator: "\\n")
            var attributes = "label=\"\(label)\""
            switch node.kind {
            case .shared: attributes += ", peripheries=2"
            case .subscriber: attributes += ", shape=ellipse"
            case .source: attributes += ", style=\"rounded,bold\""
            case .operator: break
            }
            lines.append("  n\(node.id) [\(attributes)];")
        }
        for edge in edges {
            let label = edge.events.map { " [label=\"\($0)\"]" } ?? " [style=dashed]"
            lines.append("  n\(edge.from) -> n\(edge.to)\(label);")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as a Mermaid flowchart, which GitHub renders in Markdown
    /// (in a code block tagged `mermaid`): shared nodes as subroutines, subscribers
    /// as circles.
    public var mermaid: String {
        var lines = ["flowchart LR"]
        for node in nodes {
            let label = labelLines(node).map(mermaidEscape).joined(separator: "<br/>")
            switch node.kind {
            case .shared: lines.append("  n\(node.id)[[\"\(label)\"]]")
            case .subscriber: lines.append("  n\(node.id)([\"\(label)\"])")
            case .source, .operator: lines.append("  n\(node.id)[\"\(label)\"]")
            }
        }
        for edge in edges {
            if let events = edge.events {
                lines.append("  n\(edge.from) -->|\(events)| n\(edge.to)")
            } else {
                lines.append("  n\(edge.from) -.-> n\(edge.to)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as JSON, in the schema docs/Debugging.md documents
    /// (`"schema": "ripple.subscription-graph"`, `"version": 1`): keys sorted,
    /// dates in ISO 8601 with milliseconds, unknown values as `null`.
    public func json() -> String {
        let object: [String: Any] = [
            "schema": "ripple.subscription-graph",
            "version": 1,
            "capturedAt": Self.isoDate(capturedAt),
            "nodes": nodes.map { node -> [String: Any] in
                [
                    "id": node.id,
                    "kind": node.kind.rawValue,
                    "operator": node.operatorName,
                    "name": node.name ?? NSNull(),
                    "site": node.site.map { ["file": $0.file, "line": $0.line] as [String: Any] } ?? NSNull(),
                    "elementType": node.elementType,
                    "subscribers": node.subscribers,
                    "events": node.events ?? NSNull(),
                    "lastEventAt": node.lastEventAt.map(Self.isoDate) ?? NSNull(),
                    "fusedGroup": node.fusedGroup ?? NSNull(),
                ]
            },
            "edges": edges.map { edge -> [String: Any] in
                ["from": edge.from, "to": edge.to, "events": edge.events ?? NSNull()]
            },
        ]
        // Only strings, numbers, arrays, dictionaries and NSNull: cannot fail.
        // Paths keep their slashes (`"App/Search.swift"`, not `"App\/Search.swift"`),
        // so that a search for a file finds it.
        let data = (try? JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The lines of a node's label in DOT and Mermaid.
    func labelLines(_ node: Node) -> [String] {
        if node.kind == .subscriber {
            return ["subscriber", node.elementType]
        }
        var lines = [node.name.map { "\(node.operatorName)(\"\($0)\")" } ?? node.operatorName]
        if let site = node.site {
            lines.append("\(site.fileName):\(site.line)")
        }
        var facts: [String] = []
        if !node.elementType.isEmpty { facts.append(node.elementType) }
        if let events = node.events { facts.append(events == 1 ? "1 event" : "\(events) events") }
        if node.kind == .shared { facts.append(node.subscribers == 1 ? "1 subscriber" : "\(node.subscribers) subscribers") }
        if !facts.isEmpty { lines.append(facts.joined(separator: " · ")) }
        return lines
    }

    static func isoDate(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    private func dotEscape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    private func mermaidEscape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "#amp;")
            .replacingOccurrences(of: "\"", with: "#quot;")
            .replacingOccurrences(of: "<", with: "#lt;")
            .replacingOccurrences(of: ">", with: "#gt;")
    }
}
