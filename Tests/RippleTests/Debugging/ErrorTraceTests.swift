import Foundation
@testable import Ripple
import RippleTest
import XCTest

final class ErrorTraceTests: RippleTestCase {
    private struct Failure: Error, Equatable { let code: Int }

    override func tearDown() {
        Hooks.recordsOperatorSites = false
        Hooks.defaultErrorHandler = { _, _ in }
        super.tearDown()
    }

    func testUnhandledErrorListsEveryOperatorOfAChainBuiltInTwoFilesNearestFirst() {
        Hooks.recordsOperatorSites = true
        let reports = Recorder<String>()
        Hooks.defaultErrorHandler = { callStack, error in
            reports.append(Hooks.unhandledErrorReport(error, callStack: callStack))
        }
        let query = PublishSubject<String>()
        let responses = PublishSubject<Int>()
        let line = #line
        _ = ErrorTraceFixture.requests(query.asObservable())
            .flatMapLatest { _ in responses.asObservable() }
            .map { $0 * 2 }
            .scan(0, accumulator: +)
            .subscribe(onNext: { _ in })
        query.onNext("ripple")
        query.onError(Failure(code: 7))

        let fixture = ErrorTraceFixture.lines
        XCTAssertEqual(reports.values, ["""
            Unhandled error happened: Failure(code: 7)
             passed through (nearest first):
              scan at ErrorTraceTests.swift:\(line + 4)
              map at ErrorTraceTests.swift:\(line + 3)
              flatMapLatest at ErrorTraceTests.swift:\(line + 2)
              distinctUntilChanged at ErrorTraceFixture.swift:\(fixture.distinct)
              filter at ErrorTraceFixture.swift:\(fixture.filter)
              named("query") at ErrorTraceFixture.swift:\(fixture.named)
              PublishSubject
            """])
    }

    func testRippleTraceStartsWhereTheErrorWasThrown() {
        Hooks.recordsOperatorSites = true
        let query = PublishSubject<Int>()
        var trace: RippleErrorTrace?
        let line = #line
        _ = query
            .map { value -> Int in if value < 0 { throw Failure(code: value) }; return value }
            .filter { $0 > 0 }
            .subscribe(onError: { trace = $0.rippleTrace })
        query.onNext(-1)
        XCTAssertEqual(trace?.steps.map(\.description), [
            "subscriber",
            "filter at ErrorTraceTests.swift:\(line + 3)",
            "map at ErrorTraceTests.swift:\(line + 2)",
        ])
        XCTAssertEqual(trace?.steps.first?.kind, .subscriber)
    }

    func testCatchShowsWhereTheErrorWasHandled() {
        Hooks.recordsOperatorSites = true
        let query = PublishSubject<Int>()
        var trace: RippleErrorTrace?
        let line = #line
        _ = query
            .map { $0 + 1 }
            .catch { error in
                trace = error.rippleTrace
                return .just(0)
            }
            .subscribe()
        query.onError(Failure(code: 1))
        XCTAssertEqual(trace?.steps.map(\.description), [
            "catch at ErrorTraceTests.swift:\(line + 3) (handled here)",
            "map at ErrorTraceTests.swift:\(line + 2)",
            "PublishSubject",
        ])
        XCTAssertEqual(trace?.steps.first?.kind, .handled)
    }

    func testCheckpointsAreTracedWithoutRecording() {
        let query = PublishSubject<Int>()
        var trace: RippleErrorTrace?
        let line = #line
        _ = query
            .checkpoint("input")
            .map { $0 }
            .checkpoint("search")
            .subscribe(onError: { trace = $0.rippleTrace })
        query.onError(Failure(code: 2))
        XCTAssertEqual(trace?.description,
            "checkpoint(\"search\") at ErrorTraceTests.swift:\(line + 4) ← checkpoint(\"input\") at ErrorTraceTests.swift:\(line + 2)")
        XCTAssertEqual(trace?.steps.map(\.kind), [.checkpoint, .checkpoint])
    }

    func testCheckpointPassesEventsThrough() {
        let values = Recorder<Int>()
        _ = Observable.of(1, 2, 3).checkpoint("numbers").subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values.values, [1, 2, 3])
    }

    func testAnErrorWithoutRecordingOrCheckpointHasNoTrace() {
        let query = PublishSubject<Int>()
        var trace: RippleErrorTrace? = RippleErrorTrace(steps: [])
        _ = query.map { $0 }.subscribe(onError: { trace = $0.rippleTrace })
        query.onError(Failure(code: 3))
        XCTAssertNil(trace)
    }
}
