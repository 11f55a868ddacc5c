import Foundation

/// A repository with the lower-cased fields that lookups and search compare against.
struct IndexedRepository: Sendable {
    let fixture: FixtureSet.Repository
    let ownerAccount: FixtureSet.Account
    let name: String
    let owner: String
    let fullName: String
    let description: String
    let language: String?
    let topics: [String]
    var ownerIsOrganization: Bool { ownerAccount.isOrganization }

    init(_ fixture: FixtureSet.Repository, owner: FixtureSet.Account) {
        self.fixture = fixture
        self.ownerAccount = owner
        self.name = fixture.name.lowercased()
        self.owner = fixture.owner.lowercased()
        self.fullName = fixture.fullName.lowercased()
        self.description = fixture.description?.lowercased() ?? ""
        self.language = fixture.language?.lowercased()
        self.topics = fixture.topics.map { $0.lowercased() }
    }
}

/// The fixture set, indexed for the three endpoints. Logins and repository names are
/// matched case-insensitively, as on GitHub.
struct RepositoryCatalog: Sendable {
    let repositories: [IndexedRepository]
    private let accountsByLogin: [String: FixtureSet.Account]
    private let repositoriesByOwner: [String: [Int]]
    private let repositoryByFullName: [String: Int]

    init(_ fixtures: FixtureSet) throws {
        var accounts: [String: FixtureSet.Account] = [:]
        for account in fixtures.accounts {
            let key = account.login.lowercased()
            guard accounts[key] == nil else {
                throw FixtureSet.LoadingError.inconsistent("two accounts are named \(account.login)")
            }
            accounts[key] = account
        }
        var repositories: [IndexedRepository] = []
        var byOwner: [String: [Int]] = [:]
        var byFullName: [String: Int] = [:]
        for fixture in fixtures.repositories {
            guard let owner = accounts[fixture.owner.lowercased()] else {
                throw FixtureSet.LoadingError.inconsistent("\(fixture.fullName) has no owner account")
            }
            let indexed = IndexedRepository(fixture, owner: owner)
            guard byFullName[indexed.fullName] == nil else {
                throw FixtureSet.LoadingError.inconsistent("\(fixture.fullName) appears twice")
            }
            byFullName[indexed.fullName] = repositories.count
            byOwner[indexed.owner, default: []].append(repositories.count)
            repositories.append(indexed)
        }
        self.repositories = repositories
        self.accountsByLogin = accounts
        self.repositoriesByOwner = byOwner
        self.repositoryByFullName = byFullName
    }

    func account(_ login: String) -> FixtureSet.Account? {
        accountsByLogin[login.lowercased()]
    }

    func repositories(ownedBy login: String) -> [IndexedRepository] {
        (repositoriesByOwner[login.lowercased()] ?? []).map { repositories[$0] }
    }

    func repository(owner: String, name: String) -> IndexedRepository? {
        repositoryByFullName["\(owner)/\(name)".lowercased()].map { repositories[$0] }
    }

    /// The repositories matching `query`, ordered as GitHub would for `sort` / `order`.
    ///
    /// `sort` is `stars`, `forks`, `updated` or `help-wanted-issues` (open issues here);
    /// anything else (or nothing) means best match, highest score first. `order` is
    /// `asc` or `desc` (default), and applies only with a `sort`. Ties go to the older
    /// repository (lower id), so pages never overlap.
    func search(_ query: SearchQuery, sort: String?, order: String?) -> [(repository: IndexedRepository, score: Double)] {
        let matches = repositories.compactMap { repository in
            query.score(repository).map { (repository: repository, score: $0) }
        }
        let ascending = order?.lowercased() == "asc"
        func key(_ repository: IndexedRepository) -> Double? {
            switch sort?.lowercased() {
            case "stars": Double(repository.fixture.stargazersCount)
            case "forks": Double(repository.fixture.forksCount)
            case "updated": repository.fixture.updatedAt.timeIntervalSince1970
            case "help-wanted-issues": Double(repository.fixture.openIssuesCount)
            default: nil
            }
        }
        return matches.sorted { lhs, rhs in
            if let left = key(lhs.repository), let right = key(rhs.repository), left != right {
                return ascending ? left < right : left > right
            }
            if key(lhs.repository) == nil, lhs.score != rhs.score {
                return lhs.score > rhs.score
            }
            return lhs.repository.fixture.id < rhs.repository.fixture.id
        }
    }
}
