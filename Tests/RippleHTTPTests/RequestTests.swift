import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RippleHTTP
import RippleHTTPTesting
import RippleTest
import XCTest

final class RequestTests: HTTPTestCase {
    // MARK: Building the URLRequest

    func testURLFromBaseURLAndPath() throws {
        func url(_ base: String, _ path: String) throws -> String {
            try ConfigurableRequest<Void>(baseURL: URL(string: base)!, path: path, convert: { _ in }).url().absoluteString
        }
        XCTAssertEqual(try url("https://h.com", "users/ann/repos"), "https://h.com/users/ann/repos")
        XCTAssertEqual(try url("https://h.com/", "/users"), "https://h.com/users")
        XCTAssertEqual(try url("https://h.com/api/v3/", "//users/"), "https://h.com/api/v3/users/")
        XCTAssertEqual(try url("https://h.com/api?key=1", "users"), "https://h.com/api/users?key=1")
        XCTAssertEqual(try url("https://h.com", ""), "https://h.com")
        XCTAssertEqual(try url("http://127.0.0.1:8080", "a b/c?d#e/100%/é"), "http://127.0.0.1:8080/a%20b/c%3Fd%23e/100%25/%C3%A9")
        XCTAssertEqual(try url("https://h.com", "a:b@c/$&'()*+,;="), "https://h.com/a:b@c/$&'()*+,;=")
        XCTAssertThrowsError(try url("no-scheme", "x")) { error in
            XCTAssertEqual((error as? HTTPError)?.kind, .invalidRequest)
        }
    }

    func testMakeURLRequestUsesEveryPart() throws {
        let request = ConfigurableRequest<Void>(
            method: .put, path: "items/7", queryParameters: ["dry_run": true], bodyParameters: .form(["name": "x y"]),
            headerFields: ["Accept": "application/json"], timeout: .milliseconds(2500), convert: { _ in }
        )
        let urlRequest = try request.makeURLRequest()
        XCTAssertEqual(urlRequest.url?.absoluteString, "https://api.example.com/items/7?dry_run=true")
        XCTAssertEqual(urlRequest.httpMethod, "PUT")
        XCTAssertEqual(urlRequest.httpBody, Data("name=x%20y".utf8))
        XCTAssertEqual(urlRequest.value(forHTTPHeaderField: "Accept"), "application/json")
        XCTAssertEqual(urlRequest.timeoutInterval, 2.5)
        XCTAssertEqual(try RepoRequest().makeURLRequest().httpMethod, "GET")
        XCTAssertThrowsError(try ConfigurableRequest<Void>(timeout: .seconds(0), convert: { _ in }).makeURLRequest())
        XCTAssertThrowsError(try ConfigurableRequest<Void>(timeout: .seconds(-1), convert: { _ in }).makeURLRequest())
        XCTAssertNoThrow(try ConfigurableRequest<Void>(timeout: .never, convert: { _ in }).makeURLRequest())
    }

    func testInterceptChangesTheRequestAndItsErrorsAreInvalidRequests() {
        struct Signed: Request {
            typealias Response = Data
            var baseURL: URL { exampleBase }
            var path: String { "signed" }
            let fail: Bool
            func intercept(_ urlRequest: URLRequest) throws -> URLRequest {
                if fail { throw TestError(3) }
                var copy = urlRequest
                copy.setValue("sig", forHTTPHeaderField: "X-Signature")
                return copy
            }
        }
        XCTAssertEqual(try Signed(fail: false).makeURLRequest().value(forHTTPHeaderField: "X-Signature"), "sig")
        XCTAssertThrowsError(try Signed(fail: true).makeURLRequest()) { error in
            XCTAssertEqual("\(error)", "Invalid HTTP request: intercept(_:) failed: TestError(3)")
        }
    }

    // MARK: Status validation

    func testAcceptableStatusCodes() throws {
        XCTAssertTrue(AcceptableStatusCodes.successful.contains(200))
        XCTAssertTrue(AcceptableStatusCodes.successful.contains(299))
        XCTAssertFalse(AcceptableStatusCodes.successful.contains(300))
        XCTAssertFalse(AcceptableStatusCodes.successful.contains(199))
        let list: AcceptableStatusCodes = [200, 304]
        XCTAssertTrue(list.contains(304))
        XCTAssertFalse(list.contains(201))
        XCTAssertEqual(list.description, "200, 304")
        XCTAssertEqual(AcceptableStatusCodes.successful.description, "200..<300")
        XCTAssertTrue(AcceptableStatusCodes.any.contains(999))
        XCTAssertTrue(AcceptableStatusCodes("teapot") { $0 == 418 }.contains(418))

        let response = HTTPResponse(url: exampleBase, statusCode: 404, headers: ["Content-Type": "text/plain"], data: Data("gone".utf8))!
        XCTAssertThrowsError(try AcceptableStatusCodes.successful.validate(response)) { error in
            guard case .unacceptableStatusCode(let code, let headers, let body)? = error as? HTTPError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(code, 404)
            XCTAssertEqual(headers["content-type"], "text/plain")
            XCTAssertEqual(body, Data("gone".utf8))
        }
        XCTAssertEqual(try AcceptableStatusCodes.range(400..<500).validate(response).statusCode, 404)
    }

