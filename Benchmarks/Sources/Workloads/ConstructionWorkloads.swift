import OpenCombine
import Ripple

/// Workloads that build a chain of operators per operation: a whole chain per
/// subscription, or an inner chain per element of a flattening operator. What they
/// measure is mostly construction (objects, closure contexts), not event delivery.
let constructionWorkloads: [Workload] = [
    buildThreeLiterals, buildThreeValues, buildFiveLiterals, buildFiveValues, buildEightLiterals, buildEightValues,
    flatMapLatestInnerChain, flatMapInnerChain, concatMapInnerChain,
]

/// The `map` and `filter` steps of the "closure values" rows: made at run time and
/// passed by value, as an app passes a function it got from elsewhere (`map(mapF)`),
/// so the compiler cannot inline them into the operators as it does literals.
/// Immutable, and the closures capture nothing, hence `@unchecked Sendable`.
struct StepClosures: @unchecked Sendable {
    let transform: (Int) -> Int
    let predicate: (Int) -> Bool
    let partial: (Int) -> Int?
    let accumulate: (Int, Int) -> Int

    init() {
        transform = opaque { $0 &* 2 }
        predicate = opaque { $0 % 3 != 0 }
        partial = opaque { $0 % 5 == 0 ? nil : $0 }
        accumulate = opaque { $0 &+ $1 }
    }
}

// 10a. Build `just(i).map.filter`, subscribe and dispose it, per subscription: with
// closure literals and with closure values.
let buildThreeLiterals = Workload(
    id: "build-3-literals", title: "build just(i).map.filter + subscribe + dispose, literals",
    unit: "subscription", operations: 100_000,
    implementations: [
        .ripple: { n in
            let counter = Counter()
            return {
                for i in 0..<n {
                    Observable.just(i).map { $0 &* 2 }.filter { $0 % 3 != 0 }
                        .subscribe(onNext: { counter.value &+= $0 }).dispose()
                }
                return counter.value
            }
        },
        .openCombine: { n in
            let counter = Counter()
            return {
                for i in 0..<n {
                    OpenCombine.Just(i).map { $0 &* 2 }.filter { $0 % 3 != 0 }
                        .sink { counter.value &+= $0 }.cancel()
                }
                return counter.value
            }
        },
    ]
)

let buildThreeValues = Workload(
    id: "build-3-values", title: "build just(i).map(f).filter(g) + subscribe + dispose, closure values",
    unit: "subscription", operations: 100_000,
    implementations: [
        .ripple: { n in
            let steps = StepClosures()
            let counter = Counter()
            return {
                for i in 0..<n {
                    Observable.just(i).map(steps.transform).filter(steps.predicate)
                        .subscribe(onNext: { counter.value &+= $0 }).dispose()
                }
                return counter.value
            }
        },
        .openCombine: { n in
            let steps = StepClosures()
            let counter = Counter()
            return {
                for i in 0..<n {
                    OpenCombine.Just(i).map(steps.transform).filter(steps.predicate)
                        .sink { counter.value &+= $0 }.cancel()
                }
                return counter.value
            }
        },
    ]
)

// 10b. The same with five operators: map, filter, distinctUntilChanged,
// catchAndReturn, take(1). OpenCombine: map, filter, removeDuplicates,
// replaceError(with:), prefix(1).
let buildFiveLiterals = Workload(
    id: "build-5-literals", title: "build just(i) + 5 operators + subscribe + dispose, literals",
    unit: "subscription", operations: 50_000,
    implementations: [
        .ripple: { n in
            let counter = Counter()
            return {
                for i in 0..<n {
                    Observable.just(i).map { $0 &* 2 }.filter { $0 % 3 != 0 }
                        .distinctUntilChanged().catchAndReturn(0).take(1)
                        .subscribe(onNext: { counter.value &+= $0 }).dispose()
                }
                return counter.value
            }
        },
        .openCombine: { n in
            let counter = Counter()
            return {
                for i in 0..<n {
                    OpenCombine.Just(i).map { $0 &* 2 }.filter { $0 % 3 != 0 }
                        .removeDuplicates().replaceError(with: 0).prefix(1)
                        .sink { counter.value &+= $0 }.cancel()
                }
                return counter.value
            }
        },
    ]
)

let buildFiveValues = Workload(
    id: "build-5-values", title: "build just(i) + 5 operators + subscribe + dispose, closure values",
    unit: "subscription", operations: 50_000,
    implementations: [
        .ripple: { n in
            let steps = StepClosures()
            let counter = Counter()
            return {
                for i in 0..<n {
                    Observable.just(i).map(steps.transform).filter(steps.predicate)
                        .distinctUntilChanged().catchAndReturn(0).take(1)
                        .subscribe(onNext: { counter.value &+= $0 }).dispose()
                }
                return counter.value
            }
        },
        .openCombine: { n in
            let steps = StepClosures()
            let counter = Counter()
            return {
                for i in 0..<n {
                    OpenCombine.Just(i).map(steps.transform).filter(steps.predicate)
                        .removeDuplicates().replaceError(with: 0).prefix(1)
                        .sink { counter.value &+= $0 }.cancel()
                }
                return counter.value
            }
        },
    ]
)

