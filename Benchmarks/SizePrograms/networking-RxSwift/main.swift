// Size program "networking", RxSwift's side: the client of networking/main.swift
// on RxSwift and RxCocoa's URLSession.rx, with the decoding and status checks that
// RippleHTTP does written by hand.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RxSwift
import RxRelay
import RxCocoa

struct Book: Decodable, Equatable {
    let id: Int
    let title: String
    let pageCount: Int
}

struct FoundBooks: Decodable {
    let results: [Book]
}

enum ServiceError: Error {
    case status(Int)
    case decoding(Error)
}

// The server is never reached (port 9 on the loopback): only the code is measured.
let serverURL = URL(string: "http://127.0.0.1:9/api")!

protocol LibraryService {
    func find(_ text: String) -> Single<[Book]>
    func shelf(_ name: String) -> Single<[Book]>
}

final class LibraryClient: LibraryService {
    private let session: URLSession
    private let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    init(session: URLSession) { self.session = session }

    private func get<Value: Decodable>(_ path: String, _ query: [URLQueryItem], as type: Value.Type) -> Single<Value> {
        var components = URLComponents(url: serverURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.queryItems = query.isEmpty ? nil : query
        var request = URLRequest(url: components.url!)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let decoder = self.decoder
        return session.rx.response(request: request)
            .map { response, data -> Value in
                guard (200..<300).contains(response.statusCode) else { throw ServiceError.status(response.statusCode) }
                do { return try decoder.decode(Value.self, from: data) } catch { throw ServiceError.decoding(error) }
            }
            .asSingle()
    }

    func find(_ text: String) -> Single<[Book]> {
        get("books", [URLQueryItem(name: "q", value: text), URLQueryItem(name: "limit", value: "20")], as: FoundBooks.self)
            .map(\.results)
    }

    func shelf(_ name: String) -> Single<[Book]> {
        get("shelves/\(name)/books", [], as: [Book].self)
    }
}

final class BookSearchViewModel {
    let searchText = BehaviorRelay<String>(value: "")
    let errors = PublishRelay<String>()
    let titles: Observable<[String]>

    init(service: LibraryService, scheduler: SchedulerType) {
        let errors = self.errors
        titles = searchText
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .distinctUntilChanged()
            .debounce(.milliseconds(200), scheduler: scheduler)
            .flatMapLatest { text in
                service.find(text)
                    .retry(1)
                    .map { books in books.map { "\($0.title) (\($0.pageCount) p.)" } }
                    .asObservable()
                    .catch { error in
                        errors.accept(String(describing: error))
                        return Observable.just([])
                    }
            }
            .share(replay: 1)
    }
}

let service = LibraryClient(session: URLSession(configuration: .default))
let searchModel = BookSearchViewModel(service: service, scheduler: MainScheduler.instance)
let disposeBag = DisposeBag()
var log: [String] = []
searchModel.titles.subscribe(onNext: { log.append(contentsOf: $0) }).disposed(by: disposeBag)
searchModel.errors.subscribe(onNext: { log.append($0) }).disposed(by: disposeBag)
service.shelf(CommandLine.arguments.dropFirst().first ?? "fiction")
    .subscribe(onSuccess: { log.append("\($0.count) books") }, onFailure: { log.append("\($0)") })
    .disposed(by: disposeBag)
searchModel.searchText.accept("swift")
print(log.count)
