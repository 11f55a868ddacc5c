import Foundation
import Ripple
import RippleDebugExport
import RippleTest
import XCTest

final class TracingTests: RippleTestCase {
    private typealias Kind = TraceEvent.Kind

    private func kinds(_ events: [TraceEvent]) -> [String] {
        events.map { event in
            switch event.kind {
            case .subscribed: return "\(event.stream) subscribed"
            case .next(let value): return "\(event.stream) next(\(value ?? "-"))"
            case .error(let error): return "\(event.stream) error(\(error))"
            case .completed: return "\(event.stream) completed"
            case .disposed: return "\(event.stream) disposed"
            }
        }
    }

    func testRecordsSpansAndInstantsOfNamedStreamsOnly() {
        let recorder = TraceRecorder()
        recorder.start()
        let query = PublishSubject<String>()
        let subscription = query.named("query").map { $0.count }.named("length").subscribe()
        let unnamed = query.map { $0 }.subscribe()
        query.onNext("r")
        query.onNext("ri")
        subscription.dispose()
        _ = Observable<Int>.error(testError).named("failing").subscribe(onError: { _ in })
        recorder.stop()
        query.onNext("ignored")
        unnamed.dispose()

        XCTAssertEqual(kinds(recorder.events), [
            "length subscribed", "query subscribed",
            "query next(r)", "length next(1)",
            "query next(ri)", "length next(2)",
            "query disposed", "length disposed",   // a subscription releases its upstream first
            "failing subscribed", "failing error(TestError(1))", "failing disposed",
        ])
        let timestamps = recorder.events.map(\.timestamp)
        XCTAssertEqual(timestamps, timestamps.sorted())
        XCTAssertEqual(recorder.droppedEventCount, 0)
        XCTAssertFalse(recorder.isRecording)
    }

    func testNothingIsRecordedWhileStoppedAndValuesCanBeOmitted() {
        let recorder = TraceRecorder(recordsValues: false, filter: { $0.hasPrefix("ui.") })
        let subject = PublishSubject<Int>()
        let a = subject.named("ui.count").subscribe()
        let b = subject.named("model").subscribe()
        subject.onNext(1)
        XCTAssertTrue(recorder.events.isEmpty)
        recorder.start()
        recorder.start()   // starting twice is harmless
        subject.onNext(2)
        recorder.stop()
        recorder.stop()
        subject.onNext(3)
        XCTAssertEqual(kinds(recorder.events), ["ui.count next(-)"])
        recorder.removeAll()
        XCTAssertTrue(recorder.events.isEmpty)
        a.dispose()
        b.dispose()
    }

    func testAnElementIsDescribedOnceAndOnlyForARecorderThatKeepsValues() {
        final class Counted: CustomStringConvertible, @unchecked Sendable {
            var descriptions = 0
            var description: String {
                descriptions += 1
                return "counted"
            }
        }
        let withValues = TraceRecorder(recordsValues: true, filter: { $0 == "kept" })
        let alsoWithValues = TraceRecorder(recordsValues: true, filter: { $0 == "kept" })
        let withoutValues = TraceRecorder(recordsValues: false)
        for recorder in [withValues, alsoWithValues, withoutValues] { recorder.start() }
        let skipped = Counted()
        _ = Observable.just(skipped).named("other").subscribe()
        XCTAssertEqual(skipped.descriptions, 0, "no recorder that keeps values accepts the stream")
        let kept = Counted()
        _ = Observable.just(kept).named("kept").subscribe()
        XCTAssertEqual(kept.descriptions, 1, "described once for both recorders that keep values")
        for recorder in [withValues, alsoWithValues, withoutValues] { recorder.stop() }
        let keptEvents = ["kept subscribed", "kept next(counted)", "kept completed", "kept disposed"]
        XCTAssertEqual(kinds(withValues.events), keptEvents)
        XCTAssertEqual(kinds(alsoWithValues.events), keptEvents)
        XCTAssertEqual(kinds(withoutValues.events), [
            "other subscribed", "other next(-)", "other completed", "other disposed",
            "kept subscribed", "kept next(-)", "kept completed", "kept disposed",
        ])
    }

    func testSeveralRecordersRecordIndependently() {
        let first = TraceRecorder()
        let second = TraceRecorder()
        first.start()
        _ = Observable.just(1).named("one").subscribe()
        second.start()
        _ = Observable.just(2).named("two").subscribe()
        first.stop()
        _ = Observable.just(3).named("three").subscribe()
        second.stop()
        XCTAssertEqual(Set(first.events.map(\.stream)), ["one", "two"])
        XCTAssertEqual(Set(second.events.map(\.stream)), ["two", "three"])
    }

