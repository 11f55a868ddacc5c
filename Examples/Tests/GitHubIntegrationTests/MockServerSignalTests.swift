import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `mock-github-api` stops promptly on Ctrl-C (SIGINT) or SIGTERM even while a
/// response is held back by a long `--latency-ms`.
final class MockServerSignalTests: XCTestCase {
    func testSIGINTAndSIGTERMStopTheServerDespiteAPendingDelay() throws {
        for signal in [SIGINT, SIGTERM] {
            let server = try MockServerProcess(arguments: ["--latency-ms", "120000"])
            defer { server.kill() }
            // A request that would wait two minutes for its answer.
            let pending = URLSession(configuration: .ephemeral)
                .dataTask(with: server.baseURL.appendingPathComponent("search/repositories").appending(queryItems: [.init(name: "q", value: "swift")]))
            pending.resume()
            Thread.sleep(forTimeInterval: 0.5)
            let sent = Date()
            kill(server.process.processIdentifier, signal)
            while server.process.isRunning && Date().timeIntervalSince(sent) < 15 {
                Thread.sleep(forTimeInterval: 0.02)
            }
            XCTAssertFalse(server.process.isRunning, "signal \(signal): still running after 15 s")
            XCTAssertLessThan(Date().timeIntervalSince(sent), 10, "signal \(signal)")
            pending.cancel()
        }
    }
}
