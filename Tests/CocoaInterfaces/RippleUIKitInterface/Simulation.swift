#if os(Linux)
import Foundation
import RippleObjCInterface

// What a user does to the simulated views (none of this is UIKit API): each
// method sends what UIKit sends for that action, in UIKit's order.

extension UIControl {
    /// The user taps the control: `.touchDown`, then `.touchUpInside` (and
    /// `.primaryActionTriggered`, which UIKit sends with it for buttons).
    public func simulateTap() {
        sendActions(for: .touchDown)
        sendActions(for: [.touchUpInside, .primaryActionTriggered])
    }
}

extension UISwitch {
    /// The user flips the switch: `.valueChanged` after the new value is set.
    public func simulateToggle() {
        isOn.toggle()
        sendActions(for: .valueChanged)
    }
}

extension UISlider {
    /// The user drags the slider to `value`.
    public func simulateSlide(to value: Float) {
        self.value = value
        sendActions(for: .valueChanged)
    }
}

extension UIStepper {
    /// The user taps "+".
    public func simulateIncrement() {
        value += stepValue
        sendActions(for: .valueChanged)
    }
}

extension UISegmentedControl {
    /// The user selects segment `index`.
    public func simulateSelect(segment index: Int) {
        selectedSegmentIndex = index
        sendActions(for: .valueChanged)
    }
}

extension UIDatePicker {
    /// The user picks `date`.
    public func simulatePick(_ date: Date) {
        self.date = date
        sendActions(for: .valueChanged)
    }
}

extension UITextField {
    /// The user types `text`, one character at a time.
    public func simulateTyping(_ text: String) {
        for character in text {
            insertText(String(character))
        }
    }
}

extension UITextView {
    /// The user types `text`, one character at a time.
    public func simulateTyping(_ text: String) {
        for character in text {
            insertText(String(character))
        }
    }
}

extension UISearchBar {
    private var delegateObject: AnyObject? { delegate }

    /// The user types `text` into the search field: the text changes and the
    /// delegate gets `searchBar(_:textDidChange:)` once per character.
    public func simulateTyping(_ text: String) {
        for character in text {
            self.text = (self.text ?? "") + String(character)
            let current = self.text ?? ""
            _ = ObjCMessage.send(Selector("searchBar:textDidChange:"), to: delegateObject) {
                ($0 as? UISearchBarDelegate)?.searchBar(self, textDidChange: current)
            }
        }
    }

    /// The user starts editing the search field.
    public func simulateBeginEditing() {
        _ = ObjCMessage.send(Selector("searchBarTextDidBeginEditing:"), to: delegateObject) {
            ($0 as? UISearchBarDelegate)?.searchBarTextDidBeginEditing(self)
        }
    }

    /// The search field stops editing.
    public func simulateEndEditing() {
        _ = ObjCMessage.send(Selector("searchBarTextDidEndEditing:"), to: delegateObject) {
            ($0 as? UISearchBarDelegate)?.searchBarTextDidEndEditing(self)
        }
    }

    /// The user taps the keyboard's Search button.
    public func simulateSearchButtonTap() {
        _ = ObjCMessage.send(Selector("searchBarSearchButtonClicked:"), to: delegateObject) {
            ($0 as? UISearchBarDelegate)?.searchBarSearchButtonClicked(self)
        }
    }

    /// The user taps Cancel.
    public func simulateCancelButtonTap() {
        _ = ObjCMessage.send(Selector("searchBarCancelButtonClicked:"), to: delegateObject) {
            ($0 as? UISearchBarDelegate)?.searchBarCancelButtonClicked(self)
        }
    }
}

extension UIBarButtonItem {
    /// The user taps the item: UIKit sends `action` to `target`.
    public func simulateTap() {
        if let action {
            UIApplication.shared.sendAction(action, to: target, from: self, for: nil)
        }
    }
}

extension UIGestureRecognizer {
    /// The recognizer recognizes its gesture: its state becomes `state` and
    /// every target gets its action.
    public func simulateRecognition(state: UIGestureRecognizer.State = .ended) {
        self.state = state
        sendActions()
    }
}
#endif
