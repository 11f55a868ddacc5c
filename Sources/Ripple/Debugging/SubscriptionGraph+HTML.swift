extension SubscriptionGraph {
    /// The graph as a single self-contained HTML page: no server and no network,
    /// its own script lays the graph out in layers (upstream at the top) and
    /// draws it as SVG; clicking a node shows its site, element type, subscribers
    /// and events. Open the file in any browser.
    ///
    /// ```swift
    /// try SubscriptionGraph.current().html
    ///     .write(to: URL(fileURLWithPath: "graph.html"), atomically: true, encoding: .utf8)
    /// ```
    ///
    /// Once drawn, the page's `<body>` carries `data-rendered="N"` (N nodes
    /// drawn) and `data-errors` (script errors, empty when none): what the tests
    /// check in headless Chromium. `graph.html#node=12` opens with node 12
    /// selected.
    public var html: String {
        // `</` cannot end the script element early once escaped.
        let data = json().replacingOccurrences(of: "</", with: "<\\/")
        return Self.htmlPrefix + data + Self.htmlSuffix
    }

    static let htmlPrefix = #"""
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <title>Ripple subscription graph</title>
    <style>
    body { font: 13px -apple-system, "Helvetica Neue", Helvetica, Arial, sans-serif; margin: 0; color: #1d2330; background: #f7f8fa; }
    header { padding: 10px 16px; background: #1d2330; color: #fff; }
    header h1 { font-size: 15px; margin: 0; display: inline; }
    header span { margin-left: 12px; color: #b8c0d0; }
    main { position: relative; }
    #canvas { overflow: auto; padding: 12px; }
    #details { position: fixed; top: 52px; right: 12px; width: 290px; padding: 10px 14px; background: rgba(255,255,255,0.96);
      border: 1px solid #dde1e8; border-radius: 6px; box-shadow: 0 2px 8px rgba(0,0,0,0.08); }
    #details.empty { color: #6b7384; }
    #details h2 { font-size: 14px; margin: 4px 0 8px; word-break: break-all; }
    #details dt { color: #6b7384; margin-top: 6px; }
    #details dd { margin: 0; word-break: break-all; }
    .node rect { fill: #fff; stroke: #5b6b8c; stroke-width: 1.2; rx: 6; }
    .node.shared rect { stroke: #b4530a; stroke-width: 2.4; }
    .node.subscriber rect { fill: #eef6ee; stroke: #3d7d3d; rx: 16; }
    .node.source rect { fill: #eef2fb; }
    .node.selected rect { fill: #fff3c4; }
    .node { cursor: pointer; }
    .node text { font-size: 11px; fill: #1d2330; }
    .node text.site { fill: #6b7384; }
    .edge { fill: none; stroke: #8a93a6; stroke-width: 1.2; }
    .edge.fused { stroke-dasharray: 4 3; }
    .edge-label { font-size: 10px; fill: #4a5367; }
    </style>
    </head>
    <body data-rendered="0" data-errors="">
    <header><h1>Ripple subscription graph</h1><span id="summary"></span></header>
    <main><div id="canvas"></div><aside id="details" class="empty">Click a node to see its site and counts.</aside></main>
    <script type="application/json" id="graph-data">
    """#

    static let htmlSuffix = #"""
    </script>
    <script>
    (function () {
      "use strict";
      var errors = [];
      window.addEventListener("error", function (event) {
        errors.push(String(event.message));
        document.body.setAttribute("data-errors", errors.join("\n"));
      });
      var SVG = "http://www.w3.org/2000/svg";
      function el(name, attributes, parent) {
        var node = document.createElementNS(SVG, name);
        for (var key in attributes) { node.setAttribute(key, attributes[key]); }
        if (parent) { parent.appendChild(node); }
        return node;
      }
      function title(node) {
        var label = node.name === null ? node.operator : node.operator + '("' + node.name + '")';
        return label;
      }
      function siteText(node) {
        if (node.site === null) { return ""; }
        var parts = node.site.file.split("/");
        return parts[parts.length - 1] + ":" + node.site.line;
      }
      function facts(node) {
        var list = [];
        if (node.elementType) { list.push(node.elementType); }
        if (node.events !== null && node.kind !== "subscriber") { list.push(node.events + (node.events === 1 ? " event" : " events")); }
        if (node.kind === "shared") { list.push(node.subscribers + (node.subscribers === 1 ? " subscriber" : " subscribers")); }
        return list.join(" · ");
      }

      var graph = JSON.parse(document.getElementById("graph-data").textContent);
      var byId = {};
      graph.nodes.forEach(function (node) { byId[node.id] = node; node.ins = []; node.outs = []; });
      var edges = graph.edges.filter(function (edge) { return byId[edge.from] && byId[edge.to]; });
      edges.forEach(function (edge) { byId[edge.from].outs.push(edge); byId[edge.to].ins.push(edge); });

      // Layers: the longest path from a node without upstream (sources on the left).
      var layer = {};
      function depth(node, seen) {
        if (layer[node.id] !== undefined) { return layer[node.id]; }
        if (seen[node.id]) { return 0; }
        seen[node.id] = true;
        var value = 0;
        node.ins.forEach(function (edge) { value = Math.max(value, depth(byId[edge.from], seen) + 1); });
        layer[node.id] = value;
        return value;
      }
      graph.nodes.forEach(function (node) { depth(node, {}); });
      var layers = [];
      graph.nodes.forEach(function (node) {
        var index = layer[node.id];
        (layers[index] = layers[index] || []).push(node);
      });
      // Order inside a layer: a few sweeps of the barycenter of the neighbours.
      var position = {};
      layers.forEach(function (nodes) { nodes.forEach(function (node, index) { position[node.id] = index; }); });
      function center(node, edgesOf, end) {
        var list = edgesOf(node);
        if (list.length === 0) { return position[node.id]; }
        var sum = 0;
        list.forEach(function (edge) { sum += position[edge[end]]; });
        return sum / list.length;
      }
      for (var sweep = 0; sweep < 4; sweep++) {
        layers.forEach(function (nodes) {
          nodes.sort(function (a, b) {
            return center(a, function (n) { return n.ins; }, "from") - center(b, function (n) { return n.ins; }, "from");
          });
          nodes.forEach(function (node, index) { position[node.id] = index; });
        });
        for (var l = layers.length - 1; l >= 0; l--) {
          layers[l].sort(function (a, b) {
            return center(a, function (n) { return n.outs; }, "to") - center(b, function (n) { return n.outs; }, "to");
          });
          layers[l].forEach(function (node, index) { position[node.id] = index; });
        }
      }

      // Upstream at the top, one row per layer.
      var width = 250, height = 54, gapX = 28, gapY = 42, margin = 16;
      var columns = layers.reduce(function (most, nodes) { return Math.max(most, nodes.length); }, 1);
      var svg = el("svg", {
        width: margin * 2 + columns * (width + gapX),
        height: margin * 2 + layers.length * (height + gapY),
        role: "img", "aria-label": "subscription graph"
      }, document.getElementById("canvas"));
      el("defs", {}, svg).innerHTML = '<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#8a93a6"/></marker>';
      var place = {};
      layers.forEach(function (nodes, row) {
        var offset = (columns - nodes.length) * (width + gapX) / 2;
        nodes.forEach(function (node, column) {
          place[node.id] = { x: margin + offset + column * (width + gapX), y: margin + row * (height + gapY) };
        });
      });
      var edgeLayer = el("g", { "class": "edges" }, svg);
      edges.forEach(function (edge) {
        var from = place[edge.from], to = place[edge.to];
        var x1 = from.x + width / 2, y1 = from.y + height, x2 = to.x + width / 2, y2 = to.y;
        var bend = Math.max(16, (y2 - y1) / 2);
        el("path", {
          "class": edge.events === null ? "edge fused" : "edge",
          d: "M" + x1 + "," + y1 + " C" + x1 + "," + (y1 + bend) + " " + x2 + "," + (y2 - bend) + " " + x2 + "," + y2,
          "marker-end": "url(#arrow)"
        }, edgeLayer);
        if (edge.events !== null) {
          el("text", { "class": "edge-label", x: (x1 + x2) / 2 + 6, y: (y1 + y2) / 2 + 4 }, edgeLayer)
            .textContent = String(edge.events);
        }
      });
      var details = document.getElementById("details");
      function show(node, group) {
        Array.prototype.forEach.call(document.querySelectorAll(".node.selected"), function (g) { g.classList.remove("selected"); });
        group.classList.add("selected");
        var rows = [["Kind", node.kind], ["Site", node.site === null ? "unknown" : node.site.file + ":" + node.site.line],
          ["Element type", node.elementType || "(fused step)"], ["Subscribers", String(node.subscribers)],
          ["Events", node.events === null ? "counted by the next fused step" : String(node.events)],
          ["Last event", node.lastEventAt || "none yet"]];
        if (node.fusedGroup !== null) { rows.push(["Fused unit", String(node.fusedGroup)]); }
        details.innerHTML = "";
        details.classList.remove("empty");
        var heading = document.createElement("h2");
        heading.textContent = title(node);
        details.appendChild(heading);
        var list = document.createElement("dl");
        rows.forEach(function (row) {
          var dt = document.createElement("dt"); dt.textContent = row[0]; list.appendChild(dt);
          var dd = document.createElement("dd"); dd.textContent = row[1]; list.appendChild(dd);
        });
        details.appendChild(list);
        details.setAttribute("data-node", String(node.id));
      }
      var nodeLayer = el("g", { "class": "nodes" }, svg);
      graph.nodes.forEach(function (node) {
        var at = place[node.id];
        var group = el("g", { "class": "node " + node.kind, "data-id": String(node.id), transform: "translate(" + at.x + "," + at.y + ")" }, nodeLayer);
        el("rect", { width: width, height: height }, group);
        el("title", {}, group).textContent = title(node) + (node.site ? " at " + siteText(node) : "");
        var lines = [[title(node), ""], [siteText(node), "site"], [facts(node), "site"]].filter(function (line) { return line[0]; });
        lines.forEach(function (line, index) {
          var text = el("text", { x: 10, y: 17 + index * 14, "class": line[1] }, group);
          text.textContent = line[0].length > 40 ? line[0].slice(0, 39) + "…" : line[0];
        });
        group.addEventListener("click", function () { show(node, group); });
      });
      // `page.html#node=12` opens with node 12 selected, as a click would.
      var wanted = /^#node=(\d+)$/.exec(location.hash);
      if (wanted) {
        var target = nodeLayer.querySelector('[data-id="' + wanted[1] + '"]');
        if (target) { target.dispatchEvent(new MouseEvent("click", { bubbles: true })); }
      }
      document.getElementById("summary").textContent = graph.nodes.length + " nodes, " + edges.length + " edges, captured " + graph.capturedAt;
      document.body.setAttribute("data-rendered", String(nodeLayer.childNodes.length));
    })();
    </script>
    </body>
    </html>

    """#
}
