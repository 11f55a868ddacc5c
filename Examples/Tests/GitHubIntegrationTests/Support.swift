import Foundation
import GitHubKit
import GitHubSearch
import GitHubStore
import MockGitHubAPI
import Ripple
import RippleHTTP
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Starts mock servers (blocking, from the test's thread) and stops them after
/// each test.
class MockServerTestCase: XCTestCase {
    private var servers: [MockGitHubServer] = []
    var temporaryFiles: [URL] = []

    func startServer(port: Int = 0, _ configure: (inout MockGitHubConfiguration.Behavior) -> Void = { _ in }) throws -> MockGitHubServer {
        var configuration = MockGitHubConfiguration(port: port)
        configure(&configuration.behavior)
        let server = try MockGitHubServer.startBlocking(configuration: configuration)
        servers.append(server)
        return server
    }

    /// A GitHub client with the real transport the demos use (`makeHTTPClient()`:
    /// `AsyncHTTPClientTransport` on Linux, `URLSessionHTTPClient` elsewhere).
    func client(for url: URL, retryPolicy: GitHubRetryPolicy = .default) -> GitHubClient {
        GitHubClient(session: Session(client: makeHTTPClient(), timeout: .seconds(10)), baseURL: url, retryPolicy: retryPolicy)
    }

    func temporaryFile(_ name: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-it-\(UUID().uuidString)-\(name)")
        temporaryFiles.append(url)
        return url
    }

    override func tearDown() {
        for server in servers { server.stopBlocking() }
        servers = []
        for file in temporaryFiles { try? FileManager.default.removeItem(at: file) }
        temporaryFiles = []
        super.tearDown()
    }
}

/// Values written from other threads, read by the test.
final class Recorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []

    func append(_ value: Value) { lock.withLock { stored.append(value) } }
    var values: [Value] { lock.withLock { stored } }

    /// Waits (up to `timeout` seconds) until a recorded value satisfies `predicate`.
    @discardableResult
    func wait(timeout: TimeInterval = 20, file: StaticString = #filePath, line: UInt = #line, for predicate: (Value) -> Bool) -> Value? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let match = values.last(where: predicate) { return match }
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTFail("timed out; recorded: \(values)", file: file, line: line)
        return nil
    }
}

/// `github-search` run as a subprocess.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// An executable of this package built next to this test bundle (the same build
/// directory and configuration), else in `Examples/.build/debug`; skips the test
/// when there is none.
func builtExecutable(named name: String) throws -> URL {
    var candidates: [URL] = []
    if let executable = Bundle.main.executableURL {
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent(name))
    }
    candidates.append(Bundle.main.bundleURL.appendingPathComponent(name))
    let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(examples.appendingPathComponent(".build/debug/\(name)"))
    guard let url = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw XCTSkip("\(name) is not built; run `swift build --package-path Examples` (swift test builds it)")
    }
    return url
}

/// `mock-github-api` in a process of its own, so that a test can kill it outright
/// (SIGKILL: no graceful shutdown, connections in flight are cut by the kernel).
final class MockServerProcess {
    let process = Process()
    let port: Int
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    init(arguments: [String]) throws {
        process.executableURL = try builtExecutable(named: "mock-github-api")
        process.arguments = ["--host", "127.0.0.1", "--port", "0", "--quiet"] + arguments
        process.standardInput = FileHandle.nullDevice
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line says where it listens: "Mock GitHub API listening on http://127.0.0.1:PORT".
        var output = Data()
        let handle = stdout.fileHandleForReading
        while !output.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            output.append(chunk)
        }
        let line = String(decoding: output, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard let colon = line.lastIndex(of: ":"), let port = Int(line[line.index(after: colon)...]) else {
            process.terminate()
            throw NSError(domain: "MockServerProcess", code: 1, userInfo: [NSLocalizedDescriptionKey: "unexpected first line: \(line)"])
        }
        self.port = port
        // Keep draining its output so that it never blocks on a full pipe.
        DispatchQueue.global().async { _ = handle.readDataToEndOfFile() }
    }

    /// SIGKILL, then waits until the process is gone (its port is free).
    func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { kill() }
}

enum GitHubSearchExecutable {
    /// Runs it with `arguments`, standard input from `/dev/null` (not a terminal).
    static func run(_ arguments: [String], timeout: TimeInterval = 60) throws -> CommandResult {
        try DemoExecutable.run("github-search", arguments, timeout: timeout)
    }
}

/// One of this package's executables run as a subprocess.
enum DemoExecutable {
    /// Runs `name` with `arguments`; standard input is `input` through a pipe, or
    /// `/dev/null` (neither is a terminal).
    static func run(_ name: String, _ arguments: [String], input: Data? = nil, timeout: TimeInterval = 60) throws -> CommandResult {
        let process = Process()
        process.executableURL = try builtExecutable(named: name)
        process.arguments = arguments
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-it-cache").path
        process.environment = environment
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(input)
            try stdin.fileHandleForWriting.close()
        }
        // Read both pipes while it runs (a full pipe would block it).
        let output = Recorder<Data>()
        let errors = Recorder<Data>()
        let group = DispatchGroup()
        for (pipe, recorder) in [(stdout, output), (stderr, errors)] {
            group.enter()
            DispatchQueue.global().async {
                recorder.append(pipe.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            XCTFail("\(name) \(arguments) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        group.wait()
        return CommandResult(
            status: process.terminationStatus,
            stdout: String(decoding: output.values.first ?? Data(), as: UTF8.self),
            stderr: String(decoding: errors.values.first ?? Data(), as: UTF8.self))
    }
}
