import Foundation
import Workloads

// `ripple-compare --checksums [--filter ID]`: every implementation of each workload
// runs once at the same size (the instruction mode's small size), and its checksum is
// printed beside Ripple's. An implementation does the same work as Ripple's when it
// returns the same checksum: the command exits with 1 when one returns another,
// except the collection rows' reference (it counts the standard library's edits, or
// events of another kind). RxSwift's implementations (a build with
// RIPPLE_RXSWIFT_PATH) are written to mirror Ripple's event for event; this is
// their check.

/// The implementations whose checksum must equal Ripple's.
let checksumCheckedImplementations = Set(Implementation.allCases).subtracting([.ripple, .reference])

func runChecksumMode(filter: String?) -> Never {
    let others = Implementation.allCases.filter { $0 != .ripple && ($0 != .rxSwift || rxSwiftIsBuilt) }
    let header = ["workload", "size", "Ripple"] + others.map(\.rawValue)
    printTableHeader(header)
    var mismatches: [String] = []
    for workload in allWorkloads where filter.map({ workload.id.contains($0) }) ?? true {
        let size = instructionSizes.small * workload.instructionScale
        let ripple = workload.implementations[.ripple].map { $0(size)() }
        var row = [workload.id, String(size), ripple.map(String.init) ?? "—"]
        for implementation in others {
            guard let setup = workload.implementations[implementation] else {
                row.append("—")
                continue
            }
            let checksum = setup(size)()
            if checksum == ripple {
                row.append("= Ripple")
            } else {
                row.append(String(checksum))
                if checksumCheckedImplementations.contains(implementation) {
                    mismatches.append("\(workload.id)/\(implementation.rawValue): \(checksum), Ripple \(ripple.map(String.init) ?? "—")")
                }
            }
        }
        printTableRow(row)
    }
    print()
    if mismatches.isEmpty {
        print("Every workload: " + others.filter(checksumCheckedImplementations.contains).map(\.rawValue).joined(separator: ", ") + " return Ripple's checksums (the reference is not checked).")
        exit(0)
    }
    print("Checksums differing from Ripple's: " + mismatches.joined(separator: "; "))
    exit(1)
}
