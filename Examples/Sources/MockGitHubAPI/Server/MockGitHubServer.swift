import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import Ripple
import ServiceLifecycle
import UnixSignals

/// A running mock of the GitHub REST API on loopback, for tests and offline demos.
///
/// ```swift
/// let server = try await MockGitHubServer.start()          // 127.0.0.1, a free port
/// let url = server.baseURL.appending(path: "search/repositories")
/// // ... GET \(url)?q=ripple+language:swift
/// await server.stop()                                      // the port is free again
/// ```
///
/// It serves ``MockGitHubEndpoints`` over HTTP/1.1 (Hummingbird), with the injected
/// latency, failures, rate limiting and malformed bodies of
/// ``MockGitHubConfiguration/Behavior``, which ``updateBehavior(_:)`` changes while it
/// runs. Every answered request is published on ``requests``.
///
/// Call ``stop()`` when done (a server that is released while still running is
/// cancelled, which closes its socket less gracefully). Code that cannot `await`
/// can use ``startBlocking(configuration:)`` and ``stopBlocking()``.
public final class MockGitHubServer: Sendable {
    /// A configuration value the server refuses.
    public enum ConfigurationError: Error, Equatable, CustomStringConvertible {
        case invalid(String)

        public var description: String {
            switch self {
            case .invalid(let reason): "invalid mock server configuration: \(reason)"
            }
        }
    }

    /// The server ended before it listened (it was stopped, or its task was cancelled).
    public struct StoppedBeforeListening: Error, CustomStringConvertible {
        public var description: String { "the mock GitHub API server stopped before it started listening" }
    }

    /// The bound address (as configured).
    public let host: String
    /// The bound port (the one the system picked when the configuration said `0`).
    public let port: Int
    /// `http://host:port`: the API root, where a GitHub client's base URL goes.
    public let baseURL: URL

    /// Every request the server answered, in the order the responses were ready.
    ///
    /// Events arrive on the server's threads. The sequence completes when the server
    /// stops; it never errors.
    ///
    /// ```
    /// requests: --r1--r2----r3--|      (| = stop())
    /// ```
    public var requests: Observable<ServedRequest> { subject.asObservable() }

    /// The number of requests answered so far (including rate-limited and failed ones).
    public var requestCount: Int { behaviorState.servedCount }

    /// The behaviour in force.
    public var behavior: MockGitHubConfiguration.Behavior { behaviorState.behavior }

    private let serviceGroup: ServiceGroup
    private let runTask: Task<Void, any Error>
    private let behaviorState: BehaviorState
    private let subject: PublishSubject<ServedRequest>
    private let stopping: SharedValue<Bool>
    let liveEvents: LiveEventHub

    private init(
        host: String, port: Int, serviceGroup: ServiceGroup, runTask: Task<Void, any Error>,
        behaviorState: BehaviorState, subject: PublishSubject<ServedRequest>, stopping: SharedValue<Bool>, liveEvents: LiveEventHub
    ) {
        self.stopping = stopping
        self.liveEvents = liveEvents
        self.host = host
        self.port = port
        // An IPv6 literal needs brackets in a URL.
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        self.baseURL = URL(string: "http://\(authority)")!
        self.serviceGroup = serviceGroup
        self.runTask = runTask
        self.behaviorState = behaviorState
        self.subject = subject
    }

    deinit {
        runTask.cancel()
    }

    /// Starts a server and returns once it is listening.
    ///
    /// - Parameters:
    ///   - configuration: where to listen, what to serve, how to misbehave.
    ///   - gracefulShutdownSignals: signals that stop the server gracefully (for a
    ///     foreground process such as `mock-github-api`; embedded servers leave the
    ///     host application's signals alone, the default).
    /// - Throws: ``ConfigurationError`` for an invalid behaviour,
    ///   ``FixtureSet/LoadingError`` for unusable fixtures, the system's error when
    ///   the address cannot be bound (e.g. the port is taken).
    public static func start(
        configuration: MockGitHubConfiguration = MockGitHubConfiguration(),
        gracefulShutdownSignals: [UnixSignal] = []
    ) async throws -> MockGitHubServer {
        try configuration.behavior.validate()
        guard configuration.headerReadTimeout > .zero else {
            throw ConfigurationError.invalid("header read timeout \(configuration.headerReadTimeout) is not positive")
        }
        let fixtures = try configuration.fixtures ?? FixtureSet.bundled()
        let endpoints = try MockGitHubEndpoints(fixtures: fixtures, htmlBaseURL: configuration.htmlBaseURL)
        let behaviorState = BehaviorState(behavior: configuration.behavior, seed: configuration.seed)
        let subject = PublishSubject<ServedRequest>()
        let stopping = SharedValue(false)
        let fallbackBaseURL = SharedValue("http://\(configuration.host):\(configuration.port)")
        let liveEvents = LiveEventHub()
        let responder = MockGitHubResponder(
            endpoints: endpoints,
            behavior: behaviorState,
            fallbackBaseURL: fallbackBaseURL,
            clientDescription: configuration.host,
            report: { subject.onNext($0) },
            stopping: stopping,
            feed: LiveEventFeed(fixtures: fixtures, seed: configuration.seed),
            liveEvents: liveEvents
        )

        var logger = Logger(label: "MockGitHubAPI")
        logger.logLevel = configuration.logLevel
        let listening = Promise<Int>()
        let headerReadTimeout = configuration.headerReadTimeout
        let application = Application(
            responder: responder,
            // HTTP/1.1 with a deadline for request heads (see RequestHeadTimeoutChannel).
            server: HTTPServerBuilder { responder in RequestHeadTimeoutChannel(responder: responder, timeout: headerReadTimeout) },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                listening.resolve(.success(channel.localAddress?.port ?? configuration.port))
            },
            logger: logger
        )
        // Services shut down in reverse order: the watcher first, so that requests
        // waiting out a latency answer at once and the application's own graceful
        // shutdown (on SIGINT/SIGTERM too, not only `stop()`) does not wait for them.
        let serviceGroup = ServiceGroup(
            configuration: .init(
                services: [application, ShutdownWatcher(stopping: stopping)],
                gracefulShutdownSignals: gracefulShutdownSignals, logger: logger)
        )
        let runTask = Task { try await serviceGroup.run() }
        Task {
            // If the group ends before listening (a bind error, say), `start` fails with its error.
            switch await runTask.result {
            case .success: listening.resolve(.failure(StoppedBeforeListening()))
            case .failure(let error): listening.resolve(.failure(error))
            }
        }

