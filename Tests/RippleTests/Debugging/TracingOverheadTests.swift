import Dispatch
import Foundation
import Ripple
import RippleDebugExport
import RippleTest
import XCTest

/// Measures what a named stream costs per event with tracing off and on, next to
/// a `map { $0 }` (the cheapest operator). Prints the numbers; asserts only that
/// every event arrived, since timings on a shared machine are not stable enough to
/// fail a build on. (Debug builds are unoptimised; see the README for release
/// numbers.)
final class TracingOverheadTests: RippleTestCase {
    private let count = 200_000

    private func nanosecondsPerEvent(_ make: (Observable<Int>) -> Observable<Int>) -> Double {
        let count = self.count
        let source = Observable<Int>.create { observer in
            for value in 0..<count { observer.onNext(value) }
            observer.onCompleted()
            return Disposables.create()
        }
        var best = Double.infinity
        for _ in 0..<3 {
            var received = 0
            let start = DispatchTime.now().uptimeNanoseconds
            _ = make(source).subscribe(onNext: { _ in received += 1 })
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            XCTAssertEqual(received, count)
            best = min(best, Double(elapsed) / Double(count))
        }
        return best
    }

    func testCostPerEvent() {
        let passthrough = nanosecondsPerEvent { $0 }
        let map = nanosecondsPerEvent { $0.map { $0 } }
        let namedOff = nanosecondsPerEvent { $0.named("measured") }
        let recorder = TraceRecorder(capacity: 10_000, recordsValues: false)
        recorder.start()
        let namedOn = nanosecondsPerEvent { $0.named("measured") }
        recorder.stop()
        let format = { (value: Double) in String(format: "%.1f ns", value) }
        print("""
        Ripple tracing overhead per event (best of 3 × \(count) events):
          no operator:              \(format(passthrough))
          map { $0 }:               \(format(map))
          named (tracing off):      \(format(namedOff))
          named (tracing on):       \(format(namedOn))
        """)
        XCTAssertEqual(recorder.events.count, 10_000)
    }
}
