import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RippleHTTP
import XCTest

final class ParameterEncodingTests: HTTPTestCase {
    let base = URL(string: "https://api.example.com/v1/search")!

    // MARK: Query strings

    func testQueryKeepsTheOrderWrittenAndEncodesScalars() throws {
        let parameters: HTTPParameters = ["q": "ripple", "page": 2, "ratio": 0.5, "exact": true, "whole": 3.0]
        XCTAssertEqual(try parameters.percentEncodedQuery(), "q=ripple&page=2&ratio=0.5&exact=true&whole=3")
    }

    func testQueryEscapesReservedCharacters() throws {
        let parameters: HTTPParameters = ["a&b": "x=y&z", "plus": "1+1", "space": "a b", "slash?": "/path?#frag", "pct": "100%", "tilde": "a-b._~c"]
        XCTAssertEqual(
            try parameters.percentEncodedQuery(),
            "a%26b=x%3Dy%26z&plus=1%2B1&space=a%20b&slash%3F=%2Fpath%3F%23frag&pct=100%25&tilde=a-b._~c"
        )
    }

    func testQueryEncodesUnicodeAsUTF8() throws {
        let parameters: HTTPParameters = ["名前": "café 🚀", "emoji": "👩‍👩‍👧"]
        XCTAssertEqual(
            try parameters.percentEncodedQuery(),
            "%E5%90%8D%E5%89%8D=caf%C3%A9%20%F0%9F%9A%80&emoji=%F0%9F%91%A9%E2%80%8D%F0%9F%91%A9%E2%80%8D%F0%9F%91%A7"
        )
    }

    func testNilIsLeftOutArraysRepeatTheKeyObjectsUseBrackets() throws {
        let missing: String? = nil
        let present: Int? = 7
        let parameters: HTTPParameters = [
            "keyword": missing, "limit": present, "tag": ["rx", "swift"], "user": ["name": "ann", "age": 3] as HTTPParameterValue,
        ]
        XCTAssertEqual(try parameters.percentEncodedQuery(), "limit=7&tag=rx&tag=swift&user%5Bname%5D=ann&user%5Bage%5D=3")
    }

    func testConvertibleValues() throws {
        let date = Date(timeIntervalSince1970: 1_714_564_800.25)
        let parameters: HTTPParameters = [
            "date": date, "url": URL(string: "https://x.y/a?b=c")!, "big": UInt64.max, "small": Int8(-3),
            "decimal": Decimal(string: "12.345")!, "float": Float(1.5), "sub": "abc".dropFirst(),
        ]
        XCTAssertEqual(
            try parameters.percentEncodedQuery(),
            "date=2024-05-01T12%3A00%3A00.250Z&url=https%3A%2F%2Fx.y%2Fa%3Fb%3Dc&big=18446744073709551615&small=-3&decimal=12.345&float=1.5&sub=bc"
        )
    }

    func testSubscriptAndDictionaryInitializer() throws {
        var parameters = HTTPParameters(["b": 2, "a": "1"])
        XCTAssertEqual(try parameters.percentEncodedQuery(), "a=1&b=2")
        parameters["a"] = .int(5)
        parameters["c"] = "new"
        parameters["b"] = nil
        XCTAssertEqual(try parameters.percentEncodedQuery(), "a=5&c=new")
        XCTAssertEqual(parameters["c"], .string("new"))
        XCTAssertFalse(parameters.isEmpty)
        XCTAssertTrue(HTTPParameters().isEmpty)
        // A repeated name in a literal: the later value wins, in the first place.
        let repeated = HTTPParameters([("x", 1), ("y", 2), ("x", 3)])
        XCTAssertEqual(try repeated.percentEncodedQuery(), "x=3&y=2")
    }

    func testBadParametersAreInvalidRequests() {
        let badNumbers: [HTTPParameters] = [["n": Double.nan], ["n": Double.infinity], ["deep": ["x": [-Double.infinity]]]]
        for parameters in badNumbers {
            XCTAssertThrowsError(try parameters.percentEncodedQuery()) { error in
                XCTAssertEqual((error as? HTTPError)?.kind, .invalidRequest)
                XCTAssertTrue("\(error)".contains("not a finite number"), "\(error)")
            }
        }
        XCTAssertThrowsError(try (["": "x"] as HTTPParameters).percentEncodedQuery()) { error in
            XCTAssertEqual("\(error)", "Invalid HTTP request: a parameter has an empty name")
        }
        XCTAssertThrowsError(try (["user": ["": 1]] as HTTPParameters).percentEncodedQuery())
    }

