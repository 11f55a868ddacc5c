import Foundation
import Ripple
import XCTest

/// An `XCTestCase` that fails every test that leaves Ripple resources alive: a
/// subscription never disposed, a sink kept by a cycle, a subject or disposable
/// that outlives the test.
///
/// ```swift
/// final class SearchViewModelTests: RippleTestCase {
///     func testResultsFollowTheQuery() {
///         let viewModel = SearchViewModel(api: StubAPI())
///         let bag = DisposeBag()
///         viewModel.results.subscribe(onNext: { _ in }).disposed(by: bag)
///         // ...
///     }   // passes: the bag went away with the test
/// }
/// ```
///
/// `setUp()` notes `Resources.total`; `tearDown()` waits up to
/// ``leakCheckTimeout`` seconds (running the current run loop) for resources
/// released on other threads, then fails the test with what is left, naming the
/// named streams (`named(_:)`) among it. The wait ends sooner when what is left
/// has not changed for ``leakCheckSettleTime`` seconds. The failure is reported
/// at the test method (found by name under the `Tests` folder of the working
/// directory, where `swift test` runs; on Apple platforms, without a location
/// Xcode shows it on the test). It is the check of
/// ``assertNoLeaks(_:timeout:fileID:filePath:line:column:_:)`` with
/// ``LeakCheckScope/allResources``, around each whole test: XCTest runs tests one
/// at a time, so the global count is exact. Resources are counted in debug builds
/// only (see `Resources`); in release builds the check passes.
///
/// Override `setUp()`/`tearDown()` as usual, calling `super`.
open class RippleTestCase: XCTestCase {
    private var leakCheck: LeakCheck?

    /// How long `tearDown()` waits for resources to be released, in seconds.
    /// Override it for tests whose work ends on queues that release late (a
    /// `URLSession`'s, for example). Default: 2.
    open var leakCheckTimeout: TimeInterval { 2 }

    /// How long what is left alive must stay unchanged for `tearDown()` to stop
    /// waiting and report it before ``leakCheckTimeout``, in seconds. A leak then
    /// costs this long instead of the whole timeout. Override it with
    /// ``leakCheckTimeout``'s value for work whose last references go after a
    /// quiet period. Default: 0.2.
    open var leakCheckSettleTime: TimeInterval { 0.2 }

    open override func setUp() {
        super.setUp()
        leakCheck = LeakCheck(
            scope: .allResources, timeout: leakCheckTimeout, reporter: "RippleTestCase", subject: "the test",
            namedAbove: Resources.liveNamedSubscriptions.last?.id ?? 0)
    }

    open override func tearDown() {
        leakCheck?.finish(settleTime: leakCheckSettleTime, wait: {
            _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.005))
        }, report: { [self] message in
            recordLeak(message)
        })
        leakCheck = nil
        super.tearDown()
    }

    /// Fails the test with `message`, at the test method when its source is found.
    private func recordLeak(_ message: String) {
        let location = TestSourceLocator.location(ofTest: name)
        #if canImport(Darwin)
        let context = location.map {
            XCTSourceCodeContext(location: XCTSourceCodeLocation(filePath: $0.file, lineNumber: $0.line))
        } ?? XCTSourceCodeContext()
        record(XCTIssue(type: .assertionFailure, compactDescription: message, sourceCodeContext: context))
        #else
        recordFailure(withDescription: message, inFile: location?.file ?? name, atLine: location?.line ?? 0, expected: true)
        #endif
    }
}
