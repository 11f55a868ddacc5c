import Foundation
@testable import Ripple
import RippleTest
import XCTest

/// Traces of every kind of error type (issue 33.1: `checkpoint` and recorded
/// chains stopped the process on any error whose size was not one word), with
/// and without recording.
final class ErrorTraceKindsTests: RippleTestCase {
    private struct Two: Error { let a = 1, b = 2 }
    private struct One: Error { let code: Int }
    private struct Big: Error { let a = 1, b = 2, c = 3, d = 4, e = "a string in the error" }
    private enum Plain: Error { case failed, other }
    private enum Payload: Error { case failed(code: Int, reason: String) }
    private final class Reference: Error {}

    override func tearDown() {
        Hooks.recordsOperatorSites = false
        super.tearDown()
    }

    /// One error of each kind, as a user's code would throw it.
    private var errors: [(String, any Error)] {
        [
            ("a two-field struct", Two()),
            ("a one-field struct", One(code: 7)),
            ("a struct with a string", Big()),
            ("an enum without payload", Plain.failed),
            ("an enum with payload", Payload.failed(code: 404, reason: "not found")),
            ("a class", Reference()),
            ("an NSError", NSError(domain: "ripple.tests", code: 3, userInfo: [NSLocalizedDescriptionKey: "three"])),
            ("RxError", RxError.argumentOutOfRange),
            ("an RxError with payload", RxError.timeout),
            ("CancellationError", CancellationError()),
            ("a URLError", URLError(.timedOut)),
        ]
    }

    func testCheckpointTracesEveryKindOfErrorWithoutRecording() {
        for (kind, error) in errors {
            let subject = PublishSubject<Int>()
            var trace: RippleErrorTrace?
            var received: (any Error)?
            let line = #line
            _ = subject
                .map { _ -> Int in throw error }
                .checkpoint("here")
                .subscribe(onError: { received = $0; trace = $0.rippleTrace })
            subject.onNext(1)
            XCTAssertNotNil(received, kind)
            XCTAssertEqual(trace?.description, "checkpoint(\"here\") at ErrorTraceKindsTests.swift:\(line + 3)", kind)
            XCTAssertEqual(trace?.steps.map(\.kind), [.checkpoint], kind)
        }
    }

    func testRecordedChainsTraceEveryKindOfError() {
        Hooks.recordsOperatorSites = true
        for (kind, error) in errors {
            let subject = PublishSubject<Int>()
            var trace: RippleErrorTrace?
            let line = #line
            _ = subject
                .map { _ -> Int in throw error }
                .filter { $0 > 0 }
                .subscribe(onError: { trace = $0.rippleTrace })
            subject.onNext(1)
            XCTAssertEqual(trace?.steps.map(\.description), [
                "subscriber",
                "filter at ErrorTraceKindsTests.swift:\(line + 3)",
                "map at ErrorTraceKindsTests.swift:\(line + 2)",
            ], kind)
        }
    }

    func testErrorsRippleRaisesItselfAreTracedWhileRecording() {
        Hooks.recordsOperatorSites = true
        var traces: [RippleErrorTrace?] = []
        let line = #line
        _ = Observable.of(1, 2).element(at: 5).subscribe(onError: { traces.append($0.rippleTrace) })
        _ = Observable.of(1, 2).take(-1).subscribe(onError: { traces.append($0.rippleTrace) })
        XCTAssertEqual(traces.count, 2)
        XCTAssertEqual(traces.first??.steps.map(\.description), ["subscriber", "element at ErrorTraceKindsTests.swift:\(line + 1)"])
        XCTAssertEqual(traces.last??.steps.first?.kind, .subscriber)
    }

