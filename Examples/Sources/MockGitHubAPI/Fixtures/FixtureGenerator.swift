import Foundation

/// Generates a plausible but entirely invented fixture set from a seed.
///
/// Everything is made up here from small word lists: account names, repository names,
/// descriptions, topics. Star counts follow a long-tailed (Pareto-like) distribution,
/// so most repositories have a handful of stars and a few have tens of thousands;
/// creation dates spread over about twelve years before ``referenceDate``, and
/// repositories with more stars tend to have been pushed to more recently.
///
/// The same seed and settings give the same set: the generator draws only from
/// ``SplitMix64``, never from the standard library's random algorithms. (It does use
/// `pow`, whose last-bit rounding may differ between C libraries, so the generated file
/// is committed rather than regenerated at build time.) The bundled `fixtures.json` is
/// `FixtureGenerator().generate()`; a test checks that the two agree.
public struct FixtureGenerator: Sendable {
    /// The seed of the bundled fixture set.
    public static let defaultSeed: UInt64 = 0x5269_7070_6C65  // "Ripple"
    /// The instant every generated date precedes: 2025-06-01T00:00:00Z.
    public static let defaultReferenceDate = Date(timeIntervalSince1970: 1_748_736_000)

    public var seed: UInt64
    public var accountCount: Int
    public var repositoryCount: Int
    public var referenceDate: Date

    public init(
        seed: UInt64 = FixtureGenerator.defaultSeed,
        accountCount: Int = 36,
        repositoryCount: Int = 420,
        referenceDate: Date = FixtureGenerator.defaultReferenceDate
    ) {
        self.seed = seed
        self.accountCount = max(1, accountCount)
        self.repositoryCount = max(0, repositoryCount)
        self.referenceDate = referenceDate
    }

