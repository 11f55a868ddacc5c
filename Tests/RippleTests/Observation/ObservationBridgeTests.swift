import Foundation
import Observation
import Ripple
import RippleTest
import XCTest

// Observation needs macOS 14 / iOS 17 / tvOS 17 / watchOS 10.

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
private final class Editor {
    var title = "a"
    var subtitle = "x"
    var showsSubtitle = false
    var optionalTitle: String?
    @ObservationIgnored var reads = 0
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
private final class MainActorEditor {
    var title = "a"
}

/// Runs the main run loop (which drains the main queue) until `condition` holds.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
private func spinMainLoop(until condition: () -> Bool, timeout: TimeInterval = 5) {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() && Date() < deadline {
        _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.005))
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class ObservationBridgeTests: RippleTestCase {
    func testObservingEmitsTheCurrentValueThenEachChange() {
        let scheduler = TestScheduler(initialClock: 0)
        let editor = Editor()
        scheduler.scheduleAt(300) { editor.title = "b" }
        scheduler.scheduleAt(400) { editor.title = "c" }
        let res = scheduler.start {
            Ripple.Observable<String>.observing(on: scheduler) { editor.title }
        }
        // Each read is one tick after what caused it: the first is scheduled at
        // subscription, the next ones after the change was written.
        XCTAssertEqual(res.events, [.next(201, "a"), .next(301, "b"), .next(401, "c")])
    }

    func testChangesBeforeTheNextTurnAreCoalescedIntoTheLatestValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let editor = Editor()
        scheduler.scheduleAt(300) {
            editor.title = "b"
            editor.title = "c"
        }
        // Two separate actions at the same time, both before the scheduled read.
        scheduler.scheduleAt(500) { editor.title = "d" }
        scheduler.scheduleAt(500) { editor.title = "e" }
        let res = scheduler.start {
            Ripple.Observable<String>.observing(on: scheduler) { editor.title }
        }
        XCTAssertEqual(res.events, [.next(201, "a"), .next(301, "c"), .next(501, "e")])
    }

    func testOnlyThePropertiesTheLastReadAccessedAreTracked() {
        let scheduler = TestScheduler(initialClock: 0)
        let editor = Editor()
        scheduler.scheduleAt(300) { editor.subtitle = "ignored: not read" }
        scheduler.scheduleAt(400) { editor.showsSubtitle = true }
        scheduler.scheduleAt(500) { editor.subtitle = "y" }
        scheduler.scheduleAt(600) { editor.title = "b" }
        let res = scheduler.start {
            Ripple.Observable<String>.observing(on: scheduler) {
                editor.reads += 1
                return editor.showsSubtitle ? "\(editor.title)/\(editor.subtitle)" : editor.title
            }
        }
        XCTAssertEqual(res.events, [.next(201, "a"), .next(401, "a/ignored: not read"), .next(501, "a/y"), .next(601, "b/y")])
        XCTAssertEqual(editor.reads, 4)
    }

    func testDisposingStopsReadingAndEmitting() {
        let scheduler = TestScheduler(initialClock: 0)
        let editor = Editor()
        scheduler.scheduleAt(300) { editor.title = "b" }
        // The change at 700 is reported to the last registration, after disposal.
        scheduler.scheduleAt(700) { editor.title = "c" }
        let res = scheduler.start(disposed: 500) {
            Ripple.Observable<String>.observing(on: scheduler) {
                editor.reads += 1
                return editor.title
            }
        }
        XCTAssertEqual(res.events, [.next(201, "a"), .next(301, "b")])
        XCTAssertEqual(editor.reads, 2)
    }

    func testDisposingBeforeAReportedChangeIsReadCancelsTheRead() {
        let scheduler = TestScheduler(initialClock: 0)
        let editor = Editor()
        let observer = scheduler.createObserver(String.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = Ripple.Observable<String>.observing(on: scheduler) {
                editor.reads += 1
                return editor.title
            }.subscribe(observer)
        }
        scheduler.scheduleAt(300) {
            editor.title = "b"
            subscription?.dispose()
        }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(201, "a")])
        XCTAssertEqual(editor.reads, 1)
    }

    func testNeverCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let editor = Editor()
        let res = scheduler.start { Ripple.Observable<String>.observing(on: scheduler) { editor.title } }
        XCTAssertEqual(res.events, [.next(201, "a")])
    }

    func testMainActorObservingReadsOnTheMainThread() {
        MainActor.assumeIsolated {
            let editor = MainActorEditor()
            var values: [String] = []
            var onMain: [Bool] = []
            let subscription = Ripple.Observable<String>.observing { editor.title.uppercased() }
                .subscribe(onNext: { value in
                    values.append(value)
                    onMain.append(Thread.isMainThread)
                })
            // Subscribed on the main thread: the current value is already there.
            XCTAssertEqual(values, ["A"])
            editor.title = "b"
            editor.title = "c"
            XCTAssertEqual(values, ["A"], "the change is read on a later turn of the main queue")
            spinMainLoop(until: { values.count == 2 })
            XCTAssertEqual(values, ["A", "C"])
            XCTAssertEqual(onMain, [true, true])
            subscription.dispose()
        }
    }

    func testBindToKeyPathWritesOnTheMainThread() {
        let editor = Editor()
        let subject = PublishSubject<String>()
        let subscription = subject.bind(to: editor, \.title)
        subject.onNext("on main")
        XCTAssertEqual(editor.title, "on main")
        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            subject.onNext("from a background thread")
            sent.signal()
        }
        sent.wait()
        spinMainLoop(until: { editor.title == "from a background thread" })
        XCTAssertEqual(editor.title, "from a background thread")
        subscription.dispose()
        subject.onNext("after dispose")
        XCTAssertEqual(editor.title, "from a background thread")
    }

    func testBindToOptionalKeyPath() {
        let editor = Editor()
        let subscription = Ripple.Observable.just("t").bind(to: editor, \.optionalTitle)
        XCTAssertEqual(editor.optionalTitle, "t")
        subscription.dispose()
    }

    func testBinderHoldsTheObjectWeakly() {
        var editor: Editor? = Editor()
        weak let weakEditor = editor
        let subject = PublishSubject<String>()
        let subscription = subject.bind(to: Binder(editor!, keyPath: \.title, scheduler: CurrentThreadScheduler.instance))
        subject.onNext("b")
        XCTAssertEqual(editor?.title, "b")
        editor = nil
        XCTAssertNil(weakEditor, "the binding must not keep the object alive")
        subject.onNext("dropped")
        subscription.dispose()
    }

    func testRoundTripFromAStreamIntoAModelAndBack() {
        let scheduler = TestScheduler(initialClock: 0)
        let editor = Editor()
        let input = scheduler.createHotObservable([.next(300, "b"), .next(400, "c")])
        let bag = DisposeBag()
        scheduler.scheduleAt(150) {
            input.bind(to: Binder(editor, keyPath: \.title, scheduler: scheduler)).disposed(by: bag)
        }
        let res = scheduler.start {
            Ripple.Observable<String>.observing(on: scheduler) { editor.title }
        }
        XCTAssertEqual(res.events, [.next(201, "a"), .next(302, "b"), .next(402, "c")])
    }
}
