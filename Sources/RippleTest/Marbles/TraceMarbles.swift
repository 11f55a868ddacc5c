import Ripple
import RippleDebugExport

extension MarbleTimeline {
    /// The timeline of one subscription in a trace (`TraceRecorder.events`):
    /// `^` when it was made, its events, and `!` when it was disposed without a
    /// terminal event.
    ///
    /// Needs macOS 13 / iOS 16 / tvOS 16 / watchOS 9, as `Duration` does.
    ///
    /// - Parameters:
    ///   - events: The recorded trace.
    ///   - subscription: The subscription to draw (`TraceEvent.subscription`).
    ///   - frame: The duration of one frame; events within one frame share it.
    ///   - origin: The trace timestamp (nanoseconds) of frame 0.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public init(trace events: [TraceEvent], subscription: UInt64, frame: Duration = .milliseconds(10), origin: UInt64 = 0) {
        let nanosecondsPerFrame = Swift.max(1, frame.nanoseconds)
        func frameOf(_ timestamp: UInt64) -> Int {
            timestamp >= origin
                ? Int((timestamp - origin) / nanosecondsPerFrame)
                : -Int((origin - timestamp + nanosecondsPerFrame - 1) / nanosecondsPerFrame)
        }
        var entries: [Entry] = []
        var subscribed: Int?
        var disposed: Int?
        var terminated = false
        for event in events where event.subscription == subscription {
            let at = frameOf(event.timestamp)
            switch event.kind {
            case .subscribed: subscribed = at
            case .next(let value): entries.append(Entry(frame: at, marble: .next(value ?? "•")))
            case .error:
                entries.append(Entry(frame: at, marble: .error))
                terminated = true
            case .completed:
                entries.append(Entry(frame: at, marble: .completed))
                terminated = true
            case .disposed: disposed = at
            }
        }
        self.init(entries: entries, subscriptionFrame: subscribed, unsubscriptionFrame: terminated ? nil : disposed)
    }
}

extension MarbleDiagram {
    /// A diagram of a trace: one row per subscription, labelled with the stream's
    /// name (and `#id` when the stream was subscribed more than once), in order of
    /// subscription. Frame 0 is the first recorded event.
    ///
    /// ```swift
    /// let diagram = MarbleDiagram(trace: recorder.events, frame: .milliseconds(50))
    /// print(diagram.ascii())
    /// // query:   ^a-b--c
    /// // results: ^---B--C
    /// ```
    ///
    /// Needs macOS 13 / iOS 16 / tvOS 16 / watchOS 9, as `Duration` does.
    ///
    /// - Parameters:
    ///   - events: The recorded trace.
    ///   - frame: The duration of one frame.
    ///   - streams: The streams to draw (all by default), in this order.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public init(trace events: [TraceEvent], frame: Duration = .milliseconds(10), streams: [String]? = nil) {
        let origin = events.map(\.timestamp).min() ?? 0
        var order: [UInt64] = []
        var names: [UInt64: String] = [:]
        for event in events where names[event.subscription] == nil {
            if let streams, !streams.contains(event.stream) { continue }
            names[event.subscription] = event.stream
            order.append(event.subscription)
        }
        if let streams {
            order.sort { lhs, rhs in
                let (left, right) = (streams.firstIndex(of: names[lhs]!)!, streams.firstIndex(of: names[rhs]!)!)
                return left != right ? left < right : lhs < rhs
            }
        }
        var counts: [String: Int] = [:]
        for id in order { counts[names[id]!, default: 0] += 1 }
        self.init(order.map { id in
            let name = names[id]!
            let label = counts[name]! > 1 ? "\(name) #\(id)" : name
            return (label, MarbleTimeline(trace: events, subscription: id, frame: frame, origin: origin))
        })
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Duration {
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
