import Foundation
import Ripple
import RippleTest
import XCTest

// These types compile without warnings in Swift 6 language mode: that is the test.
// They pin the closure-isolation design described in the README.

/// A main-actor view model in the style RxSwift apps use.
@MainActor
final class CounterViewModel {
    private let bag = DisposeBag()
    let count = BehaviorRelay(value: 0)
    private(set) var title = ""
    private var history: [Int] = []

    init(increments: Observable<Int>) {
        increments
            .scan(0, accumulator: +)
            .bind(to: count)
            .disposed(by: bag)

        count
            .map { "Count: \($0)" }
            .observe(on: MainScheduler.instance)
            .subscribe(onNext: { [weak self] title in
                self?.title = title
            })
            .disposed(by: bag)

        count.asObservable()
            .subscribe(with: self, onNext: { owner, value in owner.history.append(value) })
            .disposed(by: bag)
    }

    var recorded: [Int] { history }
}

/// Ripple's reference types are `Sendable`: they can live in `Sendable` values and
/// be handed to actors.
struct Streams: Sendable {
    let events: PublishSubject<Int>
    let state: BehaviorRelay<String>
    let derived: Observable<String>
    let scheduler: any SchedulerType
    let bag: DisposeBag
}

actor Store {
    private let streams: Streams
    private var subscription: (any Disposable & Sendable)?

    init(streams: Streams) {
        self.streams = streams
    }

    func send(_ value: Int) {
        streams.events.onNext(value)
    }

    func currentState() -> String {
        streams.state.value
    }
}

final class SwiftConcurrencyUsageTests: RippleTestCase {
    @MainActor
    func testMainActorViewModel() {
        let increments = PublishSubject<Int>()
        let viewModel = CounterViewModel(increments: increments.asObservable())
        increments.onNext(2)
        increments.onNext(3)
        XCTAssertEqual(viewModel.count.value, 5)
        XCTAssertEqual(viewModel.title, "Count: 5")
        XCTAssertEqual(viewModel.recorded, [0, 2, 5])
    }

    func testSendableTypesCrossIntoActors() async {
        let streams = Streams(
            events: PublishSubject(),
            state: BehaviorRelay(value: "idle"),
            derived: Observable.just("x"),
            scheduler: MainScheduler.instance,
            bag: DisposeBag()
        )
        let received = Recorder<Int>()
        let subscription = streams.events.subscribe(onNext: { received.append($0) })
        let store = Store(streams: streams)
        await store.send(4)
        let state = await store.currentState()
        XCTAssertEqual(state, "idle")
        XCTAssertEqual(received.values, [4])
        subscription.dispose()
    }
}
