import Observation
import Ripple

/// The counter's state as an `@Observable` model, the way a SwiftUI app keeps it:
/// Ripple streams feed it, and Observation tells the views (or, through
/// `Observable.observing`, other streams) when it changes.
///
/// The counter's view model stays a Ripple view model; this model only adapts it
/// for Observation. Its state is written on the main actor, by
/// `drive(with:onMainActor:)`, which the compiler checks as main-actor code.
@MainActor
@Observable
public final class CounterState {
    /// The count as text, as the view model formats it.
    public private(set) var countText = "0"
    /// `true` while the count is below zero, for a warning colour.
    public private(set) var isNegative = false
    /// How many times the count changed since the model was created.
    public private(set) var changes = 0

    @ObservationIgnored private let bag = DisposeBag()

    /// A model that follows `viewModel.count`.
    public init(viewModel: CounterViewModel) {
        viewModel.count
            .drive(with: self, onMainActor: { state, text in
                state.apply(text)
            })
            .disposed(by: bag)
    }

    /// A one-line status for a title bar, as a Ripple stream: recomputed from the
    /// properties it reads whenever they change, once per main-queue turn.
    public var status: Ripple.Observable<String> {
        Ripple.Observable<String>.observing { [weak self] in
            guard let self else { return "" }
            return self.isNegative ? "Below zero (\(self.countText))" : "Count \(self.countText)"
        }
    }

    private func apply(_ text: String) {
        if text == countText && changes > 0 { return }
        countText = text
        isNegative = text.hasPrefix("-")
        changes += 1
    }
}
