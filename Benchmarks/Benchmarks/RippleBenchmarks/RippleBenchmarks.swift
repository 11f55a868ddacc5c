import Benchmark
import Workloads

// Every workload and implementation as an ordo-one/benchmark benchmark named
// "<workload>/<implementation>", reporting time and allocations per operation:
//
//   swift package --package-path Benchmarks benchmark
//   swift package --package-path Benchmarks benchmark --filter "hot-chain/.*"
let benchmarks: @Sendable () -> Void = {
    for workload in allWorkloads {
        for implementation in Implementation.allCases {
            guard let setup = workload.implementations[implementation] else { continue }
            Benchmark(
                "\(workload.id)/\(implementation.rawValue)",
                configuration: .init(
                    metrics: [.wallClock, .mallocCountTotal, .throughput],
                    scalingFactor: .kilo,
                    maxDuration: .seconds(2),
                    maxIterations: 1_000
                )
            ) { benchmark in
                let run = setup(benchmark.scaledIterations.count)
                benchmark.startMeasurement()
                blackHole(run())
                benchmark.stopMeasurement()
            }
        }
    }
}
