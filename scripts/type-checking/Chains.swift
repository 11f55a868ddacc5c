// A corpus of typical Ripple chains, for scripts/measure-type-checking.sh: what
// an app's view models write, type-checked against the Ripple module to see what
// the operators' signatures cost the compiler.
import Foundation
import Ripple

struct Repository { let name: String; let stars: Int; let owner: String }
enum SearchState { case idle, loading, loaded([Repository]), failed(String) }
struct SearchError: Error {}

final class Corpus {
    let query = PublishRelay<String>()
    let page = BehaviorRelay<Int>(value: 1)
    let taps = PublishSubject<Void>()
    let email = BehaviorRelay<String>(value: "")
    let password = BehaviorRelay<String>(value: "")
    let bag = DisposeBag()
    let scheduler = SerialDispatchQueueScheduler(qos: .default)

    func search(_ text: String) -> Observable<[Repository]> {
        .just([Repository(name: text, stars: 1, owner: "me")])
    }

    func chains() {
        let results = query
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .debounce(.milliseconds(300), scheduler: scheduler)
            .distinctUntilChanged()
            .flatMapLatest { [unowned self] text in self.search(text).catchAndReturn([]) }
            .observe(on: MainScheduler.instance)
            .share(replay: 1)
        results.map { $0.count }.subscribe(onNext: { print($0) }).disposed(by: bag)
        results.map { $0.map(\.name) }.map { $0.joined(separator: ", ") }.subscribe(onNext: { print($0) }).disposed(by: bag)
        let state: Observable<SearchState> = results
            .map { SearchState.loaded($0) }
            .startWith(.idle)
            .catch { _ in .just(.failed("offline")) }
        state.subscribe().disposed(by: bag)
        let valid = Observable.combineLatest(email.asObservable(), password.asObservable()) { email, password in
            email.contains("@") && password.count >= 6
        }
        valid.distinctUntilChanged().subscribe(onNext: { print($0) }).disposed(by: bag)
        let counter = taps.scan(0) { count, _ in count + 1 }.map { "\($0) taps" }
        counter.subscribe(onNext: { print($0) }).disposed(by: bag)
        let paged = page.asObservable()
            .flatMap { [unowned self] page in self.search("page \(page)") }
            .scan([Repository]()) { $0 + $1 }
            .map { $0.sorted { $0.stars > $1.stars } }
            .take(10)
            .skip(1)
        paged.subscribe().disposed(by: bag)
        let stars = results.flatMap { Observable.from($0) }.map(\.stars).reduce(0, accumulator: +)
        stars.subscribe().disposed(by: bag)
        let merged = Observable.merge(query.map { _ in 1 }, taps.map { _ in 2 }).buffer(timeSpan: .seconds(1), count: 5, scheduler: scheduler)
        merged.subscribe().disposed(by: bag)
        let zipped = Observable.zip(query.asObservable(), page.asObservable()).map { "\($0) \($1)" }
        zipped.subscribe().disposed(by: bag)
        let latest = taps.withLatestFrom(query).filter { $0.count > 2 }.throttle(.milliseconds(500), scheduler: scheduler)
        latest.subscribe().disposed(by: bag)
        let retried = search("x").retry(3).timeout(.seconds(5), scheduler: scheduler).do(onNext: { print($0) })
        retried.subscribe().disposed(by: bag)
        let driver = query.asDriver(onErrorJustReturn: "").map { $0.uppercased() }.filter { !$0.isEmpty }.distinctUntilChanged()
        driver.drive(onNext: { print($0) }).disposed(by: bag)
        let single = Single.just(1).map { $0 + 1 }.flatMap { Single.just("\($0)") }.map { $0.count }
        single.subscribe(onSuccess: { print($0) }).disposed(by: bag)
        let compact = query.compactMap { Int($0) }.map { $0 * 2 }.filter { $0 > 10 }.map { String($0) }
        compact.bind(to: email).disposed(by: bag)
        let concat = Observable.of(1, 2, 3).concat(Observable.just(4)).map { $0 * $0 }.toArray()
        concat.subscribe(onSuccess: { print($0) }).disposed(by: bag)
        let combined = Observable.combineLatest(query.asObservable(), page.asObservable(), email.asObservable())
            .map { query, page, email in "\(query) \(page) \(email)" }
            .debounce(.milliseconds(100), scheduler: scheduler)
        combined.subscribe().disposed(by: bag)
        let sampled = query.sample(taps).map { $0.lowercased() }.enumerated().map { "\($0.index): \($0.element)" }
        sampled.subscribe().disposed(by: bag)
        let errors = search("y").materialize().compactMap { $0.error }.map { "\($0)" }
        errors.subscribe().disposed(by: bag)
        let grouped = Observable.from([1, 2, 3, 4]).groupBy { $0 % 2 }.flatMap { $0.toArray().asObservable() }
        grouped.subscribe().disposed(by: bag)
        let nested = query.flatMapFirst { text in Observable.just(text).delay(.milliseconds(10), scheduler: self.scheduler) }
            .concatMap { Observable.of($0, $0) }
            .distinctUntilChanged { $0.count == $1.count }
            .map { ($0, $0.count) }
            .filter { $0.1 > 1 }
            .map { $0.0 }
        nested.subscribe().disposed(by: bag)
    }
}
