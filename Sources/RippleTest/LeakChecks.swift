import Foundation
import Ripple
import RippleDebugExport

/// What ``assertNoLeaks(_:timeout:fileID:filePath:line:column:_:)`` checks.
public enum LeakCheckScope: Sendable, Equatable {
    /// ``allResources`` under XCTest (tests run one at a time), ``namedStreams``
    /// under Swift Testing (tests run in parallel, so the global count moves with
    /// other tests).
    case automatic
    /// Every Ripple resource: `Resources.total` must come back to its value
    /// before the block, and no subscription of a named stream made in the block
    /// may be alive. Only reliable when no other test runs at the same time.
    case allResources
    /// Only the subscriptions of named streams (`named(_:)`) made by the block:
    /// exact even with tests running in parallel.
    case namedStreams
}

/// Runs `body` and fails the current test if it leaves subscriptions alive,
/// naming the named streams (`named(_:)`) that leaked.
///
/// ```swift
/// assertNoLeaks {
///     let bag = DisposeBag()
///     relay.named("query").subscribe(onNext: { print($0) }).disposed(by: bag)
/// }   // passes: the bag went away with the block
///
/// assertNoLeaks {
///     _ = relay.named("query").subscribe(onNext: { print($0) })
/// }   // fails: "query: 1 live subscription (#7)"
/// ```
///
/// Subscriptions released on other threads are given `timeout` seconds to go,
/// counted from the end of the block; the wait ends sooner when what is left has
/// not changed for 0.2 s, so a leak that nothing is about to
/// release fails the test in 0.2 s, not after the whole `timeout`.
/// Works in XCTest (`XCTFail`) and Swift Testing (an `Issue` at the call site).
/// Leaks are counted in debug builds only (see `Resources`); in release builds
/// the check passes.
///
/// - Returns: What `body` returned.
@discardableResult
public func assertNoLeaks<Result>(
    _ scope: LeakCheckScope = .automatic, timeout: TimeInterval = 2,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: () throws -> Result
) rethrows -> Result {
    let check = LeakCheck(scope: scope, timeout: timeout)
    let result = try check.tracker.run(body)
    let location = AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    check.finish(settleTime: LeakCheck.settleTime, wait: {
        if Thread.isMainThread {
            _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.002))
        } else {
            Thread.sleep(forTimeInterval: 0.002)
        }
    }, report: { TestFailure.report($0, at: location) })
    return result
}

