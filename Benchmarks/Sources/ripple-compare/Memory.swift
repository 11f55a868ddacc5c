import Foundation
import MallocInterposerSwift
import Workloads

// `--memory`: bytes per live subscription, measured natively with the malloc
// interposer: each memory workload creates `operations` subscriptions and keeps
// them; the bytes allocated and not freed meanwhile, divided by their number, are
// one subscription's share (the subscription's objects, and its slot in the
// subject's storage). Requested bytes: malloc's own overhead per block (8 to 16
// bytes on glibc) comes on top, for every implementation alike, once per block.

/// Prints, for each memory workload, bytes and blocks per live subscription for
/// Ripple and OpenCombine, and exits.
func runMemoryMode(filter: String?) -> Never {
    printTableHeader(["workload", "Ripple bytes", "OpenCombine bytes", "Ripple blocks", "OpenCombine blocks", "OpenCombine ÷ Ripple (bytes)"])
    for workload in memoryWorkloads where filter.map({ workload.id.contains($0) }) ?? true {
        var bytes: [Implementation: Double] = [:]
        var blocks: [Implementation: Double] = [:]
        for implementation in [Implementation.ripple, .openCombine] {
            guard let setup = workload.implementations[implementation] else { continue }
            consume(setup(16)())
            let run = setup(workload.operations)
            MallocInterposerSwift.initialize()
            MallocInterposerSwift.reset()
            MallocInterposerSwift.hook()
            consume(run())
            MallocInterposerSwift.unhook()
            let statistics = MallocInterposerSwift.getStatistics()
            let count = Double(workload.operations)
            bytes[implementation] = Double(statistics.mallocBytesCount - statistics.freeBytesCount) / count
            blocks[implementation] = Double(statistics.mallocCount - statistics.freeCount) / count
            withExtendedLifetime(run) {}
        }
        printTableRow([
            workload.title, formatCount(bytes[.ripple]), formatCount(bytes[.openCombine]),
            formatCount(blocks[.ripple]), formatCount(blocks[.openCombine]), ratio(bytes[.ripple], bytes[.openCombine]),
        ])
    }
    print()
    print("Bytes requested from malloc and not freed, per live subscription (\(memoryWorkloads.first?.operations ?? 0) subscriptions kept), release build.")
    exit(0)
}
