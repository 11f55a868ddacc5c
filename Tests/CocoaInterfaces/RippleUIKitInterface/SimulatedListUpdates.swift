#if os(Linux)
import Foundation

/// One call a table or collection view received that changes what it shows
/// (simulation only): what tests read to check a binding's batch updates.
public enum SimulatedListOperation: Equatable, Sendable, CustomStringConvertible {
    case insertItems([IndexPath])
    case deleteItems([IndexPath])
    case reloadItems([IndexPath])
    case moveItem(from: IndexPath, to: IndexPath)
    case insertSections(IndexSet)
    case deleteSections(IndexSet)
    case reloadSections(IndexSet)
    case moveSection(from: Int, to: Int)

    public var description: String {
        func paths(_ paths: [IndexPath]) -> String { paths.map { "[\($0.section),\($0.item)]" }.joined(separator: " ") }
        switch self {
        case .insertItems(let p): return "insert \(paths(p))"
        case .deleteItems(let p): return "delete \(paths(p))"
        case .reloadItems(let p): return "reload \(paths(p))"
        case .moveItem(let from, let to): return "move [\(from.section),\(from.item)]→[\(to.section),\(to.item)]"
        case .insertSections(let s): return "insertSections \(Array(s))"
        case .deleteSections(let s): return "deleteSections \(Array(s))"
        case .reloadSections(let s): return "reloadSections \(Array(s))"
        case .moveSection(let from, let to): return "moveSection \(from)→\(to)"
        }
    }
}

/// What a table or collection view did to its contents (simulation only).
public enum SimulatedListUpdate: Equatable, Sendable, CustomStringConvertible {
    /// `reloadData()`.
    case reloadData
    /// `performBatchUpdates(_:completion:)`, or one insert/delete/reload/move
    /// call outside it (which UIKit animates as a batch of its own).
    case batch([SimulatedListOperation])

    public var description: String {
        switch self {
        case .reloadData: return "reloadData"
        case .batch(let operations): return "batch(\(operations.map(\.description).joined(separator: "; ")))"
        }
    }
}

/// UIKit's reading of a batch update, applied to the cells a list view shows:
/// the simulation of `performBatchUpdates` both table and collection views use.
///
/// Deletes, reloads and move sources name old positions; inserts and move
/// destinations new ones; the rows no operation mentions keep their order and
/// fill the remaining new positions of their (possibly moved) section. The list
/// checks what UIKit checks (every index in range, the data source's new counts
/// equal to the old counts plus inserts minus deletes, no position named twice)
/// and records a violation where UIKit raises `NSInternalInconsistencyException`.
struct SimulatedListEngine<Cell: AnyObject> {
    /// The cells shown, by section and item (every item is "visible").
    var cells: [[Cell]] = []
    var loaded = false

