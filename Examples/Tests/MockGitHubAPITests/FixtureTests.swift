import Foundation
import MockGitHubAPI
import XCTest

final class FixtureTests: XCTestCase {
    func testBundledFixturesAreWhatTheGeneratorMakes() throws {
        let bundled = try FixtureSet.bundled()
        let generated = FixtureGenerator().generate()
        XCTAssertEqual(bundled.generator?.seed, FixtureGenerator.defaultSeed)
        // If this fails, run `swift run --package-path Examples generate-fixtures` and commit the file.
        XCTAssertEqual(bundled, generated)
        XCTAssertEqual(try bundled.jsonData(), try generated.jsonData())
    }

    func testTheGeneratorIsDeterministicAndSeedDependent() {
        let small = FixtureGenerator(seed: 99, accountCount: 5, repositoryCount: 30)
        XCTAssertEqual(small.generate(), small.generate())
        XCTAssertNotEqual(small.generate(), FixtureGenerator(seed: 100, accountCount: 5, repositoryCount: 30).generate())
        XCTAssertEqual(small.generate().repositories.count, 30)
        XCTAssertEqual(small.generate().accounts.count, 5)
    }

    func testBundledFixturesHaveTheAdvertisedSizeAndShape() throws {
        let fixtures = try FixtureSet.bundled()
        XCTAssertGreaterThanOrEqual(fixtures.repositories.count, 300)
        XCTAssertGreaterThanOrEqual(fixtures.accounts.count, 24)
        XCTAssertTrue(fixtures.accounts.contains(where: \.isOrganization))

        let logins = Set(fixtures.accounts.map { $0.login.lowercased() })
        XCTAssertEqual(logins.count, fixtures.accounts.count, "logins are unique")
        XCTAssertEqual(Set(fixtures.accounts.map(\.id)).count, fixtures.accounts.count, "account ids are unique")
        XCTAssertEqual(Set(fixtures.repositories.map(\.id)).count, fixtures.repositories.count, "repository ids are unique")
        XCTAssertEqual(
            Set(fixtures.repositories.map { $0.fullName.lowercased() }).count, fixtures.repositories.count,
            "full names are unique")
        for repository in fixtures.repositories {
            XCTAssertTrue(logins.contains(repository.owner.lowercased()), "\(repository.fullName) has an owner")
            XCTAssertLessThanOrEqual(repository.createdAt, repository.pushedAt, repository.fullName)
            XCTAssertLessThanOrEqual(repository.pushedAt, repository.updatedAt, repository.fullName)
            XCTAssertLessThan(repository.updatedAt, FixtureGenerator.defaultReferenceDate, repository.fullName)
            XCTAssertTrue(repository.topics.allSatisfy { $0 == $0.lowercased() && !$0.contains(" ") }, repository.fullName)
        }
        // Every account owns something, so every /users/{user}/repos is non-empty.
        XCTAssertEqual(Set(fixtures.repositories.map { $0.owner.lowercased() }), logins)
    }

    func testStarsAreLongTailedAndDatesSpanYears() throws {
        let fixtures = try FixtureSet.bundled()
        let stars = fixtures.repositories.map(\.stargazersCount).sorted()
        let median = stars[stars.count / 2]
        XCTAssertLessThan(median, 60, "most repositories have few stars")
        XCTAssertGreaterThan(stars.last ?? 0, 5_000, "a few have very many")
        XCTAssertGreaterThan(stars.last ?? 0, median * 200)
        XCTAssertTrue(stars.contains(0))

        let years = Set(fixtures.repositories.map { Calendar(identifier: .gregorian).component(.year, from: $0.createdAt) })
        XCTAssertGreaterThanOrEqual(years.count, 8)
        XCTAssertGreaterThanOrEqual(Set(fixtures.repositories.compactMap(\.language)).count, 10)
        XCTAssertTrue(fixtures.repositories.contains { $0.language == nil })
        XCTAssertTrue(fixtures.repositories.contains { $0.description == nil })
        XCTAssertTrue(fixtures.repositories.contains(where: \.fork))
        XCTAssertTrue(fixtures.repositories.contains(where: \.archived))
    }

    func testFixtureFilesRoundTrip() throws {
        let data = try SmallFixtures.set.jsonData()
        XCTAssertEqual(try FixtureSet(jsonData: data), SmallFixtures.set)
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains(#""created_at" : "2019-03-01T00:00:00Z""#))
    }

    func testInconsistentFixturesAreRejected() {
        var orphan = SmallFixtures.set
        orphan.repositories.append(.init(id: 999, owner: "nobody", name: "x", createdAt: .utc("2020-01-01")))
        XCTAssertThrowsError(try MockGitHubEndpoints(fixtures: orphan))

        var duplicate = SmallFixtures.set
        duplicate.accounts.append(.init(login: "ALICE", id: 77, createdAt: .utc("2020-01-01")))
        XCTAssertThrowsError(try MockGitHubEndpoints(fixtures: duplicate))

        var twice = SmallFixtures.set
        twice.repositories.append(.init(id: 998, owner: "alice", name: "Ripple-Kit", createdAt: .utc("2020-01-01")))
        XCTAssertThrowsError(try MockGitHubEndpoints(fixtures: twice))
    }
}