    /// Builds the fixture set.
    public func generate() -> FixtureSet {
        var rng = SplitMix64(seed: seed)
        let now = Int(referenceDate.timeIntervalSince1970)
        let day = 86_400
        let earliest = now - 12 * 365 * day

        // Accounts: people and organizations with a favourite language and a popularity.
        var logins = Set<String>()
        var unusedStems = Self.organizationStems
        var drafts: [AccountDraft] = []
        for index in 0..<accountCount {
            let isOrganization = index % 4 == 3
            var login: String
            if isOrganization {
                let stem = unusedStems.isEmpty ? rng.pick(Self.organizationStems) : unusedStems.remove(at: rng.uniform(unusedStems.count))
                login = stem + rng.pick(Self.organizationSuffixes)
            } else {
                login = Self.personLogin(&rng)
            }
            while logins.contains(login.lowercased()) {
                login += String(rng.uniform(in: 2...99))
            }
            logins.insert(login.lowercased())
            let created = earliest - rng.uniform(3 * 365 * day) + rng.uniform(8 * 365 * day)
            drafts.append(
                AccountDraft(
                    login: login,
                    isOrganization: isOrganization,
                    createdAt: created,
                    favouriteLanguage: rng.weighted(Self.languages),
                    popularity: isOrganization ? 2.0 + rng.unit() * 4 : 0.3 + rng.unit() * 2.2,
                    weight: 1 / pow(Double(index % 12) + 1.5, 0.7) * (isOrganization ? 1.6 : 1)
                )
            )
        }
        // Account ids grow with the account's creation date, as on GitHub.
        let accountOrder = drafts.indices.sorted { drafts[$0].createdAt < drafts[$1].createdAt }
        var accountIds = [Int](repeating: 0, count: drafts.count)
        var nextAccountId = 48_213
        for index in accountOrder {
            nextAccountId += 1_500 + rng.uniform(900_000)
            accountIds[index] = nextAccountId
        }

        // Repositories: every account gets at least two, the rest go by weight.
        var ownerIndices: [Int] = []
        for index in drafts.indices where ownerIndices.count + 2 <= repositoryCount {
            ownerIndices += [index, index]
        }
        let weights = drafts.enumerated().map { ($0.offset, $0.element.weight) }
        while ownerIndices.count < repositoryCount {
            ownerIndices.append(rng.weighted(weights))
        }

        var namesPerOwner: [Int: Set<String>] = [:]
        var repositories: [(created: Int, repository: FixtureSet.Repository)] = []
        for ownerIndex in ownerIndices {
            let owner = drafts[ownerIndex]
            let language: String? =
                rng.chance(0.6) ? owner.favouriteLanguage : rng.weighted(Self.languages)
            let domain = rng.pick(Self.domains)
            var name = Self.repositoryName(&rng, domain: domain, language: language)
            var taken = namesPerOwner[ownerIndex, default: []]
            while taken.contains(name.lowercased()) {
                name = Self.repositoryName(&rng, domain: domain, language: language)
                if taken.contains(name.lowercased()) { name += "-\(rng.uniform(in: 2...9))" }
            }
            taken.insert(name.lowercased())
            namesPerOwner[ownerIndex] = taken

            let firstPossible = max(owner.createdAt + 30 * day, earliest)
            let created = firstPossible + rng.uniform(max(1, now - 45 * day - firstPossible))
            // Pareto-distributed stars, scaled by the owner's popularity and the repository's age.
            let ageYears = Double(now - created) / Double(365 * day)
            let pareto = 1 / pow(1 - rng.unit(), 1 / 0.85) - 1
            let stars = min(92_000, Int(pareto * 4 * owner.popularity * (0.4 + min(ageYears, 6) / 4)))
            let forks = Int(Double(stars) * (0.03 + rng.unit() * 0.2)) + (rng.chance(0.3) ? rng.uniform(4) : 0)
            let openIssues = Int(Double(stars) * rng.unit() * 0.02) + (rng.chance(0.5) ? rng.uniform(6) : 0)
            // Popular repositories are pushed to recently; quiet ones may have gone stale years ago.
            let activity = min(1, Double(stars) / 2_000 + rng.unit() * 0.6)
            let pushed = created + Int(Double(now - created) * (1 - (1 - activity) * (1 - activity)) * (0.7 + rng.unit() * 0.3))
            let updated = min(now - 1, pushed + rng.uniform(40 * day))
            let topics = Self.topics(&rng, domain: domain, language: language)

            let repository = FixtureSet.Repository(
                id: 0,
                owner: owner.login,
                name: name,
                description: rng.chance(0.07) ? nil : Self.description(&rng, domain: domain, language: language),
                language: language,
                topics: topics,
                stargazersCount: stars,
                forksCount: forks,
                openIssuesCount: openIssues,
                size: Int(pow(10, 1.3 + rng.unit() * 3.7)),
                fork: rng.chance(0.06),
                archived: activity < 0.15 && rng.chance(0.35),
                license: rng.weighted(Self.licenses),
                homepage: rng.chance(0.14) ? "https://\(name.lowercased()).example.org" : nil,
                defaultBranch: created < now - 5 * 365 * day && rng.chance(0.6) ? "master" : "main",
                createdAt: Date(timeIntervalSince1970: TimeInterval(created)),
                updatedAt: Date(timeIntervalSince1970: TimeInterval(updated)),
                pushedAt: Date(timeIntervalSince1970: TimeInterval(pushed))
            )
            repositories.append((created, repository))
        }
        // Repository ids grow with creation date, as on GitHub.
        repositories.sort { $0.created < $1.created || ($0.created == $1.created && $0.repository.fullName < $1.repository.fullName) }
        var nextRepositoryId = 1_204_117
        let finalRepositories = repositories.map { entry -> FixtureSet.Repository in
            nextRepositoryId += 1_000 + rng.uniform(2_400_000)
            var repository = entry.repository
            repository.id = nextRepositoryId
            return repository
        }

        let accounts = drafts.enumerated().map { index, draft in
            FixtureSet.Account(
                login: draft.login,
                id: accountIds[index],
                type: draft.isOrganization ? "Organization" : "User",
                createdAt: Date(timeIntervalSince1970: TimeInterval(draft.createdAt))
            )
        }
        return FixtureSet(
            generator: .init(
                seed: seed,
                repositoryCount: repositoryCount,
                accountCount: accountCount,
                referenceDate: referenceDate,
                note: "Invented data for Ripple's examples, generated by `swift run generate-fixtures`; not taken from GitHub."
            ),
            accounts: accounts.sorted { $0.login.lowercased() < $1.login.lowercased() },
            repositories: finalRepositories.sorted { $0.id < $1.id }
        )
    }

    private struct AccountDraft {
        var login: String
        var isOrganization: Bool
        var createdAt: Int
        var favouriteLanguage: String?
        var popularity: Double
        var weight: Double
    }

    // MARK: - Word lists (all invented for this project)

    static let languages: [(String?, Double)] = [
        ("Swift", 24), ("Rust", 10), ("Go", 10), ("TypeScript", 11), ("Python", 11), ("JavaScript", 7),
        ("Kotlin", 5), ("C", 4), ("C++", 4), ("Ruby", 3), ("Shell", 3), ("Java", 3), ("Elixir", 1.5),
        ("Haskell", 1), ("Zig", 1), ("Lua", 1), (nil, 2.5),
    ]

    static let licenses: [(String?, Double)] = [
        ("MIT", 45), ("Apache-2.0", 24), ("BSD-3-Clause", 7), ("GPL-3.0", 5), ("MPL-2.0", 3), ("ISC", 2), (nil, 14),
    ]