    func testSessionValidatesWithTheRequestsRule() {
        let stub = StubHTTPClient()
        stub.stub(.get, "/thing", .status(304))
        let session = Session(client: stub)
        let rejected = outcome(of: session.response(for: ConfigurableRequest<Int>(convert: { $0.statusCode })))
        XCTAssertEqual(httpError(rejected)?.statusCode, 304)
        let accepted = outcome(of: session.response(for: ConfigurableRequest<Int>(acceptableStatusCodes: [200, 304], convert: { $0.statusCode })))
        XCTAssertEqual(try accepted?.get(), 304)
        // `.any` hands every response to response(from:).
        stub.stub(.get, "/whole", .status(500, body: "oops"))
        XCTAssertEqual(try outcome(of: session.response(for: WholeResponseRequest()))?.get().text, "oops")
    }

    // MARK: Decoding

    func testDefaultDecodingUsesSnakeCaseAndISO8601() throws {
        let stub = StubHTTPClient()
        stub.stub(.get, "/repos/octocat/hello", .json(repoJSON))
        let repo = try outcome(of: Session(client: stub).response(for: RepoRequest()))?.get()
        XCTAssertEqual(repo?.fullName, "octocat/hello")
        XCTAssertEqual(repo?.owner.avatarUrl, URL(string: "https://avatars.example/u/583231"))
        XCTAssertEqual(repo?.updatedAt, Date(timeIntervalSince1970: 1_714_564_800.25))
    }

