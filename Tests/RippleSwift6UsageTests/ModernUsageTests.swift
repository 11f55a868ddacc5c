import Foundation
import Observation
import Ripple
import RippleTest
import XCTest

// Observation, actor scheduling and async producers, as Swift 6 user code.
// (`Observation` also declares `Observable`: Ripple's is written `Ripple.Observable`.)

/// A plain `@Observable` model.
@Observable
final class SearchModel {
    var query = ""
    var results: [String] = []
}

/// A main-actor `@Observable` model, as SwiftUI apps have.
@MainActor
@Observable
final class HeaderModel {
    var title = "Inbox"
    var unread = 0
}

/// An actor that receives a stream on its own executor.
actor Indexer {
    private(set) var indexed: [String] = []

    /// Moves work onto this actor's executor.
    nonisolated var scheduler: ActorScheduler {
        ActorScheduler(self)
    }

    func add(_ term: String) {
        indexed.append(term)
    }

    /// Subscribes to `terms` so that every element is handled on this actor.
    func follow(_ terms: Ripple.Observable<String>) -> any Disposable {
        terms
            .observe(on: scheduler)
            .subscribe(onNext: { [weak self] term in
                // On this actor's executor, as ActorScheduler guarantees.
                self?.assumeIsolated { $0.add(term) }
            })
    }
}

final class ModernUsageTests: RippleTestCase {
    func testStreamsFeedAnObservableModelAndObservationFeedsStreams() {
        let model = SearchModel()
        let queries = PublishRelay<String>()
        let bag = DisposeBag()
        queries.map { query in ["\(query) 1", "\(query) 2"] }.bind(to: model, \.results).disposed(by: bag)
        queries.bind(to: Binder(model, keyPath: \.query)).disposed(by: bag)

        var counts: [Int] = []
        Ripple.Observable<Int>.observing(on: MainScheduler.instance) { model.results.count }
            .subscribe(onNext: { counts.append($0) })
            .disposed(by: bag)
        queries.accept("swift")
        XCTAssertEqual(model.query, "swift")
        XCTAssertEqual(model.results, ["swift 1", "swift 2"])
        let deadline = Date().addingTimeInterval(5)
        while counts.count < 2 && Date() < deadline {
            _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.005))
        }
        XCTAssertEqual(counts, [0, 2])
    }

    func testMainActorModelIsObservedWithMainActorChecking() {
        MainActor.assumeIsolated {
            let header = HeaderModel()
            var titles: [String] = []
            let subscription = Ripple.Observable<String>.observing { "\(header.title) (\(header.unread))" }
                .subscribe(onNext: { titles.append($0) })
            XCTAssertEqual(titles, ["Inbox (0)"])
            subscription.dispose()
        }
    }

    func testAnActorFollowsAStreamOnItsExecutor() async {
        let terms = PublishSubject<String>()
        let indexer = Indexer()
        let subscription = await indexer.follow(terms.asObservable())
        terms.onNext("a")
        terms.onNext("b")
        await eventually { await indexer.indexed == ["a", "b"] }
        // Handed to a detached task and disposed there.
        await Subscription(disposable: subscription).cancelLater().value
        terms.onNext("c")
        let indexed = await indexer.indexed
        XCTAssertEqual(indexed, ["a", "b"])
    }

    func testAsyncProducerOnTheMainActor() async {
        let values = Ripple.Observable<Int>.task { @MainActor observer in
            for value in 1...3 {
                observer.onNext(value)
            }
        }
        var received: [Int] = []
        do {
            for try await value in values.values {
                received.append(value)
            }
        } catch {
            XCTFail("\(error)")
        }
        XCTAssertEqual(received, [1, 2, 3])
    }
}