    func testACheckpointBeforeAThreadHopStillShowsInTheTrace() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "ripple.tests.trace-hop")
        let subject = PublishSubject<Int>()
        let done = expectation(description: "error delivered")
        var trace: RippleErrorTrace?
        let line = #line
        let subscription = subject
            .checkpoint("before the hop")
            .observe(on: scheduler)
            .checkpoint("after the hop")
            .subscribe(onError: { trace = $0.rippleTrace; done.fulfill() })
        subject.onError(Two())
        wait(for: [done], timeout: 5)
        subscription.dispose()
        XCTAssertEqual(trace?.steps.map(\.description), [
            "checkpoint(\"after the hop\") at ErrorTraceKindsTests.swift:\(line + 4)",
            "checkpoint(\"before the hop\") at ErrorTraceKindsTests.swift:\(line + 2)",
        ])
    }

    func testAnErrorQueuedByABusySubjectKeepsItsPath() {
        // The error reaches the subject while it delivers 1 (re-entrantly): it is
        // queued and delivered after the checkpoint's frame is gone.
        let upstream = PublishSubject<Int>()
        let subject = PublishSubject<Int>()
        _ = upstream.checkpoint("upstream").subscribe(subject)
        var trace: RippleErrorTrace?
        _ = subject.subscribe(
            onNext: { if $0 == 1 { upstream.onError(Two()) } },
            onError: { trace = $0.rippleTrace })
        subject.onNext(1)
        XCTAssertEqual(trace?.steps.map(\.name), ["upstream"])
    }

    func testAnErrorQueuedBehindAMergeDeliveryKeepsItsPath() {
        let failing = PublishSubject<Int>()
        let values = PublishSubject<Int>()
        var trace: RippleErrorTrace?
        _ = Observable.merge(failing.checkpoint("failing"), values)
            .subscribe(
                onNext: { if $0 == 1 { failing.onError(Plain.failed) } },
                onError: { trace = $0.rippleTrace })
        values.onNext(1)
        XCTAssertEqual(trace?.steps.map(\.name), ["failing"])
    }

    func testCheckpointOnSingleMaybeAndCompletableTracesEveryKindOfError() {
        for (kind, error) in errors {
            var traces: [String?] = []
            let line = #line
            _ = Single<Int>.error(error).checkpoint("single")
                .subscribe(onSuccess: { _ in XCTFail(kind) }, onFailure: { traces.append($0.rippleTrace?.description) })
            _ = Maybe<Int>.error(error).checkpoint("maybe")
                .subscribe(onSuccess: { _ in XCTFail(kind) }, onError: { traces.append($0.rippleTrace?.description) })
            _ = Completable.error(error).checkpoint("completable")
                .subscribe(onCompleted: { XCTFail(kind) }, onError: { traces.append($0.rippleTrace?.description) })
            XCTAssertEqual(traces, [
                "checkpoint(\"single\") at ErrorTraceKindsTests.swift:\(line + 1)",
                "checkpoint(\"maybe\") at ErrorTraceKindsTests.swift:\(line + 3)",
                "checkpoint(\"completable\") at ErrorTraceKindsTests.swift:\(line + 5)",
            ], kind)
        }
    }

    func testCheckpointOnSingleMaybeAndCompletablePassesTheirOutcomes() {
        var outcomes: [String] = []
        _ = Single.just(1).checkpoint("single").subscribe(onSuccess: { outcomes.append("success \($0)") })
        _ = Maybe.just(2).checkpoint("maybe").subscribe(onSuccess: { outcomes.append("success \($0)") })
        _ = Maybe<Int>.empty().checkpoint("maybe").subscribe(onCompleted: { outcomes.append("empty") })
        _ = Completable.empty().checkpoint("completable").subscribe(onCompleted: { outcomes.append("completed") })
        XCTAssertEqual(outcomes, ["success 1", "success 2", "empty", "completed"])
    }

    func testAnErrorReadAfterItsDeliveryReadsItsLatestPath() {
        let subject = PublishSubject<Int>()
        var stored: (any Error)?
        let line = #line
        _ = subject.checkpoint("stored").subscribe(onError: { stored = $0 })
        subject.onError(Payload.failed(code: 1, reason: "kept"))
        XCTAssertEqual(stored?.rippleTrace?.description, "checkpoint(\"stored\") at ErrorTraceKindsTests.swift:\(line + 1)")
        // An equal value is the same error to the trace; another value is not.
        XCTAssertNotNil(Payload.failed(code: 1, reason: "kept").rippleTrace)
        XCTAssertNil(Payload.failed(code: 2, reason: "never thrown").rippleTrace)
    }

    func testTwoInstancesOfAClassHaveTheirOwnTraces() {
        let first = Reference()
        let second = Reference()
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        _ = a.checkpoint("first").subscribe(onError: { _ in })
        _ = b.checkpoint("second").subscribe(onError: { _ in })
        a.onError(first)
        b.onError(second)
        XCTAssertEqual(first.rippleTrace?.steps.first?.name, "first")
        XCTAssertEqual(second.rippleTrace?.steps.first?.name, "second")
        XCTAssertNil(Reference().rippleTrace)
    }

    func testAnErrorThatIsNotTracedHasNoTraceEvenWhenAnotherErrorIsBeingDelivered() {
        let subject = PublishSubject<Int>()
        var inner: RippleErrorTrace? = RippleErrorTrace(steps: [])
        _ = subject.checkpoint("outer").subscribe(onError: { _ in inner = Plain.other.rippleTrace })
        subject.onError(Plain.failed)
        XCTAssertNil(inner)
    }
}
