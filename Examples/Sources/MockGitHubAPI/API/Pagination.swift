/// GitHub's `page` / `per_page` parameters and the `Link` header that goes with them.
///
/// - `per_page` defaults to 30 and is capped at 100; a value below 1 or one that is
///   not a number means the default.
/// - `page` starts at 1; a value below 1 or one that is not a number means 1. A page
///   past the end is empty (still `200 OK`), however large the number, even one
///   beyond 64 bits (read as `Int.max`): the index arithmetic reports overflow
///   instead of trapping.
/// - `Link` lists, in GitHub's order, `prev`, `next`, `last` and `first` as they
///   apply; it is absent when everything fits on one page.
public struct Pagination: Sendable, Equatable {
    public static let defaultPerPage = 30
    public static let maximumPerPage = 100

    public var page: Int
    public var perPage: Int

    public init(page: Int = 1, perPage: Int = Pagination.defaultPerPage) {
        self.page = max(1, page)
        self.perPage = perPage < 1 ? Self.defaultPerPage : min(perPage, Self.maximumPerPage)
    }

    /// Reads `page` and `per_page` from a query as GitHub does: a value that is not
    /// a whole number of at least 1 (`0`, `-1`, `abc`, empty) is ignored (page 1,
    /// 30 per page), `per_page` above 100 is 100, and a `page` too large for an
    /// `Int` is still that far away: ``Int/max``, past every result (a search
    /// answers it with its 422, a user's repositories with an empty page).
    public init(query: QueryParameters) {
        self.init(page: Self.number(query["page"]) ?? 1, perPage: Self.number(query["per_page"]) ?? Self.defaultPerPage)
    }

    /// A decimal number of at least 1 (`Int.max` when larger than that), else `nil`.
    static func number(_ text: String?) -> Int? {
        guard let text = text?.trimmingCharacters(in: .whitespaces) else { return nil }
        let digits = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        guard let value = Int(digits) else { return Int.max }
        return value >= 1 ? value : nil
    }

    /// The number of pages needed for `count` items (at least 1).
    public func pageCount(for count: Int) -> Int {
        max(1, count / perPage + (count % perPage == 0 ? 0 : 1))
    }

    /// The index range of this page within a collection of `count` items (empty past the end).
    public func range(in count: Int) -> Range<Int> {
        let start = (page - 1).multipliedReportingOverflow(by: perPage)
        guard !start.overflow, start.partialValue < count else { return count..<count }
        // `count - start` cannot overflow (both are non-negative); `start + perPage` could.
        return start.partialValue..<(count - start.partialValue <= perPage ? count : start.partialValue + perPage)
    }

    /// The `Link` header value for this page of `count` items, or `nil` when one page holds them all.
    ///
    /// - Parameters:
    ///   - baseURL: the scheme and authority the client used, e.g. `http://127.0.0.1:8080`.
    ///   - path: the request's path, e.g. `/users/kasel/repos`.
    ///   - query: the request's query; its other parameters are kept in every link.
    public func linkHeader(count: Int, baseURL: String, path: String, query: QueryParameters) -> String? {
        let last = pageCount(for: count)
        guard last > 1 else { return nil }
        func link(_ page: Int, _ rel: String) -> String {
            "<\(baseURL)\(path)?\(query.setting("page", to: String(page)).encoded)>; rel=\"\(rel)\""
        }
        var links: [String] = []
        if page > 1 { links.append(link(min(page - 1, last), "prev")) }
        if page < last { links.append(link(page + 1, "next")) }
        if page < last { links.append(link(last, "last")) }
        if page > 1 { links.append(link(1, "first")) }
        return links.isEmpty ? nil : links.joined(separator: ", ")
    }
}
