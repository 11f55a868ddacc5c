// Size program "operators": the operators most apps use, on subjects and traits.
// The same source is built against Ripple and against RxSwift (ripple-compare --size).
#if canImport(Ripple)
import Ripple
#else
import RxSwift
#endif
import Foundation

struct LookupFailed: Error {}

final class Screen {
    let disposeBag = DisposeBag()
    let text = BehaviorSubject<String>(value: "")
    let selection = PublishSubject<Int>()
    let clock = PublishSubject<Int>()
    private(set) var lines: [String] = []

    func emit(_ line: String) { lines.append(line) }

    func suggestions(for word: String) -> Observable<[String]> {
        Observable.just([word, word.lowercased(), word + "s"])
    }

    func detail(_ index: Int) -> Single<String> {
        Single.just("detail #\(index)")
    }

    func bind(on scheduler: SchedulerType) {
        let suggestions = text
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { $0.count > 1 }
            .distinctUntilChanged()
            .debounce(.milliseconds(5), scheduler: scheduler)
            .flatMapLatest { [unowned self] word in self.suggestions(for: word) }
            .share(replay: 1)

        Observable.combineLatest(suggestions, selection.startWith(-1)) { list, index in
            index >= 0 && index < list.count ? list[index] : "\(list.count) suggestions"
        }
        .subscribe(onNext: { [unowned self] in self.emit($0) })
        .disposed(by: disposeBag)

        clock.scan(0) { total, tick in total + tick }
            .take(10)
            .subscribe(onNext: { [unowned self] in self.emit("elapsed \($0)") })
            .disposed(by: disposeBag)

        Observable.zip(suggestions, clock) { list, tick in "\(tick): \(list.first ?? "-")" }
            .catchAndReturn("unavailable")
            .subscribe(onNext: { [unowned self] in self.emit($0) })
            .disposed(by: disposeBag)

        selection.flatMap { [unowned self] index in self.detail(index).asObservable() }
            .subscribe(onNext: { [unowned self] in self.emit($0) })
            .disposed(by: disposeBag)

        Observable.merge(clock.map { "clock \($0)" }, selection.map { "selected \($0)" })
            .buffer(timeSpan: .milliseconds(50), count: 4, scheduler: scheduler)
            .subscribe(onNext: { [unowned self] batch in self.emit(batch.joined(separator: "; ")) })
            .disposed(by: disposeBag)

        clock.withLatestFrom(text) { tick, word in "\(word)@\(tick)" }
            .flatMap { line -> Observable<String> in
                line.hasPrefix("!") ? Observable.error(LookupFailed()) : Observable.just(line)
            }
            .retry(3)
            .subscribe(onNext: { [unowned self] in self.emit($0) })
            .disposed(by: disposeBag)
    }
}

let screen = Screen()
screen.bind(on: MainScheduler.instance)
screen.text.onNext(CommandLine.arguments.dropFirst().first ?? "Swift")
screen.clock.onNext(3)
screen.selection.onNext(1)
screen.clock.onNext(4)
print(screen.lines.count)
