import Ripple
import RippleTest
import XCTest

/// The view models of ViewModels.swift compile within the solver budget this
/// target is built with (that is the check); these tests make sure the
/// expressions still mean what they say.
final class TypeCheckingBudgetTests: RippleTestCase {
    func testTypedCharactersAddsTheThreeLengths() {
        let form = SignUpForm()
        var sums: [Int] = []
        let subscription = form.typedCharacters.subscribe(onNext: { sums.append($0) })
        form.name.accept("Ada")
        form.email.accept("a@b")
        form.password.accept("secret")
        subscription.dispose()
        XCTAssertEqual(sums, [0, 3, 6, 12])
    }

    func testLongEnoughSkipsRepeatsAndShortTotals() {
        let form = SignUpForm()
        var sums: [Int] = []
        let subscription = form.longEnough.subscribe(onNext: { sums.append($0) })
        form.name.accept("Al")
        form.email.accept("ab")
        form.email.accept("cd")
        form.password.accept("x")
        subscription.dispose()
        XCTAssertEqual(sums, [4, 5])
    }

    func testSummaryDescribesTotalsAboveThree() {
        let form = SignUpForm()
        var texts: [String] = []
        let subscription = form.summary.subscribe(onNext: { texts.append($0) })
        form.name.accept("Grace")
        form.password.accept("x")
        subscription.dispose()
        XCTAssertEqual(texts, ["5 characters", "6 characters"])
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
        // 1 -> 1, 2 -> 10, 20 -> 10, 10, 20, 20; 5 -> 5, 6 -> 50, 60 -> 50, 50, 60, 60.
        XCTAssertEqual(totals, [280])
        XCTAssertTrue(completed)
    }
}