        let port: Int
        do {
            port = try await listening.value()
        } catch {
            runTask.cancel()
            subject.onCompleted()
            throw error
        }
        fallbackBaseURL.value = "http://\(configuration.host):\(port)"
        return MockGitHubServer(
            host: configuration.host, port: port, serviceGroup: serviceGroup, runTask: runTask,
            behaviorState: behaviorState, subject: subject, stopping: stopping, liveEvents: liveEvents
        )
    }

    /// Changes the behaviour of the running server; the next request uses it.
    ///
    /// A changed ``MockGitHubConfiguration/Behavior/rateLimit`` starts a new window.
    /// The random streams continue where they were.
    ///
    /// - Throws: ``ConfigurationError`` (and changes nothing) when the result is invalid.
    public func updateBehavior(_ change: (inout MockGitHubConfiguration.Behavior) -> Void) throws {
        var behavior = behaviorState.behavior
        change(&behavior)
        try behavior.validate()
        behaviorState.update(behavior)
    }

    /// Stops listening, lets requests in flight finish (for at most `gracePeriod`, then
    /// cancels them), closes every connection and completes ``requests``.
    ///
    /// Requests still waiting out an injected latency answer at once.
    ///
    /// When it returns the port is free. Calling it again does nothing more.
    public func stop(gracePeriod: Duration = .seconds(3)) async {
        let first = stopping.update { stopping in
            defer { stopping = true }
            return !stopping
        }
        if first {
            await serviceGroup.triggerGracefulShutdown()
            let runTask = self.runTask
            await withTaskGroup(of: Void.self) { group in
                group.addTask { _ = await runTask.result }
                group.addTask {
                    try? await Task.sleep(for: gracePeriod)
                    if !Task.isCancelled { runTask.cancel() }
                }
                await group.next()
                group.cancelAll()
            }
        }
        _ = await runTask.result
        subject.onCompleted()
    }

    /// Waits until the server stops (by ``stop()`` or one of the
    /// `gracefulShutdownSignals` given to ``start(configuration:gracefulShutdownSignals:)``).
    ///
    /// - Throws: the error the server stopped with, if it failed.
    public func waitUntilStopped() async throws {
        defer { subject.onCompleted() }
        try await runTask.value
    }

    // MARK: - Blocking wrappers

    /// ``start(configuration:gracefulShutdownSignals:)`` for code that cannot `await`.
    ///
    /// Blocks the calling thread until the server listens. Do not call it from an
    /// `async` context (it would hold one of the few cooperative threads the server
    /// needs to start).
    public static func startBlocking(configuration: MockGitHubConfiguration = MockGitHubConfiguration()) throws -> MockGitHubServer {
        let outcome = SharedValue<Result<MockGitHubServer, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                let server = try await MockGitHubServer.start(configuration: configuration)
                outcome.value = .success(server)
            } catch {
                outcome.value = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return try outcome.value!.get()
    }

    /// ``stop(gracePeriod:)`` for code that cannot `await` (same caveat as ``startBlocking(configuration:)``).
    public func stopBlocking() {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await self.stop()
            done.signal()
        }
        done.wait()
    }
}

/// A value that arrives once; `value()` waits for it.
final class Promise<Value: Sendable>: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Value, any Error>])
        case resolved(Result<Value, any Error>)
    }

    private let state = SharedValue<State>(.waiting([]))

    /// Sets the outcome; later calls are ignored.
    func resolve(_ result: Result<Value, any Error>) {
        let waiters = state.update { state -> [CheckedContinuation<Value, any Error>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .resolved(result)
            return waiters
        }
        for waiter in waiters {
            waiter.resume(with: result)
        }
    }

    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let resolved = state.update { state -> Result<Value, any Error>? in
                switch state {
                case .waiting(let waiters):
                    state = .waiting(waiters + [continuation])
                    return nil
                case .resolved(let result):
                    return result
                }
            }
            if let resolved { continuation.resume(with: resolved) }
        }
    }
}

/// Sets `stopping` when the service group begins a graceful shutdown, however it
/// was triggered (``MockGitHubServer/stop(gracePeriod:)`` or a signal).
struct ShutdownWatcher: Service {
    let stopping: SharedValue<Bool>

    func run() async throws {
        // Returns when a graceful shutdown begins; throws when the group is cancelled.
        try? await gracefulShutdown()
        stopping.value = true
    }
}
