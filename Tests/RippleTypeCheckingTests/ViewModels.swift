import Foundation
import Ripple

// View-model code written the way RxSwift users write it, with no type
// annotations. This target is compiled with `-solver-scope-threshold=2500` (see
// Package.swift): an expression that needs more of the constraint solver's work
// than that fails to compile ("unable to type-check this expression in reasonable
// time"), so these files pin how much work Ripple's API shape leaves to the type
// checker. The figures in the comments are solver scopes on Swift 6.3.1
// (scripts/typecheck-benchmark.py measures them): each expression needs at most
// 1 430 now, and at least 4 985 with the change its comment names reverted.

/// A form: each `relay.asObservable()` used to double the work of the
/// expression it is in, since `ObservableType`'s default `asObservable()` was a
/// second candidate beside the relay's own.
final class Form {
    let name = BehaviorRelay<String>(value: "")
    let email = BehaviorRelay<String>(value: "")
    let password = BehaviorRelay<String>(value: "")
    let confirmation = BehaviorRelay<String>(value: "")

    // 4 985 scopes with both `asObservable()`s a candidate (RxSwift: the same),
    // 359 now.
    lazy var incomplete = Observable.combineLatest(name.asObservable().map { $0.isEmpty }, email.asObservable().map { $0.isEmpty }, password.asObservable().map { $0.isEmpty }, confirmation.asObservable().map { $0.isEmpty }) { $0 || $1 || $2 || $3 }

    // 5 649 before (RxSwift: the same), 382 now.
    lazy var longest = Observable.combineLatest(name.asObservable().map { $0.count }, email.asObservable().map { $0.count }, password.asObservable().map { $0.count }, confirmation.asObservable().map { $0.count }) { max($0, $1, $2, $3) }
}

/// Sequences expanded by `flatMap` and `concatMap`: `Observable.from` had an extra
/// overload for `AsyncSequence`s that the type checker tried for every argument.
final class Expansions {
    let events = PublishSubject<Int>()

    // 93 202 scopes before `from(_:priority:)` was disfavoured, 1 430 now
    // (RxSwift: 2 834).
    lazy var total = events.asObservable()
        .flatMap { value in Observable.from([value, value + 1]) }
        .concatMap { value in Observable.from([value * 10]) }
        .reduce(0, accumulator: +)
}
