import Ripple

extension SubscriptionGraph {
    /// The page's layout, in JavaScript: `rippleLayout(input, options)` takes
    /// node sizes and edges and returns boxes, routed paths and label boxes.
    /// Written for this page rather than embedded from a library: see the
    /// "Why the page lays out the graph itself" part of docs/Debugging.md.
    static let pageLayoutScript = #"""
    // The layered layout of the subscription graph page (a Sugiyama-style
    // layout, in the steps Graphviz's dot documents): ranks, one vertex per rank an
    // edge crosses (each edge also gets one for its label), crossing reduction by
    // weighted medians and transposition, coordinates by least squares per rank,
    // then edges routed through their vertices. Pure: numbers in, numbers out.
    //
    // input:  { nodes: [{ id, w, h }], edges: [{ from, to, label: { w, h } or null }] }
    // output: { nodes: { id: { x, y, w, h } }, edges: [{ from, to, d, label, reversed }],
    //           width, height, crossings, vertices }
    function rippleLayout(input, options) {
      "use strict";
      options = options || {};
      var margin = options.margin === undefined ? 20 : options.margin;
      var componentGap = 48;

      // Each weakly connected component is laid out on its own (smaller ranks to
      // order), then the components are packed in rows towards the window's shape.
      var parent = {};
      function find(id) { while (parent[id] !== id) { parent[id] = parent[parent[id]]; id = parent[id]; } return id; }
      input.nodes.forEach(function (node) { parent[node.id] = node.id; });
      input.edges.forEach(function (edge) {
        if (parent[edge.from] === undefined || parent[edge.to] === undefined) { return; }
        var a = find(edge.from), b = find(edge.to);
        if (a !== b) { parent[b] = a; }
      });
      var groups = new Map();
      input.nodes.forEach(function (node) {
        var root = find(node.id);
        if (!groups.has(root)) { groups.set(root, { nodes: [], edges: [] }); }
        groups.get(root).nodes.push(node);
      });
      input.edges.forEach(function (edge, index) {
        if (parent[edge.from] === undefined || parent[edge.to] === undefined) { return; }
        groups.get(find(edge.from)).edges.push({ from: edge.from, to: edge.to, label: edge.label, index: index });
      });
      var parts = [];
      groups.forEach(function (group) { parts.push(layoutComponent(group)); });
      function pack(across) {
        var placed = parts.map(function (part) { return part(across); });
        placed.sort(function (a, b) { return b.height - a.height || b.width - a.width; });
        var area = 0, widest = 0;
        placed.forEach(function (part) { area += (part.width + componentGap) * (part.height + componentGap); widest = Math.max(widest, part.width); });
        var rowLimit = Math.max(widest, Math.sqrt(area * aspect));
        var x = margin, y = margin, rowHeight = 0, width = 0, result = { nodes: {}, edges: [], crossings: 0, vertices: 0 };
        placed.forEach(function (part) {
          if (x > margin && x + part.width > margin + rowLimit) { x = margin; y += rowHeight + componentGap; rowHeight = 0; }
          part.finish(x, y, result);
          x += part.width + componentGap;
          rowHeight = Math.max(rowHeight, part.height);
          width = Math.max(width, x - componentGap);
        });
        result.edges.sort(function (a, b) { return a.index - b.index; });
        result.width = width + margin;
        result.height = y + rowHeight + margin;
        result.direction = across ? "LR" : "TB";
        return result;
      }
      // "auto": top to bottom, unless that is much wider than the window (a share
      // with many subscribers) and left to right shows the graph larger.
      var aspect = options.aspect || 1.5;
      if (options.direction !== "auto") { return pack(options.direction === "LR"); }
      var down = pack(false);
      if (down.width / down.height <= 2 * aspect) { return down; }
      var across = pack(true);
      function fitScale(result) { return Math.min(aspect / result.width, 1 / result.height); }
      return fitScale(across) > fitScale(down) * 1.1 ? across : down;
    }

