import Ripple
import RippleTest
import XCTest

/// The view models of ViewModels.swift compile within the solver budget this
/// target is built with (that is the check); these tests make sure the
/// expressions still mean what they say.
final class TypeCheckingBudgetTests: RippleTestCase {
    func testIncompleteUntilEveryFieldIsFilled() {
        let values = emitted(by: \.incomplete) { form in
            form.name.accept("Ada")
            form.email.accept("ada@example.com")
            form.password.accept("secret")
            form.confirmation.accept("secret")
            form.name.accept("")
        }
        XCTAssertEqual(values, [true, true, true, true, false, true])
    }

    func testLongestIsTheLongestField() {
        let values = emitted(by: \.longest) { form in
            form.email.accept("a@b")
            form.password.accept("secret")
            form.email.accept("")
        }
        XCTAssertEqual(values, [0, 3, 6, 6])
    }

    func testExpansionsAddEveryExpandedElementOnCompletion() {
        let expansions = Expansions()
        var totals: [Int] = []
        var completed = false
        let subscription = expansions.total.subscribe(onNext: { totals.append($0) }, onCompleted: { completed = true })
        expansions.events.onNext(1)
        expansions.events.onNext(5)
        XCTAssertEqual(totals, [])
        expansions.events.onCompleted()
        subscription.dispose()
        // 1 -> 1, 2 -> 10 + 20; 5 -> 5, 6 -> 50 + 60.
        XCTAssertEqual(totals, [140])
        XCTAssertTrue(completed)
    }

    /// The elements a new form's `property` emits while `edit` fills it in.
    private func emitted<Element>(by property: KeyPath<Form, Observable<Element>>, _ edit: (Form) -> Void) -> [Element] {
        let form = Form()
        var values: [Element] = []
        let subscription = form[keyPath: property].subscribe(onNext: { values.append($0) })
        edit(form)
        subscription.dispose()
        return values
    }
}
