import Foundation

/// A GitHub repository, as the three endpoints the search app uses return it
/// (`GET /search/repositories` items, `GET /users/{user}/repos`,
/// `GET /repos/{owner}/{repo}`), reduced to what the app shows.
///
/// It decodes GitHub's JSON, where the owner is a nested object: `owner.login`
/// becomes ``ownerLogin`` and `owner.avatar_url` ``ownerAvatarURL``. It encodes
/// back to the same shape, so a value stored in a cache decodes like one from the
/// API. Decode it with ``GitHubJSON/decoder`` (plain keys, ISO-8601 dates).
public struct Repository: Codable, Equatable, Hashable, Sendable, Identifiable {
    public var id: Int
    /// `ripple`.
    public var name: String
    /// `owner/ripple`.
    public var fullName: String
    /// The owner's login (`owner.login`).
    public var ownerLogin: String
    /// The owner's avatar (`owner.avatar_url`).
    public var ownerAvatarURL: URL?
    /// The repository's web page.
    public var htmlURL: URL?
    public var description: String?
    /// The main language, if GitHub detected one.
    public var language: String?
    public var stargazersCount: Int
    public var forksCount: Int
    public var openIssuesCount: Int
    public var watchersCount: Int
    public var topics: [String]
    /// The license's SPDX identifier (`license.spdx_id`), e.g. `MIT`.
    public var license: String?
    public var isFork: Bool
    public var isArchived: Bool
    public var defaultBranch: String?
    public var createdAt: Date?
    public var updatedAt: Date?
    public var pushedAt: Date?

    public init(
        id: Int, name: String, fullName: String? = nil, ownerLogin: String, ownerAvatarURL: URL? = nil,
        htmlURL: URL? = nil, description: String? = nil, language: String? = nil, stargazersCount: Int = 0,
        forksCount: Int = 0, openIssuesCount: Int = 0, watchersCount: Int = 0, topics: [String] = [],
        license: String? = nil, isFork: Bool = false, isArchived: Bool = false, defaultBranch: String? = nil,
        createdAt: Date? = nil, updatedAt: Date? = nil, pushedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.fullName = fullName ?? "\(ownerLogin)/\(name)"
        self.ownerLogin = ownerLogin
        self.ownerAvatarURL = ownerAvatarURL
        self.htmlURL = htmlURL
        self.description = description
        self.language = language
        self.stargazersCount = stargazersCount
        self.forksCount = forksCount
        self.openIssuesCount = openIssuesCount
        self.watchersCount = watchersCount
        self.topics = topics
        self.license = license
        self.isFork = isFork
        self.isArchived = isArchived
        self.defaultBranch = defaultBranch
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.pushedAt = pushedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name, owner, description, language, topics, license, fork, archived
        case fullName = "full_name"
        case htmlURL = "html_url"
        case stargazersCount = "stargazers_count"
        case forksCount = "forks_count"
        case openIssuesCount = "open_issues_count"
        case watchersCount = "watchers_count"
        case defaultBranch = "default_branch"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case pushedAt = "pushed_at"
    }

    enum OwnerKeys: String, CodingKey {
        case login
        case avatarURL = "avatar_url"
    }