    func testURLRequestAppendsTheQueryAfterAnExistingOne() throws {
        let url = URL(string: "https://api.example.com/items?fixed=1")!
        let request = try URLRequest(method: .get, url: url, parameters: ["q": "a b"])
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/items?fixed=1&q=a%20b")
        XCTAssertEqual(request.httpMethod, "GET")
        XCTAssertNil(request.httpBody)
        // Only nil parameters: no "?" is added.
        let none: String? = nil
        XCTAssertEqual(try URLRequest(method: .get, url: base, parameters: ["q": none]).url, base)
    }

    // MARK: Bodies

    func testFormBody() throws {
        let request = try URLRequest(method: .post, url: base, body: .form(["name": "Ripple & Co", "stars": 5, "tags": ["a", "b"]]))
        XCTAssertEqual(request.httpBody.map { String(decoding: $0, as: UTF8.self) }, "name=Ripple%20%26%20Co&stars=5&tags=a&tags=b")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
    }

    func testJSONBodyKeepsOrderEscapesAndNests() throws {
        let body: HTTPBody = .json([
            "name": "quote \" backslash \\ newline \n tab \t ctrl \u{01} é 🚀",
            "count": 3, "ratio": 0.25, "ok": false, "nothing": nil,
            "tags": ["rx", 1, nil] as HTTPParameterValue, "owner": ["login": "ann"], "big": 1e20,
        ])
        let request = try URLRequest(method: .put, url: base, body: body)
        XCTAssertEqual(
            request.httpBody.map { String(decoding: $0, as: UTF8.self) },
            #"{"name":"quote \" backslash \\ newline \n tab \t ctrl \u0001 é 🚀","count":3,"ratio":0.25,"ok":false,"nothing":null,"tags":["rx",1,null],"owner":{"login":"ann"},"big":1e+20}"#
        )
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/json")
        // It is valid JSON.
        let parsed = try JSONSerialization.jsonObject(with: request.httpBody!) as? [String: Any]
        XCTAssertEqual(parsed?["name"] as? String, "quote \" backslash \\ newline \n tab \t ctrl \u{01} é 🚀")
    }

    func testJSONBodyWithANonFiniteNumberIsAnInvalidRequest() {
        XCTAssertThrowsError(try URLRequest(method: .post, url: base, body: .json(["a": ["b": Double.nan]]))) { error in
            XCTAssertEqual("\(error)", "Invalid HTTP request: body.a.b is not a finite number (nan); JSON cannot carry it")
        }
    }

