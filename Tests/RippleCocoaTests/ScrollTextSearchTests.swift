#if RIPPLE_COCOA_INTERFACE
import Foundation
import RippleUIKitInterface
import RippleCocoa
import RippleTest
import XCTest

@MainActor
private final class AppScrollDelegate: NSObject, UIScrollViewDelegate {
    var scrolls = 0
    func scrollViewDidScroll(_ scrollView: UIScrollView) { scrolls += 1 }
}

@MainActor
private final class AppSearchDelegate: NSObject, UISearchBarDelegate {
    var texts: [String] = []
    func searchBar(_ searchBar: UISearchBar, textDidChange searchText: String) { texts.append(searchText) }
}

@MainActor
private final class AppTextViewDelegate: NSObject, UITextViewDelegate {
    var allowed = true
    var began = 0
    func textView(_ textView: UITextView, shouldChangeTextIn range: NSRange, replacementText text: String) -> Bool { allowed }
    func textViewDidBeginEditing(_ textView: UITextView) { began += 1 }
}

final class ScrollTextSearchTests: RippleTestCase {
    func testContentOffsetStartsWithTheCurrentOffsetAndFollowsScrolling() {
        MainActor.assumeIsolated {
            let scrollView = UIScrollView()
            scrollView.contentOffset = CGPoint(x: 0, y: 10)
            let appDelegate = AppScrollDelegate()
            scrollView.delegate = appDelegate
            var offsets: [CGFloat] = []
            var scrolls = 0
            let bag = DisposeBag()
            scrollView.rx.contentOffset.subscribe(onNext: { offsets.append($0.y) }).disposed(by: bag)
            scrollView.rx.didScroll.subscribe(onNext: { scrolls += 1 }).disposed(by: bag)
            scrollView.contentOffset = CGPoint(x: 0, y: 20)
            scrollView.rx.contentOffset.onNext(CGPoint(x: 0, y: 30))
            XCTAssertEqual(offsets, [10, 20, 30])
            XCTAssertEqual(scrolls, 2)
            XCTAssertEqual(appDelegate.scrolls, 2)   // the app's delegate, behind the proxy
        }
    }

    func testSearchBarTextFollowsTypingAndTheButtons() {
        MainActor.assumeIsolated {
            let searchBar = UISearchBar()
            let appDelegate = AppSearchDelegate()
            let bag = DisposeBag()
            searchBar.rx.setDelegate(appDelegate).disposed(by: bag)
            var texts: [String?] = []
            var searches = 0, cancels = 0
            searchBar.rx.text.subscribe(onNext: { texts.append($0) }).disposed(by: bag)
            searchBar.rx.searchButtonClicked.subscribe(onNext: { searches += 1 }).disposed(by: bag)
            searchBar.rx.cancelButtonClicked.subscribe(onNext: { cancels += 1 }).disposed(by: bag)
            searchBar.simulateTyping("rx")
            searchBar.text = "code"          // no event
            searchBar.simulateSearchButtonTap()
            searchBar.simulateCancelButtonTap()
            searchBar.simulateEndEditing()   // RxCocoa sends the text at the end of editing
            XCTAssertEqual(texts, [nil, "r", "rx", "code"])
            XCTAssertEqual(searches, 1)
            XCTAssertEqual(cancels, 1)
            XCTAssertEqual(appDelegate.texts, ["r", "rx"])
        }
    }

    func testTextViewTextFollowsEveryEditOfItsStorageOnTheMainQueue() {
        MainActor.assumeIsolated {
            let textView = UITextView()
            textView.text = "a"
            var texts: [String?] = []
            let subscription = textView.rx.text.subscribe(onNext: { texts.append($0) })
            textView.simulateTyping("b")
            XCTAssertEqual(texts, ["a"])   // delivered asynchronously, once the edit is done
            RunLoop.main.run(until: Date().addingTimeInterval(0.1))
            XCTAssertEqual(texts, ["a", "ab"])
            textView.text = "from code"    // a text view's storage reports it too (RxCocoa)
            RunLoop.main.run(until: Date().addingTimeInterval(0.1))
            XCTAssertEqual(texts, ["a", "ab", "from code"])
            // Each delivery reads the storage when it runs, as RxCocoa's `map`
            // after `observe(on: MainScheduler.asyncInstance)` does: two edits
            // before the main queue runs send the latest text twice.
            textView.simulateTyping("!")
            textView.text = "again"
            RunLoop.main.run(until: Date().addingTimeInterval(0.1))
            XCTAssertEqual(texts, ["a", "ab", "from code", "again", "again"])
            subscription.dispose()
        }
    }

    func testTextViewEditingEventsKeepTheAppsDelegate() {
        MainActor.assumeIsolated {
            let textView = UITextView()
            let appDelegate = AppTextViewDelegate()
            textView.delegate = appDelegate
            var events: [String] = []
            let bag = DisposeBag()
            textView.rx.didBeginEditing.subscribe(onNext: { events.append("begin") }).disposed(by: bag)
            textView.rx.didChange.subscribe(onNext: { events.append("change") }).disposed(by: bag)
            textView.rx.didEndEditing.subscribe(onNext: { events.append("end") }).disposed(by: bag)
            _ = textView.becomeFirstResponder()
            textView.simulateTyping("x")
            appDelegate.allowed = false      // a method Ripple does not implement, answered by the app
            textView.simulateTyping("y")
            _ = textView.resignFirstResponder()
            XCTAssertEqual(events, ["begin", "change", "end"])
            XCTAssertEqual(textView.text, "x")
            XCTAssertEqual(appDelegate.began, 1)
        }
    }
}
#endif
