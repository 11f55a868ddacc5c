import Foundation
import RippleHTTP

/// Request types shared by the tests, in the shape an app writes them.
struct Owner: Decodable, Equatable {
    let login: String
    let avatarUrl: URL
}

struct Repo: Decodable, Equatable {
    let id: Int
    let fullName: String
    let owner: Owner
    let stargazersCount: Int
    let updatedAt: Date
}

let repoJSON = #"{"id":1296269,"full_name":"octocat/hello","owner":{"login":"octocat","avatar_url":"https://avatars.example/u/583231"},"stargazers_count":80,"updated_at":"2024-05-01T12:00:00.250Z"}"#

let exampleBase = URL(string: "https://api.example.com")!

struct RepoRequest: Request {
    typealias Response = Repo
    var baseURL: URL = exampleBase
    var owner = "octocat"
    var name = "hello"
    var path: String { "repos/\(owner)/\(name)" }
}

struct AvatarRequest: Request {
    typealias Response = URL
    var baseURL: URL = exampleBase
    var path: String { "repos/octocat/hello" }
    var decodingKeyPath: String? { "owner.avatar_url" }
}

struct SearchRequest: Request {
    typealias Response = [String]
    var baseURL: URL = exampleBase
    let keyword: String
    var offset = 0
    var limit = 20
    var path: String { "search/repositories" }
    var queryParameters: HTTPParameters { ["q": keyword, "offset": offset, "limit": limit] }
    var decodingKeyPath: String? { "items.full_name" }
}

struct CreateItem: Request {
    typealias Response = Void
    var baseURL: URL = exampleBase
    let name: String
    var method: HTTPMethod { .post }
    var path: String { "items" }
    var bodyParameters: HTTPBody { .json(["name": name]) }
    var headerFields: HTTPHeaders { ["X-Client": "tests"] }
}

/// A request whose every customization point is set from its fields.
struct ConfigurableRequest<Response>: Request {
    var baseURL: URL = exampleBase
    var method: HTTPMethod = .get
    var path: String = "thing"
    var queryParameters: HTTPParameters = [:]
    var bodyParameters: HTTPBody = .none
    var headerFields: HTTPHeaders = [:]
    var acceptableStatusCodes: AcceptableStatusCodes = .successful
    var timeout: RxTimeInterval?
    var retryPolicy: RetryPolicy?
    var convert: (HTTPResponse) throws -> Response

    func response(from response: HTTPResponse) throws -> Response {
        try convert(response)
    }
}

struct RawRequest: Request {
    typealias Response = Data
    var baseURL: URL = exampleBase
    var path: String = "raw"
}

struct WholeResponseRequest: Request {
    typealias Response = HTTPResponse
    var baseURL: URL = exampleBase
    var path: String = "whole"
    var acceptableStatusCodes: AcceptableStatusCodes { .any }
}