    // One component: ranks and orders first, then a function that places it top
    // to bottom or, with `across`, left to right (the transposed sizes laid out,
    // and the result transposed back).
    function layoutComponent(input) {
      "use strict";
      var nodeGap = 22, dummyGap = 8, mixedGap = 12, labelInset = 4;
      var rankGapAbove = 12, rankGapBelow = 20;   // node band → label band, label band → node band

      // Vertices: the nodes, then the dummies of each edge.
      var vertices = [], byId = {};
      input.nodes.forEach(function (node) {
        var v = { id: node.id, real: true, size: node, ins: [], outs: [], rank: 0 };
        byId[node.id] = v;
        vertices.push(v);
      });
      var edges = [];
      input.edges.forEach(function (edge) {
        var from = byId[edge.from], to = byId[edge.to];
        if (!from || !to || from === to) { return; }
        edges.push({ index: edge.index, from: from, to: to, label: edge.label || null, reversed: false, chain: null });
      });

      // 1. Cycles (not expected in a subscription graph, but a snapshot is only a
      // snapshot): reverse the edges a depth-first search finds going back.
      var outEdges = new Map(), state = new Map();
      vertices.forEach(function (v) { outEdges.set(v, []); state.set(v, 0); });
      edges.forEach(function (edge) { outEdges.get(edge.from).push(edge); });
      vertices.forEach(function (root) {
        if (state.get(root) !== 0) { return; }
        var stack = [[root, 0]];
        state.set(root, 1);
        while (stack.length) {
          var top = stack[stack.length - 1], list = outEdges.get(top[0]);
          if (top[1] >= list.length) { state.set(top[0], 2); stack.pop(); continue; }
          var edge = list[top[1]++], next = edge.to, seen = state.get(next);
          if (seen === 1) { edge.reversed = true; }
          else if (seen === 0) { state.set(next, 1); stack.push([next, 0]); }
        }
      });
      edges.forEach(function (edge) {
        var up = edge.reversed ? edge.to : edge.from, down = edge.reversed ? edge.from : edge.to;
        edge.up = up; edge.down = down;
        up.outs.push(edge); down.ins.push(edge);
      });

      // 2. Ranks: the longest path from a source, then every node with at least as
      // many edges down as up moves down to just above its nearest successor (a
      // source feeding a deep merge sits beside it, not at the top with a long edge).
      var order = [], indegree = new Map(), queue = [];
      vertices.forEach(function (v) { indegree.set(v, v.ins.length); if (!v.ins.length) { queue.push(v); } });
      for (var q = 0; q < queue.length; q++) {
        var v0 = queue[q];
        order.push(v0);
        v0.outs.forEach(function (edge) {
          var left = indegree.get(edge.down) - 1;
          indegree.set(edge.down, left);
          if (left === 0) { queue.push(edge.down); }
        });
      }
      order.forEach(function (v) {
        v.ins.forEach(function (edge) { v.rank = Math.max(v.rank, edge.up.rank + 1); });
      });
      for (var o = order.length - 1; o >= 0; o--) {
        var v1 = order[o];
        if (!v1.outs.length || v1.outs.length < v1.ins.length) { continue; }
        var lowest = Infinity;
        v1.outs.forEach(function (edge) { lowest = Math.min(lowest, edge.down.rank - 1); });
        if (lowest > v1.rank) { v1.rank = lowest; }
      }

      // 3. Every node on an even rank; every edge gets a vertex on each rank it
      // crosses, the one just above its lower end carrying its label.
      var maxRank = 0;
      vertices.forEach(function (v) { v.rank *= 2; maxRank = Math.max(maxRank, v.rank); });
      var all = vertices.slice();
      edges.forEach(function (edge) {
        var chain = [edge.up];
        for (var r = edge.up.rank + 1; r < edge.down.rank; r++) {
          var labelled = r === edge.down.rank - 1 && edge.label;
          var d = { real: false, rank: r, edge: edge, size: labelled ? edge.label : { w: 0, h: 0 },
            labelled: !!labelled, ins: [], outs: [] };
          chain.push(d);
          all.push(d);
        }
        chain.push(edge.down);
        edge.chain = chain;
        for (var i = 0; i + 1 < chain.length; i++) {
          var a = chain[i], b = chain[i + 1];
          var segment = { up: a, down: b, weight: a.real && b.real ? 1 : (a.real || b.real ? 2 : 8) };
          if (i === 0) { edge.first = segment; }
          if (i + 2 === chain.length) { edge.last = segment; }
          (a.downs = a.downs || []).push(segment);
          (b.ups = b.ups || []).push(segment);
        }
      });
      all.forEach(function (v) { v.downs = v.downs || []; v.ups = v.ups || []; });
      var layers = [];
      for (var r0 = 0; r0 <= maxRank; r0++) { layers.push([]); }

      // 4. Order within ranks. Start from a depth-first walk (a chain stays in one
      // column, a component stays together), then sweep down and up placing each
      // vertex at the weighted median of its neighbours, transpose neighbours that
      // cross less swapped, and keep the best order seen.
      var visited = new Set();
      function visit(v) {
        var stack = [v];
        while (stack.length) {
          var u = stack.pop();
          if (visited.has(u)) { continue; }
          visited.add(u);
          layers[u.rank].push(u);
          for (var i = u.downs.length - 1; i >= 0; i--) { stack.push(u.downs[i].down); }
        }
      }
      vertices.forEach(function (v) { if (!v.ins.length) { visit(v); } });
      all.forEach(function (v) { if (!visited.has(v)) { visit(v); } });
      function number(layer) { layer.forEach(function (v, i) { v.order = i; }); }
      layers.forEach(number);

      // Crossings between two ranks: the inversions among the lower ends of the
      // edges taken in the order of their upper ends (Barth, Jünger and Mutzel's
      // accumulator tree, here a Fenwick tree). Buffers are reused across calls.
      var segmentCount = 0, widestLayer = 0;
      all.forEach(function (v) { segmentCount += v.downs.length; });
      layers.forEach(function (layer) { widestLayer = Math.max(widestLayer, layer.length); });
      var keys = new Float64Array(segmentCount), tree = new Int32Array(widestLayer + 1);
      function crossingsBetween(upper, lower) {
        var n = 0;
        for (var u = 0; u < upper.length; u++) {
          var downs = upper[u].downV;
          for (var d = 0; d < downs.length; d++) { keys[n++] = upper[u].order * 65536 + downs[d].order; }
        }
        if (n < 2) { return 0; }
        var sorted = keys.subarray(0, n).sort();
        tree.fill(0, 0, lower.length + 1);
        var count = 0;
        for (var i = 0; i < n; i++) {
          var p = sorted[i] % 65536, below = 0;
          for (var k = p + 1; k > 0; k -= k & -k) { below += tree[k]; }
          count += i - below;
          for (var j = p + 1; j <= lower.length; j += j & -j) { tree[j] += 1; }
        }
        return count;
      }
      function totalCrossings() {
        var sum = 0;
        for (var r = 0; r + 1 < layers.length; r++) { sum += crossingsBetween(layers[r], layers[r + 1]); }
        return sum;
      }
      // Neighbour lists, fixed from here on (only positions change).
      all.forEach(function (v) {
        v.upV = v.ups.map(function (s) { return s.up; });
        v.downV = v.downs.map(function (s) { return s.down; });
      });
      var scratch = [];
      function median(list) {
        var n = list.length;
        if (!n) { return -1; }
        if (n === 1) { return list[0].order; }
        scratch.length = n;
        for (var i = 0; i < n; i++) { scratch[i] = list[i].order; }
        scratch.sort(function (a, b) { return a - b; });
        var m = n >> 1;
        if (n % 2) { return scratch[m]; }
        if (n === 2) { return (scratch[0] + scratch[1]) / 2; }
        var left = scratch[m - 1] - scratch[0], right = scratch[n - 1] - scratch[m];
        if (left + right === 0) { return (scratch[m - 1] + scratch[m]) / 2; }
        return (scratch[m - 1] * right + scratch[m] * left) / (left + right);
      }
      function reorder(layer, downward) {
        // A vertex without neighbours on that side keeps its place.
        var movable = [], fixed = new Array(layer.length);
        for (var i = 0; i < layer.length; i++) {
          var v = layer[i], value = median(downward ? v.upV : v.downV);
          if (value < 0) { fixed[i] = v; } else { v.key = value; movable.push(v); }
        }
        movable.sort(function (a, b) { return a.key - b.key || a.order - b.order; });
        for (var j = 0, next = 0; j < layer.length; j++) { layer[j] = fixed[j] || movable[next++]; }
        number(layer);
      }
      function crossingsOf(a, b) {
        var count = 0;
        for (var i = 0; i < a.length; i++) { for (var j = 0; j < b.length; j++) { if (a[i].order > b[j].order) { count++; } } }
        return count;
      }
      function transpose() {
        for (var pass = 0; pass < 6; pass++) {
          var improved = false;
          for (var r = 0; r < layers.length; r++) {
            var layer = layers[r];
            for (var i = 0; i + 1 < layer.length; i++) {
              var v = layer[i], w = layer[i + 1];
              if (v.upV.length + v.downV.length === 0 || w.upV.length + w.downV.length === 0) { continue; }
              var before = crossingsOf(v.upV, w.upV) + crossingsOf(v.downV, w.downV);
              if (before === 0) { continue; }
              var after = crossingsOf(w.upV, v.upV) + crossingsOf(w.downV, v.downV);
              if (after < before) {
                layer[i] = w; layer[i + 1] = v; w.order = i; v.order = i + 1;
                improved = true;
              }
            }
          }
          if (!improved) { break; }
        }
      }
      function snapshot() { return layers.map(function (layer) { return layer.slice(); }); }
      var best = snapshot(), bestCrossings = totalCrossings(), stale = 0;
      for (var iteration = 0; iteration < 16 && bestCrossings > 0 && stale < 4; iteration++) {
        if (iteration % 2 === 0) {
          for (var r1 = 1; r1 < layers.length; r1++) { reorder(layers[r1], true); }
        } else {
          for (var r3 = layers.length - 2; r3 >= 0; r3--) { reorder(layers[r3], false); }
        }
        transpose();
        var crossings = totalCrossings();
        if (crossings < bestCrossings) { best = snapshot(); bestCrossings = crossings; stale = 0; } else { stale++; }
      }
      layers = best;
      layers.forEach(number);

      return function (across) {
      all.forEach(function (v) { v.w = across ? v.size.h : v.size.w; v.h = across ? v.size.w : v.size.h; });

      // 5. Horizontal coordinates. A node is centred on its x; an edge's vertex is
      // where the edge runs, its label to the right of it. Each sweep places a rank
      // at the weighted mean of its neighbours in the rank before (weights as dot's:
      // 8 between two edge vertices keeps long edges straight), as close as the
      // spacing allows: least squares under "in order, this far apart", solved
      // exactly by pooling adjacent violators.
      all.forEach(function (v) {
        if (v.real) { v.left = v.w / 2; v.right = v.w / 2; }
        else { v.left = 1; v.right = v.labelled ? labelInset + v.w : 1; }
      });
      function gap(a, b) { return a.real && b.real ? nodeGap : (a.real || b.real ? mixedGap : dummyGap); }
      layers.forEach(function (layer) {
        var x = 0;
        layer.forEach(function (v, i) { if (i > 0) { x += layer[i - 1].right + gap(layer[i - 1], v) + v.left; } v.x = x; });
      });
      function place(layer, useUp, useDown) {
        var n = layer.length;
        if (!n) { return; }
        var offsets = new Float64Array(n), targets = new Float64Array(n), weights = new Float64Array(n);
        for (var i = 0; i < n; i++) {
          var v = layer[i];
          if (i > 0) { offsets[i] = offsets[i - 1] + layer[i - 1].right + gap(layer[i - 1], v) + v.left; }
          var sum = 0, weight = 0;
          if (useUp) { v.ups.forEach(function (s) { sum += s.weight * s.up.x; weight += s.weight; }); }
          if (useDown) { v.downs.forEach(function (s) { sum += s.weight * s.down.x; weight += s.weight; }); }
          if (weight === 0) { targets[i] = v.x; weights[i] = 0.01; } else { targets[i] = sum / weight; weights[i] = weight; }
        }
        // Pool adjacent violators on y = x - offset, which must not decrease.
        var blockValue = [], blockWeight = [], blockSize = [];
        for (var j = 0; j < n; j++) {
          var value = targets[j] - offsets[j], w = weights[j], size = 1;
          while (blockValue.length && blockValue[blockValue.length - 1] > value) {
            var pw = blockWeight.pop(), pv = blockValue.pop(), ps = blockSize.pop();
            value = (value * w + pv * pw) / (w + pw);
            w += pw; size += ps;
          }
          blockValue.push(value); blockWeight.push(w); blockSize.push(size);
        }
        var k = 0;
        for (var b = 0; b < blockValue.length; b++) {
          for (var s = 0; s < blockSize[b]; s++, k++) { layer[k].x = blockValue[b] + offsets[k]; }
        }
      }
      for (var round = 0; round < 6; round++) {
        for (var d1 = 1; d1 < layers.length; d1++) { place(layers[d1], true, false); }
        for (var u1 = layers.length - 2; u1 >= 0; u1--) { place(layers[u1], false, true); }
      }
      for (var final = 0; final < 3; final++) {
        for (var b1 = 0; b1 < layers.length; b1++) { place(layers[b1], true, true); }
      }
      var minX = Infinity, maxX = -Infinity;
      all.forEach(function (v) { minX = Math.min(minX, v.x - v.left); maxX = Math.max(maxX, v.x + v.right); });
      all.forEach(function (v) { v.x -= minX; });

      // 6. Vertical coordinates: a band per rank as tall as its tallest vertex,
      // nodes at the top of theirs.
      var top = [], bandHeight = [], y = 0;
      layers.forEach(function (layer, r) {
        var h = 0;
        layer.forEach(function (v) { h = Math.max(h, v.h); });
        top[r] = y; bandHeight[r] = h;
        y += h + (r % 2 === 0 ? rankGapAbove : rankGapBelow);
      });
      var height = y - (layers.length % 2 === 1 ? rankGapAbove : rankGapBelow);
      all.forEach(function (v) { v.y = top[v.rank]; });

      // 7. Routes. Ports spread along a node's bottom (and top) in the order of
      // where their edges go, so edges leave a node without crossing there. An edge
      // runs straight down through each band (alone in its slot there) and curves
      // only between bands, where no node is.
      function spread(v, segments, other) {
        segments.sort(function (a, b) { return a[other].x - b[other].x; });
        var n = segments.length, span = Math.min(v.w - 16, (n - 1) * 12);
        segments.forEach(function (s, i) { s[other === "down" ? "startX" : "endX"] = n === 1 ? v.x : v.x - span / 2 + span * i / (n - 1); });
      }
      vertices.forEach(function (v) { spread(v, v.downs, "down"); spread(v, v.ups, "up"); });
      function round1(n) { return Math.round(n * 10) / 10; }
      function finish(dx, dy, result) {
        function point(x, y) { return across ? round1(y + dx) + "," + round1(x + dy) : round1(x + dx) + "," + round1(y + dy); }
        function box(x, y, w, h) { return across ? { x: y + dx, y: x + dy, w: h, h: w } : { x: x + dx, y: y + dy, w: w, h: h }; }
        function curve(x1, y1, x2, y2) {
          if (Math.abs(x1 - x2) < 0.05) { return " L" + point(x2, y2); }
          var m = (y1 + y2) / 2;
          return " C" + point(x1, m) + " " + point(x2, m) + " " + point(x2, y2);
        }
        vertices.forEach(function (v) { result.nodes[v.id] = box(v.x - v.w / 2, v.y, v.w, v.h); });
        edges.forEach(function (edge) {
          var chain = edge.chain, first = chain[0];
          var px = edge.first.startX, py = first.y + first.h, bottom = top[first.rank] + bandHeight[first.rank];
          var d = "M" + point(px, py);
          if (bottom > py) { d += " L" + point(px, bottom); py = bottom; }
          var label = null;
          for (var i = 1; i + 1 < chain.length; i++) {
            var dv = chain[i], bandTop = top[dv.rank], bandBottom = bandTop + bandHeight[dv.rank];
            d += curve(px, py, dv.x, bandTop);
            if (bandBottom > bandTop) { d += " L" + point(dv.x, bandBottom); }
            px = dv.x; py = bandBottom;
            if (dv.labelled) {
              label = box(dv.x + labelInset, bandTop + (bandHeight[dv.rank] - dv.h) / 2, dv.w, dv.h);
            }
          }
          d += curve(px, py, edge.last.endX, edge.down.y);
          result.edges.push({ index: edge.index, from: edge.from.id, to: edge.to.id, d: d, label: label, reversed: edge.reversed });
        });
        result.crossings += bestCrossings;
        result.vertices += all.length;
      }
      return across ? { width: height, height: maxX - minX, finish: finish } : { width: maxX - minX, height: height, finish: finish };
      };
    }
    """#
}