    func testBufferKeepsTheNewestEventsAndCountsTheDropped() {
        let recorder = TraceRecorder(capacity: 5)
        XCTAssertEqual(TraceRecorder(capacity: 0).capacity, 1)
        recorder.start()
        let subject = PublishSubject<Int>()
        let subscription = subject.named("numbers").subscribe()
        for value in 1...10 { subject.onNext(value) }
        recorder.stop()
        XCTAssertEqual(kinds(recorder.events), (6...10).map { "numbers next(\($0))" })
        XCTAssertEqual(recorder.droppedEventCount, 6)   // the subscription and 1...5
        subscription.dispose()
    }

    func testLongValuesAreCut() {
        let recorder = TraceRecorder()
        recorder.start()
        _ = Observable.just(String(repeating: "y", count: 500)).named("long").subscribe()
        recorder.stop()
        guard case .next(let value?) = recorder.events[1].kind else { return XCTFail("\(recorder.events)") }
        XCTAssertEqual(value.count, 120)
        XCTAssertTrue(value.hasSuffix("…"))
    }

    func testEventDescription() {
        let event = TraceEvent(kind: .next("a"), stream: "s", subscription: 3, timestamp: 12_345_678, thread: 1)
        XCTAssertEqual(event.description, "12.346ms s #3 next(a)")
    }

    // MARK: - Chrome trace files

    private func writeAndParse(_ recorder: TraceRecorder) throws -> (events: [[String: Any]], other: [String: Any]) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-trace-\(UUID().uuidString).json")
        try recorder.writeChromeTrace(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        let document = try XCTUnwrap(object as? [String: Any])
        XCTAssertEqual(document["displayTimeUnit"] as? String, "ms")
        let events = try XCTUnwrap(document["traceEvents"] as? [[String: Any]])
        return (events, try XCTUnwrap(document["otherData"] as? [String: Any]))
    }

    func testChromeTraceFileHasPairedSpansAndOrderedInstants() throws {
        let recorder = TraceRecorder()
        recorder.start()
        let query = PublishSubject<String>()
        let search = query.named("query").map { "results for \($0)" }.named("results").subscribe()
        query.onNext("r")
        let done = DispatchSemaphore(value: 0)
        // A queue's label names the thread in the trace. (A detached thread that
        // sets `Thread.current.name` is not a stable fixture on Linux: about one
        // run in ten, Foundation read back the name inherited from the process.)
        DispatchQueue(label: "background").async {
            query.onNext("ri")
            done.signal()
        }
        done.wait()
        search.dispose()
        _ = Observable<Int>.error(testError).named("failing").subscribe(onError: { _ in })
        _ = Observable.of(1).named("done").subscribe()
        let open = query.named("open").subscribe()
        recorder.stop()

        let (events, other) = try writeAndParse(recorder)
        XCTAssertEqual(other["droppedEvents"] as? Int, 0)
        XCTAssertEqual(other["capacity"] as? Int, 100_000)

        let metadata = events.filter { $0["ph"] as? String == "M" }
        XCTAssertTrue(metadata.contains { $0["name"] as? String == "process_name" })
        let threadNames = metadata.filter { $0["name"] as? String == "thread_name" }.compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        XCTAssertEqual(Set(threadNames), ["main", "background"])

        let timed = events.filter { $0["ph"] as? String != "M" }
        for event in timed {
            XCTAssertNotNil(event["ts"] as? Double, "\(event)")
            XCTAssertNotNil(event["pid"] as? Int, "\(event)")
            XCTAssertNotNil(event["tid"] as? Int, "\(event)")
        }
        let timestamps = timed.compactMap { $0["ts"] as? Double }
        XCTAssertEqual(timestamps, timestamps.sorted(), "events are in time order")

        // Spans: every begin has one end with the same name, category and id, later.
        let begins = timed.filter { $0["ph"] as? String == "b" }
        let ends = timed.filter { $0["ph"] as? String == "e" }
        XCTAssertEqual(begins.map { $0["name"] as? String }, ["results", "query", "failing", "done", "open"])
        XCTAssertEqual(begins.count, ends.count)
        var reasons: [String: String] = [:]
        for begin in begins {
            let id = try XCTUnwrap(begin["id"] as? Int)
            let matching = ends.filter { $0["id"] as? Int == id }
            XCTAssertEqual(matching.count, 1, "span \(id)")
            let end = try XCTUnwrap(matching.first)
            XCTAssertEqual(end["name"] as? String, begin["name"] as? String)
            XCTAssertEqual(end["cat"] as? String, "ripple.subscription")
            XCTAssertEqual(begin["cat"] as? String, "ripple.subscription")
            XCTAssertGreaterThanOrEqual(try XCTUnwrap(end["ts"] as? Double), try XCTUnwrap(begin["ts"] as? Double))
            reasons[begin["name"] as? String ?? ""] = (end["args"] as? [String: Any])?["end"] as? String
        }
        XCTAssertEqual(reasons, [
            "results": "disposed", "query": "disposed", "failing": "error", "done": "completed", "open": "still subscribed",
        ])

        // Instants: thread-scoped, named after the stream and the event.
        let instants = timed.filter { $0["ph"] as? String == "i" }
        XCTAssertEqual(instants.map { $0["name"] as? String }, [
            "query: next", "results: next", "query: next", "results: next", "failing: error", "done: next", "done: completed",
        ])
        XCTAssertTrue(instants.allSatisfy { $0["s"] as? String == "t" && $0["cat"] as? String == "ripple.event" })
        let values = instants.compactMap { ($0["args"] as? [String: Any])?["value"] as? String }
        XCTAssertEqual(values, ["r", "results for r", "ri", "results for ri", "1"])
        let backgroundThread = instants[2]["tid"] as? Int
        XCTAssertNotEqual(backgroundThread, instants[0]["tid"] as? Int, "the second event came from another thread")
        XCTAssertEqual((instants[4]["args"] as? [String: Any])?["error"] as? String, "TestError(1)")
        open.dispose()
    }

