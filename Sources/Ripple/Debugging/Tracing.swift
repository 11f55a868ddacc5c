/// `true` while at least one tracer (RippleDebugExport's `TraceRecorder`) runs:
/// the only thing the event path of a named stream reads when tracing is off.
@usableFromInline
@exclusivity(unchecked) nonisolated(unsafe) var _tracingIsActive = AtomicCell<Bool>(false)

/// What a named stream did, as a tracer receives it (`package`: RippleDebugExport's
/// `TraceRecorder` keeps it as a public `TraceEvent.Kind`; Ripple has no public
/// trace types, so that an app that records no trace does not carry them).
package enum NamedStreamActivity: Sendable {
    case subscribed
    /// An element: its description, when the tracer records values.
    case next(String?)
    case error(String)
    case completed
    case disposed
}

/// Receives what named streams do while it is active (`package`: RippleDebugExport's
/// `TraceRecorder` is the one kind). Called on the thread where it happened.
package protocol NamedStreamTracer: AnyObject, Sendable {
    /// Whether `next` activities carry the element's description.
    var recordsValues: Bool { get }
    /// Whether it records the stream of this name.
    func accepts(_ stream: String) -> Bool
    /// Records one activity of a subscription of the stream.
    func record(_ activity: NamedStreamActivity, stream: String, subscription: UInt64)
}

/// The running tracers and the recording entry points used by named streams.
package enum Tracing {
    private static let tracers = LockedState<[any NamedStreamTracer]>([])

    /// From now on, `tracer` receives what named streams do.
    package static func activate(_ tracer: any NamedStreamTracer) {
        tracers.withLock { tracers in
            if !tracers.contains(where: { $0 === tracer }) {
                tracers.append(tracer)
            }
            AtomicCell.store(&_tracingIsActive, true, ordering: .relaxed)
        }
    }

    /// `tracer` receives nothing more.
    package static func deactivate(_ tracer: any NamedStreamTracer) {
        tracers.withLock { tracers in
            tracers.removeAll { $0 === tracer }
            AtomicCell.store(&_tracingIsActive, !tracers.isEmpty, ordering: .relaxed)
        }
    }

    /// The active tracers, at this moment.
    private static var active: [any NamedStreamTracer] {
        tracers.withLock { $0 }
    }

    /// Passes `activity` to each of `tracers` that accepts `stream`, or
    /// `withoutValue` to one that does not record values. (Activities, not a
    /// closure that makes them: the optimiser compiled a closure-taking form
    /// again for each caller's closure, five copies in every app.)
    private static func deliver(
        _ activity: NamedStreamActivity, withoutValue: NamedStreamActivity? = nil,
        to tracers: [any NamedStreamTracer], stream: String, subscription: UInt64
    ) {
        for tracer in tracers where tracer.accepts(stream) {
            tracer.record(tracer.recordsValues ? activity : withoutValue ?? activity, stream: stream, subscription: subscription)
        }
    }

    static func record<Element>(_ event: Event<Element>, stream: String, subscription: UInt64) {
        let tracers = active
        guard !tracers.isEmpty else { return }
        switch event {
        case .next(let element):
            // The element's text is made once, and only if a tracer keeps it.
            let keepsValues = tracers.contains { $0.recordsValues && $0.accepts(stream) }
            let text = keepsValues ? describe(element) : nil
            deliver(.next(text), withoutValue: .next(nil), to: tracers, stream: stream, subscription: subscription)
        case .error(let error):
            deliver(.error(String(describing: error)), to: tracers, stream: stream, subscription: subscription)
        case .completed:
            deliver(.completed, to: tracers, stream: stream, subscription: subscription)
        }
    }

    /// An element's text as a trace keeps it: at most 120 characters.
    private static func describe(_ element: Any) -> String {
        let text = String(describing: element)
        return text.count > 120 ? String(text.prefix(119)) + "…" : text
    }

    static func recordSubscribed(stream: String, subscription: UInt64) {
        deliver(.subscribed, to: active, stream: stream, subscription: subscription)
    }

    static func recordDisposed(stream: String, subscription: UInt64) {
        deliver(.disposed, to: active, stream: stream, subscription: subscription)
    }
}