/// ``assertNoLeaks(_:timeout:fileID:filePath:line:column:_:)`` for asynchronous
/// code; subscriptions made by child tasks of `body` count too.
@discardableResult
public func assertNoLeaks<Result>(
    _ scope: LeakCheckScope = .automatic, timeout: TimeInterval = 2,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
) async rethrows -> Result {
    let check = LeakCheck(scope: scope, timeout: timeout)
    let result = try await check.tracker.run(isolation: isolation, body)
    let location = AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    var waiting = LeakWait(timeout: timeout, settleTime: LeakCheck.settleTime)
    while let report = check.report() {
        if waiting.isOver(with: report) {
            TestFailure.report(report, at: location)
            break
        }
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return result
}

/// Counts what a block (``assertNoLeaks(_:timeout:fileID:filePath:line:column:_:)``)
/// or a test (``RippleTestCase``) leaves alive, from its creation on.
final class LeakCheck: Sendable {
    let tracker = NamedSubscriptionScope()
    let checksAllResources: Bool
    let startTotal: Int32
    let timeout: TimeInterval
    /// What is checked, in the report: "the block", "the test".
    let subject: String
    /// Who reports: "assertNoLeaks", "RippleTestCase".
    let reporter: String
    /// For a check not wrapped around a block (``RippleTestCase``): the named
    /// subscriptions that count are the live ones with an identifier above this
    /// (identifiers only grow), instead of those ``tracker`` saw made.
    let namedAbove: UInt64?
    /// For a check not wrapped around a block: the recorded subscriptions that
    /// count are those whose subscriber node has an id above this one.
    let graphAbove: Int

    init(
        scope: LeakCheckScope, timeout: TimeInterval,
        reporter: String = "assertNoLeaks", subject: String = "the block", namedAbove: UInt64? = nil
    ) {
        switch scope {
        case .automatic: checksAllResources = !TestFailure.isSwiftTesting
        case .allResources: checksAllResources = true
        case .namedStreams: checksAllResources = false
        }
        startTotal = Resources.total
        self.timeout = timeout
        self.reporter = reporter
        self.subject = subject
        self.namedAbove = namedAbove
        graphAbove = namedAbove == nil ? 0 : (SubscriptionGraph.current().nodes.map(\.id).max() ?? 0)
    }

    /// How long what a block left alive must stay unchanged for
    /// ``assertNoLeaks(_:timeout:fileID:filePath:line:column:_:)`` to report it
    /// before its timeout (``RippleTestCase/leakCheckSettleTime`` does the same
    /// for whole tests).
    static let settleTime: TimeInterval = 0.2

    /// Waits (calling `wait` between looks) up to `timeout` for what is still alive
    /// to be released, then hands what is left, if anything, to `report`. With a
    /// `settleTime`, the wait also ends once what is left has not changed for that
    /// long: a leak that nothing is about to release is reported without waiting
    /// for the whole `timeout`.
    func finish(settleTime: TimeInterval? = nil, wait: () -> Void, report reportLeak: (String) -> Void) {
        var waiting = LeakWait(timeout: timeout, settleTime: settleTime)
        while let report = report() {
            if waiting.isOver(with: report) {
                reportLeak(report)
                return
            }
            wait()
        }
    }

    /// What leaked, or `nil` if nothing did.
    func report() -> String? {
        guard Resources.isTracking else { return nil }
        let live = namedAbove.map { above in Resources.liveNamedSubscriptions.filter { $0.id > above } }
            ?? tracker.liveSubscriptions
        let total = Resources.total
        let extra = checksAllResources ? Int(total) - Int(startTotal) : 0
        let chains = leakedChains()
        if live.isEmpty && extra <= 0 && chains.nodes.isEmpty { return nil }

        var lines = ["\(reporter): \(subject) left Ripple subscriptions alive"]
        var byName: [(name: String, ids: [UInt64])] = []
        for subscription in live {
            if let index = byName.firstIndex(where: { $0.name == subscription.name }) {
                byName[index].ids.append(subscription.id)
            } else {
                byName.append((subscription.name, [subscription.id]))
            }
        }
        for (name, ids) in byName {
            let count = ids.count == 1 ? "1 live subscription" : "\(ids.count) live subscriptions"
            lines.append("  \(name): \(count) (\(ids.map { "#\($0)" }.joined(separator: ", ")))")
        }
        if extra > 0 {
            lines.append("  Resources.total: \(extra) more than before \(subject) (\(startTotal) → \(total))")
            if live.isEmpty && chains.nodes.isEmpty {
                lines.append("  None of them belongs to a named stream: tag streams with .named(_:) to see which one leaked.")
            }
        }
        if !chains.nodes.isEmpty {
            let count = chains.nodes.filter { $0.kind == .subscriber }.count
            lines.append("  \(count == 1 ? "1 recorded subscription" : "\(count) recorded subscriptions") still alive, nearest operator first:")
            lines += chains.textTree.split(separator: "\n").map { "    " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// The chains of the subscriptions recorded (``Hooks/recordsOperatorSites``)
    /// during the block or the test that are still alive: each subscriber and
    /// everything upstream of it.
    func leakedChains() -> SubscriptionGraph {
        let graph = namedAbove == nil ? tracker.subscriptionGraph() : SubscriptionGraph.current()
        let leaked = graph.nodes.filter { $0.kind == .subscriber && $0.id > graphAbove }
        var kept = Set(leaked.map(\.id))
        var frontier = Array(kept)
        while let id = frontier.popLast() {
            for edge in graph.edges where edge.to == id && !kept.contains(edge.from) {
                kept.insert(edge.from)
                frontier.append(edge.from)
            }
        }
        return SubscriptionGraph(
            capturedAt: graph.capturedAt,
            nodes: graph.nodes.filter { kept.contains($0.id) },
            edges: graph.edges.filter { kept.contains($0.from) && kept.contains($0.to) }
        )
    }
}

/// When to stop waiting for what is left alive to be released: at the timeout, or
/// once what is left has not changed for the settle time.
struct LeakWait {
    let deadline: Date
    let settleTime: TimeInterval?
    private var lastChange = (report: String?.none, at: Date())

    init(timeout: TimeInterval, settleTime: TimeInterval?) {
        deadline = Date().addingTimeInterval(timeout)
        self.settleTime = settleTime
    }

    /// Whether to report `report` (what is left now) instead of waiting longer.
    mutating func isOver(with report: String) -> Bool {
        let now = Date()
        if report != lastChange.report {
            lastChange = (report, now)
        }
        let settled = settleTime.map { now.timeIntervalSince(lastChange.at) >= $0 } ?? false
        return now >= deadline || settled
    }
}
