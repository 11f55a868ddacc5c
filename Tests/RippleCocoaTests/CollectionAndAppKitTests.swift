#if RIPPLE_COCOA_INTERFACE
import Foundation
import RippleUIKitInterface
import RippleAppKitInterface
import RippleCocoa
import RippleTest
import XCTest

@MainActor
private final class LabelCell: UICollectionViewCell {
    var text: String?
}

final class CollectionViewTests: RippleTestCase {
    func testObservableArrayOnACollectionViewAndModelSelected() {
        MainActor.assumeIsolated {
            let collection = UICollectionView(frame: .zero, collectionViewLayout: UICollectionViewFlowLayout())
            collection.register(LabelCell.self, forCellWithReuseIdentifier: "Cell")
            let list = ObservableArray(["a", "b", "c"])
            let bag = DisposeBag()
            list.changes.bind(to: collection.rx.items(cellIdentifier: "Cell", cellType: LabelCell.self)) { _, element, cell in
                cell.text = element
            }.disposed(by: bag)
            var selected: [String] = []
            collection.rx.modelSelected(String.self).subscribe(onNext: { selected.append($0) }).disposed(by: bag)
            list.move(from: 2, to: 0)
            list.remove(at: 1)
            list.append("d")
            list[0] = "C"
            @MainActor func texts() -> [String?] { collection.simulatedCells[0].map { ($0 as? LabelCell)?.text } }
            XCTAssertEqual(texts(), ["C", "b", "d"])
            XCTAssertEqual(collection.simulatedInconsistencies, [])
            collection.simulateTap(at: IndexPath(item: 2, section: 0))
            XCTAssertEqual(selected, ["d"])
        }
    }

    func testItemsOfASequenceReloadTheCollection() {
        MainActor.assumeIsolated {
            let collection = UICollectionView(frame: .zero, collectionViewLayout: UICollectionViewFlowLayout())
            collection.register(LabelCell.self, forCellWithReuseIdentifier: "Cell")
            let items = BehaviorRelay(value: [1, 2])
            let subscription = items.bind(to: collection.rx.items(cellIdentifier: "Cell", cellType: LabelCell.self)) { item, element, cell in
                cell.text = "\(element)@\(item)"
            }
            items.accept([3])
            XCTAssertEqual(collection.simulatedCells[0].map { ($0 as? LabelCell)?.text }, ["3@0"])
            XCTAssertEqual(collection.simulatedUpdates, [.reloadData, .reloadData])
            subscription.dispose()
        }
    }
}

final class AppKitTests: RippleTestCase {
    func testButtonTapAndState() {
        MainActor.assumeIsolated {
            let button = NSButton()
            button.simulatedTogglesState = true
            var taps = 0
            var states: [NSControl.StateValue] = []
            let bag = DisposeBag()
            button.rx.tap.subscribe(onNext: { taps += 1 }).disposed(by: bag)
            button.rx.state.subscribe(onNext: { states.append($0) }).disposed(by: bag)
            button.performClick(nil)
            button.performClick(nil)
            XCTAssertEqual(taps, 2)
            XCTAssertEqual(states, [.off, .on, .off])
        }
    }

    func testTextFieldTextFollowsTypingNotCode() {
        MainActor.assumeIsolated {
            let field = NSTextField()
            var texts: [String?] = []
            let subscription = field.rx.text.subscribe(onNext: { texts.append($0) })
            field.simulateTyping("ok")
            field.stringValue = "code"
            field.rx.text.onNext(nil)
            XCTAssertEqual(texts, ["", "o", "ok"])
            XCTAssertEqual(field.stringValue, "")
            subscription.dispose()
        }
    }

    func testSliderTextViewAndViewBinders() {
        MainActor.assumeIsolated {
            let slider = NSSlider(), textView = NSTextView(), view = NSView()
            var values: [Double] = []
            var strings: [String] = []
            let bag = DisposeBag()
            slider.rx.value.subscribe(onNext: { values.append($0) }).disposed(by: bag)
            textView.rx.string.subscribe(onNext: { strings.append($0) }).disposed(by: bag)
            slider.simulateSlide(to: 0.75)
            textView.simulateTyping("hi")
            Observable.just(CGFloat(0.5)).bind(to: view.rx.alpha).disposed(by: bag)
            Observable.just(true).bind(to: view.rx.isHidden).disposed(by: bag)
            XCTAssertEqual(values, [0, 0.75])
            XCTAssertEqual(strings, ["", "h", "hi"])
            XCTAssertEqual(view.alphaValue, 0.5)
            XCTAssertTrue(view.isHidden)
        }
    }
}
#endif