    func testEncodableAndDataBodies() throws {
        struct NewIssue: Encodable, Sendable { let title: String; let labelIDs: [Int] }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let request = try URLRequest(method: .post, url: base, body: .encodable(NewIssue(title: "Bug", labelIDs: [1]), encoder: encoder))
        XCTAssertEqual(request.httpBody.map { String(decoding: $0, as: UTF8.self) }, #"{"label_i_ds":[1],"title":"Bug"}"#)

        struct Bad: Encodable, Sendable { let value = Double.nan }
        XCTAssertThrowsError(try URLRequest(method: .post, url: base, body: .encodable(Bad()))) { error in
            XCTAssertEqual((error as? HTTPError)?.kind, .invalidRequest)
        }

        let png = Data([0x89, 0x50, 0x4E, 0x47])
        let upload = try URLRequest(method: .put, url: base, body: .data(png, contentType: "image/png"))
        XCTAssertEqual(upload.httpBody, png)
        XCTAssertEqual(upload.value(forHTTPHeaderField: "Content-Type"), "image/png")
    }

    func testAnExplicitContentTypeWins() throws {
        let request = try URLRequest(method: .post, url: base, body: .json(["a": 1]), headers: ["content-type": "application/vnd.api+json"])
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/vnd.api+json")
    }

    // MARK: Headers

    func testHeadersAreCaseInsensitiveAndOrdered() {
        var headers: HTTPHeaders = ["Accept": "application/json", "X-Trace": "1"]
        XCTAssertEqual(headers["accept"], "application/json")
        headers["ACCEPT"] = "text/plain"
        XCTAssertEqual(headers.fields.map(\.name), ["ACCEPT", "X-Trace"])
        XCTAssertEqual(headers["Accept"], "text/plain")
        headers["x-trace"] = nil
        XCTAssertEqual(headers.count, 1)
        XCTAssertEqual(HTTPHeaders([("A", "1"), ("a", "2"), ("B", "3")]).fields, [.init(name: "a", value: "2"), .init(name: "B", value: "3")])
        XCTAssertEqual(HTTPHeaders(["b": "2", "a": "1"]).fields.map(\.name), ["a", "b"])
        XCTAssertEqual(["A": "1"] as HTTPHeaders, ["a": "1"] as HTTPHeaders)
        XCTAssertNotEqual(["A": "1"] as HTTPHeaders, ["a": "2"] as HTTPHeaders)
        let merged = (["Accept": "x", "User-Agent": "app"] as HTTPHeaders).merging(["accept": "y"])
        XCTAssertEqual(merged.dictionary, ["accept": "y", "User-Agent": "app"])
        XCTAssertEqual(merged.description, "accept: y\nUser-Agent: app")
        XCTAssertTrue(HTTPHeaders().isEmpty)
    }

    func testHeadersAreSetOnTheRequest() throws {
        let request = try URLRequest(method: .get, url: base, headers: ["Accept": "application/json", "Authorization": "Bearer t"])
        XCTAssertEqual(request.value(forHTTPHeaderField: "accept"), "application/json")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Authorization"), "Bearer t")
    }

    func testHeaderInjectionAndBadNamesAreInvalidRequests() {
        let bad: [HTTPHeaders] = [["X-A": "1\r\nX-Injected: 2"], ["X-A": "line\nbreak"], ["X-A": "nul\0"], ["Bad Name": "1"], ["": "1"], ["Ünicode": "1"]]
        for headers in bad {
            XCTAssertThrowsError(try URLRequest(method: .get, url: base, headers: headers), "\(headers)") { error in
                XCTAssertEqual((error as? HTTPError)?.kind, .invalidRequest)
            }
        }
        XCTAssertNoThrow(try URLRequest(method: .get, url: base, headers: ["X-Ok_1.~!#$%&'*+^`|": "any value: é"]))
    }

    // MARK: Requests that cannot be built

    func testURLWithoutSchemeMethodAndTimeoutValidation() {
        XCTAssertThrowsError(try URLRequest(method: .get, url: URL(string: "relative/path")!)) { error in
            XCTAssertEqual("\(error)", #"Invalid HTTP request: the URL "relative/path" has no scheme"#)
        }
        XCTAssertThrowsError(try URLRequest(method: "GET /x", url: base))
        XCTAssertThrowsError(try URLRequest(method: "", url: base))
        XCTAssertThrowsError(try URLRequest(method: .get, url: base, timeoutInterval: 0))
        XCTAssertThrowsError(try URLRequest(method: .get, url: base, timeoutInterval: -.infinity))
        XCTAssertEqual(try URLRequest(method: "PROPFIND", url: base, timeoutInterval: 7).timeoutInterval, 7)
    }

    func testMethods() {
        XCTAssertEqual(HTTPMethod.get.rawValue, "GET")
        XCTAssertEqual(HTTPMethod.patch.description, "PATCH")
        XCTAssertEqual(HTTPMethod(rawValue: "PURGE"), "PURGE")
        XCTAssertEqual([HTTPMethod.get, .head, .options, .put, .delete, "TRACE"].filter(\.isIdempotent).count, 6)
        XCTAssertFalse(HTTPMethod.post.isIdempotent)
        XCTAssertFalse(HTTPMethod.patch.isIdempotent)
    }

    // MARK: curl

    func testCurlCommand() throws {
        let request = try URLRequest(
            method: .post, url: base, parameters: ["q": "it's"], body: .json(["name": "O'Brien"]),
            headers: ["Authorization": "Bearer secret", "Accept": "application/json"]
        )
        XCTAssertEqual(
            request.curlCommand(redactingHeaders: ["authorization"]),
            #"curl -X POST -H 'Accept: application/json' -H 'Authorization: <redacted>' -H 'Content-Type: application/json' --data-binary '{"name":"O'\''Brien"}' 'https://api.example.com/v1/search?q=it%27s'"#
        )
        XCTAssertEqual(try URLRequest(method: .get, url: base).curlCommand(), "curl 'https://api.example.com/v1/search'")
        XCTAssertEqual(try URLRequest(method: .head, url: base).curlCommand(), "curl --head 'https://api.example.com/v1/search'")
        XCTAssertEqual(try URLRequest(method: .delete, url: base).curlCommand(), "curl -X DELETE 'https://api.example.com/v1/search'")
        let binary = try URLRequest(method: .put, url: base, body: .data(Data([0xFF, 0xFE]), contentType: "application/octet-stream"))
        XCTAssertEqual(
            binary.curlCommand(),
            "curl -X PUT -H 'Content-Type: application/octet-stream' 'https://api.example.com/v1/search' --data-binary @- # 2 bytes of binary data not shown"
        )
    }
}
