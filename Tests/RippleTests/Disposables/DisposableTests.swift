import Foundation
import Ripple
import RippleTest
import XCTest

final class DisposableTests: RippleTestCase {
    func testAnonymousDisposableRunsOnce() {
        var count = 0
        let disposable = Disposables.create { count += 1 }
        XCTAssertFalse(disposable.isDisposed)
        disposable.dispose()
        disposable.dispose()
        XCTAssertEqual(count, 1)
        XCTAssertTrue(disposable.isDisposed)
    }

    func testAnonymousDisposableReleasesItsClosure() {
        final class Token {}
        weak var weakToken: Token?
        let disposable: Cancelable
        do {
            let token = Token()
            weakToken = token
            disposable = Disposables.create { _ = token }
        }
        XCTAssertNotNil(weakToken)
        disposable.dispose()
        XCTAssertNil(weakToken)
    }

    func testCreateVariants() {
        var log: [Int] = []
        let a = Disposables.create { log.append(1) }
        let b = Disposables.create { log.append(2) }
        let c = Disposables.create { log.append(3) }
        let d = Disposables.create { log.append(4) }
        Disposables.create(a, b).dispose()
        XCTAssertEqual(log, [1, 2])
        log = []
        let e = Disposables.create { log.append(5) }
        Disposables.create(c, d, e).dispose()
        XCTAssertEqual(log, [3, 4, 5])
        log = []
        let items = (10..<15).map { index in Disposables.create { log.append(index) } }
        Disposables.create(items[0], items[1], items[2], items[3], items[4]).dispose()
        XCTAssertEqual(log, [10, 11, 12, 13, 14])
        log = []
        Disposables.create((20..<23).map { index in Disposables.create { log.append(index) } }).dispose()
        XCTAssertEqual(log, [20, 21, 22])
        Disposables.create().dispose()
    }

    func testBooleanDisposable() {
        let disposable = BooleanDisposable()
        XCTAssertFalse(disposable.isDisposed)
        disposable.dispose()
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertTrue(BooleanDisposable(isDisposed: true).isDisposed)
    }

    func testSingleAssignmentDisposesLateAssignment() {
        let single = SingleAssignmentDisposable()
        single.dispose()
        var disposed = false
        single.setDisposable(Disposables.create { disposed = true })
        XCTAssertTrue(disposed)
        XCTAssertTrue(single.isDisposed)
    }

    func testSingleAssignmentDisposesAssigned() {
        let single = SingleAssignmentDisposable()
        var disposed = false
        single.setDisposable(Disposables.create { disposed = true })
        XCTAssertFalse(disposed)
        single.dispose()
        XCTAssertTrue(disposed)
    }

    func testSingleAssignmentReportsSecondAssignment() {
        let previous = Hooks.contractViolationHandler
        defer { Hooks.contractViolationHandler = previous }
        let messages = Recorder<String>()
        Hooks.contractViolationHandler = { messages.append($0) }
        let single = SingleAssignmentDisposable()
        single.setDisposable(Disposables.create())
        var secondDisposed = false
        single.setDisposable(Disposables.create { secondDisposed = true })
        XCTAssertTrue(secondDisposed)
        XCTAssertEqual(messages.values.count, 1)
        single.dispose()
    }

    func testSerialDisposableReplacesAndDisposesPrevious() {
        let serial = SerialDisposable()
        var log: [String] = []
        serial.disposable = Disposables.create { log.append("first") }
        serial.disposable = Disposables.create { log.append("second") }
        XCTAssertEqual(log, ["first"])
        serial.dispose()
        XCTAssertEqual(log, ["first", "second"])
        serial.disposable = Disposables.create { log.append("third") }
        XCTAssertEqual(log, ["first", "second", "third"])
        XCTAssertTrue(serial.isDisposed)
    }

    func testCompositeInsertRemoveDispose() {
        let composite = CompositeDisposable()
        var log: [Int] = []
        let key1 = composite.insert(Disposables.create { log.append(1) })
        let key2 = composite.insert(Disposables.create { log.append(2) })
        _ = composite.insert(Disposables.create { log.append(3) })
        XCTAssertEqual(composite.count, 3)
        composite.remove(for: key2!)
        XCTAssertEqual(log, [2])
        XCTAssertEqual(composite.count, 2)
        composite.remove(for: key2!)
        XCTAssertEqual(log, [2])
        composite.dispose()
        XCTAssertEqual(log, [2, 1, 3])
        XCTAssertTrue(composite.isDisposed)
        XCTAssertNil(composite.insert(Disposables.create { log.append(4) }))
        XCTAssertEqual(log, [2, 1, 3, 4])
        composite.remove(for: key1!)
    }

    func testCompositeInitialisers() {
        var log: [Int] = []
        CompositeDisposable(Disposables.create { log.append(1) }, Disposables.create { log.append(2) }).dispose()
        CompositeDisposable(
            Disposables.create { log.append(3) }, Disposables.create { log.append(4) }, Disposables.create { log.append(5) }
        ).dispose()
        CompositeDisposable(disposables: [Disposables.create { log.append(6) }]).dispose()
        XCTAssertEqual(log, [1, 2, 3, 4, 5, 6])
    }

