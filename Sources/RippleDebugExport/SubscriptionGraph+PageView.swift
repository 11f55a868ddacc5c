import Ripple

extension SubscriptionGraph {
    /// The page's drawing and interaction, in JavaScript: measures the text,
    /// calls `rippleLayout`, draws the SVG and handles zoom, pan, search,
    /// highlighting, collapsing and the details panel.
    static let pageViewScript = #"""
    (function () {
      "use strict";
      var errors = [];
      window.addEventListener("error", function (event) {
        errors.push(String(event.message));
        document.body.setAttribute("data-errors", errors.join("\n"));
      });
      var started = performance.now();
      var SVG = "http://www.w3.org/2000/svg";
      var FONT = getComputedStyle(document.body).fontFamily;
      var lineHeight = 14, padX = 10, padY = 7, maxTextWidth = 300, minWidth = 72;

      function el(name, attributes, parent) {
        var node = document.createElementNS(SVG, name);
        for (var key in attributes) { node.setAttribute(key, attributes[key]); }
        if (parent) { parent.appendChild(node); }
        return node;
      }
      function escape(text) { return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"); }
      function plural(count, noun) { return count + " " + noun + (count === 1 ? "" : "s"); }
      function title(node) { return node.name === null ? node.operator : node.operator + '("' + node.name + '")'; }
      function fileName(node) { var parts = node.site.file.split("/"); return parts[parts.length - 1]; }
      function siteText(node) { return node.site === null ? "" : fileName(node) + ":" + node.site.line; }
      function facts(node) {
        var list = [];
        if (node.elementType) { list.push(node.elementType); }
        if (node.events !== null && node.kind !== "subscriber") { list.push(plural(node.events, "event")); }
        if (node.kind === "shared") { list.push(plural(node.subscribers, "subscriber")); }
        return list.join(" · ");
      }

      // The graph, with each node's edges.
      var graph = JSON.parse(document.getElementById("graph-data").textContent);
      var byId = {};
      graph.nodes.forEach(function (node) { byId[node.id] = node; node.ins = []; node.outs = []; });
      var edges = graph.edges.filter(function (edge) { return byId[edge.from] && byId[edge.to] && edge.from !== edge.to; });
      edges.forEach(function (edge) { byId[edge.from].outs.push(edge); byId[edge.to].ins.push(edge); });

      // Text is measured, never guessed; a line wider than the widest box ends in
      // "…" and the details panel (and the node's tooltip) has it whole.
      var measure = document.createElement("canvas").getContext("2d"), measured = {}, currentFont = "";
      function width(text, font) {
        var key = font + "\n" + text;
        if (measured[key] === undefined) {
          if (currentFont !== font) { measure.font = font; currentFont = font; }
          measured[key] = measure.measureText(text).width;
        }
        return measured[key];
      }
      var titleFont = "600 11px " + FONT, textFont = "11px " + FONT, labelFont = "10px " + FONT;
      function fitted(text, font) {
        var full = width(text, font);
        if (full <= maxTextWidth) { return { text: text, width: full, cut: false }; }
        var low = 0, high = text.length;
        while (low < high) {
          var middle = (low + high + 1) >> 1;
          if (width(text.slice(0, middle) + "…", font) <= maxTextWidth) { low = middle; } else { high = middle - 1; }
        }
        var cut = text.slice(0, low) + "…";
        return { text: cut, width: width(cut, font), cut: true };
      }

      // Collapsing: a node stands for the nodes only it leads to (upstream) or
      // that only it feeds (downstream).
      var collapsed = {};   // id -> { direction, hidden: [ids] }
      var representative = {};
      var hidden = {};      // id -> how many nodes are folded into it
      function exclusive(node, direction) {
        var inside = {}, result = [], changed = true;
        inside[node.id] = true;
        var candidates = [], seen = {}, stack = [node];
        while (stack.length) {
          var current = stack.pop();
          (direction === "up" ? current.ins : current.outs).forEach(function (edge) {
            var next = byId[direction === "up" ? edge.from : edge.to];
            if (!seen[next.id] && next !== node) { seen[next.id] = true; candidates.push(next); stack.push(next); }
          });
        }
        while (changed) {
          changed = false;
          candidates.forEach(function (candidate) {
            if (inside[candidate.id] || representative[candidate.id] !== candidate.id) { return; }
            var list = direction === "up" ? candidate.outs : candidate.ins;
            var only = list.every(function (edge) { return inside[direction === "up" ? edge.to : edge.from]; });
            if (only) { inside[candidate.id] = true; result.push(candidate.id); changed = true; }
          });
        }
        return result;
      }
      function computeRepresentatives() {
        graph.nodes.forEach(function (node) { representative[node.id] = node.id; });
        Object.keys(collapsed).forEach(function (id) {
          collapsed[id].hidden.forEach(function (hidden) { representative[hidden] = Number(id); });
        });
        // Collapses inside collapses: follow to the outermost.
        hidden = {};
        graph.nodes.forEach(function (node) {
          var id = node.id, guard = 0;
          while (representative[id] !== id && guard++ < 1000) { id = representative[id]; }
          representative[node.id] = id;
          if (id !== node.id) { hidden[id] = (hidden[id] || 0) + 1; }
        });
      }
      computeRepresentatives();

      // The visible graph: representatives, and edges between them merged.
      var visible = [], visibleEdges = [], shownById = {};
      function buildVisible() {
        visible = graph.nodes.filter(function (node) { return representative[node.id] === node.id; });
        var merged = {};
        visibleEdges = [];
        edges.forEach(function (edge) {
          var from = representative[edge.from], to = representative[edge.to];
          if (from === to) { return; }
          var key = from + ">" + to;
          if (merged[key]) {
            merged[key].events = merged[key].events === null || edge.events === null ? (merged[key].events || edge.events) : merged[key].events + edge.events;
            merged[key].count += 1;
            return;
          }
          merged[key] = { from: from, to: to, events: edge.events, count: 1 };
          visibleEdges.push(merged[key]);
        });
      }
      function hiddenCount(node) { return hidden[node.id] || 0; }

      // Drawing.
      var canvas = document.getElementById("canvas");
      var svg = el("svg", { role: "img", "aria-label": "subscription graph" }, canvas);
      el("defs", {}, svg).innerHTML = '<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#8a93a6"/></marker>';
      var viewport = el("g", { id: "viewport" }, svg);
      viewport.addEventListener("click", function (event) {
        var group = event.target.closest && event.target.closest(".node");
        if (!group || dragged) { dragged = false; return; }
        event.stopPropagation();
        select(Number(group.getAttribute("data-id")));
      });
      var layout = null, direction = null, groups = {}, view = { s: 1, x: 0, y: 0 };

      function nodeLines(node) {
        var lines = [[title(node), titleFont, "title"], [siteText(node), textFont, "site"], [facts(node), textFont, "facts"]];
        var hidden = hiddenCount(node);
        if (hidden) {
          var side = collapsed[node.id].direction === "up" ? "upstream" : "downstream";
          lines.push(["⊕ " + plural(hidden, side + " node") + " folded in", textFont, "hidden"]);
        }
        return lines.filter(function (line) { return line[0]; }).map(function (line) {
          var fit = fitted(line[0], line[1]);
          return { text: fit.text, full: line[0], width: fit.width, cut: fit.cut, kind: line[2] };
        });
      }
      function render() {
        buildVisible();
        var sizes = visible.map(function (node) {
          var lines = nodeLines(node), w = minWidth;
          lines.forEach(function (line) { w = Math.max(w, Math.ceil(line.width) + 2 * padX); });
          node.lines = lines;
          return { id: node.id, w: w, h: lines.length * lineHeight + 2 * padY };
        });
        var rect = canvas.getBoundingClientRect(), aspect = Math.max(rect.width, 1) / Math.max(rect.height, 1);
        var input = {
          nodes: sizes,
          edges: visibleEdges.map(function (edge) {
            var text = edge.events === null ? null : String(edge.events);
            edge.text = text;
            return { from: edge.from, to: edge.to, label: text === null ? null : { w: Math.ceil(width(text, labelFont)) + 1, h: 12 } };
          })
        };
        layout = rippleLayout(input, { aspect: aspect, direction: direction || "auto" });
        direction = layout.direction;
        document.getElementById("direction").textContent = direction === "TB" ? "↓" : "→";
        shownById = {};
        // One string of markup, parsed once: much faster than an element at a time.
        var markup = ['<g class="edges">'], labels = ['<g class="labels">'], shapes = ['<g class="nodes">'];
        layout.edges.forEach(function (placed) {
          var edge = visibleEdges[placed.index], ends = ' data-from="' + edge.from + '" data-to="' + edge.to + '"';
          markup.push('<path class="' + (edge.events === null ? "edge fused" : "edge") + '" d="' + placed.d + '"' + ends + ' data-index="' + placed.index
            + '" ' + (placed.reversed ? "marker-start" : "marker-end") + '="url(#arrow)"/>');
          if (placed.label && edge.text !== null) {
            labels.push('<text class="edge-label" x="' + placed.label.x + '" y="' + (placed.label.y + 9.5) + '"' + ends + ' data-index="' + placed.index + '">'
              + escape(edge.text) + "</text>");
          }
        });
        visible.forEach(function (node) {
          var box = layout.nodes[node.id], cut = node.lines.some(function (line) { return line.cut; });
          shapes.push('<g class="node ' + node.kind + (hidden[node.id] ? " collapsed" : "") + '" data-id="' + node.id + '"'
            + (cut ? ' data-cut="true"' : "") + ' transform="translate(' + box.x + "," + box.y + ')"><rect width="' + box.w + '" height="' + box.h + '"/><title>'
            + escape(node.lines.map(function (line) { return line.full; }).join("\n")) + "</title>");
          node.lines.forEach(function (line, index) {
            shapes.push('<text x="' + padX + '" y="' + (padY + 11 + index * lineHeight) + '" class="' + line.kind + '">' + escape(line.text) + "</text>");
          });
          shapes.push("</g>");
          shownById[node.id] = box;
        });
        viewport.innerHTML = markup.join("") + "</g>" + labels.join("") + "</g>" + shapes.join("") + "</g>";
        groups = {};
        Array.prototype.forEach.call(viewport.querySelectorAll(".node"), function (group) { groups[group.getAttribute("data-id")] = group; });
        visibleEdges.forEach(function (edge) { edge.path = null; edge.label = null; });
        Array.prototype.forEach.call(viewport.querySelectorAll("path.edge"), function (path) { visibleEdges[path.getAttribute("data-index")].path = path; });
        Array.prototype.forEach.call(viewport.querySelectorAll(".edge-label"), function (label) { visibleEdges[label.getAttribute("data-index")].label = label; });
        var folded = graph.nodes.length - visible.length;
        document.getElementById("summary").textContent = plural(graph.nodes.length, "node") + ", " + plural(edges.length, "edge")
          + (folded ? " (" + folded + " folded into collapsed nodes)" : "") + " · captured " + graph.capturedAt;
        document.body.setAttribute("data-rendered", String(visible.length));
        restyle();
      }

      // The view: an SVG transform, so text stays sharp at every zoom.
      var isFitted = false;   // the view is the fitted one: a resize fits again
      function apply() {
        isFitted = false;
        viewport.setAttribute("transform", "translate(" + view.x + "," + view.y + ") scale(" + view.s + ")");
        document.body.setAttribute("data-scale", view.s.toFixed(4));
      }
      function scaleFor(placed) {
        var rect = canvas.getBoundingClientRect();
        return Math.min((rect.width - 24) / placed.width, (rect.height - 24) / placed.height, 1.25);
      }
      function fitScale() { return scaleFor(layout); }
      function fit() {
        var rect = canvas.getBoundingClientRect();
        view.s = fitScale();
        view.x = (rect.width - layout.width * view.s) / 2;
        view.y = (rect.height - layout.height * view.s) / 2;
        apply();
        isFitted = true;
      }
      function zoom(factor, cx, cy) {
        var rect = canvas.getBoundingClientRect();
        if (cx === undefined) { cx = rect.width / 2; cy = rect.height / 2; }
        var s = Math.max(Math.min(view.s * factor, 8), Math.min(fitScale() / 2, 0.05));
        view.x = cx - (cx - view.x) * s / view.s;
        view.y = cy - (cy - view.y) * s / view.s;
        view.s = s;
        apply();
      }
      function pan(dx, dy) { view.x += dx; view.y += dy; apply(); }
      function centre(id) {
        var box = shownById[id], rect = canvas.getBoundingClientRect();
        if (!box) { return; }
        if (view.s < 0.9) { view.s = 1; }
        view.x = rect.width / 2 - (box.x + box.w / 2) * view.s;
        view.y = rect.height / 2 - (box.y + box.h / 2) * view.s;
        apply();
      }

      // Selection, the details panel, highlighting.
      var selected = null, highlight = null, details = document.getElementById("details");
      function reach(id, direction) {
        var set = {}, stack = [id];
        set[id] = true;
        while (stack.length) {
          var current = stack.pop();
          visibleEdges.forEach(function (edge) {
            var from = direction === "up" ? edge.to : edge.from, to = direction === "up" ? edge.from : edge.to;
            if (from === current && !set[to]) { set[to] = true; stack.push(to); }
          });
        }
        return set;
      }
      function restyle() {
        var lit = highlight ? reach(highlight.id, highlight.direction) : null;
        svg.classList.toggle("highlighting", !!lit);
        Object.keys(groups).forEach(function (id) {
          groups[id].classList.toggle("selected", Number(id) === selected);
          groups[id].classList.toggle("lit", !!(lit && lit[id]));
          groups[id].classList.toggle("match", !!search.matched[id]);
          groups[id].classList.toggle("current", search.current === Number(id));
        });
        visibleEdges.forEach(function (edge) {
          var on = !!(lit && lit[edge.from] && lit[edge.to]);
          edge.path.classList.toggle("lit", on);
          if (edge.label) { edge.label.classList.toggle("lit", on); }
        });
      }
      function button(text, action, parent, name) {
        var b = document.createElement("button");
        b.textContent = text;
        b.type = "button";
        if (name) { b.setAttribute("data-action", name); }
        b.addEventListener("click", action);
        parent.appendChild(b);
        return b;
      }
      function select(id) {
        selected = id;
        var node = byId[id];
        details.textContent = "";
        details.classList.remove("empty");
        details.setAttribute("data-node", String(id));
        var heading = document.createElement("h2");
        heading.textContent = title(node);
        details.appendChild(heading);
        var actions = document.createElement("div");
        actions.className = "actions";
        details.appendChild(actions);
        button("Upstream", function () { toggleHighlight("up"); }, actions, "upstream").title = "Highlight what feeds this node (u)";
        button("Downstream", function () { toggleHighlight("down"); }, actions, "downstream").title = "Highlight what this node feeds (d)";
        if (collapsed[id]) {
          button("Expand", function () { expand(id); }, actions, "expand").title = "Show the hidden nodes again (c)";
        } else {
          var up = exclusive(node, "up").length, down = exclusive(node, "down").length;
          if (up) { button("Collapse " + plural(up, "upstream node"), function () { collapse(id, "up"); }, actions, "collapse-up").title = "Fold what only feeds this node into it (c)"; }
          if (down) { button("Collapse " + plural(down, "downstream node"), function () { collapse(id, "down"); }, actions, "collapse-down").title = "Fold what only this node feeds into it"; }
        }
        var rows = [["Kind", node.kind], ["Operator", node.operator]];
        if (node.name !== null) { rows.push(["Name", node.name]); }
        rows.push(["Site", node.site === null ? "unknown" : node.site.file + ":" + node.site.line],
          ["Element type", node.elementType || "(fused step)"], ["Subscribers", String(node.subscribers)],
          ["Events", node.events === null ? "counted by the next fused step" : String(node.events)],
          ["Last event", node.lastEventAt || "none yet"], ["Id", String(node.id)]);
        if (node.fusedGroup !== null) { rows.push(["Fused unit", String(node.fusedGroup)]); }
        var hidden = hiddenCount(node);
        if (hidden) { rows.push(["Hidden", plural(hidden, "node") + " folded into this one"]); }
        var list = document.createElement("dl");
        rows.forEach(function (row) {
          var dt = document.createElement("dt"); dt.textContent = row[0]; list.appendChild(dt);
          var dd = document.createElement("dd"); dd.textContent = row[1]; list.appendChild(dd);
        });
        [["Upstream", node.ins, "from"], ["Downstream", node.outs, "to"]].forEach(function (side) {
          if (!side[1].length) { return; }
          var dt = document.createElement("dt"); dt.textContent = side[0] + " (" + side[1].length + ")"; list.appendChild(dt);
          var dd = document.createElement("dd"); list.appendChild(dd);
          side[1].forEach(function (edge) {
            var other = byId[edge[side[2]]];
            var link = document.createElement("a");
            link.href = "#node=" + other.id;
            link.textContent = title(other) + (other.site ? " at " + siteText(other) : "") + (edge.events === null ? "" : " · " + plural(edge.events, "event"));
            link.addEventListener("click", function (event) { event.preventDefault(); goTo(other.id); });
            dd.appendChild(link);
          });
        });
        details.appendChild(list);
        restyle();
      }
      function goTo(id) {
        var shown = representative[id];
        select(id === shown ? id : shown);
        centre(shown);
      }
      function toggleHighlight(direction) {
        if (selected === null) { return; }
        highlight = highlight && highlight.id === selected && highlight.direction === direction ? null : { id: selected, direction: direction };
        restyle();
      }
      function keepingPlace(id, change) {
        var before = shownById[id];
        change();
        var after = shownById[id];
        if (before && after) {
          view.x += (before.x - after.x) * view.s;
          view.y += (before.y - after.y) * view.s;
          apply();
        }
      }
      function collapse(id, direction) {
        var hidden = exclusive(byId[id], direction);
        if (!hidden.length) { return; }
        keepingPlace(id, function () {
          collapsed[id] = { direction: direction, hidden: hidden };
          computeRepresentatives();
          if (highlight && representative[highlight.id] !== highlight.id) { highlight = null; }
          render();
        });
        select(id);
      }
      function expand(id) {
        if (!collapsed[id]) { return; }
        keepingPlace(id, function () {
          delete collapsed[id];
          computeRepresentatives();
          render();
        });
        select(id);
      }

      // Search: operator, name, file, line, element type, kind or id.
      var search = { matched: {}, list: [], index: -1, current: null };
      var field = document.getElementById("search"), count = document.getElementById("search-count");
      function haystack(node) {
        return [node.operator, node.name || "", node.site ? node.site.file + ":" + node.site.line : "", node.elementType, node.kind, "#" + node.id]
          .join("\n").toLowerCase();
      }
      graph.nodes.forEach(function (node) { node.haystack = haystack(node); });
      function runSearch() {
        var query = field.value.trim().toLowerCase();
        search.matched = {};
        search.list = [];
        search.index = -1;
        search.current = null;
        if (query) {
          graph.nodes.forEach(function (node) {
            if (node.haystack.indexOf(query) >= 0) {
              search.list.push(node.id);
              search.matched[representative[node.id]] = true;
            }
          });
        }
        count.textContent = query ? (search.list.length ? search.list.length + " found" : "none found") : "";
        if (search.list.length) { step(1); } else { restyle(); }
      }
      function step(direction) {
        if (!search.list.length) { return; }
        search.index = (search.index + direction + search.list.length) % search.list.length;
        var id = search.list[search.index];
        search.current = representative[id];
        count.textContent = (search.index + 1) + " of " + search.list.length;
        goTo(id);
      }
      field.addEventListener("input", runSearch);
      field.addEventListener("keydown", function (event) {
        if (event.key === "Enter") { event.preventDefault(); step(event.shiftKey ? -1 : 1); }
        if (event.key === "Escape") { field.value = ""; runSearch(); field.blur(); }
      });
      document.getElementById("search-next").addEventListener("click", function () { step(1); });
      document.getElementById("search-previous").addEventListener("click", function () { step(-1); });
      document.getElementById("zoom-in").addEventListener("click", function () { zoom(1.25); });
      document.getElementById("zoom-out").addEventListener("click", function () { zoom(0.8); });
      document.getElementById("zoom-fit").addEventListener("click", fit);
      document.getElementById("direction").addEventListener("click", function () {
        direction = direction === "TB" ? "LR" : "TB";
        render();
        fit();
      });

      // Pointer: drag pans, two fingers pinch; the wheel (and a trackpad's pinch,
      // which arrives as a wheel with ctrlKey) zooms around the pointer.
      var pointers = {}, dragged = false, moved = 0, pinch = null;
      function local(event) { var rect = canvas.getBoundingClientRect(); return { x: event.clientX - rect.left, y: event.clientY - rect.top }; }
      svg.addEventListener("pointerdown", function (event) {
        pointers[event.pointerId] = local(event);
        moved = 0;
        dragged = false;
        pinch = null;
      });
      window.addEventListener("pointermove", function (event) {
        var last = pointers[event.pointerId];
        if (!last) { return; }
        var now = local(event), ids = Object.keys(pointers);
        if (ids.length === 1) {
          moved += Math.abs(now.x - last.x) + Math.abs(now.y - last.y);
          if (moved > 4) { dragged = true; }
          pan(now.x - last.x, now.y - last.y);
        } else if (ids.length === 2) {
          pointers[event.pointerId] = now;
          var a = pointers[ids[0]], b = pointers[ids[1]];
          var distance = Math.hypot(a.x - b.x, a.y - b.y);
          if (pinch) { zoom(distance / pinch, (a.x + b.x) / 2, (a.y + b.y) / 2); }
          pinch = distance;
          dragged = true;
        }
        pointers[event.pointerId] = now;
      });
      function release(event) { delete pointers[event.pointerId]; pinch = null; }
      window.addEventListener("pointerup", release);
      window.addEventListener("pointercancel", release);
      svg.addEventListener("click", function () { if (dragged) { dragged = false; } });
      svg.addEventListener("wheel", function (event) {
        event.preventDefault();
        var delta = event.deltaY * (event.deltaMode === 1 ? 16 : 1);
        var at = local(event);
        zoom(Math.exp(-delta * (event.ctrlKey ? 0.01 : 0.0015)), at.x, at.y);
      }, { passive: false });
      document.addEventListener("keydown", function (event) {
        if (event.target === field || event.metaKey || event.ctrlKey || event.altKey) { return; }
        var step = event.shiftKey ? 240 : 80, handled = true;
        switch (event.key) {
        case "ArrowLeft": pan(step, 0); break;
        case "ArrowRight": pan(-step, 0); break;
        case "ArrowUp": pan(0, step); break;
        case "ArrowDown": pan(0, -step); break;
        case "+": case "=": zoom(1.25); break;
        case "-": case "_": zoom(0.8); break;
        case "0": fit(); break;
        case "/": field.focus(); field.select(); break;
        case "u": toggleHighlight("up"); break;
        case "d": toggleHighlight("down"); break;
        case "c":
          if (selected !== null) {
            if (collapsed[selected]) { expand(selected); } else { collapse(selected, "up"); }
          }
          break;
        case "Escape": highlight = null; restyle(); break;
        default: handled = false;
        }
        if (handled) { event.preventDefault(); }
      });
      // A resize fits again unless the view was moved: then its centre stays.
      var lastSize = canvas.getBoundingClientRect();
      window.addEventListener("resize", function () {
        var size = canvas.getBoundingClientRect();
        if (isFitted) { fit(); } else { pan((size.width - lastSize.width) / 2, (size.height - lastSize.height) / 2); }
        lastSize = size;
      });

      render();
      fit();
      // `page.html#node=12` opens with node 12 selected and centred.
      var wanted = /^#node=(\d+)$/.exec(location.hash);
      if (wanted && byId[wanted[1]]) { goTo(Number(wanted[1])); }
      document.body.setAttribute("data-layout-ms", String(Math.round(performance.now() - started)));
    })();
    """#
}
