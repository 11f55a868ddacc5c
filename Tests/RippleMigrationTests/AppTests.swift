// The app's tests, as they were written with RxTest and RxBlocking.
import Foundation
import Ripple
import RippleTest
import XCTest

final class SearchViewModelTests: RippleTestCase {
    var scheduler: TestScheduler!
    var api: FakeGitHubAPI!
    var disposeBag: DisposeBag!

    override func setUp() {
        super.setUp()
        // Milliseconds: the view model debounces typing for 300 ms.
        scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        api = FakeGitHubAPI(scheduler: scheduler, latency: .milliseconds(50))
        api.repos = [
            "ada": [Repo(id: 1, name: "engine", stars: 40), Repo(id: 2, name: "notes", stars: 3), Repo(id: 3, name: "loom", stars: 12)],
        ]
        disposeBag = DisposeBag()
    }

    override func tearDown() {
        disposeBag = nil
        scheduler = nil
        api = nil
        super.tearDown()
    }

    private func makeViewModel() -> SearchViewModel {
        SearchViewModel(repository: RepoRepository(service: RepoService(api: api, scheduler: scheduler)), scheduler: scheduler)
    }

    func testTypingSearchesOnceTheQueryIsStable() {
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = makeViewModel()
            let typing = scheduler.createHotObservable([
                .next(210, "a"),
                .next(220, "ad"),
                .next(230, "ada"),
            ])
            typing.bind(to: viewModel.query).disposed(by: disposeBag)
            let state = scheduler.createObserver(LoadState.self)
            viewModel.state.drive(state).disposed(by: disposeBag)
            scheduler.start()

            let engine = Repo(id: 1, name: "engine", stars: 40)
            let loom = Repo(id: 3, name: "loom", stars: 12)
            // Typing stops at 230: the search starts 300 ms later, its answer
            // comes 50 ms after that (each a tick later, through the Driver's
            // scheduler).
            XCTAssertEqual(state.events, [
                .next(0, .idle),
                .next(531, .loading),
                .next(581, .loaded([engine, loom])),
            ])
            XCTAssertEqual(api.requests, ["ada"])
        }
    }

    func testAFailedSearchShowsTheErrorAndRefreshRetries() {
        SharingScheduler.mock(scheduler: scheduler) {
            api.failures = 3
            let viewModel = makeViewModel()
            let screen = SearchScreen()
            screen.bind(viewModel)
            scheduler.scheduleAt(100) { screen.queryField.type("ada") }
            scheduler.scheduleAt(1_000) { screen.refreshButton.tap() }
            scheduler.start()
            XCTAssertEqual(screen.titleLabel.text, "Repos of ada")
            XCTAssertEqual(screen.stateLabel.text, "engine, loom")
            XCTAssertEqual(api.requests, ["ada", "ada", "ada", "ada"])
            XCTAssertTrue(screen.refreshButton.isEnabled)
        }
    }

    func testSelectingARepoOpensIt() {
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = makeViewModel()
            let screen = SearchScreen()
            screen.bind(viewModel)
            scheduler.scheduleAt(100) { viewModel.query.accept("ada") }
            scheduler.scheduleAt(900) { viewModel.selection.accept(1) }
            scheduler.scheduleAt(910) { viewModel.selection.accept(7) }
            scheduler.start()
            XCTAssertEqual(screen.opened, ["loom"])
        }
    }
}