    /// RxSwift's initialisers: unlabelled 2 and 3 arity, four unlabelled members
    /// followed by any number more, and `disposables:` taking an array (there is
    /// no one-member form: RxSwift 6.10.2 has none).
    func testCompositeInitialisersMatchRxSwift() {
        var log: [Int] = []
        func member(_ id: Int) -> Disposable { Disposables.create { log.append(id) } }
        let four = CompositeDisposable(member(1), member(2), member(3), member(4))
        XCTAssertEqual(four.count, 4)
        four.dispose()
        let five = CompositeDisposable(member(5), member(6), member(7), member(8), member(9))
        XCTAssertEqual(five.count, 5)
        five.dispose()
        let one = CompositeDisposable(disposables: [member(10)])
        XCTAssertEqual(one.count, 1)
        one.dispose()
        let array = CompositeDisposable(disposables: [member(11), member(12)])
        XCTAssertEqual(array.count, 2)
        array.dispose()
        XCTAssertEqual(log, Array(1...12))
    }

    func testCompositeManyRemovalsKeepOrder() {
        let composite = CompositeDisposable()
        var log: [Int] = []
        var keys: [CompositeDisposable.DisposeKey] = []
        for index in 0..<200 {
            keys.append(composite.insert(Disposables.create { log.append(index) })!)
        }
        for index in stride(from: 0, to: 200, by: 2) {
            composite.remove(for: keys[index])
        }
        log = []
        composite.dispose()
        XCTAssertEqual(log, Array(stride(from: 1, to: 200, by: 2)))
    }

    func testRefCountDisposable() {
        var disposed = false
        let refCount = RefCountDisposable(disposable: Disposables.create { disposed = true })
        let first = refCount.retain()
        let second = refCount.retain()
        refCount.dispose()
        XCTAssertFalse(disposed)
        first.dispose()
        XCTAssertFalse(disposed)
        second.dispose()
        XCTAssertTrue(disposed)
        XCTAssertTrue(refCount.isDisposed)
    }

    func testRefCountDisposableWithoutDependents() {
        var disposed = false
        let refCount = RefCountDisposable(disposable: Disposables.create { disposed = true })
        let dependent = refCount.retain()
        dependent.dispose()
        XCTAssertFalse(disposed)
        refCount.dispose()
        XCTAssertTrue(disposed)
        refCount.retain().dispose()
    }

    func testScheduledDisposableDisposesOnItsScheduler() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "scheduled-disposable")
        let thread = Recorder<Bool>()
        let disposable = ScheduledDisposable(scheduler: scheduler, disposable: Disposables.create {
            thread.append(Thread.isMainThread)
        })
        disposable.dispose()
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertTrue(waitUntil { thread.values.count == 1 })
        XCTAssertEqual(thread.values, [false])
    }

    func testDisposeBagDisposesInOrderOnDeinit() {
        var log: [Int] = []
        var bag: DisposeBag? = DisposeBag()
        Disposables.create { log.append(1) }.disposed(by: bag!)
        bag!.insert(Disposables.create { log.append(2) }, Disposables.create { log.append(3) })
        bag!.insert {
            Disposables.create { log.append(4) }
            Disposables.create { log.append(5) }
        }
        bag!.insert([Disposables.create { log.append(6) }])
        XCTAssertEqual(log, [])
        bag = nil
        XCTAssertEqual(log, [1, 2, 3, 4, 5, 6])
    }

    func testDisposeBagInitialisers() {
        var log: [Int] = []
        do {
            _ = DisposeBag(disposing: Disposables.create { log.append(1) }, Disposables.create { log.append(2) })
        }
        do {
            _ = DisposeBag {
                Disposables.create { log.append(3) }
            }
        }
        do {
            _ = DisposeBag(disposing: [Disposables.create { log.append(4) }])
        }
        XCTAssertEqual(log, [1, 2, 3, 4])
    }

    func testReplacingTheBagCancelsSubscriptions() {
        let subject = PublishSubject<Int>()
        var bag = DisposeBag()
        var values: [Int] = []
        subject.subscribe(onNext: { values.append($0) }).disposed(by: bag)
        subject.onNext(1)
        bag = DisposeBag()
        subject.onNext(2)
        XCTAssertEqual(values, [1])
        XCTAssertFalse(subject.hasObservers)
        _ = bag
    }

    func testDisposeBagIsThreadSafe() {
        let bag = DisposeBag()
        let counter = Recorder<Int>()
        DispatchQueue.concurrentPerform(iterations: 1000) { index in
            bag.insert(Disposables.create { counter.append(index) })
        }
        XCTAssertEqual(counter.values.count, 0)
        withExtendedLifetime(bag) {}
    }
}
