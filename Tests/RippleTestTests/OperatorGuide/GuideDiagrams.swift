import Foundation
import Ripple
import RippleTest
import Testing

/// The rows of the pictures in `docs/operators/`: what each input did, and what
/// the operator made of it, on one timeline (frame 0 = time 200, 10 ticks a frame).
enum GuideRow {
    /// A hot source or a result: its events at their times. A hot source's
    /// events happen whether or not anybody listens, so they are all drawn, and
    /// its first subscription, when given, is drawn as a band.
    static func events<Element>(
        _ label: String, _ events: [Recorded<Event<Element>>], subscription: Subscription? = nil,
        text: (Element) -> String = { String(describing: $0) }
    ) -> (String, MarbleTimeline) {
        var timeline = MarbleTimeline(events, label: text)
        if let subscription {
            timeline.addBand(subscription)
        }
        return (label, timeline)
    }

    /// A hot source with its (first) subscription drawn as a band.
    static func hot<Element>(
        _ label: String, _ source: TestableObservable<Element>, text: (Element) -> String = { String(describing: $0) }
    ) -> (String, MarbleTimeline) {
        events(label, source.recordedEvents, subscription: source.subscriptions.first, text: text)
    }

    /// One subscription of a cold source: the events it sent during that
    /// subscription, moved to the time of the subscription, and the band from
    /// subscription to unsubscription. Events after the unsubscription are not
    /// drawn (they never happened); the unsubscription mark is left out when a
    /// terminal event ended the subscription anyway.
    static func cold<Element>(
        _ label: String, _ source: TestableObservable<Element>, subscription index: Int = 0,
        text: (Element) -> String = { String(describing: $0) }
    ) -> (String, MarbleTimeline) {
        guard index < source.subscriptions.count else {
            Issue.record("\(label): no subscription #\(index)")
            return (label, MarbleTimeline())
        }
        let subscription = source.subscriptions[index]
        let start = subscription.subscribe
        let end = subscription.unsubscribe
        let happened = source.recordedEvents.filter { recorded in
            let time = start + recorded.time
            return time < end || (time == end && recorded.value.isStopEvent)
        }
        var timeline = MarbleTimeline(happened, timing: MarbleTiming(origin: TestScheduler.Defaults.subscribed - start), label: text)
        timeline.addBand(subscription)
        return (label, timeline)
    }

    /// Only the band of a subscription (when an observable was listened to).
    static func subscription(_ label: String, _ subscription: Subscription) -> (String, MarbleTimeline) {
        (label, MarbleTimeline(subscription))
    }
}

extension MarbleTimeline {
    /// Draws `subscription` as a band; the unsubscription mark is left out when a
    /// terminal event at that frame ended the subscription anyway.
    mutating func addBand(_ subscription: Subscription) {
        let band = MarbleTimeline(subscription)
        subscriptionFrame = band.subscriptionFrame
        let endedByTerminal = entries.contains {
            ($0.marble == .completed || $0.marble == .error) && $0.frame == band.unsubscriptionFrame
        }
        unsubscriptionFrame = endedByTerminal ? nil : band.unsubscriptionFrame
    }
}

extension DocumentationImages {
    /// Like ``check(_:_:sourceLocation:)``, for rows of any element type, built with
    /// ``GuideRow``: checks (or, with `RIPPLE_RECORD_MARBLES=1`, redraws)
    /// `docs/images/marbles/<name>.svg`.
    static func check(
        _ name: String, diagram rows: [(String, MarbleTimeline)], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let diagram = MarbleDiagram(rows)
        let svg = diagram.svg()
        let url = directory.appendingPathComponent("\(name).svg")
        if ProcessInfo.processInfo.environment["RIPPLE_RECORD_MARBLES"] != nil {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try svg.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let existing = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("docs/images/marbles/\(name).svg is missing; run RIPPLE_RECORD_MARBLES=1 swift test --filter Marble", sourceLocation: sourceLocation)
            return
        }
        if existing != svg {
            Issue.record("docs/images/marbles/\(name).svg is out of date; run RIPPLE_RECORD_MARBLES=1 swift test --filter Marble\n\(diagram.ascii())", sourceLocation: sourceLocation)
        }
    }
}

/// Disposables of subscriptions a test makes by hand, disposed at a given time.
final class SubscriptionBox: @unchecked Sendable {
    private let lock = NSLock()
    private var disposables: [Disposable] = []

    func add(_ disposable: Disposable) {
        lock.withLock { disposables.append(disposable) }
    }

    func disposeAll() {
        let all = lock.withLock { () -> [Disposable] in
            defer { disposables = [] }
            return disposables
        }
        all.forEach { $0.dispose() }
    }
}
