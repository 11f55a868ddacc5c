import Foundation
import GitHubActivity
import GitHubKit
import MockGitHubAPI
import Ripple
import RippleHTTP
import RippleHTTPStreaming
import XCTest

/// The mock server's live events (Server-Sent Events) through the real
/// transport (`makeHTTPClient()`: AsyncHTTPClient on Linux): streamed,
/// dropped, resumed with `Last-Event-ID`, nothing lost or repeated.
final class LiveEventsIntegrationTests: MockServerTestCase {
    func session() -> Session {
        Session(client: makeHTTPClient(), timeout: .seconds(10), retryPolicy: RetryPolicy(maxRetries: 3, initialDelay: 0.05))
    }

    func testDroppedConnectionsResumeAfterTheLastEvent() throws {
        let server = try startServer()
        let repository = try XCTUnwrap(FixtureSet.bundled().repositories.first)
        let request = LiveEventsRequest(owner: repository.owner, name: repository.name, intervalMilliseconds: 10, dropAfter: 3, baseURL: server.baseURL)
        let updates = Recorder<EventStreamUpdate>()
        // The server's retry: is 2 s by default; the reconnections here wait 50 ms.
        let subscription = session().eventStream(for: request, options: EventStreamOptions(reconnectionTime: .milliseconds(50)))
            .subscribe(onNext: { updates.append($0) })
        defer { subscription.dispose() }
        XCTAssertNotNil(updates.wait(timeout: 20) { _ in updates.values.compactMap(\.event).count >= 10 })
        let events = updates.values.compactMap(\.event)
        XCTAssertEqual(events.prefix(10).map(\.id), (1...10).map { String($0) }, "in order, none lost, none repeated")
        let decoded = try events.prefix(10).map { try RepositoryEvent($0) }
        XCTAssertEqual(Set(decoded.map(\.repository)), ["\(repository.owner)/\(repository.name)"])
        XCTAssertEqual(events.first?.retry, 2000, "the server's reconnection time")
        let resumed = updates.values.compactMap { update -> String? in
            if case .connecting(_, let lastEventID) = update { return lastEventID ?? "-" }
            return nil
        }
        XCTAssertEqual(Array(resumed.prefix(4)), ["-", "3", "6", "9"])
    }

    func testDroppingEveryLiveConnectionShowsAsAReconnection() throws {
        let server = try startServer()
        let repository = try XCTUnwrap(FixtureSet.bundled().repositories.first)
        let request = LiveEventsRequest(owner: repository.owner, name: repository.name, intervalMilliseconds: 20, baseURL: server.baseURL)
        let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "activity-integration")
        let states = Recorder<ActivityViewModel.State>()
        let subscription = SharingScheduler.mock(scheduler: queue) {
            ActivityViewModel(updates: session().eventStream(for: request, options: EventStreamOptions(reconnectionTime: .milliseconds(100))))
                .state.drive(onNext: { states.append($0) })
        }
        defer { subscription.dispose() }
        XCTAssertNotNil(states.wait(timeout: 20) { $0.received >= 3 })
        XCTAssertEqual(server.liveEventConnectionCount, 1)
        server.dropLiveEventConnections()
        XCTAssertNotNil(states.wait(timeout: 20) { state in
            if case .reconnecting(_, let reason) = state.connection { return reason == "connection lost" }
            return false
        })
        XCTAssertNotNil(states.wait(timeout: 20) { $0.connections == 2 && $0.connection == .live && $0.received >= 5 })
        let last = try XCTUnwrap(states.values.last)
        XCTAssertEqual(last.events.map(\.id), (1...last.received).reversed().map { String($0) }, "nothing lost or repeated")
    }
}
