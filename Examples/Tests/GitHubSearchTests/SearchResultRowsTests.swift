import GitHubKit
import GitHubSearch
import Ripple
import RippleCollections
import TerminalUI
import XCTest

/// The results list keeps its rendered rows when a page is appended.
final class SearchResultRowsTests: XCTestCase {
    func testAnAppendedPageRendersOnlyItsOwnRows() {
        let firstPage = (1...3).map { repository($0, "repo\($0)") }
        let secondPage = (4...5).map { repository($0, "repo\($0)") }
        let rows = SearchResultRows()
        let pages = PublishSubject<[Repository]>()
        let subscription = pages.changes().subscribe(onNext: { rows.apply($0) })
        pages.onNext(firstPage)
        for (index, repository) in firstPage.enumerated() {
            _ = rows.row(at: index, of: repository, nameWidth: 10, width: 60)
        }
        XCTAssertEqual(rows.renderedRowCount, 3)
        pages.onNext(firstPage + secondPage)     // the next page: two inserts at the end
        let all = firstPage + secondPage
        let lines = all.enumerated().map { rows.row(at: $0.offset, of: $0.element, nameWidth: 10, width: 60) }
        XCTAssertEqual(rows.renderedRowCount, 5, "the first page's rows were kept")
        for (line, repository) in zip(lines, all) {
            XCTAssertTrue(line.text.contains(repository.fullName), line.text)
        }
        _ = rows.row(at: 0, of: all[0], nameWidth: 12, width: 60)
        XCTAssertEqual(rows.renderedRowCount, 6, "a new layout renders again")
        subscription.dispose()
    }
}