    enum LicenseKeys: String, CodingKey {
        case spdxID = "spdx_id"
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        let owner = try container.nestedContainer(keyedBy: OwnerKeys.self, forKey: .owner)
        ownerLogin = try owner.decode(String.self, forKey: .login)
        ownerAvatarURL = try owner.decodeIfPresent(URL.self, forKey: .avatarURL)
        fullName = try container.decodeIfPresent(String.self, forKey: .fullName) ?? "\(ownerLogin)/\(name)"
        htmlURL = try container.decodeIfPresent(URL.self, forKey: .htmlURL)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        language = try container.decodeIfPresent(String.self, forKey: .language)
        stargazersCount = try container.decodeIfPresent(Int.self, forKey: .stargazersCount) ?? 0
        forksCount = try container.decodeIfPresent(Int.self, forKey: .forksCount) ?? 0
        openIssuesCount = try container.decodeIfPresent(Int.self, forKey: .openIssuesCount) ?? 0
        watchersCount = try container.decodeIfPresent(Int.self, forKey: .watchersCount) ?? 0
        topics = try container.decodeIfPresent([String].self, forKey: .topics) ?? []
        if container.contains(.license), try !container.decodeNil(forKey: .license) {
            let license = try container.nestedContainer(keyedBy: LicenseKeys.self, forKey: .license)
            self.license = try license.decodeIfPresent(String.self, forKey: .spdxID)
        } else {
            license = nil
        }
        isFork = try container.decodeIfPresent(Bool.self, forKey: .fork) ?? false
        isArchived = try container.decodeIfPresent(Bool.self, forKey: .archived) ?? false
        defaultBranch = try container.decodeIfPresent(String.self, forKey: .defaultBranch)
        createdAt = try container.decodeIfPresent(Date.self, forKey: .createdAt)
        updatedAt = try container.decodeIfPresent(Date.self, forKey: .updatedAt)
        pushedAt = try container.decodeIfPresent(Date.self, forKey: .pushedAt)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(fullName, forKey: .fullName)
        var owner = container.nestedContainer(keyedBy: OwnerKeys.self, forKey: .owner)
        try owner.encode(ownerLogin, forKey: .login)
        try owner.encodeIfPresent(ownerAvatarURL, forKey: .avatarURL)
        try container.encodeIfPresent(htmlURL, forKey: .htmlURL)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(language, forKey: .language)
        try container.encode(stargazersCount, forKey: .stargazersCount)
        try container.encode(forksCount, forKey: .forksCount)
        try container.encode(openIssuesCount, forKey: .openIssuesCount)
        try container.encode(watchersCount, forKey: .watchersCount)
        try container.encode(topics, forKey: .topics)
        if let license {
            var nested = container.nestedContainer(keyedBy: LicenseKeys.self, forKey: .license)
            try nested.encode(license, forKey: .spdxID)
        }
        try container.encode(isFork, forKey: .fork)
        try container.encode(isArchived, forKey: .archived)
        try container.encodeIfPresent(defaultBranch, forKey: .defaultBranch)
        try container.encodeIfPresent(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(pushedAt, forKey: .pushedAt)
    }
}

/// The body of `GET /search/repositories`.
public struct SearchResponse: Codable, Equatable, Sendable {
    /// How many repositories match (GitHub lets a client page through the first 1000).
    public var totalCount: Int
    /// `true` when the search timed out on GitHub's side and the results may be partial.
    public var incompleteResults: Bool
    public var items: [Repository]

    public init(totalCount: Int, incompleteResults: Bool = false, items: [Repository]) {
        self.totalCount = totalCount
        self.incompleteResults = incompleteResults
        self.items = items
    }

    enum CodingKeys: String, CodingKey {
        case items
        case totalCount = "total_count"
        case incompleteResults = "incomplete_results"
    }
}

/// One page of a paginated list of repositories, with what is needed to ask for the
/// next one.
public struct RepositoryPage: Codable, Equatable, Sendable {
    /// The page's repositories.
    public var items: [Repository]
    /// The page number (1-based).
    public var page: Int
    /// The page size asked for.
    public var perPage: Int
    /// The number of matches, when the endpoint says (search does, user repositories don't).
    public var totalCount: Int?
    /// Whether a later page exists: from the `Link` header's `rel="next"` when the
    /// server sends one, otherwise from the counts.
    public var hasMore: Bool
    /// `true` when GitHub reported partial search results.
    public var incompleteResults: Bool

    public init(items: [Repository], page: Int, perPage: Int, totalCount: Int? = nil, hasMore: Bool, incompleteResults: Bool = false) {
        self.items = items
        self.page = page
        self.perPage = perPage
        self.totalCount = totalCount
        self.hasMore = hasMore
        self.incompleteResults = incompleteResults
    }

    /// The next page's number, when there is one.
    public var nextPage: Int? { hasMore ? page + 1 : nil }
}

/// The JSON coders for GitHub's payloads: the models' own snake_case keys, ISO-8601
/// dates (with or without fractional seconds).
public enum GitHubJSON {
    /// A new decoder (a `JSONDecoder` is not `Sendable`; each caller gets its own).
    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = parseDate(text) { return date }
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "expected an ISO-8601 date, found \(String(reflecting: text))"))
        }
        return decoder
    }

    /// A new encoder writing what ``decoder`` reads (sorted keys, ISO-8601 dates).
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        }
        return encoder
    }

    static func parseDate(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
