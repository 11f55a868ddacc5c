import Dispatch

/// The implementations compared side by side.
public enum Implementation: String, CaseIterable, Sendable {
    case ripple = "Ripple"
    case openCombine = "OpenCombine"
    case asyncStream = "AsyncStream"
    case floor = "floor"
    /// RxSwift 6.10.2: only in a build with RIPPLE_RXSWIFT_PATH (`rxSwiftIsBuilt`).
    case rxSwift = "RxSwift"
    /// What a collections workload is measured against (the standard library's
    /// diff, a subject): they have a table of their own.
    case reference = "reference"
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
    /// What `ripple-compare --instructions` multiplies its two sizes by: for a
    /// workload whose operations come in batches (the diff works on 10 000
    /// elements at a time), so that both sizes are whole, different batches.
    public let instructionScale: Int

    public init(
        id: String, title: String, unit: String, operations: Int, instructionScale: Int = 1,
        implementations: [Implementation: Setup]
    ) {
        self.id = id
        self.title = title
        self.unit = unit
        self.operations = operations
        self.instructionScale = instructionScale
        self.implementations = implementations
    }
}

/// Prepares a run of `n` operations and returns the measured part.
public typealias Setup = @Sendable (_ n: Int) -> () -> Int

/// Every workload, in the order of the comparison table.
public let allWorkloads: [Workload] = addingRxSwift(to: [
    hotChain,
    subjectSubscribe,
    subjectMainActorSubscribe,
    coldRange,
    subscriptionLifecycle,
    observeOnSerialQueue,
    disposeBag,
] + operatorWorkloads
    + constructionWorkloads
    + scalingWorkloads
    + [searchAsYouType]
    + collectionWorkloads
    + recordingWorkloads)

/// Whether this build has the RxSwift implementations (Package.swift: the package
/// was built with RIPPLE_RXSWIFT_PATH naming a checkout of RxSwift).
public var rxSwiftIsBuilt: Bool { !rxSwiftImplementations.isEmpty }

/// `workloads` with the RxSwift implementations of `RxSwiftWorkloads.swift`, by id
/// (they live in a file of their own: it imports RxSwift, whose type names are
/// Ripple's). Stops on an id that names no workload, so that a renamed workload
/// cannot lose its RxSwift row silently.
private func addingRxSwift(to workloads: [Workload]) -> [Workload] {
    let ids = Set(workloads.map(\.id))
    for id in rxSwiftImplementations.keys where !ids.contains(id) {
        preconditionFailure("RxSwiftWorkloads.swift implements '\(id)', which is not a workload")
    }
    return workloads.map { workload in
        guard let setup = rxSwiftImplementations[workload.id] else { return workload }
        var implementations = workload.implementations
        implementations[.rxSwift] = setup
        return Workload(
            id: workload.id, title: workload.title, unit: workload.unit, operations: workload.operations,
            instructionScale: workload.instructionScale, implementations: implementations)
    }
}

/// A value the optimiser must assume is used.
@inline(never)
public func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

// Closures the optimiser cannot see through (for the floor implementations).
//
// One non-generic overload per signature, on purpose: a generic `opaque<T>(_:) -> T`
// makes the closure travel as `T`, so it comes back wrapped in two reabstraction
// thunks (to the indirect, generic calling convention and back) and every floor
// call paid for both: the floor of the cold chain measured 9.9 ns per element
// instead of ~3 ns. Ripple's operators call user closures without such thunks.

@inline(never)
func opaque(_ body: @escaping (Int) -> Int) -> (Int) -> Int { body }

@inline(never)
func opaque(_ body: @escaping (Int) -> Bool) -> (Int) -> Bool { body }

@inline(never)
func opaque(_ body: @escaping (Int) -> Void) -> (Int) -> Void { body }

@inline(never)
func opaque(_ body: @escaping (Int, Int) -> Int) -> (Int, Int) -> Int { body }

@inline(never)
func opaque(_ body: @escaping (Int) -> Int?) -> (Int) -> Int? { body }

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
