import Foundation
import Observation
import Ripple
import RippleTest
import XCTest

// Observation (`@Observable` models) with Ripple, as Swift 6 user code. Observation
// needs macOS 14 / iOS 17 / tvOS 17 / watchOS 10, so everything here says so.
// (`Observation` also declares `Observable`: Ripple's is written `Ripple.Observable`.)

/// A plain `@Observable` model.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
final class SearchModel {
    var query = ""
    var results: [String] = []
}

/// A main-actor `@Observable` model, as SwiftUI apps have.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
final class HeaderModel {
    var title = "Inbox"
    var unread = 0
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class ObservationUsageTests: RippleTestCase {
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
}
