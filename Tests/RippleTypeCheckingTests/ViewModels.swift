import Foundation
import Ripple

// View-model code written the way RxSwift users write it, with no type
// annotations, each expression a known trap for the type checker. This target is
// compiled with `-solver-scope-threshold` (see Package.swift): an expression that
// needs more of the constraint solver's work than that fails to compile ("unable
// to type-check this expression in reasonable time"), so these files pin how much
// work Ripple's API shape leaves to the type checker. The figures in the comments
// are solver scopes on Swift 6.3.1 (scripts/typecheck-benchmark.py measures them);
// the threshold, 100 000, is about twice the largest of them, and half of what
// each expression needed before the change its comment names.

/// The sign-up form: each `relay.asObservable()` used to double the work of the
/// expression it is in.
final class SignUpForm {
    let name = BehaviorRelay<String>(value: "")
    let email = BehaviorRelay<String>(value: "")
    let password = BehaviorRelay<String>(value: "")

    // 320 948 scopes before `ObservableType.asObservable()` was disfavoured (RxSwift:
    // the same); 36 691 after.
    lazy var typedCharacters = Observable.combineLatest(name.asObservable().map { $0.count }, email.asObservable().map { $0.count }, password.asObservable().map { $0.count }) { $0 + $1 + $2 }

    // 298 824 before (RxSwift: the same), 45 087 after.
    lazy var longEnough = Observable.combineLatest(name.asObservable().map { $0.count }, email.asObservable().map { $0.count }, password.asObservable().map { $0.count }) { $0 + $1 + $2 }
        .distinctUntilChanged().filter { $0 > 3 }

    // With the result's type written, the property the issue quotes (which no
    // library lets Swift 6.3 type-check without it, see docs/Performance.md).
    lazy var summary: Observable<String> = Observable.combineLatest(name.asObservable().map { $0.count }, email.asObservable().map { $0.count }, password.asObservable().map { $0.count }) { $0 + $1 + $2 }
        .distinctUntilChanged().filter { $0 > 3 }.map { "\($0) characters" }
}

/// Sequences expanded by `flatMap` and `concatMap`: `Observable.from` had an extra
/// overload for `AsyncSequence`s that the type checker tried for every argument.
final class Expansions {
    let events = PublishSubject<Int>()

    // 379 425 scopes before `from(_:priority:)` was disfavoured, 3 540 after
    // (RxSwift: 7 611).
    lazy var total = events.asObservable()
        .flatMap { value in Observable.from([value, value + 1]) }
        .concatMap { value in Observable.from([value * 10]) }
        .flatMap { value in Observable.from([value, value]) }
        .reduce(0, accumulator: +)
}
