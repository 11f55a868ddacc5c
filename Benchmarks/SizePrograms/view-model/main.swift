// Size program "view-model": MVVM view models as apps write them, relays in,
// Drivers and Signals out. The same source is built against Ripple and against
// RxSwift + RxRelay + RxCocoa's traits (ripple-compare --size).
#if canImport(Ripple)
import Ripple
#else
import RxSwift
import RxRelay
import RxCocoa
#endif
import Foundation

enum LoadState: Equatable {
    case idle
    case loading
    case failed(String)
}

struct Contact: Equatable {
    let id: Int
    let name: String
}

final class LoginViewModel {
    let username = BehaviorRelay<String>(value: "")
    let password = BehaviorRelay<String>(value: "")
    let loginTaps = PublishRelay<Void>()

    let usernameHint: Driver<String>
    let canLogIn: Driver<Bool>
    let loggedIn: Signal<String>

    init() {
        let usernameOK = username.asDriver().map { $0.count >= 3 }
        let passwordOK = password.asDriver().map { $0.count >= 8 && $0.contains(where: \.isNumber) }
        usernameHint = usernameOK.map { $0 ? "" : "Three characters or more" }
        canLogIn = Driver.combineLatest(usernameOK, passwordOK) { $0 && $1 }
            .distinctUntilChanged()
        loggedIn = loginTaps.asSignal()
            .withLatestFrom(canLogIn)
            .filter { $0 }
            .withLatestFrom(username.asDriver())
            .map { "Hello \($0)" }
    }
}

final class StepperViewModel {
    enum Step { case increment, decrement, clear }

    let plus = PublishRelay<Void>()
    let minus = PublishRelay<Void>()
    let clear = PublishRelay<Void>()
    let comment = BehaviorRelay<String>(value: "")
    let value: Driver<String>
    let commentLimit: Driver<String>

    init() {
        value = Observable.merge(plus.map { Step.increment }, minus.map { .decrement }, clear.map { .clear })
            .scan(0) { current, step in
                switch step {
                case .increment: return current + 1
                case .decrement: return max(0, current - 1)
                case .clear: return 0
                }
            }
            .startWith(0)
            .map { "\($0) items" }
            .asDriver(onErrorJustReturn: "?")
        commentLimit = comment.asDriver()
            .map { "\(280 - $0.count) left" }
    }
}

final class ContactsViewModel {
    let contacts = BehaviorRelay<[Contact]>(value: [])
    let state = BehaviorRelay<LoadState>(value: .idle)
    let filterText = BehaviorRelay<String>(value: "")
    let reload = PublishRelay<Void>()
    let disposeBag = DisposeBag()

    let names: Driver<[String]>
    let isLoading: Driver<Bool>
    let errorText: Driver<String>
    let isEmpty: Driver<Bool>

    init(fetch: @escaping (String) -> Single<[Contact]>) {
        names = contacts.asDriver().map { $0.map(\.name) }
        isLoading = state.asDriver().map { $0 == .loading }
        errorText = state.asDriver().map {
            if case .failed(let message) = $0 { return message }
            return ""
        }
        isEmpty = Driver.combineLatest(contacts.asDriver(), state.asDriver()) { $0.isEmpty && $1 == .idle }

        let triggers = Observable.merge(
            filterText.asObservable()
                .debounce(.milliseconds(250), scheduler: MainScheduler.instance)
                .distinctUntilChanged(),
            reload.withLatestFrom(filterText))
        triggers
            .do(onNext: { [state] _ in state.accept(.loading) })
            .flatMapLatest { text in
                fetch(text).asObservable()
                    .map { Result<[Contact], Error>.success($0) }
                    .catch { Observable.just(.failure($0)) }
            }
            .subscribe(onNext: { [contacts, state] outcome in
                switch outcome {
                case .success(let list):
                    contacts.accept(list)
                    state.accept(.idle)
                case .failure(let error):
                    state.accept(.failed(String(describing: error)))
                }
            })
            .disposed(by: disposeBag)
    }
}

var log: [String] = []
let disposeBag = DisposeBag()

let login = LoginViewModel()
login.usernameHint.drive(onNext: { log.append($0) }).disposed(by: disposeBag)
login.canLogIn.drive(onNext: { log.append("can log in: \($0)") }).disposed(by: disposeBag)
login.loggedIn.emit(onNext: { log.append($0) }).disposed(by: disposeBag)

let stepper = StepperViewModel()
stepper.value.drive(onNext: { log.append($0) }).disposed(by: disposeBag)
stepper.commentLimit.drive(onNext: { log.append($0) }).disposed(by: disposeBag)

let contactsModel = ContactsViewModel(fetch: { text in Single.just([Contact(id: 7, name: text)]) })
contactsModel.names.drive(onNext: { log.append($0.joined(separator: "/")) }).disposed(by: disposeBag)
contactsModel.isLoading.drive(onNext: { log.append("loading: \($0)") }).disposed(by: disposeBag)
contactsModel.errorText.drive(onNext: { log.append($0) }).disposed(by: disposeBag)
contactsModel.isEmpty.drive(onNext: { log.append("empty: \($0)") }).disposed(by: disposeBag)

login.username.accept("sam")
login.password.accept(CommandLine.arguments.dropFirst().first ?? "hunter22")
login.loginTaps.accept(())
stepper.plus.accept(())
stepper.minus.accept(())
stepper.clear.accept(())
stepper.comment.accept("ok")
contactsModel.filterText.accept("a")
contactsModel.reload.accept(())
print(log.count)
