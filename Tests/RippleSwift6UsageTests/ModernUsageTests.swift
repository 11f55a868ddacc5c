import Foundation
import Ripple
import RippleTest
import XCTest

// Actor scheduling and async producers, as Swift 6 user code (Observation is in
// ObservationUsageTests.swift).

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