    /// Applies `operations`; `count(section)` and `sections` are the data
    /// source's new counts, `make(path)` asks it for a cell. Returns the
    /// violations found, and the cells that stopped and started being shown.
    mutating func apply(
        _ operations: [SimulatedListOperation], sections newSectionCount: Int,
        count: (Int) -> Int, make: (IndexPath) -> Cell
    ) -> (violations: [String], removed: [(Cell, IndexPath)], added: [(Cell, IndexPath)]) {
        var violations: [String] = []
        var removed: [(Cell, IndexPath)] = []
        var added: [(Cell, IndexPath)] = []
        let old = cells
        let oldSectionCount = old.count

        var deletedSections = IndexSet(), insertedSections = IndexSet(), reloadedSections = IndexSet()
        var sectionMoves: [(Int, Int)] = []
        var deletes = Set<IndexPath>(), inserts = Set<IndexPath>(), reloads = Set<IndexPath>()
        var moves: [(IndexPath, IndexPath)] = []
        func note(_ message: String) { violations.append(message) }

        for operation in operations {
            switch operation {
            case .deleteSections(let s):
                for i in s { if i >= oldSectionCount || !deletedSections.insert(i).inserted { note("delete section \(i)") } }
            case .insertSections(let s):
                for i in s { if i >= newSectionCount || !insertedSections.insert(i).inserted { note("insert section \(i)") } }
            case .reloadSections(let s):
                for i in s { if i >= oldSectionCount || !reloadedSections.insert(i).inserted { note("reload section \(i)") } }
            case .moveSection(let from, let to):
                if from >= oldSectionCount || to >= newSectionCount { note("move section \(from)→\(to)") }
                sectionMoves.append((from, to))
            case .deleteItems(let p):
                for path in p { if !deletes.insert(path).inserted { note("item \(path) deleted twice") } }
            case .insertItems(let p):
                for path in p { if !inserts.insert(path).inserted { note("item \(path) inserted twice") } }
            case .reloadItems(let p):
                for path in p { if !reloads.insert(path).inserted { note("item \(path) reloaded twice") } }
            case .moveItem(let from, let to):
                moves.append((from, to))
            }
        }

        // Sections: which old section each new one shows (nil: inserted).
        var sourceOf = [Int?](repeating: nil, count: newSectionCount)
        var claimed = insertedSections
        for (from, to) in sectionMoves where to < newSectionCount {
            if claimed.contains(to) { note("section \(to) is the destination of two operations") }
            claimed.insert(to)
            sourceOf[to] = from
        }
        let movedFrom = Set(sectionMoves.map(\.0))
        var remainingOld = (0..<oldSectionCount).filter { !deletedSections.contains($0) && !movedFrom.contains($0) }.makeIterator()
        for t in 0..<newSectionCount where !claimed.contains(t) {
            guard let s = remainingOld.next() else { note("the data source has \(newSectionCount) sections, more than the update leaves"); break }
            sourceOf[t] = s
        }
        if remainingOld.next() != nil {
            note("the data source has \(newSectionCount) sections, fewer than the update leaves")
        }
        var newSectionOf: [Int: Int] = [:]
        for (t, s) in sourceOf.enumerated() { if let s { newSectionOf[s] = t } }

        // Validate item operations against old and new counts.
        for path in deletes.union(reloads) {
            if path.section >= oldSectionCount || path.item >= old[path.section].count { note("item \(path) is not in the list before the update") }
        }
        for (from, _) in moves where from.section >= oldSectionCount || from.item >= old[from.section].count {
            note("move source \(from) is not in the list before the update")
        }
        for path in deletes.intersection(reloads) { note("item \(path) is both deleted and reloaded") }
        let moveSources = Set(moves.map(\.0))
        for path in moveSources.intersection(deletes.union(reloads)) { note("item \(path) is moved and deleted or reloaded") }

        // Old cells that stop being shown.
        for (s, section) in old.enumerated() {
            let sectionGone = deletedSections.contains(s) || reloadedSections.contains(s)
            for (i, cell) in section.enumerated() {
                let path = IndexPath(item: i, section: s)
                if sectionGone || deletes.contains(path) || reloads.contains(path) {
                    removed.append((cell, path))
                }
            }
        }

        var movedCells: [IndexPath: Cell] = [:]
        for (from, to) in moves where from.section < oldSectionCount && from.item < old[from.section].count {
            if movedCells[to] != nil || inserts.contains(to) { note("item \(to) is the destination of two operations") }
            movedCells[to] = old[from.section][from.item]
        }

        var result: [[Cell]] = []
        for t in 0..<newSectionCount {
            let newCount = count(t)
            var section: [Cell] = []
            guard let s = sourceOf[t], !reloadedSections.contains(s) else {
                for i in 0..<newCount {
                    let path = IndexPath(item: i, section: t)
                    let cell = make(path)
                    section.append(cell)
                    added.append((cell, path))
                }
                result.append(section)
                continue
            }
            var survivors = old[s].enumerated().filter { i, _ in
                let path = IndexPath(item: i, section: s)
                return !deletes.contains(path) && !moveSources.contains(path)
            }.makeIterator()
            for i in 0..<newCount {
                let path = IndexPath(item: i, section: t)
                if inserts.contains(path) {
                    let cell = make(path)
                    section.append(cell)
                    added.append((cell, path))
                } else if let moved = movedCells[path] {
                    section.append(moved)
                } else if let (oldIndex, cell) = survivors.next() {
                    if reloads.contains(IndexPath(item: oldIndex, section: s)) {
                        let fresh = make(path)
                        section.append(fresh)
                        added.append((fresh, path))
                    } else {
                        section.append(cell)
                    }
                } else {
                    note("section \(t): the data source has \(newCount) items, more than the update leaves")
                    let cell = make(path)
                    section.append(cell)
                    added.append((cell, path))
                }
            }
            if survivors.next() != nil {
                note("section \(t): the data source has \(newCount) items, fewer than the update leaves")
            }
            result.append(section)
        }
        for path in inserts where path.section >= newSectionCount || path.item >= count(path.section) {
            note("inserted item \(path) is not in the list after the update")
        }
        _ = newSectionOf
        cells = result
        return (violations, removed, added)
    }

    /// Reloads every cell from the data source.
    mutating func reload(sections: Int, count: (Int) -> Int, make: (IndexPath) -> Cell) -> (removed: [(Cell, IndexPath)], added: [(Cell, IndexPath)]) {
        var removed: [(Cell, IndexPath)] = []
        for (s, section) in cells.enumerated() {
            for (i, cell) in section.enumerated() { removed.append((cell, IndexPath(item: i, section: s))) }
        }
        var added: [(Cell, IndexPath)] = []
        cells = (0..<sections).map { s in
            (0..<count(s)).map { i in
                let path = IndexPath(item: i, section: s)
                let cell = make(path)
                added.append((cell, path))
                return cell
            }
        }
        loaded = true
        return (removed, added)
    }
}
#endif