    private static let firstSyllables = [
        "ka", "mi", "to", "ve", "ra", "lo", "su", "de", "an", "or", "el", "ni", "bo", "ta", "fe", "jo", "ri", "ma",
        "se", "qu", "za", "hu", "ly", "ne",
    ]
    private static let middleSyllables = [
        "ren", "lin", "dar", "vik", "sel", "mon", "tas", "wyn", "bel", "ko", "ri", "sa", "lo", "mi", "tha", "ven",
    ]
    private static let endings = ["", "a", "o", "ek", "in", "as", "el", "y", "ia", "on"]
    private static let surnames = [
        "okafor", "brandt", "vale", "moreau", "haskins", "ilves", "tanaka", "quist", "ferro", "lindqvist", "osei",
        "marsh", "kovac", "deluca", "ward", "nakamura", "petrov", "achebe", "holm", "reyes",
    ]
    private static let organizationStems = [
        "lantern", "quietfox", "tideline", "copperleaf", "northwind", "pebble", "harbor", "emberline", "saltmarsh",
        "lumen", "driftwood", "kestrel", "glasswing", "ironbark", "meadow", "orbitfall", "paperkite", "sundial",
    ]
    private static let organizationSuffixes = ["works", "labs", "hq", "-dev", "collective", "-io", "soft", "foundry"]

    private static func personLogin(_ rng: inout SplitMix64) -> String {
        let given = rng.pick(firstSyllables) + rng.pick(middleSyllables) + rng.pick(endings)
        switch rng.uniform(5) {
        case 0: return given
        case 1: return "\(given)-\(rng.pick(surnames))"
        case 2: return "\(given.prefix(1))\(rng.pick(surnames))"
        case 3: return "\(given)\(rng.uniform(in: 7...99))"
        default: return "\(given)\(["dev", "codes", "hacks", "io", "builds"][rng.uniform(5)])"
        }
    }

    struct Domain: Sendable {
        var topic: String
        var nouns: [String]
        var things: [String]
        var purposes: [String]
        var extraTopics: [String]
    }

    static let domains: [Domain] = [
        Domain(
            topic: "networking", nouns: ["wire", "socket", "relay", "courier", "packet", "beacon"],
            things: ["HTTP client", "connection pool", "request router", "WebSocket library", "retry toolkit"],
            purposes: ["flaky mobile networks", "talking to REST APIs", "offline-first apps", "service meshes"],
            extraTopics: ["http", "rest-api", "websocket", "client"]),
        Domain(
            topic: "reactive", nouns: ["ripple", "stream", "signal", "current", "flux", "tide"],
            things: ["reactive streams library", "observable toolkit", "event bus", "state container", "binding layer"],
            purposes: ["MVVM apps", "composing asynchronous events", "UI state", "real-time dashboards"],
            extraTopics: ["rx", "observable", "functional-reactive-programming", "mvvm"]),
        Domain(
            topic: "cli", nouns: ["shell", "prompt", "compass", "hatch", "lever", "spool"],
            things: ["command-line tool", "terminal UI kit", "argument parser", "task runner", "dotfiles manager"],
            purposes: ["everyday scripting", "release automation", "tidy terminals", "developer workflows"],
            extraTopics: ["terminal", "tui", "command-line", "productivity"]),
        Domain(
            topic: "database", nouns: ["ledger", "vault", "cellar", "archive", "granary", "index"],
            things: ["embedded key-value store", "SQLite wrapper", "query builder", "migration tool", "cache layer"],
            purposes: ["local-first apps", "analytics pipelines", "fast lookups", "schema changes without downtime"],
            extraTopics: ["sqlite", "orm", "storage", "cache"]),
        Domain(
            topic: "parsing", nouns: ["lexer", "quill", "glyph", "scribe", "sieve", "prism"],
            things: ["parser combinator library", "Markdown renderer", "TOML reader", "syntax highlighter", "JSON decoder"],
            purposes: ["config files", "static site generators", "documentation tooling", "log analysis"],
            extraTopics: ["parser", "markdown", "json", "compiler"]),
        Domain(
            topic: "graphics", nouns: ["canvas", "pixel", "lumen", "shade", "mosaic", "easel"],
            things: ["2D rendering engine", "shader playground", "image resizer", "vector drawing kit", "colour toolkit"],
            purposes: ["generative art", "game prototypes", "photo pipelines", "data visualisation"],
            extraTopics: ["rendering", "shaders", "image-processing", "visualization"]),
        Domain(
            topic: "audio", nouns: ["chime", "echo", "tempo", "reed", "cadence", "drone"],
            things: ["audio synthesis library", "MIDI toolkit", "sample player", "spectrum analyser", "beat tracker"],
            purposes: ["live performance", "podcast editing", "music education", "sound design"],
            extraTopics: ["midi", "dsp", "synthesizer", "music"]),
        Domain(
            topic: "testing", nouns: ["probe", "gauge", "sentinel", "harness", "lens", "mirror"],
            things: ["snapshot testing library", "property-based test kit", "mock server", "fuzzing harness", "test runner"],
            purposes: ["catching regressions early", "flaky test hunting", "contract testing", "CI pipelines"],
            extraTopics: ["unit-testing", "mocking", "fuzzing", "ci"]),
        Domain(
            topic: "machine-learning", nouns: ["neuron", "tensor", "oracle", "cortex", "gradient", "sage"],
            things: ["tiny inference runtime", "feature store", "dataset loader", "training loop helper", "embedding index"],
            purposes: ["on-device models", "recommendation experiments", "teaching ML basics", "edge devices"],
            extraTopics: ["deep-learning", "inference", "embeddings", "data-science"]),
        Domain(
            topic: "devops", nouns: ["harbor", "crane", "anchor", "forge", "lighthouse", "pylon"],
            things: ["deployment tool", "container image builder", "log shipper", "metrics exporter", "config linter"],
            purposes: ["small teams", "self-hosted clusters", "zero-downtime releases", "observability"],
            extraTopics: ["kubernetes", "docker", "monitoring", "infrastructure"]),
        Domain(
            topic: "game-development", nouns: ["quest", "sprite", "dungeon", "arcade", "voxel", "meeple"],
            things: ["game engine", "tile map editor", "entity component system", "physics toy", "roguelike"],
            purposes: ["game jams", "retro platformers", "board game prototypes", "learning game design"],
            extraTopics: ["gamedev", "ecs", "pixel-art", "roguelike"]),
        Domain(
            topic: "security", nouns: ["cipher", "warden", "keystone", "bastion", "latch", "seal"],
            things: ["password hashing library", "secrets manager", "TLS inspector", "signing tool", "audit log"],
            purposes: ["safer defaults", "key rotation", "supply-chain checks", "compliance reports"],
            extraTopics: ["cryptography", "encryption", "authentication", "secrets"]),
    ]

