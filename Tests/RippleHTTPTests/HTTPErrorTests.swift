import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RippleHTTP
import RippleHTTPTesting
import RippleTest
import XCTest

/// Every kind of failure, as a value in the stream, with a readable message.
final class HTTPErrorTests: HTTPTestCase {
    func testTransportFailure() {
        let stub = StubHTTPClient()
        stub.stub(.get, "/repos/octocat/hello", .failure(.notConnectedToInternet))
        let error = httpError(outcome(of: Session(client: stub).response(for: RepoRequest())))
        XCTAssertEqual(error?.kind, .transport)
        XCTAssertEqual(error?.urlError?.code, .notConnectedToInternet)
        XCTAssertEqual(error?.description, "HTTP transport failure: not connected to the internet (URLError -1009)")
        XCTAssertEqual(error?.errorDescription, error?.description)
        XCTAssertEqual((error as Error?)?.localizedDescription, error?.description)

        let withURL = HTTPError.transport(URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: URL(string: "http://x.y/z")!]))
        XCTAssertEqual(withURL.description, "HTTP transport failure: the request timed out (URLError -1001) for http://x.y/z")
    }

    func testTransportConversions() {
        XCTAssertEqual(HTTPError.transport(from: URLError(.cancelled)).urlError?.code, .cancelled)
        // FoundationNetworking reports NSErrors in NSURLErrorDomain.
        let nsError = NSError(domain: NSURLErrorDomain, code: URLError.networkConnectionLost.rawValue, userInfo: nil)
        XCTAssertEqual(HTTPError.transport(from: nsError).urlError?.code, .networkConnectionLost)
        let unknownCode = NSError(domain: NSURLErrorDomain, code: -123_456, userInfo: nil)
        XCTAssertEqual(HTTPError.transport(from: unknownCode).kind, .transport)
        // An HTTPError is kept; anything else is wrapped.
        XCTAssertEqual(HTTPError.transport(from: HTTPError.invalidRequest("x")).kind, .invalidRequest)
        let wrapped = HTTPError.transport(from: TestError(4))
        XCTAssertEqual(wrapped.urlError?.code, .unknown)
        XCTAssertTrue(wrapped.description.hasSuffix(": TestError(4)"), wrapped.description)
    }

    func testNotAnHTTPResponse() {
        let stub = StubHTTPClient()
        let plain = URLResponse(url: URL(string: "file:///tmp/x")!, mimeType: "text/plain", expectedContentLength: 1, textEncodingName: nil)
        stub.stub(.get, "/repos/octocat/hello", .failure(.notHTTPResponse(plain)))
        let error = httpError(outcome(of: Session(client: stub).response(for: RepoRequest())))
        XCTAssertEqual(error?.kind, .notHTTPResponse)
        XCTAssertEqual(error?.description, "Not an HTTP response: URLResponse from file:///tmp/x")
        XCTAssertEqual(HTTPError.notHTTPResponse(nil).description, "Not an HTTP response: no response at all")
    }

    func testUnacceptableStatusCode() {
        let stub = StubHTTPClient()
        stub.stub(.get, "/repos/octocat/hello", .json(#"{"message":"Not Found"}"#, statusCode: 404, headers: ["X-RateLimit-Remaining": "59"]))
        let error = httpError(outcome(of: Session(client: stub).response(for: RepoRequest())))
        guard case .unacceptableStatusCode(let code, let headers, let body)? = error else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(code, 404)
        XCTAssertEqual(headers["x-ratelimit-remaining"], "59")
        XCTAssertEqual(body, Data(#"{"message":"Not Found"}"#.utf8))
        XCTAssertEqual(error?.statusCode, 404)
        XCTAssertEqual(error?.headers?["content-type"], "application/json")
        XCTAssertEqual(error?.body, body)
        XCTAssertEqual(error?.description, #"Unacceptable HTTP status 404 Not Found (application/json): {"message":"Not Found"}"#)
        XCTAssertEqual(
            HTTPError.unacceptableStatusCode(500, headers: [:], body: Data()).description,
            "Unacceptable HTTP status 500 Internal Server Error"
        )
        // Long bodies are shortened.
        let long = HTTPError.unacceptableStatusCode(502, headers: [:], body: Data(String(repeating: "x", count: 5000).utf8))
        XCTAssertTrue(long.description.hasSuffix("… (5000 bytes)"), long.description)
        XCTAssertLessThan(long.description.count, 300)
    }

    func testUndecodableBody() {
        let stub = StubHTTPClient()
        stub.stub(.get, "/repos/octocat/hello", .json(#"{"id":"not a number"}"#))
        let error = httpError(outcome(of: Session(client: stub).response(for: RepoRequest())))
        XCTAssertEqual(error?.kind, .undecodableBody)
        XCTAssertTrue(error?.decodingError is DecodingError)
        XCTAssertEqual(error?.body, Data(#"{"id":"not a number"}"#.utf8))
        XCTAssertTrue(error?.description.hasPrefix("Undecodable response body: expected Int at id: ") ?? false, "\(String(describing: error))")
        XCTAssertTrue(error?.description.hasSuffix(#"; body: {"id":"not a number"}"#) ?? false)

        stub.stub(.get, "/repos/octocat/hello", .json(""))
        XCTAssertTrue(httpError(outcome(of: Session(client: stub).response(for: RepoRequest())))?.description.hasSuffix("body: (empty)") ?? false)
        // Null where a value is required; a missing key.
        stub.stub(.get, "/repos/octocat/hello", .json(#"{"id":null}"#))
        XCTAssertEqual(httpError(outcome(of: Session(client: stub).response(for: RepoRequest())))?.description,
                       #"Undecodable response body: expected Int but found null at id; body: {"id":null}"#)
        stub.stub(.get, "/repos/octocat/hello", .json(#"{"id":1}"#))
        XCTAssertTrue(httpError(outcome(of: Session(client: stub).response(for: RepoRequest())))?.description
            .hasPrefix(#"Undecodable response body: no value for key "fullName" at the top level"#) ?? false)
    }

    func testInvalidRequestSendsNothing() {
        let stub = StubHTTPClient()
        let session = Session(client: stub)
        let badBase = ConfigurableRequest<Void>(baseURL: URL(string: "nowhere")!, convert: { _ in })
        XCTAssertEqual(httpError(outcome(of: session.response(for: badBase)))?.description,
                       #"Invalid HTTP request: the base URL "nowhere" has no scheme"#)
        let badParameter = ConfigurableRequest<Void>(queryParameters: ["x": Double.nan], convert: { _ in })
        XCTAssertEqual(httpError(outcome(of: session.response(for: badParameter)))?.kind, .invalidRequest)
        let badHeader = ConfigurableRequest<Void>(headerFields: ["X": "a\r\nb"], convert: { _ in })
        XCTAssertEqual(httpError(outcome(of: session.response(for: badHeader)))?.description,
                       "Invalid HTTP request: header field X contains a line break or NUL")
        // The conveniences fail the Single, when subscribed, the same way.
        let convenience = stub.get(URL(string: "relative")!)
        XCTAssertEqual(httpError(outcome(of: convenience))?.kind, .invalidRequest)
        XCTAssertEqual(stub.requests.count, 0)
    }

    func testKinds() {
        XCTAssertEqual(HTTPError.Kind.allCases.count, 7)
        let errors: [HTTPError] = [
            .transport(URLError(.timedOut)), .notHTTPResponse(nil), .unacceptableStatusCode(400, headers: [:], body: Data()),
            .undecodableBody(TestError(), body: Data()), .invalidRequest("x"), .responseTooLarge(limit: 10),
            .insecureRedirect(from: URL(string: "https://a.test/")!, to: URL(string: "http://a.test/")!),
        ]
        XCTAssertEqual(errors.map(\.kind), HTTPError.Kind.allCases)
        XCTAssertEqual(errors.compactMap(\.urlError).count, 1)
        XCTAssertEqual(errors.compactMap(\.statusCode), [400])
        XCTAssertEqual(errors.compactMap(\.body).count, 2)
        XCTAssertEqual(errors.compactMap(\.headers).count, 1)
        XCTAssertEqual(errors.compactMap(\.decodingError).count, 1)
        XCTAssertEqual(HTTPError.undecodableBody(TestError(2), body: Data("b".utf8)).description, "Undecodable response body: TestError(2); body: b")
        XCTAssertEqual(HTTPError.responseTooLarge(limit: 1024).description, "HTTP response body too large: more than 1024 bytes")
        XCTAssertFalse(RetryPolicy.isTransient(HTTPError.responseTooLarge(limit: 1024)))
    }

    func testErrorsKeepOnlyAPrefixOfALargeBody() throws {
        let url = URL(string: "https://api.example.com/big")!
        let big = Data(repeating: UInt8(ascii: "x"), count: 1_000_000)
        let response = try XCTUnwrap(HTTPResponse(url: url, statusCode: 500, data: big))
        XCTAssertThrowsError(try AcceptableStatusCodes.successful.validate(response)) { error in
            XCTAssertEqual((error as? HTTPError)?.body?.count, HTTPError.maximumBodyPrefix)
        }
        let undecodable = try XCTUnwrap(HTTPResponse(url: url, statusCode: 200, data: big))
        let events = Recorder<SingleEvent<[Int]>>()
        _ = Single.just(undecodable).decode([Int].self).subscribe { events.append($0) }
        guard case .failure(let error as HTTPError)? = events.values.first else { return XCTFail("\(events.values)") }
        XCTAssertEqual(error.kind, .undecodableBody)
        XCTAssertEqual(error.body?.count, HTTPError.maximumBodyPrefix)
        // A small body is kept whole.
        XCTAssertEqual(HTTPError.bodyPrefix(Data("short".utf8)), Data("short".utf8))
    }

    /// Random bodies, parameters, headers, paths and key paths: every outcome is
    /// a value or an HTTPError, never a crash.
    func testNothingCrashesOnArbitraryInput() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab/?#%&=+ \r\n\0\"'\\{}[]:.,é🚀-_~0123456789nulltrue")
        func randomText() -> String {
            String((0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        let stub = StubHTTPClient()
        stub.stub(.get, "/**", handler: { _ in
            StubResponse(statusCode: Int.random(in: 100...599), body: Data((0..<Int.random(in: 0...64)).map { _ in UInt8.random(in: 0...255) }))
        })
        let session = Session(client: stub)
        for _ in 0..<300 {
            let request = ConfigurableRequest<Repo>(
                path: randomText(),
                queryParameters: [randomText(): randomText(), "n": Double.random(in: -1e300...1e300)],
                headerFields: HTTPHeaders([(randomText(), randomText())]),
                acceptableStatusCodes: .any,
                convert: { try $0.decode(Repo.self, at: randomText()) }
            )
            switch outcome(of: session.response(for: request)) {
            case .failure(let error)?:
                XCTAssertTrue(error is HTTPError, "\(error)")
                XCTAssertFalse((error as? HTTPError)?.description.isEmpty ?? true)
            case .success?, nil:
                break
            }
            _ = try? JSONDecoder().decode([String].self, from: Data(randomText().utf8), keyPath: randomText())
            _ = try? HTTPParameters([(randomText(), randomText())]).percentEncodedQuery()
            _ = RetryPolicy.retryAfter(randomText(), now: Date())
        }
    }
}
