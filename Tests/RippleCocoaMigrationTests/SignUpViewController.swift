// An RxSwift 6 / RxCocoa 6 view controller, as apps write them: text fields
// validated into a button's enabled state, a button's taps, a table bound with
// `rx.items(cellIdentifier:cellType:)` and `modelSelected`. Moved to Ripple by
// changing its imports only:
//
//     import RxSwift     ->  import Ripple
//     import RxCocoa     ->  import RippleCocoa
//     import UIKit       (on Linux: the interface that declares UIKit's API)
#if os(iOS) || RIPPLE_COCOA_INTERFACE
#if RIPPLE_COCOA_INTERFACE
import RippleUIKitInterface
#else
import UIKit
#endif
import Ripple
import RippleCocoa

struct Repository {
    let name: String
    let stars: Int
}

final class SignUpViewModel {
    let usernameValid: Observable<Bool>
    let passwordValid: Observable<Bool>
    let everythingValid: Observable<Bool>
    let repositories: Driver<[Repository]>

    init(username: Observable<String>, password: Observable<String>, search: Observable<String>) {
        usernameValid = username.map { $0.count >= 5 }.share(replay: 1)
        passwordValid = password.map { $0.count >= 6 }.share(replay: 1)
        everythingValid = Observable.combineLatest(usernameValid, passwordValid) { $0 && $1 }.share(replay: 1)
        repositories = search
            .debounce(.milliseconds(300), scheduler: MainScheduler.instance)
            .distinctUntilChanged()
            .map { query in
                [Repository(name: "\(query)-one", stars: 3), Repository(name: "\(query)-two", stars: 5)]
            }
            .asDriver(onErrorJustReturn: [])
    }
}

class SignUpViewController: UIViewController {
    let usernameOutlet = UITextField()
    let usernameValidOutlet = UILabel()
    let passwordOutlet = UITextField()
    let passwordValidOutlet = UILabel()
    let doSomethingOutlet = UIButton()
    let tableView = UITableView(frame: .zero, style: .plain)

    var viewModel: SignUpViewModel!
    var disposeBag = DisposeBag()
    var taps = 0
    var chosen: [String] = []
    let searchQuery = PublishSubject<String>()

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "Cell")

        viewModel = SignUpViewModel(
            username: usernameOutlet.rx.text.orEmpty.asObservable(),
            password: passwordOutlet.rx.text.orEmpty.asObservable(),
            search: searchQuery.asObservable()
        )

        viewModel.usernameValid
            .bind(to: passwordOutlet.rx.isEnabled)
            .disposed(by: disposeBag)

        viewModel.usernameValid
            .bind(to: usernameValidOutlet.rx.isHidden)
            .disposed(by: disposeBag)

        viewModel.passwordValid
            .bind(to: passwordValidOutlet.rx.isHidden)
            .disposed(by: disposeBag)

        viewModel.everythingValid
            .bind(to: doSomethingOutlet.rx.isEnabled)
            .disposed(by: disposeBag)

        doSomethingOutlet.rx.tap
            .subscribe(onNext: { [weak self] _ in self?.taps += 1 })
            .disposed(by: disposeBag)

        viewModel.repositories
            .drive(tableView.rx.items(cellIdentifier: "Cell", cellType: UITableViewCell.self)) { _, repository, cell in
                cell.textLabel?.text = "\(repository.name) ★\(repository.stars)"
            }
            .disposed(by: disposeBag)

        tableView.rx.modelSelected(Repository.self)
            .subscribe(onNext: { [weak self] repository in self?.chosen.append(repository.name) })
            .disposed(by: disposeBag)

        tableView.rx.itemSelected
            .subscribe(onNext: { [weak self] indexPath in
                self?.tableView.deselectRow(at: indexPath, animated: true)
            })
            .disposed(by: disposeBag)
    }
}
#endif
