import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RippleHTTP
import RippleHTTPTesting
import RippleTest
import XCTest

/// The service protocol a view model depends on.
protocol ItemsAPI {
    func items(keyword: String, offset: Int, limit: Int) -> Single<[String]>
}

/// Its implementation on `APIClient`.
struct ItemsClient: ItemsAPI, APIClient {
    let session: Session
    var baseURL: URL?
    var headerFields: HTTPHeaders { ["Authorization": "Bearer app", "X-Client": "client"] }

    func items(keyword: String, offset: Int, limit: Int) -> Single<[String]> {
        send(SearchRequest(keyword: keyword, offset: offset, limit: limit))
    }
}

final class APIClientTests: HTTPTestCase {
    func testTheClientRebasesRequestsAndAddsItsHeaders() throws {
        let stub = StubHTTPClient()
        stub.stub(.get, "/mock/search/repositories", .json(#"{"items":[{"full_name":"a/b"}]}"#))
        let client = ItemsClient(session: Session(client: stub), baseURL: URL(string: "http://127.0.0.1:9999/mock")!)
        XCTAssertEqual(try outcome(of: client.items(keyword: "swift", offset: 20, limit: 10))?.get(), ["a/b"])
        let sent = try XCTUnwrap(stub.requests.first)
        XCTAssertEqual(sent.url?.absoluteString, "http://127.0.0.1:9999/mock/search/repositories?q=swift&offset=20&limit=10")
        XCTAssertEqual(sent.value(forHTTPHeaderField: "Authorization"), "Bearer app")
        XCTAssertEqual(sent.value(forHTTPHeaderField: "X-Client"), "client")
    }

    func testWithoutABaseURLRequestsKeepTheirOwnAndTheirHeadersWin() throws {
        let stub = StubHTTPClient()
        stub.stub(.post, "/items", .status(201))
        let client = ItemsClient(session: Session(client: stub), baseURL: nil)
        XCTAssertNoThrow(try outcome(of: client.send(CreateItem(name: "x")))?.get())
        let sent = try XCTUnwrap(stub.requests.first)
        XCTAssertEqual(sent.url?.absoluteString, "https://api.example.com/items")
        XCTAssertEqual(sent.value(forHTTPHeaderField: "X-Client"), "tests", "the request's own field wins")
        XCTAssertEqual(sent.value(forHTTPHeaderField: "Authorization"), "Bearer app")
    }

    func testConfiguredRequestForwardsEverything() throws {
        let base = ConfigurableRequest<Int>(
            method: .patch, path: "p", queryParameters: ["a": 1], bodyParameters: .json(["b": 2]), headerFields: ["H": "1"],
            acceptableStatusCodes: [418], timeout: .seconds(9), retryPolicy: .never, convert: { $0.statusCode }
        )
        let configured = ConfiguredRequest(base, baseURL: nil, headerFields: ["G": "2"])
        XCTAssertEqual(configured.baseURL, exampleBase)
        XCTAssertEqual(configured.method, .patch)
        XCTAssertEqual(configured.path, "p")
        XCTAssertEqual(configured.queryParameters, ["a": 1])
        XCTAssertEqual(configured.headerFields, ["G": "2", "H": "1"])
        XCTAssertTrue(configured.acceptableStatusCodes.contains(418))
        XCTAssertEqual(configured.timeout, .seconds(9))
        XCTAssertEqual(configured.retryPolicy?.maxRetries, 0)
        XCTAssertNil(configured.decodingKeyPath)
        XCTAssertEqual(try configured.makeURLRequest().httpBody, Data(#"{"b":2}"#.utf8))
        XCTAssertEqual(try configured.response(from: HTTPResponse(url: exampleBase, statusCode: 418)!), 418)
        XCTAssertEqual(ConfiguredRequest(AvatarRequest(), baseURL: nil, headerFields: [:]).decodingKeyPath, "owner.avatar_url")
    }

    /// A view model depends on the service protocol; its test injects a fake.
    func testAViewModelOnTheServiceProtocol() {
        struct FakeItems: ItemsAPI {
            let scheduler: TestScheduler
            func items(keyword: String, offset: Int, limit: Int) -> Single<[String]> {
                Observable<Int>.timer(.seconds(5), scheduler: scheduler).map { _ in ["\(keyword)#\(offset)"] }.asSingle()
            }
        }
        let scheduler = TestScheduler(initialClock: 0)
        let api = FakeItems(scheduler: scheduler)
        let keywords = scheduler.createHotObservable([.next(210, "a"), .next(212, "ab"), .next(230, "abc")])
        let res = scheduler.start {
            keywords.flatMapLatest { api.items(keyword: $0, offset: 0, limit: 20).asObservable() }
        }
        XCTAssertEqual(res.events, [.next(217, ["ab#0"]), .next(235, ["abc#0"])])
    }
}
