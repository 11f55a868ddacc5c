import Foundation

/// Where the URLs inside a response point.
struct URLBases: Sendable {
    /// The API's scheme and authority as the client reached it, e.g. `http://127.0.0.1:8080`.
    var api: String
    /// The web front end's base, e.g. `https://github.example.com`.
    var html: String
}

/// A repository as GitHub's REST API returns it (the commonly used fields; the many
/// `*_url` templates are left out). `null`s are written out, as GitHub does.
struct RepositoryPayload: Encodable {
    let repository: FixtureSet.Repository
    let owner: FixtureSet.Account
    let bases: URLBases
    /// Present in search results only.
    let score: Double?

    enum CodingKeys: String, CodingKey {
        case id, nodeId = "node_id", name, fullName = "full_name", isPrivate = "private", owner
        case htmlURL = "html_url", description, fork, url, homepage, size
        case stargazersCount = "stargazers_count", watchersCount = "watchers_count", language
        case hasIssues = "has_issues", hasProjects = "has_projects", hasWiki = "has_wiki", hasPages = "has_pages"
        case hasDiscussions = "has_discussions", forksCount = "forks_count", archived, disabled
        case openIssuesCount = "open_issues_count", license, allowForking = "allow_forking"
        case isTemplate = "is_template", topics, visibility, forks, openIssues = "open_issues", watchers
        case defaultBranch = "default_branch", createdAt = "created_at", updatedAt = "updated_at"
        case pushedAt = "pushed_at", cloneURL = "clone_url", score
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let repository = self.repository
        try container.encode(repository.id, forKey: .id)
        try container.encode(Self.nodeID(prefix: "R_kgDO", repository.id), forKey: .nodeId)
        try container.encode(repository.name, forKey: .name)
        try container.encode(repository.fullName, forKey: .fullName)
        try container.encode(false, forKey: .isPrivate)
        try container.encode(OwnerPayload(account: owner, bases: bases), forKey: .owner)
        try container.encode("\(bases.html)/\(repository.fullName)", forKey: .htmlURL)
        try container.encode(repository.description, forKey: .description)
        try container.encode(repository.fork, forKey: .fork)
        try container.encode("\(bases.api)/repos/\(repository.fullName)", forKey: .url)
        try container.encode(repository.homepage, forKey: .homepage)
        try container.encode(repository.size, forKey: .size)
        try container.encode(repository.stargazersCount, forKey: .stargazersCount)
        // GitHub's historical quirk: "watchers" are the stargazers.
        try container.encode(repository.stargazersCount, forKey: .watchersCount)
        try container.encode(repository.language, forKey: .language)
        try container.encode(true, forKey: .hasIssues)
        try container.encode(true, forKey: .hasProjects)
        try container.encode(true, forKey: .hasWiki)
        try container.encode(repository.homepage != nil, forKey: .hasPages)
        try container.encode(false, forKey: .hasDiscussions)
        try container.encode(repository.forksCount, forKey: .forksCount)
        try container.encode(repository.archived, forKey: .archived)
        try container.encode(false, forKey: .disabled)
        try container.encode(repository.openIssuesCount, forKey: .openIssuesCount)
        try container.encode(repository.license.map { LicensePayload(spdxID: $0, bases: bases) }, forKey: .license)
        try container.encode(true, forKey: .allowForking)
        try container.encode(false, forKey: .isTemplate)
        try container.encode(repository.topics, forKey: .topics)
        try container.encode("public", forKey: .visibility)
        try container.encode(repository.forksCount, forKey: .forks)
        try container.encode(repository.openIssuesCount, forKey: .openIssues)
        try container.encode(repository.stargazersCount, forKey: .watchers)
        try container.encode(repository.defaultBranch, forKey: .defaultBranch)
        try container.encode(repository.createdAt, forKey: .createdAt)
        try container.encode(repository.updatedAt, forKey: .updatedAt)
        try container.encode(repository.pushedAt, forKey: .pushedAt)
        try container.encode("\(bases.html)/\(repository.fullName).git", forKey: .cloneURL)
        try container.encodeIfPresent(score, forKey: .score)
    }

    /// An opaque, stable node id in the style of GitHub's (not decodable to anything).
    static func nodeID(prefix: String, _ id: Int) -> String {
        prefix + String(UInt64(id) &* 0x9E37_79B9, radix: 36, uppercase: true)
    }
}

/// The nested `owner` object.
struct OwnerPayload: Encodable {
    let account: FixtureSet.Account
    let bases: URLBases

    enum CodingKeys: String, CodingKey {
        case login, id, nodeId = "node_id", avatarURL = "avatar_url", gravatarId = "gravatar_id", url
        case htmlURL = "html_url", reposURL = "repos_url", type, siteAdmin = "site_admin"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(account.login, forKey: .login)
        try container.encode(account.id, forKey: .id)
        try container.encode(
            RepositoryPayload.nodeID(prefix: account.isOrganization ? "O_kgDO" : "U_kgDO", account.id), forKey: .nodeId)
        try container.encode("\(bases.html)/avatars/u/\(account.id)?v=4", forKey: .avatarURL)
        try container.encode("", forKey: .gravatarId)
        try container.encode("\(bases.api)/users/\(account.login)", forKey: .url)
        try container.encode("\(bases.html)/\(account.login)", forKey: .htmlURL)
        try container.encode("\(bases.api)/users/\(account.login)/repos", forKey: .reposURL)
        try container.encode(account.type, forKey: .type)
        try container.encode(false, forKey: .siteAdmin)
    }
}

/// The nested `license` object.
struct LicensePayload: Encodable {
    let spdxID: String
    let bases: URLBases

    static let names: [String: String] = [
        "MIT": "MIT License",
        "Apache-2.0": "Apache License 2.0",
        "BSD-3-Clause": "BSD 3-Clause \"New\" or \"Revised\" License",
        "GPL-3.0": "GNU General Public License v3.0",
        "MPL-2.0": "Mozilla Public License 2.0",
        "ISC": "ISC License",
    ]

    enum CodingKeys: String, CodingKey {
        case key, name, spdxId = "spdx_id", url
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let key = spdxID.lowercased()
        try container.encode(key, forKey: .key)
        try container.encode(Self.names[spdxID] ?? spdxID, forKey: .name)
        try container.encode(spdxID, forKey: .spdxId)
        try container.encode("\(bases.api)/licenses/\(key)", forKey: .url)
    }
}

/// `GET /search/repositories`'s envelope.
struct SearchResultsPayload: Encodable {
    let totalCount: Int
    let incompleteResults: Bool
    let items: [RepositoryPayload]

    enum CodingKeys: String, CodingKey {
        case totalCount = "total_count", incompleteResults = "incomplete_results", items
    }
}

/// GitHub's error body: `message`, optional `errors`, `documentation_url`, `status`.
struct ErrorPayload: Encodable {
    struct Detail: Encodable {
        /// What is wrong, when GitHub says more than the code (absent otherwise).
        var message: String?
        var resource: String
        var field: String
        var code: String

        init(message: String? = nil, resource: String, field: String, code: String) {
            self.message = message
            self.resource = resource
            self.field = field
            self.code = code
        }
    }

    var message: String
    var errors: [Detail]?
    var documentationURL: String
    var status: Int

    enum CodingKeys: String, CodingKey {
        case message, errors, documentationURL = "documentation_url", status
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(errors, forKey: .errors)
        try container.encode(documentationURL, forKey: .documentationURL)
        // GitHub sends the status as a string in error bodies.
        try container.encode(String(status), forKey: .status)
    }
}
