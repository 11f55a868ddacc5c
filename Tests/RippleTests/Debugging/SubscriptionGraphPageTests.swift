import Foundation
import Ripple
import RippleDebugExport
import RippleTest
import XCTest

/// The HTML page of a subscription graph, opened in headless Chromium (the
/// Debian package `chromium`, which `.ci/run` installs when it is missing).
///
/// The larger tests append a probe script to the page: it runs once the page has
/// drawn, measures the DOM (boxes, paths, labels), drives the page with
/// simulated input (typing in the search box, clicks, keys, wheel, pointers)
/// and writes what it found as JSON into the DOM that `--dump-dom` prints.
final class SubscriptionGraphPageTests: RippleTestCase {
    override func tearDown() {
        Hooks.recordsOperatorSites = false
        super.tearDown()
    }

    private func chromium() throws -> String {
        let candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            return found
        }
        if ProcessInfo.processInfo.environment["CI"] != nil {
            XCTFail("headless Chromium is missing: .ci/run installs the Debian package `chromium`")
        }
        throw XCTSkip("headless Chromium is not installed (apt-get install chromium)")
    }

    /// Runs Chromium headless with `arguments` and returns what it printed.
    private func runChromium(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try chromium())
        // A profile of its own, removed afterwards (each run leaves a few MB in it).
        let profile = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ripple-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                             "--no-first-run", "--user-data-dir=\(profile.path)"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    private func pipelineGraph() -> (graph: SubscriptionGraph, bag: DisposeBag, query: PublishRelay<String>) {
        Hooks.recordsOperatorSites = true
        let bag = DisposeBag()
        let query = PublishRelay<String>()
        let scope = NamedSubscriptionScope()
        let shared = query.named("query").map { $0.lowercased() }.share()
        scope.run {
            shared.filter { !$0.isEmpty }.subscribe().disposed(by: bag)
            shared.map { $0.count }.subscribe().disposed(by: bag)
            shared.subscribe().disposed(by: bag)
        }
        query.accept("Ripple")
        return (scope.subscriptionGraph(), bag, query)
    }

    func testPageDrawsEveryNodeWithoutScriptErrors() throws {
        let (graph, bag, _) = pipelineGraph()
        let page = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ripple-graph-\(UUID().uuidString).html")
        try graph.html.write(to: page, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: page) }
        let selected = try XCTUnwrap(graph.nodes.first { $0.operatorName == "share" })

        let dom = try runChromium(["--dump-dom", page.absoluteString + "#node=\(selected.id)"])
        XCTAssertTrue(dom.contains("data-rendered=\"\(graph.nodes.count)\""), String(dom.prefix(2_000)))
        XCTAssertTrue(dom.contains("data-errors=\"\""), String(dom.prefix(2_000)))
        // Counted in the drawing (the page's script spells the same markup).
        let drawing = try XCTUnwrap(dom.range(of: "<svg").map { dom[$0.lowerBound...] }?.components(separatedBy: "</svg>").first)
        XCTAssertEqual(drawing.components(separatedBy: "<g class=\"node ").count - 1, graph.nodes.count)
        XCTAssertEqual(drawing.components(separatedBy: "<path class=\"edge").count - 1, graph.edges.count)
        // The click on the `share` node filled in the details panel.
        XCTAssertTrue(dom.contains("data-node=\"\(selected.id)\""), String(dom.suffix(3_000)))
        XCTAssertTrue(dom.contains("RippleTests/SubscriptionGraphPageTests.swift:\(selected.site?.line ?? -1)"))
        XCTAssertTrue(dom.contains("<dd>3</dd>"), "three subscribers")
        withExtendedLifetime(bag) {}
    }

    func testScreenshotShowsTheGraph() throws {
        let (graph, bag, _) = pipelineGraph()
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ripple-shot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("graph.html")
        let empty = directory.appendingPathComponent("empty.html")
        try graph.html.write(to: page, atomically: true, encoding: .utf8)
        try SubscriptionGraph(capturedAt: graph.capturedAt, nodes: [], edges: []).html
            .write(to: empty, atomically: true, encoding: .utf8)
        func screenshot(_ url: URL, _ name: String) throws -> Data {
            let file = directory.appendingPathComponent(name)
            _ = try runChromium(["--screenshot=\(file.path)", "--window-size=1200,500", "--hide-scrollbars", url.absoluteString])
            return try Data(contentsOf: file)
        }
        let drawn = try screenshot(page, "graph.png")
        let blank = try screenshot(empty, "empty.png")
        XCTAssertEqual(Array(drawn.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
        // Same page, same size: the drawn graph compresses much worse than the
        // empty page (boxes, text, curves).
        XCTAssertGreaterThan(drawn.count, blank.count * 3 / 2, "\(drawn.count) vs \(blank.count) bytes")
        withExtendedLifetime(bag) {}
    }

    // MARK: At a real app's size

    func testPageReadsAtTenNodes() throws {
        try checkPageReads(nodes: 10)
    }

    func testPageReadsAtAHundredNodes() throws {
        try checkPageReads(nodes: 100)
    }

    func testPageReadsAtThreeHundredNodes() throws {
        try checkPageReads(nodes: 300)
    }

    /// Opens the page of a generated graph of `count` nodes in a 1400×900
    /// window with the probe, and checks what it found.
    private func checkPageReads(nodes count: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let sample = SubscriptionGraphSample(nodes: count)
        let graph = sample.graph
        XCTAssertEqual(graph.nodes.count, count, file: file, line: line)
        // The node the tests collapse and highlight: a flatMapLatest (or, in the
        // smallest graph, the node with the most upstream only it leads to).
        let collapse = sample.flatMapLatest.first?.id
            ?? graph.nodes.max { sample.exclusiveUpstream(of: $0.id).count < sample.exclusiveUpstream(of: $1.id).count }!.id
        let folded = sample.exclusiveUpstream(of: collapse).count
        XCTAssertGreaterThan(folded, 0, file: file, line: line)
        let highlight = graph.nodes.filter { $0.kind == .subscriber }.last!.id
        // Searches by operator, file, name and element type, and how many each must find.
        func matches(_ query: String) -> Int {
            graph.nodes.filter { node in
                [node.operatorName, node.name ?? "", node.site.map { "\($0.file):\($0.line)" } ?? "", node.elementType,
                 node.kind.rawValue, "#\(node.id)"].joined(separator: "\n").lowercased().contains(query.lowercased())
            }.count
        }
        let searches = ["combineLatest", "Deep.swift", "search query", "GitHubError"].filter { matches($0) > 0 }
        let spec: [String: Any] = ["searches": searches, "highlight": highlight, "collapse": collapse]
        let specJSON = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)

        let result = try probe(graph, spec: specJSON)
        let context = "\(count) nodes"
        XCTAssertEqual(result["errors"] as? String, "", context, file: file, line: line)
        XCTAssertEqual(result["errorsAtEnd"] as? String, "", context, file: file, line: line)
        XCTAssertEqual(result["rendered"] as? Int, count, context, file: file, line: line)
        XCTAssertEqual(result["outside"] as? [String], [], "node boxes outside the window after load, \(context)", file: file, line: line)
        XCTAssertEqual(result["crisp"] as? Bool, true, "zoom is an SVG transform, no bitmap", file: file, line: line)

        for key in ["geometry", "geometryAfterCollapse"] {
            let geometry = try XCTUnwrap(result[key] as? [String: Any], key, file: file, line: line)
            XCTAssertEqual(geometry["edgeHits"] as? [String], [], "\(key): edges through node boxes, \(context)", file: file, line: line)
            XCTAssertEqual(geometry["labelOverlaps"] as? [String], [], "\(key): labels on labels, \(context)", file: file, line: line)
            XCTAssertEqual(geometry["labelOnNode"] as? [String], [], "\(key): labels on nodes, \(context)", file: file, line: line)
            XCTAssertEqual(geometry["nodeOverlaps"] as? [String], [], "\(key): nodes on nodes, \(context)", file: file, line: line)
            XCTAssertGreaterThan(geometry["samples"] as? Int ?? 0, count * 20, "\(key): the paths were sampled", file: file, line: line)
        }
        let geometry = result["geometry"] as? [String: Any] ?? [:]
        XCTAssertEqual(geometry["paths"] as? Int, graph.edges.count, context, file: file, line: line)
        XCTAssertEqual(geometry["labels"] as? Int, graph.edges.filter { $0.events != nil }.count, context, file: file, line: line)

        // Cut text is whole in the details panel (the generated names and the
        // longest element type do not fit a box).
        if count >= 100 {
            XCTAssertGreaterThan(result["cut"] as? Int ?? 0, 0, "some node text is cut, \(context)", file: file, line: line)
        }
        XCTAssertEqual(result["cutMissing"] as? [String], [], context, file: file, line: line)

        // Zoom and pan.
        let view = try XCTUnwrap(result["view"] as? [String: Any], file: file, line: line)
        XCTAssertEqual(view["plus"] as? Double ?? 0, 1.25, accuracy: 0.01, "+ zooms in", file: file, line: line)
        XCTAssertEqual(view["minus"] as? Double ?? 0, 1, accuracy: 0.01, "- zooms back out", file: file, line: line)
        XCTAssertEqual(view["arrowLeft"] as? Double, 80, "Left pans", file: file, line: line)
        XCTAssertEqual(view["arrowUp"] as? Double, 80, "Up pans", file: file, line: line)
        XCTAssertGreaterThan(view["wheel"] as? Double ?? 0, 1.1, "the wheel zooms", file: file, line: line)
        XCTAssertEqual(view["drag"] as? [Double], [50, 30], "a drag pans", file: file, line: line)
        XCTAssertGreaterThan(view["pinch"] as? Double ?? 0, 1.1, "two pointers apart zoom in", file: file, line: line)
        XCTAssertEqual(view["fit"] as? Double ?? 0, 1, accuracy: 0.001, "0 fits again", file: file, line: line)

        // Search: found, counted, each match centred in turn.
        let found = try XCTUnwrap(result["searches"] as? [[String: Any]], file: file, line: line)
        XCTAssertEqual(found.count, searches.count, file: file, line: line)
        for search in found {
            let query = search["query"] as? String ?? ""
            let expected = matches(query)
            XCTAssertEqual(search["count"] as? String, "1 of \(expected)", query, file: file, line: line)
            // Two Enters: the third match, or round again to the first.
            XCTAssertEqual(search["countAfterEnter"] as? String, "\(2 % max(expected, 1) + 1) of \(expected)",
                           "Enter moves to the next match: \(query)", file: file, line: line)
            for centred in search["centred"] as? [[String: Any]] ?? [] {
                XCTAssertEqual(centred["dx"] as? Double ?? 99, 0, accuracy: 1, "\(query) centred", file: file, line: line)
                XCTAssertEqual(centred["dy"] as? Double ?? 99, 0, accuracy: 1, "\(query) centred", file: file, line: line)
            }
        }

        // Highlighting: the subscriber and everything upstream of it.
        XCTAssertEqual(result["lit"] as? Int, sample.upstream(of: highlight).count, context, file: file, line: line)
        XCTAssertEqual(result["litAfterEscape"] as? Int, 0, context, file: file, line: line)

        // Collapse folds exactly the nodes only the flatMapLatest leads to; c expands.
        XCTAssertEqual(result["collapseButton"] as? String, "Collapse \(folded) upstream node\(folded == 1 ? "" : "s")", file: file, line: line)
        XCTAssertEqual(result["renderedAfterCollapse"] as? Int, count - folded, context, file: file, line: line)
        XCTAssertTrue((result["collapsedText"] as? String ?? "").contains("⊕ \(folded) upstream node"), context, file: file, line: line)
        XCTAssertEqual(result["renderedAfterExpand"] as? Int, count, context, file: file, line: line)

        // Loaded (parsed, laid out, drawn and styled) in under a second. The
        // machines that run these tests are shared: the budget grows with the
        // load average beyond one runnable process per core, and the figures
        // are printed either way.
        let loadMs = result["loadMs"] as? Double ?? .infinity
        let load = Self.loadAverage()
        let budget = 1_000 * max(1, load / Double(ProcessInfo.processInfo.activeProcessorCount))
        print("graph page, \(count) nodes: loaded in \(Int(loadMs)) ms (layout and drawing \(result["layoutMs"] ?? "?") ms), load average \(load)")
        XCTAssertLessThan(loadMs, budget, "\(context), load average \(load)", file: file, line: line)
    }

    /// The one-minute load average (0 where /proc/loadavg does not exist).
    private static func loadAverage() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return 0 }
        return Double(text.split(separator: " ").first ?? "") ?? 0
    }

    /// The page of `graph` with the probe appended, dumped by Chromium: the
    /// probe's findings.
    private func probe(_ graph: SubscriptionGraph, spec: String) throws -> [String: Any] {
        let page = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ripple-graph-\(UUID().uuidString).html")
        let html = graph.html.replacingOccurrences(
            of: "</body>", with: "<script>window.rippleProbe = \(spec);</script>\n<script>\n\(Self.probeScript)\n</script>\n</body>")
        try html.write(to: page, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: page) }
        let dom = try runChromium(["--window-size=1400,900", "--dump-dom", page.absoluteString])
        guard let start = dom.range(of: "id=\"probe-result\">"),
              let end = dom.range(of: "</script>", range: start.upperBound..<dom.endIndex) else {
            XCTFail("the probe wrote no result: \(dom.prefix(1_000))")
            return [:]
        }
        let json = Data(dom[start.upperBound..<end.lowerBound].utf8)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any])
    }

    /// Runs after the page's own scripts: measures the DOM and drives the page
    /// by simulated input (see the class's comment).
    private static let probeScript = #"""
    (function () {
      // Measures the page once it has drawn and drives it by simulated input.
      var spec = window.rippleProbe, out = { errors: document.body.getAttribute("data-errors") };
      document.body.getBoundingClientRect();
      out.loadMs = performance.now();
      out.layoutMs = Number(document.body.getAttribute("data-layout-ms"));
      out.rendered = Number(document.body.getAttribute("data-rendered"));
      var canvas = document.getElementById("canvas"), viewport = document.getElementById("viewport");
      var area = canvas.getBoundingClientRect();
      function nodes() { return Array.prototype.slice.call(document.querySelectorAll("#viewport .node")); }
      function box(element) { var r = element.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; }
      function overlaps(a, b) { return a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5; }
      // A click as a mouse makes it: down, up, click, where the element is.
      function click(element) {
        var r = element.getBoundingClientRect(), at = { clientX: (r.left + r.right) / 2, clientY: (r.top + r.bottom) / 2, bubbles: true, cancelable: true };
        element.dispatchEvent(new PointerEvent("pointerdown", Object.assign({ pointerId: 9, isPrimary: true }, at)));
        element.dispatchEvent(new PointerEvent("pointerup", Object.assign({ pointerId: 9, isPrimary: true }, at)));
        element.dispatchEvent(new MouseEvent("click", at));
      }
      function key(target, name, extra) {
        var init = { key: name, bubbles: true, cancelable: true };
        for (var k in extra || {}) { init[k] = extra[k]; }
        target.dispatchEvent(new KeyboardEvent("keydown", init));
      }
      function group(id) { return document.querySelector('#viewport .node[data-id="' + id + '"]'); }
      function scale() { return Number(document.body.getAttribute("data-scale")); }
      function translation() { var m = /translate\(([-\d.e]+),([-\d.e]+)\)/.exec(viewport.getAttribute("transform")); return [Number(m[1]), Number(m[2])]; }

      // After load, every node box lies inside the drawing area.
      out.outside = nodes().filter(function (g) {
        var r = box(g.querySelector("rect"));
        return r.left < area.left - 0.5 || r.top < area.top - 0.5 || r.right > area.right + 0.5 || r.bottom > area.bottom + 0.5;
      }).map(function (g) { return g.getAttribute("data-id"); });
      out.crisp = /scale\(/.test(viewport.getAttribute("transform")) && document.querySelectorAll("canvas, img").length === 0;

      // The drawing's geometry at scale 1: edge paths sampled every pixel against
      // every node box but their own two ends; label boxes against each other and
      // against node boxes; node boxes against each other.
      function geometry() {
        var saved = viewport.getAttribute("transform");
        viewport.setAttribute("transform", "translate(0,0) scale(1)");
        var cell = 64, grid = {}, boxes = {};
        nodes().forEach(function (g) {
          var r = box(g.querySelector("rect")), id = g.getAttribute("data-id");
          boxes[id] = r;
          for (var x = Math.floor(r.left / cell); x <= Math.floor(r.right / cell); x++) {
            for (var y = Math.floor(r.top / cell); y <= Math.floor(r.bottom / cell); y++) {
              (grid[x + ":" + y] = grid[x + ":" + y] || []).push(id);
            }
          }
        });
        var result = { edgeHits: [], samples: 0, paths: 0, labels: 0, labelOverlaps: [], labelOnNode: [], nodeOverlaps: [] };
        // The path's own data (moves, lines and cubic curves, as drawn), sampled
        // at most a pixel apart, in screen coordinates through the path's matrix.
        Array.prototype.forEach.call(document.querySelectorAll("#viewport path.edge"), function (path) {
          var from = path.getAttribute("data-from"), to = path.getAttribute("data-to"), m = path.getScreenCTM(), hit = null;
          var tokens = path.getAttribute("d").match(/[MLC]|-?[\d.]+(?:e-?\d+)?/g), i = 0, x = 0, y = 0;
          result.paths++;
          function test(px, py) {
            var sx = m.a * px + m.c * py + m.e, sy = m.b * px + m.d * py + m.f;
            result.samples++;
            (grid[Math.floor(sx / cell) + ":" + Math.floor(sy / cell)] || []).forEach(function (id) {
              if (hit || id === from || id === to) { return; }
              var r = boxes[id];
              if (sx > r.left + 0.5 && sx < r.right - 0.5 && sy > r.top + 0.5 && sy < r.bottom - 0.5) { hit = from + "->" + to + " crosses " + id; }
            });
          }
          while (i < tokens.length && !hit) {
            var command = tokens[i++];
            if (command === "M") { x = Number(tokens[i++]); y = Number(tokens[i++]); test(x, y); continue; }
            var points = command === "L" ? [x, y, x, y, Number(tokens[i++]), Number(tokens[i++])]
              : [Number(tokens[i++]), Number(tokens[i++]), Number(tokens[i++]), Number(tokens[i++]), Number(tokens[i++]), Number(tokens[i++])];
            var reach = Math.abs(points[0] - x) + Math.abs(points[1] - y) + Math.abs(points[2] - points[0]) + Math.abs(points[3] - points[1])
              + Math.abs(points[4] - points[2]) + Math.abs(points[5] - points[3]);
            var steps = Math.max(1, Math.ceil(reach));
            for (var k = 1; k <= steps; k++) {
              var t = k / steps, u = 1 - t;
              test(u * u * u * x + 3 * u * u * t * points[0] + 3 * u * t * t * points[2] + t * t * t * points[4],
                u * u * u * y + 3 * u * u * t * points[1] + 3 * u * t * t * points[3] + t * t * t * points[5]);
            }
            x = points[4]; y = points[5];
          }
          if (hit) { result.edgeHits.push(hit); }
        });
        var labels = Array.prototype.map.call(document.querySelectorAll("#viewport .edge-label"), function (t) {
          var r = box(t); r.name = t.getAttribute("data-from") + "->" + t.getAttribute("data-to"); return r;
        });
        result.labels = labels.length;
        labels.sort(function (a, b) { return a.left - b.left; });
        for (var i = 0; i < labels.length; i++) {
          for (var j = i + 1; j < labels.length && labels[j].left < labels[i].right; j++) {
            if (overlaps(labels[i], labels[j])) { result.labelOverlaps.push(labels[i].name + " / " + labels[j].name); }
          }
          Object.keys(boxes).forEach(function (id) { if (overlaps(labels[i], boxes[id])) { result.labelOnNode.push(labels[i].name + " on " + id); } });
        }
        var ids = Object.keys(boxes);
        for (var a = 0; a < ids.length; a++) {
          for (var b = a + 1; b < ids.length; b++) {
            if (overlaps(boxes[ids[a]], boxes[ids[b]])) { result.nodeOverlaps.push(ids[a] + " / " + ids[b]); }
          }
        }
        viewport.setAttribute("transform", saved);
        return result;
      }
      out.geometry = geometry();

      // A node whose text is cut has it whole in the details panel.
      out.cut = 0;
      out.cutMissing = [];
      nodes().filter(function (g) { return g.hasAttribute("data-cut"); }).forEach(function (g) {
        out.cut++;
        click(g);
        var details = document.getElementById("details").textContent, full = g.querySelector("title").textContent.split("\n");
        Array.prototype.forEach.call(g.querySelectorAll("text"), function (text, index) {
          if (!/…$/.test(text.textContent)) { return; }
          full[index].split(" · ").forEach(function (part) {
            if (!/^\d+ (event|subscriber)s?$/.test(part) && details.indexOf(part) < 0) { out.cutMissing.push(part); }
          });
        });
      });

      // Zoom and pan by keys, wheel, drag and pinch; 0 fits again.
      var svg = canvas.querySelector("svg"), fitted = scale(), cx = area.left + area.width / 2, cy = area.top + area.height / 2;
      out.view = {};
      key(document, "+"); out.view.plus = scale() / fitted;
      key(document, "-"); out.view.minus = scale() / fitted;
      var before = translation(); key(document, "ArrowLeft"); out.view.arrowLeft = translation()[0] - before[0];
      before = translation(); key(document, "ArrowUp"); out.view.arrowUp = translation()[1] - before[1];
      var s0 = scale();
      svg.dispatchEvent(new WheelEvent("wheel", { deltaY: -200, clientX: cx, clientY: cy, bubbles: true, cancelable: true }));
      out.view.wheel = scale() / s0;
      function pointer(type, id, x, y, target) {
        (target || svg).dispatchEvent(new PointerEvent(type, { pointerId: id, clientX: x, clientY: y, bubbles: true, isPrimary: id === 1 }));
      }
      before = translation();
      pointer("pointerdown", 1, cx, cy); pointer("pointermove", 1, cx + 50, cy + 30, window); pointer("pointerup", 1, cx + 50, cy + 30, window);
      var after = translation();
      out.view.drag = [after[0] - before[0], after[1] - before[1]];
      s0 = scale();
      pointer("pointerdown", 1, cx - 20, cy); pointer("pointerdown", 2, cx + 20, cy);
      pointer("pointermove", 1, cx - 40, cy, window); pointer("pointermove", 2, cx + 40, cy, window);
      pointer("pointerup", 1, cx - 40, cy, window); pointer("pointerup", 2, cx + 40, cy, window);
      out.view.pinch = scale() / s0;
      key(document, "0"); out.view.fit = scale() / fitted;

      // Search by operator, file, name or type: the count, and the current match
      // centred in the drawing area.
      var field = document.getElementById("search");
      out.searches = (spec.searches || []).map(function (query) {
        field.value = query;
        field.dispatchEvent(new Event("input", { bubbles: true }));
        var result = { query: query, count: document.getElementById("search-count").textContent, centred: [] };
        for (var step = 0; step < 2; step++) {
          var current = document.querySelector("#viewport .node.current");
          if (!current) { result.centred.push(null); break; }
          var r = current.getBoundingClientRect();
          result.centred.push({ id: Number(current.getAttribute("data-id")), dx: (r.left + r.right) / 2 - cx, dy: (r.top + r.bottom) / 2 - cy });
          key(field, "Enter");
        }
        result.countAfterEnter = document.getElementById("search-count").textContent;
        return result;
      });
      field.value = "";
      field.dispatchEvent(new Event("input", { bubbles: true }));

      // Highlight upstream of a node.
      if (spec.highlight) {
        click(group(spec.highlight));
        click(document.querySelector('#details [data-action="upstream"]'));
        out.lit = document.querySelectorAll("#viewport .node.lit").length;
        key(document, "Escape");
        out.litAfterEscape = document.querySelectorAll("#viewport .node.lit").length;
      }

      // Collapse a node's upstream, check the drawing again, expand with the key.
      if (spec.collapse) {
        click(group(spec.collapse));
        var button = document.querySelector('#details [data-action="collapse-up"]');
        out.collapseButton = button ? button.textContent : null;
        if (button) { click(button); }
        out.renderedAfterCollapse = Number(document.body.getAttribute("data-rendered"));
        var collapsedGroup = group(spec.collapse);
        out.collapsedText = collapsedGroup ? collapsedGroup.textContent : null;
        out.geometryAfterCollapse = geometry();
        key(document, "c");
        out.renderedAfterExpand = Number(document.body.getAttribute("data-rendered"));
      }
      out.errorsAtEnd = document.body.getAttribute("data-errors");
      var script = document.createElement("script");
      script.type = "application/json";
      script.id = "probe-result";
      script.textContent = JSON.stringify(out).replace(/</g, "\\u003c");
      document.body.appendChild(script);
    })();
    """#
}
