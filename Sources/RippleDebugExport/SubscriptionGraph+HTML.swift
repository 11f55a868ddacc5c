import Ripple

extension SubscriptionGraph {
    /// The graph as a single self-contained HTML page: no server and no network.
    /// Its own script lays the graph out in layers (Graphviz `dot`'s method:
    /// edges routed around the nodes, labels never on top of each other) and
    /// draws it as SVG, fitted to the window. Wheel, pinch and `+`/`-` zoom, drag
    /// and the arrow keys pan, the search box finds nodes by operator, file, name
    /// or type; clicking a node shows everything about it, highlights what feeds
    /// it or what it feeds, and folds the nodes only it leads to into it. Open
    /// the file in any browser.
    ///
    /// ```swift
    /// try SubscriptionGraph.current().html
    ///     .write(to: URL(fileURLWithPath: "graph.html"), atomically: true, encoding: .utf8)
    /// ```
    ///
    /// Once drawn, the page's `<body>` carries `data-rendered="N"` (N nodes
    /// drawn) and `data-errors` (script errors, empty when none): what the tests
    /// check in headless Chromium. `graph.html#node=12` opens with node 12
    /// selected and centred.
    public var html: String {
        // `</` cannot end the script element early once escaped.
        let data = json().replacingOccurrences(of: "</", with: "<\\/")
        return Self.pageHead + data + "</script>\n<script>\n" + Self.pageLayoutScript + "\n</script>\n<script>\n"
            + Self.pageViewScript + "\n</script>\n</body>\n</html>\n"
    }

    /// The page up to the graph's data: markup and style.
    static let pageHead = #"""
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Ripple subscription graph</title>
    <style>
    html, body { height: 100%; }
    body { font: 13px -apple-system, "Segoe UI", "Helvetica Neue", Helvetica, Arial, sans-serif; margin: 0; color: #1d2330; background: #f7f8fa;
      display: flex; flex-direction: column; overflow: hidden; }
    header { padding: 8px 14px; background: #1d2330; color: #fff; display: flex; flex-wrap: wrap; align-items: center; gap: 6px 14px; }
    header h1 { font-size: 15px; margin: 0; }
    header #summary { color: #b8c0d0; }
    header .tools { display: flex; align-items: center; gap: 4px; margin-left: auto; }
    header input { width: 220px; padding: 4px 8px; border: 1px solid #4a5367; border-radius: 4px; background: #fff; color: #1d2330; font: inherit; }
    header button { font: inherit; padding: 3px 9px; border: 1px solid #4a5367; border-radius: 4px; background: #2b3345; color: #fff; cursor: pointer; }
    header button:hover { background: #3a4560; }
    #search-count { min-width: 70px; color: #b8c0d0; }
    #help { flex-basis: 100%; color: #8a93a6; font-size: 11px; }
    main { flex: 1; display: flex; min-height: 0; }
    #canvas { flex: 1; position: relative; overflow: hidden; cursor: grab; touch-action: none; }
    #canvas:active { cursor: grabbing; }
    #canvas svg { position: absolute; left: 0; top: 0; width: 100%; height: 100%; }
    #details { width: 300px; flex: none; overflow: auto; padding: 10px 14px; background: #fff; border-left: 1px solid #dde1e8; }
    #details.empty { color: #6b7384; }
    #details h2 { font-size: 14px; margin: 4px 0 8px; overflow-wrap: anywhere; }
    #details dt { color: #6b7384; margin-top: 6px; }
    #details dd { margin: 0; overflow-wrap: anywhere; }
    #details dd a { display: block; color: #2b5cb8; text-decoration: none; margin: 2px 0; }
    #details dd a:hover { text-decoration: underline; }
    #details .actions { display: flex; flex-wrap: wrap; gap: 4px; margin-bottom: 6px; }
    #details button { font: inherit; font-size: 12px; padding: 2px 8px; border: 1px solid #c4cad6; border-radius: 4px; background: #f3f5f9; cursor: pointer; }
    .node rect { fill: #fff; stroke: #5b6b8c; stroke-width: 1.2; rx: 6; }
    .node.shared rect { stroke: #b4530a; stroke-width: 2.4; }
    .node.subscriber rect { fill: #eef6ee; stroke: #3d7d3d; rx: 14; }
    .node.source rect { fill: #eef2fb; }
    .node.collapsed rect { stroke-dasharray: 5 2; stroke-width: 2.4; }
    .node.match rect { fill: #fff8dc; }
    .node.current rect, .node.selected rect { fill: #fff3c4; stroke: #c28a00; stroke-width: 2.4; }
    .node { cursor: pointer; }
    .node text { font-size: 11px; fill: #1d2330; }
    .node text.title { font-weight: 600; }
    .node text.site, .node text.facts { fill: #6b7384; }
    .node text.hidden { fill: #b4530a; }
    .edge { fill: none; stroke: #8a93a6; stroke-width: 1.2; }
    .edge.fused { stroke-dasharray: 4 3; }
    .edge-label { font-size: 10px; fill: #4a5367; }
    .highlighting .node, .highlighting .edge, .highlighting .edge-label { opacity: 0.22; }
    .highlighting .node.lit, .highlighting .edge.lit, .highlighting .edge-label.lit { opacity: 1; }
    .highlighting .edge.lit { stroke: #2b5cb8; stroke-width: 2; }
    </style>
    </head>
    <body data-rendered="0" data-errors="">
    <header>
    <h1>Ripple subscription graph</h1><span id="summary"></span>
    <div class="tools">
    <input id="search" type="search" placeholder="Find operator, file, name, type" aria-label="Find nodes">
    <button id="search-previous" type="button" title="Previous match (Shift+Enter)">‹</button>
    <button id="search-next" type="button" title="Next match (Enter)">›</button>
    <span id="search-count"></span>
    <button id="zoom-out" type="button" title="Zoom out (−)">−</button>
    <button id="zoom-in" type="button" title="Zoom in (+)">+</button>
    <button id="zoom-fit" type="button" title="Fit to the window (0)">Fit</button>
    <button id="direction" type="button" title="Lay out top to bottom (↓) or left to right (→)">↓</button>
    </div>
    <div id="help">Drag to pan, wheel or pinch to zoom · arrows pan, + and − zoom, 0 fits · / finds · click a node for its details; u and d highlight its upstream and downstream, c collapses or expands it</div>
    </header>
    <main><div id="canvas"></div><aside id="details" class="empty">Click a node to see its site and counts.</aside></main>
    <script type="application/json" id="graph-data">

    """#
}
