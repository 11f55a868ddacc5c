import Foundation
import MockGitHubAPI
import RippleHTTP
import RippleHTTPStreaming
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `GET /repos/{owner}/{repo}/events/live`: the feed as a pure value, and the
/// endpoint over HTTP (bounded streams, so that a plain GET ends).
final class LiveEventsTests: ServerTestCase {
    func testEventNOfARepositoryIsAlwaysTheSame() throws {
        let fixtures = try FixtureSet.bundled()
        let feed = LiveEventFeed(fixtures: fixtures, seed: 1)
        XCTAssertEqual(feed.event(7, of: "a/b"), LiveEventFeed(fixtures: fixtures, seed: 1).event(7, of: "a/b"))
        XCTAssertNotEqual(feed.event(7, of: "a/b").data, feed.event(8, of: "a/b").data)
        XCTAssertNotEqual(feed.event(7, of: "a/b").data, LiveEventFeed(fixtures: fixtures, seed: 2).event(7, of: "a/b").data)
        let event = feed.event(7, of: "a/b")
        XCTAssertEqual(event.id, "7")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any])
        XCTAssertEqual(object["id"] as? String, "7")
        XCTAssertEqual(object["type"] as? String, event.event)
        XCTAssertEqual((object["repo"] as? [String: Any])?["name"] as? String, "a/b")
    }

    func testQueryValuesOutOfRangeAreRejected() {
        XCTAssertEqual(
            try LiveEventFeed.Settings.parse(QueryParameters([("interval_ms", "250"), ("drop_after", "3"), ("limit", "9")])).get(),
            LiveEventFeed.Settings(interval: .milliseconds(250), dropAfter: 3, limit: 9))
        guard case .failure(let error) = LiveEventFeed.Settings.parse(QueryParameters([("interval_ms", "5")])) else { return XCTFail("accepted") }
        XCTAssertEqual(error.message, "interval_ms must be an integer from 10 to 60000, not '5'")
    }

    func testTheStreamResumesAfterLastEventIDAndEndsWithNoContent() async throws {
        let server = try await startServer()
        let fixtures = try FixtureSet.bundled()
        let repository = try XCTUnwrap(fixtures.repositories.first)
        let url = try XCTUnwrap(URL(string: "\(server.baseURL.absoluteString)/repos/\(repository.owner)/\(repository.name)/events/live?interval_ms=10&limit=4&retry_ms=1500"))
        var request = URLRequest(url: url)
        request.setValue("2", forHTTPHeaderField: "Last-Event-ID")
        let (body, response) = try await client.session.data(for: request)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertEqual((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type"), "text/event-stream; charset=utf-8")
        var parser = ServerSentEventParser()
        let events = try parser.parse(body)
        XCTAssertEqual(events.map(\.id), ["3", "4"])
        XCTAssertEqual(events.first?.retry, 1500)
        let feed = LiveEventFeed(fixtures: fixtures, seed: 1)
        XCTAssertEqual(events, [3, 4].map { feed.event($0, of: "\(repository.owner)/\(repository.name)") }.enumerated().map { index, event in
            var event = event
            if index == 0 { event.retry = 1500 }
            return event
        })
        request.setValue("4", forHTTPHeaderField: "Last-Event-ID")
        let (_, ended) = try await client.session.data(for: request)
        XCTAssertEqual((ended as? HTTPURLResponse)?.statusCode, 204)
    }

    func testUnknownRepositoriesAndBadValuesAreGitHubShapedErrors() async throws {
        let server = try await startServer()
        let unknown = try await client.get(server, "/repos/nobody/nothing/events/live")
        XCTAssertEqual(unknown.status, 404)
        let invalid = try await client.get(server, "/repos/\(try XCTUnwrap(FixtureSet.bundled().repositories.first?.fullName))/events/live?limit=0")
        XCTAssertEqual(invalid.status, 422)
        XCTAssertEqual(try invalid.jsonObject()["message"] as? String, "limit must be an integer from 1 to 1000000, not '0'")
    }
}