    func testISO8601WithAndWithoutFractionalSecondsAndOffsets() throws {
        struct Stamp: Decodable { let at: Date }
        let decoder = JSONDecoder.snakeCaseISO8601
        for (text, expected) in [
            ("2024-05-01T12:00:00Z", 1_714_564_800.0),
            ("2024-05-01T12:00:00.5Z", 1_714_564_800.5),
            ("2024-05-01T14:00:00+02:00", 1_714_564_800.0),
            ("2024-05-01T14:00:00.125+02:00", 1_714_564_800.125),
        ] {
            let stamp = try decoder.decode(Stamp.self, from: Data(#"{"at":"\#(text)"}"#.utf8))
            XCTAssertEqual(stamp.at.timeIntervalSince1970, expected, accuracy: 0.0005, text)
        }
        XCTAssertThrowsError(try decoder.decode(Stamp.self, from: Data(#"{"at":"yesterday"}"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains("expected an ISO-8601 date"))
        }
        // Each access is a new decoder.
        XCTAssertFalse(JSONDecoder.snakeCaseISO8601 === JSONDecoder.snakeCaseISO8601)
    }

    func testNestedKeyPathIsAOneLiner() throws {
        let stub = StubHTTPClient()
        stub.stub(.get, "/repos/octocat/hello", .json(repoJSON))
        let avatar = try outcome(of: Session(client: stub).response(for: AvatarRequest()))?.get()
        XCTAssertEqual(avatar, URL(string: "https://avatars.example/u/583231"))
    }

    func testKeyPathIntoArraysOfObjects() throws {
        let stub = StubHTTPClient()
        stub.stub(.get, "/search/repositories", .json(#"{"total_count":2,"items":[{"full_name":"a/one","owner":{"login":"a"}},{"full_name":"b/two","owner":{"login":"b"}}]}"#))
        let names = try outcome(of: Session(client: stub).response(for: SearchRequest(keyword: "rx")))?.get()
        XCTAssertEqual(names, ["a/one", "b/two"])

        let data = Data(#"{"items":[{"owner":{"login":"a","tags":[1,2]}},{"owner":{"login":"b","tags":[3]}}],"nothing":null,"flag":true,"ratio":0.1}"#.utf8)
        let decoder = JSONDecoder()
        XCTAssertEqual(try decoder.decode([String].self, from: data, keyPath: "items.owner.login"), ["a", "b"])
        XCTAssertEqual(try decoder.decode(String.self, from: data, keyPath: "items.1.owner.login"), "b")
        XCTAssertEqual(try decoder.decode([[Int]].self, from: data, keyPath: "items.owner.tags"), [[1, 2], [3]])
        XCTAssertEqual(try decoder.decode(Int.self, from: data, keyPath: "items.0.owner.tags.1"), 2)
        XCTAssertEqual(try decoder.decode(Bool.self, from: data, keyPath: "flag"), true)
        XCTAssertEqual(try decoder.decode(Double.self, from: data, keyPath: "ratio"), 0.1)
        XCTAssertEqual(try decoder.decode(String?.self, from: data, keyPath: "nothing"), nil)
        XCTAssertEqual(try decoder.decode([String: [String: [Int]]].self, from: Data(#"{"a":{"b":[]}}"#.utf8), keyPath: ""), ["a": ["b": []]])
        // On an HTTPResponse, and on a stream.
        let response = HTTPResponse(url: exampleBase, statusCode: 200, data: data)!
        XCTAssertEqual(try response.decode([String].self, at: "items.owner.login"), ["a", "b"])
        XCTAssertEqual(try Single.just(response).decode([String].self, at: "items.owner.login").asObservable().toBlocking().single(), ["a", "b"])
    }

    func testKeyPathErrorsNameTheMissingPart() {
        let data = Data(#"{"owner":{"login":"a"},"items":[{"x":1}],"nothing":null,"n":3}"#.utf8)
        let decoder = JSONDecoder()
        func message(_ keyPath: String) -> String {
            do {
                _ = try decoder.decode(String.self, from: data, keyPath: keyPath)
                return "no error"
            } catch {
                return HTTPError.undecodableBody(error, body: Data()).description
            }
        }
        XCTAssertEqual(message("owner.avatar_url"), #"Undecodable response body: no value for key "avatar_url" at owner (the JSON has no key "avatar_url" here); body: (empty)"#)
        XCTAssertEqual(message("missing.x"), #"Undecodable response body: no value for key "missing" at the top level (the JSON has no key "missing" here); body: (empty)"#)
        XCTAssertEqual(message("items.5.x"), "Undecodable response body: expected Any but found null at items[5]; body: (empty)")
        XCTAssertEqual(message("items.y"), #"Undecodable response body: no value for key "y" at items[0] (the JSON has no key "y" here); body: (empty)"#)
        XCTAssertEqual(message("nothing.x"), "Undecodable response body: expected Any but found null at nothing; body: (empty)")
        XCTAssertTrue(message("n.x").hasPrefix("Undecodable response body: expected Dictionary<String, Any> at n: expected an object or an array"), message("n.x"))
        XCTAssertTrue(message("owner").hasPrefix("Undecodable response body: expected String at owner:"), message("owner"))
        XCTAssertTrue(message("items.x").hasPrefix("Undecodable response body: expected String at items.x:"), message("items.x"))
        XCTAssertThrowsError(try decoder.decode([String].self, from: data, keyPath: "items.x")) { error in
            let description = HTTPError.undecodableBody(error, body: Data()).description
            XCTAssertTrue(description.hasPrefix("Undecodable response body: expected String at items.x[0]:"), description)
        }
        XCTAssertThrowsError(try decoder.decode(String.self, from: Data("not json".utf8), keyPath: "a")) { error in
            XCTAssertTrue(HTTPError.undecodableBody(error, body: Data()).description.contains("invalid data at the top level: the body is not valid JSON"))
        }
    }

    func testDataVoidAndHTTPResponseResponses() throws {
        let stub = StubHTTPClient()
        stub.stub(.get, "/raw", .text("{not json"))
        stub.stub(.post, "/items", .status(201))
        let session = Session(client: stub)
        XCTAssertEqual(try outcome(of: session.response(for: RawRequest()))?.get(), Data("{not json".utf8))
        XCTAssertNoThrow(try outcome(of: session.response(for: CreateItem(name: "x")))?.get())
        let sent = stub.requests(.post, "/items").first
        XCTAssertEqual(sent?.httpBody, Data(#"{"name":"x"}"#.utf8))
        XCTAssertEqual(sent?.value(forHTTPHeaderField: "X-Client"), "tests")
        XCTAssertEqual(sent?.value(forHTTPHeaderField: "Content-Type"), "application/json")
        // `send` stops before decoding.
        stub.stub(.get, "/repos/octocat/hello", .json("garbage", headers: ["ETag": "\"v1\""]))
        XCTAssertEqual(try outcome(of: session.send(RepoRequest()))?.get().headers["etag"], "\"v1\"")
    }

    func testACustomDecoderAndResponseHook() throws {
        struct Camel: Request {
            struct Item: Decodable { let itemName: String }
            typealias Response = Item
            var baseURL: URL { exampleBase }
            var path: String { "camel" }
            var decoder: JSONDecoder { JSONDecoder() }
        }
        let stub = StubHTTPClient()
        stub.stub(.get, "/camel", .json(#"{"itemName":"x"}"#))
        XCTAssertEqual(try outcome(of: Session(client: stub).response(for: Camel()))?.get().itemName, "x")

        let hook = ConfigurableRequest<String>(convert: { response in
            guard response.headers["X-Kind"] == "greeting" else { throw TestError(9) }
            return response.text
        })
        stub.stub(.get, "/thing", .text("hi", headers: ["X-Kind": "greeting"]))
        XCTAssertEqual(try outcome(of: Session(client: stub).response(for: hook))?.get(), "hi")
        stub.stub(.get, "/thing", .text("hi"))
        let failure = httpError(outcome(of: Session(client: stub).response(for: hook)))
        XCTAssertEqual(failure?.kind, .undecodableBody)
        XCTAssertEqual(failure?.decodingError as? TestError, TestError(9))
        XCTAssertEqual(failure?.body, Data("hi".utf8))
        // An HTTPError thrown by the hook is passed on unchanged.
        let passOn = ConfigurableRequest<String>(convert: { _ in throw HTTPError.invalidRequest("from the hook") })
        XCTAssertEqual(httpError(outcome(of: Session(client: stub).response(for: passOn)))?.description, "Invalid HTTP request: from the hook")
    }
}
