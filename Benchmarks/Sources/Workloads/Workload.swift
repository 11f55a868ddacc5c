import Dispatch

/// The implementations compared side by side.
public enum Implementation: String, CaseIterable, Sendable {
    case ripple = "Ripple"
    case openCombine = "OpenCombine"
    case asyncStream = "AsyncStream"
    case floor = "floor"
}

/// One benchmark workload and how each implementation runs it.
///
/// An implementation is a *setup* closure: `setup(n)` builds whatever the
/// workload needs (subjects, subscriptions, ...) and returns the measured closure,
/// which performs `n` operations (events, elements, subscriptions: see `unit`) and
/// returns a checksum so that the work cannot be optimised away. Only the measured
/// closure is timed and has its allocations counted.
public struct Workload: Sendable {
    public let id: String
    public let title: String
    public let unit: String
    /// How many operations one measured run performs.
    public let operations: Int
    public let implementations: [Implementation: Setup]

    public init(
        id: String, title: String, unit: String, operations: Int,
        implementations: [Implementation: Setup]
    ) {
        self.id = id
        self.title = title
        self.unit = unit
        self.operations = operations
        self.implementations = implementations
    }
}

/// Prepares a run of `n` operations and returns the measured part.
public typealias Setup = @Sendable (_ n: Int) -> () -> Int

/// Every workload, in the order of the comparison table.
public let allWorkloads: [Workload] = [
    hotChain,
    subjectSubscribe,
    coldRange,
    subscriptionLifecycle,
    observeOnSerialQueue,
    disposeBag,
] + operatorWorkloads

/// A value the optimiser must assume is used.
@inline(never)
public func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A closure the optimiser cannot see through (for the floor implementations).
@inline(never)
func opaque<T>(_ value: T) -> T { value }

/// Runs `body` in a task and blocks the calling thread until it finishes.
func runBlocking(_ body: @escaping @Sendable () async -> Int) -> Int {
    let done = DispatchSemaphore(value: 0)
    let result = ResultBox()
    Task.detached {
        result.value = await body()
        done.signal()
    }
    done.wait()
    return result.value
}

final class ResultBox: @unchecked Sendable {
    var value = 0
}

/// A mutable counter captured by closures.
final class Counter: @unchecked Sendable {
    var value = 0
}
