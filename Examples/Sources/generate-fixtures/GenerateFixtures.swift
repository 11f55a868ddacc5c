import ArgumentParser
import Foundation
import MockGitHubAPI

/// `generate-fixtures`: writes the mock server's bundled fixture set from its seed.
@main
struct GenerateFixtures: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-fixtures",
        abstract: "Generate the invented accounts and repositories the mock GitHub API serves.",
        discussion: """
            With no options, rewrites Sources/MockGitHubAPI/Resources/fixtures.json exactly as
            committed. --check compares instead of writing and fails when the file is stale.
            """
    )

    @Option(help: "The generator's seed.")
    var seed: UInt64 = FixtureGenerator.defaultSeed

    @Option(help: "How many accounts (users and organizations).")
    var accounts = FixtureGenerator().accountCount

    @Option(help: "How many repositories.")
    var repositories = FixtureGenerator().repositoryCount

    @Option(help: ArgumentHelp("Where to write (default: the bundled resource in this package).", valueName: "file"))
    var output: String?

    @Flag(help: "Don't write; exit with an error if the file differs from what would be written.")
    var check = false

    func validate() throws {
        guard accounts > 0 else { throw ValidationError("--accounts must be positive.") }
        guard repositories >= 0 else { throw ValidationError("--repositories must not be negative.") }
    }

    func run() throws {
        let generator = FixtureGenerator(seed: seed, accountCount: accounts, repositoryCount: repositories)
        let fixtures = generator.generate()
        let data = try fixtures.jsonData()
        let url = output.map { URL(fileURLWithPath: $0) } ?? Self.bundledResource

        if check {
            let existing = try? Data(contentsOf: url)
            guard existing == data else {
                throw ValidationError("\(url.path) is stale: run `swift run --package-path Examples generate-fixtures`.")
            }
            print("\(url.path) is up to date.")
            return
        }
        try data.write(to: url, options: .atomic)
        print("Wrote \(url.path) (\(data.count) bytes).")
        print(Self.summary(fixtures))
    }

    /// `Examples/Sources/MockGitHubAPI/Resources/fixtures.json`, found from this source file.
    static var bundledResource: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("MockGitHubAPI/Resources/fixtures.json")
    }

    static func summary(_ fixtures: FixtureSet) -> String {
        let stars = fixtures.repositories.map(\.stargazersCount).sorted()
        func percentile(_ p: Double) -> Int {
            stars.isEmpty ? 0 : stars[min(stars.count - 1, Int(Double(stars.count) * p))]
        }
        var languages: [String: Int] = [:]
        for repository in fixtures.repositories {
            languages[repository.language ?? "(none)", default: 0] += 1
        }
        let topLanguages = languages.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
            .prefix(8).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let organizations = fixtures.accounts.filter(\.isOrganization).count
        return """
            \(fixtures.accounts.count) accounts (\(organizations) organizations), \(fixtures.repositories.count) repositories
            stars: median \(percentile(0.5)), 90th percentile \(percentile(0.9)), 99th \(percentile(0.99)), max \(stars.last ?? 0)
            languages: \(topLanguages)
            """
    }
}