final class ServiceTests: RippleTestCase {
    func testPopularReposRetriesAndSorts() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let api = FakeGitHubAPI(scheduler: scheduler)
        api.repos = ["ada": [Repo(id: 1, name: "a", stars: 10), Repo(id: 2, name: "b", stars: 30)]]
        api.failures = 1
        let service = RepoService(api: api, scheduler: scheduler)
        let result = scheduler.start { service.popularRepos(of: "ada").asObservable() }
        // `delay` passes errors on at once: the retry runs at 200, its answer
        // arrives 10 later.
        XCTAssertEqual(result.events, [
            .next(210, [Repo(id: 2, name: "b", stars: 30), Repo(id: 1, name: "a", stars: 10)]),
            .completed(211),
        ])
        XCTAssertEqual(api.requests, ["ada", "ada"])
    }

    func testProfileZipsReposAndAvatar() throws {
        let background = ConcurrentDispatchQueueScheduler(qos: .default)
        let api = FakeGitHubAPI(scheduler: background, latency: .milliseconds(10))
        api.repos = ["ada": [Repo(id: 1, name: "a", stars: 1)]]
        let service = RepoService(api: api, scheduler: background)
        let profile = try service.profile(of: "ada").toBlocking().single()
        XCTAssertEqual(profile.repos.map(\.name), ["a"])
        XCTAssertEqual(profile.avatar?.absoluteString, "https://avatars.example/ada")
        XCTAssertEqual(try service.profile(of: "nobody").toBlocking().first()?.repos, [])
    }

    func testStarringAndAndThen() throws {
        let background = ConcurrentDispatchQueueScheduler(qos: .default)
        let api = FakeGitHubAPI(scheduler: background, latency: .milliseconds(10))
        let repos = [Repo(id: 1, name: "a", stars: 1), Repo(id: 2, name: "b", stars: 2)]
        api.repos = ["ada": repos]
        let service = RepoService(api: api, scheduler: background)
        XCTAssertEqual(try service.starAll(of: "ada").toBlocking().toArray().count, 0)
        XCTAssertEqual(api.starred, [1, 2])
        XCTAssertEqual(try service.starThenReload(repos[0], user: "ada").toBlocking().single(), repos)
        XCTAssertEqual(try service.firstRepoName(of: "ada").toBlocking().toArray(), ["a"])
        switch service.firstRepoName(of: "nobody").toBlocking().materialize() {
        case .failed(let elements, let error):
            XCTAssertEqual(elements, [])
            XCTAssertEqual(error as? AppError, .notFound("nobody"))
        case .completed:
            XCTFail("expected a failure")
        }
    }

    func testTimeout() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 1, simulateProcessingDelay: false)
        let never = Single<Int>.never().timeout(.seconds(50), scheduler: scheduler)
        let result = scheduler.start(created: TestScheduler.Defaults.created, subscribed: TestScheduler.Defaults.subscribed, disposed: TestScheduler.Defaults.disposed) {
            never.asObservable()
        }
        XCTAssertEqual(result.events, [.error(250, RxError.timeout)])
    }
}

final class FormViewModelTests: RippleTestCase {
    func testSignUpFormEnablesTheButton() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = SignUpViewModel()
            let canSubmit = scheduler.createObserver(Bool.self)
            let emailMessage = scheduler.createObserver(String.self)
            let bag = DisposeBag()
            viewModel.canSubmit.drive(canSubmit).disposed(by: bag)
            viewModel.emailMessage.drive(emailMessage).disposed(by: bag)
            scheduler.scheduleAt(300) { viewModel.email.accept("ada@example.org") }
            scheduler.scheduleAt(400) { viewModel.password.accept("secret1") }
            scheduler.start()
            XCTAssertRecordedElements(canSubmit.events, [false, false, true])
            XCTAssertEqual(emailMessage.events.map(\.value.element), ["Enter a valid email", ""])
        }
    }

    func testCounter() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let up = scheduler.createHotObservable([.next(210, ()), .next(220, ()), .next(240, ())])
            let down = scheduler.createHotObservable([.next(230, ())])
            let reset = scheduler.createHotObservable([.next(250, ())])
            let viewModel = CounterViewModel(up: up.asObservable(), down: down.asObservable(), reset: reset.asObservable())
            let result = scheduler.start { viewModel.text }
            XCTAssertEqual(result.events.map(\.value.element), ["0", "1", "2", "1", "2", "0"])
            XCTAssertEqual(up.subscriptions, [Subscription(200, 1000)])
            XCTAssertEqual(up.recordedEvents.count, 3)
        }
    }

    func testMarbleStringsDescribeTheCounter() throws {
        // Ripple's addition to RxTest: marble strings.
        let scheduler = TestScheduler(initialClock: 0)
        try SharingScheduler.mock(scheduler: scheduler) {
            let up = try scheduler.createHotObservable("--u--u--", values: ["u": ()])
            let viewModel = CounterViewModel(up: up.asObservable(), down: .never(), reset: .never())
            let result = scheduler.start { viewModel.text.asObservable() }
            XCTAssertEqual(result.events.compactMap(\.value.element), ["0", "1", "2"])
        }
    }
}
