import GitHubKit
import Ripple
import RippleCollections
import TerminalUI

/// The rendered rows of the results list, kept in step with the loaded
/// repositories by their `changes()`: a page that arrives is a run of inserts at
/// the end, so the rows already rendered are kept and only the new ones are
/// rendered (when they first scroll into view). A new layout (the name column's
/// width, the terminal's width) renders rows again.
///
/// One per subscription to the screen's frames; used on the scheduler that
/// computes them.
public final class SearchResultRows {
    /// The repositories of the last change applied.
    public private(set) var repositories: [Repository] = []
    /// How many rows were rendered so far (for tests).
    public private(set) var renderedRowCount = 0
    private var rows: [Line?] = []
    private var nameWidth = -1
    private var width = -1

    /// An empty list.
    public init() {}

    /// Applies a change of the loaded repositories: inserted and updated rows
    /// are forgotten (rendered again when shown), the others kept where the
    /// change moves them.
    public func apply(_ change: ArrayChange<Repository>) {
        change.apply(to: &rows) { _ in nil }
        repositories = change.elements
    }

    /// The row of `repository`, shown at `index` and not highlighted: the
    /// rendered row if `repository` is the one this list has at `index`,
    /// otherwise rendered now.
    public func row(at index: Int, of repository: Repository, nameWidth: Int, width: Int) -> Line {
        guard repositories.indices.contains(index), repositories[index] == repository else {
            renderedRowCount += 1
            return SearchScreen.row(repository, highlighted: false, nameWidth: nameWidth, width: width)
        }
        if nameWidth != self.nameWidth || width != self.width {
            rows = Array(repeating: nil, count: repositories.count)
            self.nameWidth = nameWidth
            self.width = width
        }
        if let row = rows[index] { return row }
        let row = SearchScreen.row(repository, highlighted: false, nameWidth: nameWidth, width: width)
        rows[index] = row
        renderedRowCount += 1
        return row
    }
}