// 10c. The same with eight operators: map, filter, compactMap,
// distinctUntilChanged, skip(0), take(1), scan, map. OpenCombine: map, filter,
// compactMap, removeDuplicates, dropFirst(0), prefix(1), scan, map.
let buildEightLiterals = Workload(
    id: "build-8-literals", title: "build just(i) + 8 operators + subscribe + dispose, literals",
    unit: "subscription", operations: 50_000,
    implementations: [
        .ripple: { n in
            let counter = Counter()
            return {
                for i in 0..<n {
                    Observable.just(i).map { $0 &* 2 }.filter { $0 % 3 != 0 }.compactMap { $0 % 5 == 0 ? nil : $0 }
                        .distinctUntilChanged().skip(0).take(1).scan(0) { $0 &+ $1 }.map { $0 &* 2 }
                        .subscribe(onNext: { counter.value &+= $0 }).dispose()
                }
                return counter.value
            }
        },
        .openCombine: { n in
            let counter = Counter()
            return {
                for i in 0..<n {
                    // Closure types spelled out: without them the type checker gives up
                    // on this expression (OpenCombine's overloads for `Just`, `Optional`
                    // and `Publishers`).
                    OpenCombine.Just(i).map { (value: Int) -> Int in value &* 2 }
                        .filter { (value: Int) -> Bool in value % 3 != 0 }
                        .compactMap { (value: Int) -> Int? in value % 5 == 0 ? nil : value }
                        .removeDuplicates().dropFirst(0).prefix(1)
                        .scan(0) { (sum: Int, value: Int) -> Int in sum &+ value }
                        .map { (value: Int) -> Int in value &* 2 }
                        .sink { counter.value &+= $0 }.cancel()
                }
                return counter.value
            }
        },
    ]
)

let buildEightValues = Workload(
    id: "build-8-values", title: "build just(i) + 8 operators + subscribe + dispose, closure values",
    unit: "subscription", operations: 50_000,
    implementations: [
        .ripple: { n in
            let steps = StepClosures()
            let counter = Counter()
            return {
                for i in 0..<n {
                    Observable.just(i).map(steps.transform).filter(steps.predicate).compactMap(steps.partial)
                        .distinctUntilChanged().skip(0).take(1).scan(0, accumulator: steps.accumulate).map(steps.transform)
                        .subscribe(onNext: { counter.value &+= $0 }).dispose()
                }
                return counter.value
            }
        },
        .openCombine: { n in
            let steps = StepClosures()
            let counter = Counter()
            return {
                for i in 0..<n {
                    OpenCombine.Just(i).map(steps.transform).filter(steps.predicate).compactMap(steps.partial)
                        .removeDuplicates().dropFirst(0).prefix(1).scan(0, steps.accumulate).map(steps.transform)
                        .sink { counter.value &+= $0 }.cancel()
                }
                return counter.value
            }
        },
    ]
)

// 10d. A flattening operator over a subject whose inner sequence is a two-operator
// chain, `just(x).map(f).filter(g)` (closure values), per event: flatMapLatest,
// flatMap and concatMap. OpenCombine: `map { ... }.switchToLatest()`, `flatMap`,
// `flatMap(maxPublishers: .max(1))`.
let flatMapLatestInnerChain = innerChainWorkload(
    id: "flatmaplatest-inner-chain", title: "flatMapLatest to just(x).map(f).filter(g)",
    ripple: { source, steps in
        source.flatMapLatest { Observable.just($0).map(steps.transform).filter(steps.predicate) }
    },
    openCombine: { subject, steps in
        subject.map { OpenCombine.Just($0).map(steps.transform).filter(steps.predicate) }.switchToLatest()
    })

let flatMapInnerChain = innerChainWorkload(
    id: "flatmap-inner-chain", title: "flatMap to just(x).map(f).filter(g)",
    ripple: { source, steps in
        source.flatMap { Observable.just($0).map(steps.transform).filter(steps.predicate) }
    },
    openCombine: { subject, steps in
        subject.flatMap { OpenCombine.Just($0).map(steps.transform).filter(steps.predicate) }
    })

let concatMapInnerChain = innerChainWorkload(
    id: "concatmap-inner-chain", title: "concatMap to just(x).map(f).filter(g)",
    ripple: { source, steps in
        source.concatMap { Observable.just($0).map(steps.transform).filter(steps.predicate) }
    },
    openCombine: { subject, steps in
        subject.flatMap(maxPublishers: .max(1)) {
            OpenCombine.Just($0).map(steps.transform).filter(steps.predicate)
        }
    })

func innerChainWorkload<Chain: OpenCombine.Publisher & SendableMetatype>(
    id: String, title: String,
    ripple: @escaping @Sendable (Observable<Int>, StepClosures) -> Observable<Int>,
    openCombine: @escaping @Sendable (OpenCombine.PassthroughSubject<Int, Never>, StepClosures) -> Chain
) -> Workload where Chain.Output == Int, Chain.Failure == Never {
    Workload(
        id: id, title: title, unit: "event", operations: 100_000,
        implementations: [
            .ripple: { n in
                let steps = StepClosures()
                return rippleSubjectEvents { ripple($0, steps) }(n)
            },
            .openCombine: { n in
                let steps = StepClosures()
                return openCombineSubjectEvents { openCombine($0, steps) }(n)
            },
        ]
    )
}
