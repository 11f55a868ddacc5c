import Foundation
import MockGitHubAPI
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A repository as a GitHub client would decode it (written independently of the
/// server's payload types, so the tests check the wire format, not the encoder).
struct ClientRepository: Decodable, Equatable {
    struct Owner: Decodable, Equatable {
        var login: String
        var id: Int
        var avatarUrl: String
        var htmlUrl: String
        var type: String
    }

    struct License: Decodable, Equatable {
        var key: String
        var spdxId: String
    }

    var id: Int
    var nodeId: String
    var name: String
    var fullName: String
    var owner: Owner
    var htmlUrl: String
    var url: String
    var description: String?
    var language: String?
    var stargazersCount: Int
    var watchersCount: Int
    var forksCount: Int
    var openIssuesCount: Int
    var createdAt: Date
    var updatedAt: Date
    var pushedAt: Date
    var fork: Bool
    var archived: Bool
    var topics: [String]
    var license: License?
    var defaultBranch: String
    var score: Double?
}

struct ClientSearchResults: Decodable {
    var totalCount: Int
    var incompleteResults: Bool
    var items: [ClientRepository]
}

/// One HTTP exchange's result.
struct HTTPResult {
    var status: Int
    var response: HTTPURLResponse
    var body: Data

    func header(_ name: String) -> String? {
        response.value(forHTTPHeaderField: name)
    }

    func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try HTTPResult.decoder.decode(T.self, from: body)
    }

    /// The body as a JSON object (fails the test when it is not one).
    func jsonObject(file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: body)
        return try XCTUnwrap(object as? [String: Any], "not a JSON object: \(String(decoding: body, as: UTF8.self))", file: file, line: line)
    }

    /// `rel` → URL from the `Link` header.
    var links: [String: URL] {
        guard let header = header("Link") else { return [:] }
        var links: [String: URL] = [:]
        for part in header.components(separatedBy: ", ") {
            let pieces = part.components(separatedBy: "; ")
            guard pieces.count == 2, pieces[0].hasPrefix("<"), pieces[0].hasSuffix(">"),
                  pieces[1].hasPrefix("rel=\""), let url = URL(string: String(pieces[0].dropFirst().dropLast()))
            else { continue }
            links[String(pieces[1].dropFirst(5).dropLast())] = url
        }
        return links
    }

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

/// A real `URLSession` client for the tests (no cache, no cookies, short timeouts).
final class TestClient: Sendable {
    let session: URLSession

    init(timeout: TimeInterval = 15) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    func get(_ url: URL) async throws -> HTTPResult {
        let (data, response) = try await session.data(from: url)
        let http = try XCTUnwrap(response as? HTTPURLResponse)
        return HTTPResult(status: http.statusCode, response: http, body: data)
    }

    /// GET `server.baseURL` + `pathAndQuery` (already percent-encoded).
    func get(_ server: MockGitHubServer, _ pathAndQuery: String) async throws -> HTTPResult {
        try await get(XCTUnwrap(URL(string: server.baseURL.absoluteString + pathAndQuery)))
    }

    /// A blocking GET, for tests of the blocking API.
    func getBlocking(_ url: URL) throws -> HTTPResult {
        let outcome = Box<Result<HTTPResult, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: url) { data, response, error in
            if let error {
                outcome.value = .failure(error)
            } else if let http = response as? HTTPURLResponse {
                outcome.value = .success(HTTPResult(status: http.statusCode, response: http, body: data ?? Data()))
            } else {
                outcome.value = .failure(URLError(.badServerResponse))
            }
            done.signal()
        }.resume()
        done.wait()
        return try XCTUnwrap(outcome.value).get()
    }
}

/// A lock-protected box for values written from other threads.
final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    func mutate(_ body: (inout Value) -> Void) {
        lock.withLock { body(&stored) }
    }
}

/// Percent-encodes a query value (spaces as `%20`, `:` and the like escaped).
func encoded(_ value: String) -> String {
    value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
}

extension Date {
    /// `2021-04-30` or `2021-04-30T12:00:00Z`, UTC.
    static func utc(_ text: String) -> Date {
        let full = text.contains("T") ? text : text + "T00:00:00Z"
        return try! Date(full, strategy: .iso8601)
    }
}

/// A small hand-made fixture set with known answers.
enum SmallFixtures {
    static let set = FixtureSet(
        accounts: [
            .init(login: "alice", id: 10, createdAt: .utc("2012-01-01")),
            .init(login: "Bob-Builder", id: 11, createdAt: .utc("2013-01-01")),
            .init(login: "acme", id: 12, type: "Organization", createdAt: .utc("2014-01-01")),
        ],
        repositories: [
            .init(
                id: 101, owner: "alice", name: "ripple-kit", description: "Reactive streams for Swift",
                language: "Swift", topics: ["reactive", "swift"], stargazersCount: 900, forksCount: 40,
                openIssuesCount: 3, license: "MIT", createdAt: .utc("2019-03-01"), updatedAt: .utc("2024-01-10"),
                pushedAt: .utc("2024-01-09")),
            .init(
                id: 102, owner: "alice", name: "notes", description: "Personal notes app", language: "TypeScript",
                topics: ["notes"], stargazersCount: 5, forksCount: 0, createdAt: .utc("2020-06-15"),
                updatedAt: .utc("2021-02-01"), pushedAt: .utc("2021-01-31")),
            .init(
                id: 103, owner: "Bob-Builder", name: "Tidepool", description: "A database for tide tables",
                language: "Rust", topics: ["database"], stargazersCount: 120, forksCount: 9,
                createdAt: .utc("2018-11-20"), updatedAt: .utc("2023-05-05"), pushedAt: .utc("2023-05-01")),
            .init(
                id: 104, owner: "Bob-Builder", name: "ripple-kit", description: "Fork of alice's ripple-kit",
                language: "Swift", topics: [], stargazersCount: 1, fork: true, createdAt: .utc("2021-07-07")),
            .init(
                id: 105, owner: "acme", name: "acme-cli", description: "Command-line tools by ACME", language: "Go",
                topics: ["cli", "reactive"], stargazersCount: 42000, forksCount: 3100, archived: true,
                license: "Apache-2.0", createdAt: .utc("2015-02-02"), updatedAt: .utc("2022-12-24"),
                pushedAt: .utc("2022-12-01")),
            .init(
                id: 106, owner: "acme", name: "swift-reactive-demo", description: nil, language: "Swift",
                topics: ["demo"], stargazersCount: 120, createdAt: .utc("2023-09-09"), updatedAt: .utc("2024-03-03"),
                pushedAt: .utc("2024-03-02")),
        ]
    )
}

/// Base class: starts servers and stops them all at the end of each test.
class ServerTestCase: XCTestCase {
    private let started = Box<[MockGitHubServer]>([])
    let client = TestClient()

    func startServer(_ configure: (inout MockGitHubConfiguration) -> Void = { _ in }) async throws -> MockGitHubServer {
        var configuration = MockGitHubConfiguration()
        configure(&configuration)
        let server = try await MockGitHubServer.start(configuration: configuration)
        started.mutate { $0.append(server) }
        return server
    }

    override func tearDown() async throws {
        for server in started.value {
            await server.stop()
        }
        started.value = []
        try await super.tearDown()
    }
}
