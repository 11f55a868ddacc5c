import Dispatch
import Foundation
import Ripple
import RippleHTTP
import RippleHTTPStreaming
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if AsyncHTTPClient
import AsyncHTTPClient
#endif

// Server-Sent Events throughput: a loopback server streams 100 000 small events
// (`id: n` / `data: event n`, 2.3 MB) as fast as the socket takes them; each
// transport reads them through `Session.events(for:)` (parsing, event values,
// delivery), and through its own plain streaming API counting blank lines (the
// reference: the transport's cost alone). The ratio is Ripple's share of the
// reference's speed.
//
//   swift run -c release --package-path Benchmarks ripple-http-stream                           # URLSession
//   swift run -c release --package-path Benchmarks --traits AsyncHTTPClient ripple-http-stream   # and AsyncHTTPClient
//   ... ripple-http-stream --smoke            # 1 000 events, one run (CI)
//   ... ripple-http-stream --count 20000 --runs 3

let arguments = CommandLine.arguments.dropFirst()
let smoke = arguments.contains("--smoke")
func value(of flag: String) -> Int? {
    guard let index = arguments.firstIndex(of: flag), arguments.index(after: index) < arguments.endIndex else { return nil }
    return Int(arguments[arguments.index(after: index)])
}
let count = value(of: "--count") ?? (smoke ? 1_000 : 100_000)
let runs = value(of: "--runs") ?? (smoke ? 1 : 5)

let server = try EventServer(count: count)

/// Runs `read` (which returns the events it saw) `runs` times after one
/// warm-up; the median events per second.
func measure(_ read: () throws -> Int) rethrows -> Double {
    _ = try read()
    var rates: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        let events = try read()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard events == count else {
            FileHandle.standardError.write(Data("error: read \(events) events instead of \(count)\n".utf8))
            exit(1)
        }
        rates.append(Double(events) / seconds)
    }
    return rates.sorted()[rates.count / 2]
}

/// Waits for a completion signalled from another thread (at most 5 minutes).
final class Completion: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var value = 0
    private var failure: Error?

    func finish(_ events: Int, _ error: Error? = nil) {
        lock.lock()
        value = events
        failure = error
        lock.unlock()
        semaphore.signal()
    }

    func wait() throws -> Int {
        guard semaphore.wait(timeout: .now() + 300) == .success else { throw URLError(.timedOut) }
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        return value
    }
}

/// `Session.events(for:)` on `client`, without reconnection.
func rippleEvents(_ client: any RippleHTTP.HTTPClient) throws -> Int {
    let session = Session(client: client)
    let completion = Completion()
    // Touched only on the transport's thread, one event at a time.
    nonisolated(unsafe) var events = 0
    let subscription = session.events(for: URLRequest(url: server.url), options: EventStreamOptions(reconnects: false))
        .subscribe(onNext: { _ in events += 1 }, onError: { completion.finish(0, $0) }, onCompleted: { completion.finish(events) })
    defer { subscription.dispose() }
    return try completion.wait()
}

/// URLSession's own streaming API: a data delegate counting blank lines.
final class CountingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    var counter = BlankLineCounter()
    let completion = Completion()

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        data.withUnsafeBytes { counter.count($0) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        completion.finish(counter.events, error)
    }
}

func urlSessionReference() throws -> Int {
    let delegate = CountingDelegate()
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    defer { session.finishTasksAndInvalidate() }
    session.dataTask(with: server.url).resume()
    return try delegate.completion.wait()
}

var rows: [(String, String, Double, Double)] = []
@MainActor func record(_ transport: String, ripple: Double, reference: Double, referenceName: String) {
    rows.append((transport, "Session.events(for:)", ripple, ripple / reference))
    rows.append((transport, referenceName, reference, 1))
}

let configuration = URLSessionConfiguration.ephemeral
let urlSessionClient = URLSessionHTTPClient(configuration: configuration)
let urlSessionRipple = try measure { try rippleEvents(urlSessionClient) }
let urlSessionPlain = try measure(urlSessionReference)
record("URLSession", ripple: urlSessionRipple, reference: urlSessionPlain, referenceName: "URLSessionDataDelegate")

#if AsyncHTTPClient
/// AsyncHTTPClient's own async API: `execute`, then `response.body` counted.
func asyncHTTPClientReference(_ client: AsyncHTTPClient.HTTPClient) throws -> Int {
    let completion = Completion()
    Task {
        do {
            let response = try await client.execute(HTTPClientRequest(url: server.url.absoluteString), timeout: .seconds(300))
            var counter = BlankLineCounter()
            for try await buffer in response.body {
                buffer.withUnsafeReadableBytes { counter.count($0) }
            }
            completion.finish(counter.events)
        } catch {
            completion.finish(0, error)
        }
    }
    return try completion.wait()
}

let transport = AsyncHTTPClientTransport()
let asyncRipple = try measure { try rippleEvents(transport) }
let asyncPlain = try measure { try asyncHTTPClientReference(transport.client) }
record("AsyncHTTPClient", ripple: asyncRipple, reference: asyncPlain, referenceName: "execute + response.body")
#else
print("(AsyncHTTPClient: build with --traits AsyncHTTPClient to measure it too)")
#endif

print("\(count) events, median of \(runs) runs")
print("transport        reader                        events/s    ratio")
for (transport, reader, rate, ratio) in rows {
    let name = transport.padding(toLength: 17, withPad: " ", startingAt: 0)
    let readerName = reader.padding(toLength: 28, withPad: " ", startingAt: 0)
    let rateText = String(Int(rate.rounded()))
    print("\(name)\(readerName)\(String(repeating: " ", count: max(0, 10 - rateText.count)))\(rateText)    \(String(format: "%.2f", ratio))")
}
