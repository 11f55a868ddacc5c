import Ripple
import RippleTest
import Testing
import XCTest

/// The brief's counter screen: the view model takes input streams (count up,
/// count down, reset) and exposes the label's text as a `Driver<String>`. It
/// never references the view.
final class CounterScreenViewModel {
    struct Input {
        let countUp: Signal<Void>
        let countDown: Signal<Void>
        let reset: Signal<Void>
    }

    let count: Driver<String>
    let isResetEnabled: Driver<Bool>

    init(input: Input) {
        enum Action { case up, down, reset }
        let value = Signal.merge(
            input.countUp.map { Action.up },
            input.countDown.map { Action.down },
            input.reset.map { Action.reset }
        )
        .scan(0) { value, action in
            switch action {
            case .up: value + 1
            case .down: value - 1
            case .reset: 0
            }
        }
        .asDriver(onErrorDriveWith: .empty())
        .startWith(0)
        count = value.map { "\($0)" }
        isResetEnabled = value.map { $0 != 0 }.distinctUntilChanged()
    }

    /// The same view model fed by plain observables (say, from a terminal UI's
    /// key presses), which may fail: a failing input just stops contributing.
    convenience init(countUp: Observable<Void>, countDown: Observable<Void>, reset: Observable<Void>) {
        self.init(input: Input(
            countUp: countUp.asSignal(onErrorSignalWith: .empty()),
            countDown: countDown.asSignal(onErrorSignalWith: .empty()),
            reset: reset.asSignal(onErrorSignalWith: .empty())
        ))
    }
}

final class CounterViewModelTests: RippleTestCase {
    func testCountUpDownAndResetWithMarbles() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let up = try scheduler.createHotObservable("--u-----u-u---", values: ["u": ()])
        let down = try scheduler.createHotObservable("-----d-------d", values: ["d": ()])
        let reset = try scheduler.createHotObservable("------------r-", values: ["r": ()])
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = CounterScreenViewModel(input: .init(
                countUp: up.asSignal(onErrorSignalWith: .empty()),
                countDown: down.asSignal(onErrorSignalWith: .empty()),
                reset: reset.asSignal(onErrorSignalWith: .empty())
            ))
            let res = scheduler.start { viewModel.count }
            assertMarbles(res, "a-b--a--b-c-az", values: ["a": "0", "b": "1", "c": "2", "z": "-1"])
            // The inputs stay subscribed until the screen goes away (disposed at 1000).
            assertSubscriptions(up, "^" + String(repeating: "-", count: 79) + "!")
        }
    }

    func testTheLabelGetsTheCurrentCountWhenItBindsLate() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let up = try scheduler.createHotObservable("-u-u----", values: ["u": ()])
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = CounterScreenViewModel(input: .init(countUp: up.asSignal(onErrorSignalWith: .empty()), countDown: .never(), reset: .never()))
            let early = scheduler.createObserver(String.self)
            let late = scheduler.createObserver(String.self)
            let bag = DisposeBag()
            scheduler.scheduleAt(200) { viewModel.count.drive(early).disposed(by: bag) }
            scheduler.scheduleAt(250) { viewModel.count.drive(late).disposed(by: bag) }
            scheduler.start()
            assertMarbles(early, "ab-c----", values: ["a": "0", "b": "1", "c": "2"])
            // Binding a second label late: it gets "2" at once, and the inputs were
            // subscribed once for both labels.
            assertMarbles(late, "-----c--", values: ["c": "2"])
            XCTAssertEqual(up.subscriptions.count, 1)
        }
    }

    func testDerivedResetButtonState() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let up = try scheduler.createHotObservable("--u--u----", values: ["u": ()])
        let reset = try scheduler.createHotObservable("--------r-", values: ["r": ()])
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = CounterScreenViewModel(input: .init(
                countUp: up.asSignal(onErrorSignalWith: .empty()),
                countDown: .never(),
                reset: reset.asSignal(onErrorSignalWith: .empty())
            ))
            let res = scheduler.start { viewModel.isResetEnabled }
            assertMarbles(res, "f-t-----f-", values: ["f": false, "t": true])
        }
    }

    func testAFailingInputDoesNotBreakTheScreen() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let up: TestableObservable<Void> = try scheduler.createHotObservable("--u--#", values: ["u": ()])
        let down: TestableObservable<Void> = try scheduler.createHotObservable("--------d-", values: ["d": ()])
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = CounterScreenViewModel(countUp: up.asObservable(), countDown: down.asObservable(), reset: .never())
            let res = scheduler.start { viewModel.count }
            assertMarbles(res, "a-b-----a-", values: ["a": "0", "b": "1"])
            // The failed input is released at once; the others keep working.
            assertSubscriptions(up, "^----!")
        }
    }

    func testBindingTheOutputToALabelThroughABinder() throws {
        final class Label { var text = "" }
        let label = Label()
        let scheduler = TestScheduler(initialClock: 0)
        let taps = PublishRelay<Void>()
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = CounterScreenViewModel(input: .init(countUp: taps.asSignal(), countDown: .never(), reset: .never()))
            let bag = DisposeBag()
            viewModel.count
                .drive(Binder(label, scheduler: scheduler) { label, text in label.text = text })
                .disposed(by: bag)
            scheduler.scheduleAt(10) { taps.accept(()) }
            scheduler.scheduleAt(20) { taps.accept(()) }
            scheduler.start()
            XCTAssertEqual(label.text, "2")
        }
    }
}

/// The counter from Swift Testing, whose tests run in parallel: each test's mock
/// stays its own.
@Suite struct CounterViewModelSwiftTesting {
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func countsTheTaps(taps: Int) throws {
        let scheduler = TestScheduler(initialClock: 0)
        let marbles = String(repeating: "-u", count: taps)
        let up = try scheduler.createHotObservable(marbles, values: ["u": ()])
        SharingScheduler.mock(scheduler: scheduler) {
            let viewModel = CounterScreenViewModel(input: .init(countUp: up.asSignal(onErrorSignalWith: .empty()), countDown: .never(), reset: .never()))
            let res = scheduler.start { viewModel.count }
            #expect(res.events.compactMap(\.value.element).last == "\(taps)")
            #expect(res.events.count == taps + 1)
        }
    }
}
