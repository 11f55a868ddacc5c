import Foundation
import Ripple

extension TraceRecorder {
    /// The recording in Chrome's Trace Event Format (the JSON object form), which
    /// Perfetto (ui.perfetto.dev) and `chrome://tracing` open directly.
    ///
    /// - Each subscription is an async span (`"ph": "b"` / `"e"`, category
    ///   `ripple.subscription`, named after the stream, `id` = subscription). The
    ///   end's `args.end` says why it ended: `"completed"`, `"error"`,
    ///   `"disposed"`, or `"still subscribed"` for a span still open at export
    ///   (it then ends at the export time).
    /// - Each event is a thread-scoped instant (`"ph": "i"`, `"s": "t"`, category
    ///   `ripple.event`) named `"<stream>: next"` (or `error`, `completed`) with
    ///   `args.stream`, `args.subscription` and `args.value` (or `args.error`).
    /// - Timestamps (`ts`) are microseconds since the recorder first started;
    ///   events are sorted by time.
    /// - `otherData` holds the buffer `capacity` and the number of
    ///   `droppedEvents`. A span whose beginning was dropped is left out.
    public func chromeTraceData() throws -> Data {
        let document = ChromeTrace.document(
            events: events, threadNames: threadNames, droppedEvents: droppedEventCount,
            capacity: capacity, exportTime: elapsed
        )
        return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
    }

    /// Writes ``chromeTraceData()`` to `url` (atomically).
    public func writeChromeTrace(to url: URL) throws {
        try chromeTraceData().write(to: url, options: .atomic)
    }
}

/// Builds Chrome Trace Event Format documents.
enum ChromeTrace {
    static let subscriptionCategory = "ripple.subscription"
    static let eventCategory = "ripple.event"

    static func document(
        events: [TraceEvent], threadNames: [UInt64: String], droppedEvents: Int, capacity: Int, exportTime: UInt64
    ) -> [String: Any] {
        let pid = Int(ProcessInfo.processInfo.processIdentifier)
        var traceEvents: [[String: Any]] = [
            ["name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": ["name": "Ripple"]],
        ]
        for (thread, name) in threadNames.sorted(by: { $0.key < $1.key }) {
            traceEvents.append(["name": "thread_name", "ph": "M", "pid": pid, "tid": thread, "args": ["name": name]])
        }

        struct OpenSpan {
            let stream: String
            let thread: UInt64
            var end: String?
        }
        var open: [UInt64: OpenSpan] = [:]
        var lastTimestamp: UInt64 = 0

        func microseconds(_ nanoseconds: UInt64) -> Double {
            Double(nanoseconds) / 1000
        }

        for event in events {
            lastTimestamp = Swift.max(lastTimestamp, event.timestamp)
            let ts = microseconds(event.timestamp)
            func instant(_ what: String, _ args: [String: Any]) {
                var allArgs = args
                allArgs["stream"] = event.stream
                allArgs["subscription"] = event.subscription
                traceEvents.append([
                    "name": "\(event.stream): \(what)", "cat": eventCategory, "ph": "i", "s": "t",
                    "ts": ts, "pid": pid, "tid": event.thread, "args": allArgs,
                ])
            }
            switch event.kind {
            case .subscribed:
                open[event.subscription] = OpenSpan(stream: event.stream, thread: event.thread)
                traceEvents.append([
                    "name": event.stream, "cat": subscriptionCategory, "ph": "b", "id": event.subscription,
                    "ts": ts, "pid": pid, "tid": event.thread, "args": ["subscription": event.subscription],
                ])
            case .next(let value):
                instant("next", value.map { ["value": $0] } ?? [:])
            case .error(let error):
                open[event.subscription]?.end = "error"
                instant("error", ["error": error])
            case .completed:
                open[event.subscription]?.end = "completed"
                instant("completed", [:])
            case .disposed:
                // A span whose beginning was overwritten has no pair: leave it out.
                guard let span = open.removeValue(forKey: event.subscription) else { continue }
                traceEvents.append([
                    "name": span.stream, "cat": subscriptionCategory, "ph": "e", "id": event.subscription,
                    "ts": ts, "pid": pid, "tid": event.thread, "args": ["end": span.end ?? "disposed"],
                ])
            }
        }

        let end = microseconds(Swift.max(exportTime, lastTimestamp))
        for (id, span) in open.sorted(by: { $0.key < $1.key }) {
            traceEvents.append([
                "name": span.stream, "cat": subscriptionCategory, "ph": "e", "id": id,
                "ts": end, "pid": pid, "tid": span.thread, "args": ["end": "still subscribed"],
            ])
        }

        return [
            "traceEvents": traceEvents,
            "displayTimeUnit": "ms",
            "otherData": ["producer": "Ripple", "capacity": capacity, "droppedEvents": droppedEvents],
        ]
    }
}