    private static let adjectives = [
        "tiny", "fast", "friendly", "minimal", "type-safe", "batteries-included", "zero-dependency", "pragmatic",
        "composable", "experimental", "lightweight", "declarative",
    ]
    private static let prefixes = ["quick", "little", "open", "bright", "calm", "nimble", "hollow", "amber", "silver"]

    private static func repositoryName(_ rng: inout SplitMix64, domain: Domain, language: String?) -> String {
        let noun = rng.pick(domain.nouns)
        let capitalised = noun.prefix(1).uppercased() + noun.dropFirst()
        switch (language, rng.uniform(6)) {
        case ("Swift", 0): return "\(capitalised)Kit"
        case ("Swift", 1): return "Swift\(capitalised)"
        case ("Rust", 0): return "\(noun)-rs"
        case ("Go", 0): return "go-\(noun)"
        case ("Python", 0): return "py\(noun)"
        case ("JavaScript", 0), ("TypeScript", 0): return "\(noun).js"
        case ("Kotlin", 0): return "\(capitalised)KT"
        case (_, 2): return "\(rng.pick(prefixes))-\(noun)"
        case (_, 3): return "\(noun)-\(domain.topic.split(separator: "-")[0])"
        case (_, 4): return "\(noun)\(["ly", "er", "kit", "box", "hub"][rng.uniform(5)])"
        default: return noun
        }
    }

    private static func description(_ rng: inout SplitMix64, domain: Domain, language: String?) -> String {
        let thing = rng.pick(domain.things)
        let purpose = rng.pick(domain.purposes)
        let adjective = rng.pick(adjectives)
        let article = "aeiou".contains(adjective.prefix(1)) ? "An" : "A"
        let written = language.map { " written in \($0)" } ?? ""
        switch rng.uniform(5) {
        case 0: return "\(article) \(adjective) \(thing) for \(purpose)."
        case 1: return "\(thing.prefix(1).uppercased() + thing.dropFirst())\(written), built for \(purpose)."
        case 2: return "\(article) \(adjective) \(thing)\(written)."
        case 3: return "Yet another \(thing), but \(adjective). Made for \(purpose)."
        default: return "\(thing.prefix(1).uppercased() + thing.dropFirst()) for \(purpose) (work in progress)."
        }
    }

    private static func topics(_ rng: inout SplitMix64, domain: Domain, language: String?) -> [String] {
        var topics: [String] = []
        if let language, rng.chance(0.75) {
            topics.append(language.lowercased().replacingOccurrences(of: "+", with: "p").replacingOccurrences(of: " ", with: "-"))
        }
        if rng.chance(0.85) { topics.append(domain.topic) }
        for _ in 0..<rng.uniform(3) {
            let extra = rng.pick(domain.extraTopics)
            if !topics.contains(extra) { topics.append(extra) }
        }
        return topics
    }
}
