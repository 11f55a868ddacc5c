import Ripple
import RippleTest
import XCTest

/// Runs `body` and returns the messages it reported to
/// `Hooks.contractViolationHandler` (restored afterwards).
@discardableResult
func capturingViolations(_ body: () throws -> Void) rethrows -> [String] {
    let previous = Hooks.contractViolationHandler
    defer { Hooks.contractViolationHandler = previous }
    let messages = Recorder<String>()
    Hooks.contractViolationHandler = { messages.append($0) }
    try body()
    return messages.values
}

/// `true` if no recorded event is an error: what an `Infallible`, a `Driver` or
/// a `Signal` must always satisfy.
func containsNoError<Element>(_ events: [Recorded<Event<Element>>]) -> Bool {
    !events.contains { if case .error = $0.value { return true } else { return false } }
}

/// An observer that records events in an array (single-threaded tests).
final class EventLog<Element>: ObserverType {
    var events: [Event<Element>] = []
    func on(_ event: Event<Element>) { events.append(event) }
}

extension TestableObservable {
    /// The test observable as an `Infallible`; it must not fail.
    var infallible: Infallible<Element> {
        asInfallible(onErrorRecover: { error in
            XCTFail("unexpected error \(error)")
            return .empty()
        })
    }
}