    func testThreadsAreNamedAfterTheWholeQueueLabel() throws {
        // Linux keeps 15 bytes of a thread's own name: a worker of the default
        // global queue is called "oot.default-qos" there.
        let recorder = TraceRecorder()
        recorder.start()
        let query = PublishSubject<String>()
        let search = query.named("query").subscribe()
        let serial = DispatchQueue(label: "com.example.search.requests")
        let done = DispatchSemaphore(value: 0)
        serial.async {
            query.onNext("a")
            done.signal()
        }
        done.wait()
        DispatchQueue.global().async {
            query.onNext("b")
            done.signal()
        }
        done.wait()
        search.dispose()
        recorder.stop()

        let (events, _) = try writeAndParse(recorder)
        let threadNames = events
            .filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        XCTAssertTrue(threadNames.contains("com.example.search.requests"), "\(threadNames)")
        for name in threadNames {
            // A worker thread keeps the name of the first queue it was seen running.
            XCTAssertTrue(name == "main" || name == "com.example.search.requests" || name.hasPrefix("com.apple.root."), "a cut name: \(name)")
        }
    }

    func testSpansWhoseBeginningWasDroppedAreLeftOut() throws {
        let recorder = TraceRecorder(capacity: 4)
        recorder.start()
        let subject = PublishSubject<Int>()
        let early = subject.named("early").subscribe()
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        early.dispose()
        _ = Observable.of(9).named("late").subscribe()
        recorder.stop()
        // Kept: late subscribed, late next(9), late completed, late disposed.
        XCTAssertEqual(recorder.droppedEventCount, 5)

        let (events, other) = try writeAndParse(recorder)
        XCTAssertEqual(other["droppedEvents"] as? Int, 5)
        let spans = events.filter { ["b", "e"].contains($0["ph"] as? String) }
        XCTAssertEqual(spans.map { "\($0["name"] as? String ?? "") \($0["ph"] as? String ?? "")" }, ["late b", "late e"])
    }

    func testEmptyRecordingIsAValidTrace() throws {
        let recorder = TraceRecorder()
        let (events, _) = try writeAndParse(recorder)
        XCTAssertEqual(events.filter { $0["ph"] as? String != "M" }.count, 0)
    }

    // MARK: - Marbles from a trace

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) // Duration frames
    func testTraceBecomesAMarbleDiagram() {
        let recorder = TraceRecorder()
        recorder.start()
        let subject = PublishSubject<String>()
        let subscription = subject.named("letters").subscribe()
        subject.onNext("a")
        subject.onNext("b")
        subject.onCompleted()
        recorder.stop()
        subscription.dispose()
        // Everything happened within one (very long) frame: one group.
        let diagram = MarbleDiagram(trace: recorder.events, frame: .seconds(60))
        XCTAssertEqual(diagram.ascii(), "letters: (^ab|)")
        XCTAssertEqual(diagram.svg().components(separatedBy: "class=\"marble\"").count - 1, 2)
    }
}
