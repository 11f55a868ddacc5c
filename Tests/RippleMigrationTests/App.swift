// An app's reactive layer written against RxSwift 6, RxRelay and RxCocoa's
// non-UI parts, moved to Ripple by changing its imports:
//
//     import RxSwift, import RxRelay, import RxCocoa  →  import Ripple (+ RippleHTTP for URLSession.rx)
//     import RxTest, import RxBlocking               →  import RippleTest
//
// Nothing else here was changed from RxSwift code. This target is built in Swift 5
// language mode (as most RxSwift code is) with warnings as errors: a name that
// Ripple removes or renames, or a new diagnostic in code like this, fails CI.
// Deprecated RxSwift spellings are in DeprecatedSpellings.swift, called from
// code marked deprecated (how an app silences their warnings until it renames
// them).
import Dispatch
import Foundation
import Ripple
import RippleHTTP

// MARK: - Model

struct Repo: Codable, Equatable {
    let id: Int
    let name: String
    let stars: Int
}

enum LoadState: Equatable {
    case idle
    case loading
    case failed(String)
    case loaded([Repo])
}

enum AppError: Error, Equatable {
    case offline
    case notFound(String)
    case timedOut
}

// MARK: - Service: Singles, Maybes, Completables

protocol GitHubAPI {
    func repos(of user: String) -> Single<[Repo]>
    func star(_ repo: Repo) -> Completable
    func avatar(of user: String) -> Maybe<URL>
}

/// A fake backend with a scheduler, as apps inject one in tests.
final class FakeGitHubAPI: GitHubAPI {
    let scheduler: SchedulerType
    let latency: RxTimeInterval
    var repos: [String: [Repo]] = [:]
    var failures = 0
    private(set) var requests: [String] = []
    private(set) var starred: [Int] = []

    init(scheduler: SchedulerType, latency: RxTimeInterval = .seconds(10)) {
        self.scheduler = scheduler
        self.latency = latency
    }

    func repos(of user: String) -> Single<[Repo]> {
        Single.create { [unowned self] single in
            self.requests.append(user)
            if self.failures > 0 {
                self.failures -= 1
                single(.failure(AppError.offline))
            } else if let repos = self.repos[user] {
                single(.success(repos))
            } else {
                single(.failure(AppError.notFound(user)))
            }
            return Disposables.create()
        }
        .delay(latency, scheduler: scheduler)
    }

    func star(_ repo: Repo) -> Completable {
        Completable.create { [unowned self] completable in
            self.starred.append(repo.id)
            completable(.completed)
            return Disposables.create()
        }
    }

    func avatar(of user: String) -> Maybe<URL> {
        Maybe.create { maybe in
            if user.isEmpty {
                maybe(.completed)
            } else {
                maybe(.success(URL(string: "https://avatars.example/\(user)")!))
            }
            return Disposables.create()
        }
    }
}

/// What a service layer does with Singles: retry, timeout, fallbacks, zips.
final class RepoService {
    let api: GitHubAPI
    let scheduler: SchedulerType

    init(api: GitHubAPI, scheduler: SchedulerType) {
        self.api = api
        self.scheduler = scheduler
    }

    func popularRepos(of user: String) -> Single<[Repo]> {
        api.repos(of: user)
            .retry(2)
            .timeout(.seconds(100), scheduler: scheduler)
            .map { $0.filter { $0.stars >= 10 } }
            .map { $0.sorted { $0.stars > $1.stars } }
    }

    func reposOrEmpty(of user: String) -> Single<[Repo]> {
        api.repos(of: user).catchAndReturn([])
    }

    func profile(of user: String) -> Single<(repos: [Repo], avatar: URL?)> {
        Single.zip(reposOrEmpty(of: user), api.avatar(of: user).map { Optional($0) }.ifEmpty(default: nil)) { ($0, $1) }
    }

    func starAll(of user: String) -> Completable {
        api.repos(of: user)
            .flatMapCompletable { [api] repos in Completable.zip(repos.map { api.star($0) }) }
    }

