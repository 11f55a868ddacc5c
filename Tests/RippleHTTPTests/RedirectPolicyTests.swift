import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import RippleHTTP
import RippleTest
import XCTest

/// The redirect rule both transports apply, as a pure function.
final class RedirectPolicyTests: RippleTestCase {
    func request(_ url: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    func follow(_ decision: RedirectPolicy.Decision, file: StaticString = #filePath, line: UInt = #line) -> URLRequest? {
        guard case .follow(let next) = decision else {
            XCTFail("expected a redirect to follow, got \(decision)", file: file, line: line)
            return nil
        }
        return next
    }

    let credentials = ["Authorization": "Bearer secret", "Cookie": "session=1", "Proxy-Authorization": "Basic eA==", "X-Api-Key": "k", "Accept": "application/json"]

    func testCredentialsAreDroppedWhenTheHostChanges() {
        let next = follow(RedirectPolicy.default.decide(
            after: request("http://127.0.0.1:8080/a", headers: credentials), status: 302, location: "http://127.0.0.2:8080/b",
            responseURL: nil, redirects: 0))
        XCTAssertEqual(next?.url?.absoluteString, "http://127.0.0.2:8080/b")
        XCTAssertNil(next?.value(forHTTPHeaderField: "Authorization"))
        XCTAssertNil(next?.value(forHTTPHeaderField: "Cookie"))
        XCTAssertNil(next?.value(forHTTPHeaderField: "Proxy-Authorization"))
        XCTAssertEqual(next?.value(forHTTPHeaderField: "X-Api-Key"), "k", "not marked sensitive")
        XCTAssertEqual(next?.value(forHTTPHeaderField: "Accept"), "application/json")
    }

    func testCredentialsAreDroppedWhenThePortOrTheSchemeChanges() {
        for location in ["http://127.0.0.1:8081/b", "https://127.0.0.1:8080/b", "https://127.0.0.1/b"] {
            let next = follow(RedirectPolicy.default.decide(
                after: request("http://127.0.0.1:8080/a", headers: credentials), status: 307, location: location, responseURL: nil, redirects: 0))
            XCTAssertNil(next?.value(forHTTPHeaderField: "Authorization"), location)
        }
    }

    func testCredentialsStayOnTheSameOrigin() {
        for (from, location) in [
            ("http://api.test/a", "/b"), ("http://api.test/a", "http://API.test:80/b"), ("https://api.test/a", "https://api.test:443/c?x=1"),
        ] {
            let next = follow(RedirectPolicy.default.decide(
                after: request(from, headers: credentials), status: 301, location: location, responseURL: nil, redirects: 0))
            XCTAssertEqual(next?.value(forHTTPHeaderField: "Authorization"), "Bearer secret", location)
            XCTAssertEqual(next?.value(forHTTPHeaderField: "Cookie"), "session=1", location)
        }
    }

    func testHeadersMarkedSensitiveAreDroppedToo() {
        let policy = RedirectPolicy(sensitiveHeaders: ["x-api-key"])
        let next = follow(policy.decide(
            after: request("http://a.test/", headers: credentials), status: 302, location: "http://b.test/", responseURL: nil, redirects: 0))
        XCTAssertNil(next?.value(forHTTPHeaderField: "X-Api-Key"))
        XCTAssertEqual(next?.value(forHTTPHeaderField: "Accept"), "application/json")
    }

    func testADowngradeToHTTPIsRefusedUnlessAllowed() {
        guard case .fail(let error) = RedirectPolicy.default.decide(
            after: request("https://a.test/x"), status: 302, location: "http://a.test/y", responseURL: nil, redirects: 0)
        else { return XCTFail("followed an insecure redirect") }
        XCTAssertEqual(error.kind, .insecureRedirect)
        XCTAssertEqual(error.description, "Refused an insecure redirect from https://a.test/x to http://a.test/y (https to http)")
        var allowing = RedirectPolicy.default
        allowing.allowsInsecureRedirects = true
        let next = follow(allowing.decide(
            after: request("https://a.test/x", headers: credentials), status: 302, location: "http://a.test/y", responseURL: nil, redirects: 0))
        XCTAssertNil(next?.value(forHTTPHeaderField: "Authorization"), "another origin (scheme) all the same")
    }

    func testTheLimitEndsALoop() {
        let policy = RedirectPolicy(maximumRedirects: 2)
        XCTAssertNotNil(follow(policy.decide(after: request("http://a.test/l"), status: 302, location: "/l", responseURL: nil, redirects: 1)))
        guard case .fail(let error) = policy.decide(after: request("http://a.test/l"), status: 302, location: "/l", responseURL: nil, redirects: 2)
        else { return XCTFail("no limit") }
        XCTAssertEqual(error.urlError?.code, .httpTooManyRedirects)
    }

    func testNeverDeliversTheRedirectItself() {
        guard case .deliver = RedirectPolicy.never.decide(
            after: request("http://a.test/"), status: 302, location: "http://b.test/", responseURL: nil, redirects: 0)
        else { return XCTFail("followed") }
    }

    func testMethodsChangeAsBrowsersDo() {
        let post = request("http://a.test/form", method: "POST", headers: ["Content-Type": "application/json", "Authorization": "t"], body: "{}")
        for status in [301, 302, 303] {
            let next = follow(RedirectPolicy.default.decide(after: post, status: status, location: "/done", responseURL: nil, redirects: 0))
            XCTAssertEqual(next?.httpMethod, "GET", "\(status)")
            XCTAssertNil(next?.httpBody, "\(status)")
            XCTAssertNil(next?.value(forHTTPHeaderField: "Content-Type"), "\(status)")
            XCTAssertEqual(next?.value(forHTTPHeaderField: "Authorization"), "t", "same origin")
        }
        for status in [307, 308] {
            let next = follow(RedirectPolicy.default.decide(after: post, status: status, location: "/again", responseURL: nil, redirects: 0))
            XCTAssertEqual(next?.httpMethod, "POST", "\(status)")
            XCTAssertEqual(next?.httpBody, Data("{}".utf8), "\(status)")
        }
        let put = request("http://a.test/x", method: "PUT", body: "b")
        XCTAssertEqual(follow(RedirectPolicy.default.decide(after: put, status: 302, location: "/y", responseURL: nil, redirects: 0))?.httpMethod, "PUT")
        XCTAssertEqual(follow(RedirectPolicy.default.decide(after: put, status: 303, location: "/y", responseURL: nil, redirects: 0))?.httpMethod, "GET")
        let head = request("http://a.test/x", method: "HEAD")
        XCTAssertEqual(follow(RedirectPolicy.default.decide(after: head, status: 303, location: "/y", responseURL: nil, redirects: 0))?.httpMethod, "HEAD")
    }

    func testLocationsThatCannotBeFollowedLeaveTheRedirectAsTheResponse() {
        for (status, location) in [(302, nil), (300, "/x"), (304, "/x"), (302, "file:///etc/passwd"), (302, "ftp://a.test/"), (302, "http://")] as [(Int, String?)] {
            guard case .deliver = RedirectPolicy.default.decide(
                after: request("http://a.test/"), status: status, location: location, responseURL: nil, redirects: 0)
            else { return XCTFail("followed \(status) \(location ?? "nil")") }
        }
    }

    func testARelativeLocationResolvesAgainstTheResponseURL() {
        let next = follow(RedirectPolicy.default.decide(
            after: request("http://a.test/dir/page"), status: 302, location: "other?q=1", responseURL: URL(string: "http://a.test/dir/page"),
            redirects: 0))
        XCTAssertEqual(next?.url?.absoluteString, "http://a.test/dir/other?q=1")
    }
}
