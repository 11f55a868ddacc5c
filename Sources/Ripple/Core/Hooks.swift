import Foundation

/// Global customisation points, as in RxSwift.
///
/// All properties are thread-safe to read and write. The handlers are called on
/// whichever thread meets the error, hence `@Sendable`; the properties are
/// `@preconcurrency`, so RxSwift-style code in Swift 5 language mode that sets a
/// handler capturing a local variable compiles without new diagnostics, while
/// Swift 6 mode checks the captures.
public enum Hooks {
    /// Receives the errors of subscriptions that have no `onError` handler.
    /// The first argument is the call stack captured at subscription when
    /// ``recordCallStackOnError`` is `true`, empty otherwise.
    public typealias DefaultErrorHandler = @Sendable (_ subscriptionCallStack: [String], _ error: Error) -> Void

    /// Captures the call stack of a subscription (used when
    /// ``recordCallStackOnError`` is `true`).
    public typealias CustomCaptureSubscriptionCallstack = @Sendable () -> [String]

    private struct State {
        var defaultErrorHandler: DefaultErrorHandler = Hooks.printingErrorHandler
        var captureCallStack: CustomCaptureSubscriptionCallstack = { Thread.callStackSymbols }
        var contractViolationHandler: @Sendable (String) -> Void = Hooks.printingContractViolationHandler
    }

    private static let state = LockedState(State())
    @exclusivity(unchecked) private nonisolated(unsafe) static var recordsCallStack = AtomicCell<Bool>(false)

    /// Called with an error that reached a subscription without an `onError`
    /// handler. The default prints `Unhandled error happened: ...`.
    @preconcurrency
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { state.withLock { $0.defaultErrorHandler } }
        set { state.withLock { $0.defaultErrorHandler = newValue } }
    }

    /// When `true`, subscriptions capture their call stack so that
    /// ``defaultErrorHandler`` can say where an unhandled error was subscribed.
    /// Off by default: capturing a stack is slow.
    public static var recordCallStackOnError: Bool {
        get { AtomicCell.load(&recordsCallStack, ordering: .relaxed) }
        set { AtomicCell.store(&recordsCallStack, newValue, ordering: .relaxed) }
    }

    /// How a subscription's call stack is captured.
    @preconcurrency
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { state.withLock { $0.captureCallStack } }
        set { state.withLock { $0.captureCallStack = newValue } }
    }

    /// Called when code breaks a rule of Ripple's API that RxSwift would crash on,
    /// for example an error reaching `bind(to:)` or a `SingleAssignmentDisposable`
    /// assigned twice. Ripple does not crash: it reports the problem here (the
    /// default prints it) and keeps the stream's contract intact.
    @preconcurrency
    public static var contractViolationHandler: @Sendable (String) -> Void {
        get { state.withLock { $0.contractViolationHandler } }
        set { state.withLock { $0.contractViolationHandler = newValue } }
    }

    @usableFromInline
    static func captureCallStackIfNeeded() -> [String] {
        recordedCallStack() ?? []
    }

    /// The call stack when recording is on, else `nil` (see ``ClosureSubscription``).
    @usableFromInline
    static func recordedCallStack() -> [String]? {
        guard AtomicCell.load(&recordsCallStack, ordering: .relaxed) else { return nil }
        return customCaptureSubscriptionCallstack()
    }

    /// Hands `error` to `handler`, or to ``defaultErrorHandler`` (with the
    /// subscription's `callStack`) when the subscriber gave none.
    @usableFromInline
    static func report(_ error: Error, to handler: ((Error) -> Void)?, callStack: [String]) {
        if let handler {
            handler(error)
        } else {
            defaultErrorHandler(callStack, error)
        }
    }

    @usableFromInline
    static func reportContractViolation(_ message: String) {
        contractViolationHandler(message)
    }

    private static let printingErrorHandler: DefaultErrorHandler = { callStack, error in
        #if DEBUG
        print(unhandledErrorReport(error, callStack: callStack))
        #endif
    }

    /// What the default error handler prints: the error, the operators it passed
    /// through when they were recorded (see ``RippleErrorTrace``), and the
    /// subscription's call stack when it was captured.
    static func unhandledErrorReport(_ error: Error, callStack: [String]) -> String {
        var report = "Unhandled error happened: \(error)"
        if let trace = error.rippleTrace {
            report += "\n passed through (nearest first):"
            for step in trace.steps where step.kind != .subscriber {
                report += "\n  \(step)"
            }
        }
        if !callStack.isEmpty {
            report += "\n subscription called from:\n\(callStack.joined(separator: "\n"))"
        }
        return report
    }

    private static let printingContractViolationHandler: @Sendable (String) -> Void = { message in
        print("Ripple: \(message)")
    }
}