    func starThenReload(_ repo: Repo, user: String) -> Single<[Repo]> {
        api.star(repo).andThen(api.repos(of: user))
    }

    func firstRepoName(of user: String) -> Maybe<String> {
        api.repos(of: user).flatMapMaybe { repos in repos.first.map { Maybe.just($0.name) } ?? .empty() }
    }
}

// MARK: - Repository: cache first, then network

final class RepoRepository {
    private let service: RepoService
    private let cache = BehaviorRelay<[String: [Repo]]>(value: [:])

    init(service: RepoService) {
        self.service = service
    }

    /// The cached repos (if any) at once, then the network's.
    func repos(of user: String) -> Observable<[Repo]> {
        let cached = Observable.from(optional: cache.value[user])
        let network = service.popularRepos(of: user)
            .asObservable()
            .do(onNext: { [cache] repos in
                var value = cache.value
                value[user] = repos
                cache.accept(value)
            })
        return Observable.concat(cached, network).distinctUntilChanged()
    }
}

// MARK: - View model: relays in, Drivers and Signals out

final class SearchViewModel {
    // Inputs
    let query = BehaviorRelay<String>(value: "")
    let refresh = PublishRelay<Void>()
    let selection = PublishRelay<Int>()

    // Outputs
    let state: Driver<LoadState>
    let isLoading: Driver<Bool>
    let title: Driver<String>
    let openRepo: Signal<Repo>

    init(repository: RepoRepository, scheduler: SchedulerType) {
        let searches = Observable.merge(
            query.asObservable()
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .debounce(.milliseconds(300), scheduler: scheduler)
                .distinctUntilChanged(),
            refresh.withLatestFrom(query.asObservable())
        )
        .filter { !$0.isEmpty }

        let loaded = searches
            .flatMapLatest { user -> Observable<LoadState> in
                repository.repos(of: user)
                    .map { LoadState.loaded($0) }
                    .startWith(.loading)
                    .catch { error in .just(.failed("\(error)")) }
            }
            .share(replay: 1, scope: .whileConnected)

        state = loaded.asDriver(onErrorJustReturn: .idle).startWith(.idle)
        isLoading = state.map { $0 == .loading }.distinctUntilChanged()
        title = query.asDriver().map { $0.isEmpty ? "Search" : "Repos of \($0)" }
        openRepo = selection
            .withLatestFrom(loaded) { index, state -> Repo? in
                guard case .loaded(let repos) = state, repos.indices.contains(index) else { return nil }
                return repos[index]
            }
            .compactMap { $0 }
            .asSignal(onErrorSignalWith: .empty())
    }
}

/// The counter screen: inputs as observables, one Driver out.
struct CounterViewModel {
    let text: Driver<String>

    init(up: Observable<Void>, down: Observable<Void>, reset: Observable<Void>) {
        text = Observable.merge(up.map { 1 }, down.map { -1 }, reset.map { 0 })
            .scan(0) { total, step in step == 0 ? 0 : total + step }
            .startWith(0)
            .map { "\($0)" }
            .asDriver(onErrorDriveWith: .empty())
    }
}

/// The sign-up form: validation messages and an enabled button.
final class SignUpViewModel {
    let email = BehaviorRelay<String>(value: "")
    let password = BehaviorRelay<String>(value: "")
    let emailMessage: Driver<String>
    let passwordMessage: Driver<String>
    let canSubmit: Driver<Bool>

    init() {
        let emailValid = email.map { $0.contains("@") && $0.contains(".") }.share(replay: 1)
        let passwordValid = password.map { $0.count >= 6 }.share(replay: 1)
        emailMessage = emailValid.map { $0 ? "" : "Enter a valid email" }.asDriver(onErrorJustReturn: "")
        passwordMessage = passwordValid.map { $0 ? "" : "At least 6 characters" }.asDriver(onErrorJustReturn: "")
        canSubmit = Observable.combineLatest(emailValid, passwordValid) { $0 && $1 }
            .asDriver(onErrorRecover: { _ in .just(false) })
    }
}

