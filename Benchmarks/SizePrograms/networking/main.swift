// Size program "networking", Ripple's side: a small REST client on RippleHTTP
// (typed requests, JSON decoding, status validation) and a search view model.
// networking-RxSwift/main.swift is the same client on RxSwift and URLSession.rx.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Ripple
import RippleHTTP

struct Book: Decodable, Equatable {
    let id: Int
    let title: String
    let pageCount: Int
}

// The server is never reached (port 9 on the loopback): only the code is measured.
let serverURL = URL(string: "http://127.0.0.1:9/api")!

struct FindBooks: Request {
    typealias Response = [Book]
    let text: String
    var baseURL: URL { serverURL }
    var path: String { "books" }
    var queryParameters: HTTPParameters { ["q": text, "limit": 20] }
    var decodingKeyPath: String? { "results" }
}

struct ShelfBooks: Request {
    typealias Response = [Book]
    let shelf: String
    var baseURL: URL { serverURL }
    var path: String { "shelves/\(shelf)/books" }
}

protocol LibraryService {
    func find(_ text: String) -> Single<[Book]>
    func shelf(_ name: String) -> Single<[Book]>
}

final class LibraryClient: LibraryService {
    private let session: Session

    init(session: Session) { self.session = session }

    func find(_ text: String) -> Single<[Book]> { session.response(for: FindBooks(text: text)) }
    func shelf(_ name: String) -> Single<[Book]> { session.response(for: ShelfBooks(shelf: name)) }
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

let service = LibraryClient(session: Session())
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