// MARK: - A view layer without UIKit: Binder, ControlProperty, ControlEvent

final class TextField: ReactiveCompatible {
    let storage = BehaviorRelay<String?>(value: nil)
    func type(_ text: String?) { storage.accept(text) }
}

extension Reactive where Base: TextField {
    var text: ControlProperty<String?> {
        let storage = base.storage
        return ControlProperty(values: storage.asObservable(), valueSink: Binder(base) { field, value in
            field.storage.accept(value)
        })
    }
}

final class Button: ReactiveCompatible {
    let taps = PublishRelay<Void>()
    var isEnabled = true
    func tap() { taps.accept(()) }
}

extension Reactive where Base: Button {
    var tap: ControlEvent<Void> { ControlEvent(events: base.taps) }

    var isEnabled: Binder<Bool> {
        Binder(base) { button, enabled in button.isEnabled = enabled }
    }
}

final class Label {
    var text: String?
}

final class SearchScreen {
    let queryField = TextField()
    let refreshButton = Button()
    let titleLabel = Label()
    let stateLabel = Label()
    private(set) var opened: [String] = []
    let disposeBag = DisposeBag()

    func bind(_ viewModel: SearchViewModel) {
        queryField.rx.text.orEmpty
            .bind(to: viewModel.query)
            .disposed(by: disposeBag)
        refreshButton.rx.tap
            .bind(to: viewModel.refresh)
            .disposed(by: disposeBag)
        viewModel.title
            .drive(onNext: { [weak self] in self?.titleLabel.text = $0 })
            .disposed(by: disposeBag)
        viewModel.state
            .map { state -> String in
                switch state {
                case .idle: return ""
                case .loading: return "Loading…"
                case .failed(let message): return "Error: \(message)"
                case .loaded(let repos): return repos.map(\.name).joined(separator: ", ")
                }
            }
            .drive(Binder(stateLabel) { label, text in label.text = text })
            .disposed(by: disposeBag)
        viewModel.isLoading
            .map { !$0 }
            .drive(refreshButton.rx.isEnabled)
            .disposed(by: disposeBag)
        viewModel.openRepo
            .emit(onNext: { [weak self] repo in self?.opened.append(repo.name) })
            .disposed(by: disposeBag)
    }
}

// MARK: - Types of the app's own on Rx's protocols

/// A source written by hand: implementing `subscribe` is all it takes.
struct Ticker: ObservableType {
    typealias Element = Int
    let count: Int

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int {
        for tick in 0..<count {
            observer.onNext(tick)
        }
        observer.onCompleted()
        return Disposables.create()
    }
}

/// An observer written by hand.
final class Collector<Element>: ObserverType {
    private(set) var events: [Event<Element>] = []

    func on(_ event: Event<Element>) {
        events.append(event)
    }
}

/// A subject of its own: a relay that remembers how many values it passed on.
final class CountingSubject<Element>: ObservableType, ObserverType, SubjectType {
    typealias Observer = CountingSubject<Element>
    private let subject = PublishSubject<Element>()
    private(set) var count = 0

    func on(_ event: Event<Element>) {
        if case .next = event { count += 1 }
        subject.on(event)
    }

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    func asObserver() -> CountingSubject<Element> {
        self
    }
}

/// A connectable source of its own.
final class ManualConnectable<Element>: ConnectableObservableType {
    private let subject = PublishSubject<Element>()
    private let source: Observable<Element>
    private(set) var connections = 0

    init(_ source: Observable<Element>) {
        self.source = source
    }

    func connect() -> Disposable {
        connections += 1
        return source.subscribe(subject)
    }

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }
}

/// A disposable and a cancelable of the app's own.
final class Token: Cancelable {
    private(set) var isDisposed = false
    func dispose() { isDisposed = true }
}

/// A decoder for `decode(type:decoder:)` other than JSONDecoder.
struct LineDecoder: DataDecoder {
    func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        guard let line = String(data: data, encoding: .utf8) as? Value else { throw AppError.notFound("\(type)") }
        return line
    }
}
