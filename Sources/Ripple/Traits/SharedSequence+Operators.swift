// Operators of `SharedSequence` (`Driver`, `Signal`), RxCocoa's set. Each one
// applies the `Observable` operator of the same name and shares the result with
// the same strategy, so a chain of operators still runs once per element however
// many subscribers it has. Closures cannot throw and the sequences combined are
// shared sequences, so nothing can fail; time-based operators run on the
// strategy's scheduler (read when the operator is applied), so elements are
// still delivered on it. Each operator completes when its source completes
// (unless it says otherwise).

// MARK: - Transforming

extension SharedSequenceConvertibleType {
    /// Transforms each element with `transform`; the result is shared, so
    /// `transform` runs once per element whatever the number of subscribers.
    ///
    /// ```
    /// source:           --1--2--3--
    /// map { $0 * 10 }:  --10-20-30-
    /// ```
    @_alwaysEmitIntoClient
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence(asObservable().map(transform))
    }

    /// Transforms each element with `transform` and skips the `nil` results.
    ///
    /// ```
    /// source:                 --"1"--"x"--"3"--
    /// compactMap { Int($0) }: --1---------3----
    /// ```
    @_alwaysEmitIntoClient
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence(asObservable().compactMap(transform))
    }

    /// Emits only the elements for which `predicate` is `true`.
    ///
    /// ```
    /// source:                  --1--2--3--4--
    /// filter { $0 % 2 == 0 }:  -----2-----4--
    /// ```
    @_alwaysEmitIntoClient
    public func filter(_ predicate: @escaping (Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().filter(predicate))
    }

    /// Emits `seed` combined with each element by `accumulator`, keeping the
    /// result as the next seed: the running total.
    ///
    /// ```
    /// source:                   --1--2--3--
    /// scan(0, accumulator: +):  --1--3--6--
    /// ```
    @_alwaysEmitIntoClient
    public func scan<A>(_ seed: A, accumulator: @escaping (A, Element) -> A) -> SharedSequence<SharingStrategy, A> {
        SharedSequence(asObservable().scan(seed, accumulator: accumulator))
    }

    /// Like ``scan(_:accumulator:)``, with an accumulator that mutates the running
    /// value in place.
    ///
    /// ```
    /// source:                            --a--b--
    /// scan(into: []) { $0.append($1) }:  --[a]-[a,b]-
    /// ```
    @_alwaysEmitIntoClient
    public func scan<A>(into seed: A, accumulator: @escaping (inout A, Element) -> Void) -> SharedSequence<SharingStrategy, A> {
        SharedSequence(asObservable().scan(into: seed, accumulator: accumulator))
    }

    /// Emits `elements` first (on subscription, on the subscribing thread), then
    /// the source's elements.
    ///
    /// ```
    /// source:           --3--4--
    /// startWith(1, 2):  12--3--4--
    /// ```
    @_alwaysEmitIntoClient
    public func startWith(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().prepending(elements))
    }
}

// MARK: - Flattening

extension SharedSequenceConvertibleType {
    /// Maps each element to a shared sequence and emits the elements of the
    /// latest one only: a new element disposes the previous inner sequence.
    ///
    /// ```
    /// source:                  --1-----2-----------
    /// selector(1):               --a-----b
    /// selector(2):                     --d--e--
    /// flatMapLatest(selector): ----a-----d--e------
    /// ```
    ///
    /// The typical search screen: `query.flatMapLatest { api.search($0).asDriver(onErrorJustReturn: []) }`.
    @_alwaysEmitIntoClient
    public func flatMapLatest<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>
    ) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMapLatest(selector))
    }

    /// Maps each element to a shared sequence, ignoring elements that arrive
    /// while the current inner sequence is still running.
    ///
    /// ```
    /// source:                 --1--2-----3---
    /// selector(1):              --a--b|
    /// selector(3):                       --c|
    /// flatMapFirst(selector): ----a--b-----c-    (2 ignored)
    /// ```
    @_alwaysEmitIntoClient
    public func flatMapFirst<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>
    ) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMapFirst(selector))
    }

    /// Maps each element to a shared sequence and merges all of them.
    ///
    /// ```
    /// source:            --1--------2--------
    /// selector(1):         --a--b--|
    /// selector(2):                  --c--d--|
    /// flatMap(selector): ----a--b-----c--d---
    /// ```
    @_alwaysEmitIntoClient
    public func flatMap<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>
    ) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMap(selector))
    }

    /// Maps each element to a shared sequence and concatenates them: each inner
    /// sequence starts when the previous one completed.
    ///
    /// ```
    /// source:              --1--2------------
    /// selector(1):           --a--b|
    /// selector(2):                 --c--d|
    /// concatMap(selector): ----a--b--c--d----
    /// ```
    @_alwaysEmitIntoClient
    public func concatMap<Sharing, Result>(
        _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>
    ) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().concatMap(selector))
    }
}

extension SharedSequenceConvertibleType where Element: SharedSequenceConvertibleType {
    /// Emits the elements of the latest inner sequence; a new inner sequence
    /// disposes the previous one.
    ///
    /// ```
    /// source:          --x-----y--------
    /// x:                 --1-----2
    /// y:                       --4--
    /// switchLatest():  ----1-----4------
    /// ```
    @_alwaysEmitIntoClient
    public func switchLatest() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence(asObservable().map { $0.asSharedSequence().asObservable() }.switchLatest())
    }

    /// Merges the elements of every inner sequence.
    ///
    /// ```
    /// source:   --x-----y------
    /// x:          --1--2|
    /// y:                --3--4|
    /// merge():  ----1--2--3--4-
    /// ```
    @_alwaysEmitIntoClient
    public func merge() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence(asObservable().map { $0.asSharedSequence().asObservable() }.merge())
    }

    /// Merges the inner sequences, at most `maxConcurrent` at a time; the others
    /// wait in order. A `maxConcurrent` below 1 is reported to
    /// ``Hooks/contractViolationHandler`` and the sequence completes at once.
    ///
    /// ```
    /// source:                   --x--y--------
    /// x:                          --1--2|
    /// y:                                --3|
    /// merge(maxConcurrent: 1):  ----1--2--3---   (y waits for x)
    /// ```
    @_alwaysEmitIntoClient
    public func merge(maxConcurrent: Int) -> SharedSequence<Element.SharingStrategy, Element.Element> {
        guard maxConcurrent > 0 else {
            return .invalidArgument("merge(maxConcurrent: \(maxConcurrent)) needs maxConcurrent > 0")
        }
        return SharedSequence(asObservable().map { $0.asSharedSequence().asObservable() }.merge(maxConcurrent: maxConcurrent))
    }
}

// MARK: - Filtering

extension SharedSequenceConvertibleType {
    /// Skips the first `count` elements. A negative `count` is reported to
    /// ``Hooks/contractViolationHandler`` and the sequence completes at once.
    ///
    /// ```
    /// source:   --1--2--3--
    /// skip(2):  --------3--
    /// ```
    @_alwaysEmitIntoClient
    public func skip(_ count: Int) -> SharedSequence<SharingStrategy, Element> {
        guard count >= 0 else { return .invalidArgument("skip(\(count)) needs count >= 0") }
        return SharedSequence(asObservable().skip(count))
    }

    /// Skips elements while `predicate` is `true`, then emits everything.
    ///
    /// ```
    /// source:                   --1--2--3--1--
    /// skip(while: { $0 < 3 }):  --------3--1--
    /// ```
    @_alwaysEmitIntoClient
    public func skip(while predicate: @escaping (Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().skip(while: predicate))
    }

    /// Emits the first `count` elements, then completes. A negative `count` is
    /// reported to ``Hooks/contractViolationHandler`` and the sequence completes
    /// at once.
    ///
    /// ```
    /// source:   --1--2--3--
    /// take(2):  --1--(2|)
    /// ```
    @_alwaysEmitIntoClient
    public func take(_ count: Int) -> SharedSequence<SharingStrategy, Element> {
        guard count >= 0 else { return .invalidArgument("take(\(count)) needs count >= 0") }
        return SharedSequence(asObservable().take(count))
    }

    /// Emits the elements of the first `duration` after subscription (measured
    /// on the sharing scheduler), then completes.
    ///
    /// ```
    /// source:        --1--2--3--
    /// take(for 50):  --1--|
    /// ```
    @_alwaysEmitIntoClient
    public func take(for duration: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().take(for: duration, scheduler: SharingStrategy.scheduler))
    }

    /// Emits elements while `predicate` is `true`; completes at the first element
    /// for which it is `false` (emitted too with `behavior: .inclusive`).
    ///
    /// ```
    /// source:                   --1--2--3--1--
    /// take(while: { $0 < 3 }):  --1--2--|
    /// ```
    @_alwaysEmitIntoClient
    public func take(while predicate: @escaping (Element) -> Bool, behavior: TakeBehavior = .exclusive) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().take(while: predicate, behavior: behavior))
    }

    /// Emits elements until `predicate` is `true` for one; then completes (after
    /// emitting it too with `behavior: .inclusive`).
    ///
    /// ```
    /// source:                    --1--2--3--
    /// take(until: { $0 == 2 }):  --1--|
    /// ```
    @_alwaysEmitIntoClient
    public func take(until predicate: @escaping (Element) -> Bool, behavior: TakeBehavior = .exclusive) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().take(until: predicate, behavior: behavior))
    }

    /// Emits elements until `other` emits an element, then completes.
    ///
    /// ```
    /// source:             --1--2--3--4--
    /// other:              -------x------
    /// take(until: other): --1--2-|
    /// ```
    @_alwaysEmitIntoClient
    public func take<Other: SharedSequenceConvertibleType>(until other: Other) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().take(until: other.asSharedSequence().asObservable()))
    }
}

extension SharedSequenceConvertibleType where Element: Equatable {
    /// Drops elements equal to the previous one.
    ///
    /// ```
    /// source:                  --1--1--2--2--1--
    /// distinctUntilChanged():  --1-----2-----1--
    /// ```
    @_alwaysEmitIntoClient
    public func distinctUntilChanged() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged())
    }
}

extension SharedSequenceConvertibleType {
    /// Drops elements whose key equals the previous element's key.
    ///
    /// ```
    /// source:                              --a1--a2--b1--
    /// distinctUntilChanged { $0.letter }:  --a1------b1--
    /// ```
    @_alwaysEmitIntoClient
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) -> Key) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(keySelector))
    }

    /// Drops elements that `comparer` says are equal to the previous one.
    ///
    /// ```
    /// source:                                     --1--2--4--5--
    /// distinctUntilChanged { $0 / 2 == $1 / 2 }:  --1--2--4-----
    /// ```
    @_alwaysEmitIntoClient
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(comparer))
    }

    /// Drops elements whose key `comparer` says equals the previous element's key.
    ///
    /// ```
    /// source:                                               --a1--A2--b3--
    /// distinctUntilChanged({ $0.letter }, comparer: caseInsensitive):
    ///                                                       --a1------b3--
    /// ```
    @_alwaysEmitIntoClient
    public func distinctUntilChanged<Key>(
        _ keySelector: @escaping (Element) -> Key, comparer: @escaping (Key, Key) -> Bool
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Drops elements whose property at `keyPath` equals the previous element's.
    ///
    /// ```
    /// source:                              --a1--a2--b1--
    /// distinctUntilChanged(at: \.letter):  --a1------b1--
    /// ```
    @_alwaysEmitIntoClient
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(at: keyPath))
    }
}

// MARK: - Time

extension SharedSequenceConvertibleType {
    /// Emits an element only after `dueTime` passed without another element
    /// (on the sharing scheduler); on completion the pending element is emitted
    /// first.
    ///
    /// ```
    /// source:        --a-b-----c--|
    /// debounce(20):  --------b----c|
    /// ```
    @_alwaysEmitIntoClient
    public func debounce(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().debounce(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// Emits at most one element per `dueTime` (on the sharing scheduler): the
    /// first of a burst at once and, with `latest: true`, the latest of the burst
    /// at the end of the window.
    ///
    /// ```
    /// source:                      --abc-------d--
    /// throttle(30, latest: true):  --a--c------d--
    /// throttle(30, latest: false): --a---------d--
    /// ```
    @_alwaysEmitIntoClient
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().throttle(dueTime, latest: latest, scheduler: SharingStrategy.scheduler))
    }

    /// Shifts every element (and completion) by `dueTime` on the sharing
    /// scheduler.
    ///
    /// ```
    /// source:     --1--2--|
    /// delay(30):  -----1--2--|
    /// ```
    @_alwaysEmitIntoClient
    public func delay(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().delay(dueTime, scheduler: SharingStrategy.scheduler))
    }
}

// MARK: - Combining

extension SharedSequence {
    /// Merges the elements of all `sources` as they arrive; completes when every
    /// source has completed.
    ///
    /// ```
    /// source1:  --1-----3--
    /// source2:  ----2-----4
    /// merge:    --1-2---3-4
    /// ```
    @_alwaysEmitIntoClient
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> SharedSequence<SharingStrategy, Element>
    where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of all `sources` as they arrive.
    ///
    /// ```
    /// merge([a, b]):  --a1-b1--a2--
    /// ```
    @_alwaysEmitIntoClient
    public static func merge(_ sources: [SharedSequence<SharingStrategy, Element>]) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of all `sources` as they arrive.
    ///
    /// ```
    /// merge(countUp, countDown):  --u-d--u--
    /// ```
    @_alwaysEmitIntoClient
    public static func merge(_ sources: SharedSequence<SharingStrategy, Element>...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// The sequences one after the other: each is subscribed when the previous
    /// one completed. Completes after the last one.
    ///
    /// ```
    /// source1:  --1--|
    /// source2:       --2--|
    /// concat:   --1----2--|
    /// ```
    @_alwaysEmitIntoClient
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> SharedSequence<SharingStrategy, Element>
    where Sequence.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(sequence.lazy.map { $0.asObservable() }))
    }

    /// The sequences one after the other; completes after the last one.
    ///
    /// ```
    /// concat([a, b]):  --a1--a2|--b1--|   (b starts when a completed)
    /// ```
    @_alwaysEmitIntoClient
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> SharedSequence<SharingStrategy, Element>
    where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(collection.map { $0.asObservable() }))
    }
}

extension SharedSequenceConvertibleType {
    /// Combines elements of all sources by position with `resultSelector`.
    ///
    /// ```
    /// source1:  --1-----2--3--
    /// source2:  -----a--------b--
    /// zip:      -----1a-------2b-
    /// ```
    @_alwaysEmitIntoClient
    public static func zip<Collection: Swift.Collection, Result>(
        _ collection: Collection, resultSelector: @escaping ([Element]) -> Result
    ) -> SharedSequence<SharingStrategy, Result> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Emits arrays of the elements of all sources combined by position.
    ///
    /// ```
    /// source1:  --1-----2--3--
    /// source2:  -----a--------b--
    /// zip:      -----[1,a]-----[2,b]-
    /// ```
    @_alwaysEmitIntoClient
    public static func zip<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> SharedSequence<SharingStrategy, [Element]> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.zip(collection.map { $0.asObservable() }))
    }

    /// Combines the latest elements of all sources with `resultSelector` each
    /// time one of them emits, once every source has emitted at least once.
    ///
    /// ```
    /// source1:        --1-----2-----
    /// source2:        -----a-----b--
    /// combineLatest:  -----1a-2a-2b-
    /// ```
    @_alwaysEmitIntoClient
    public static func combineLatest<Collection: Swift.Collection, Result>(
        _ collection: Collection, resultSelector: @escaping ([Element]) -> Result
    ) -> SharedSequence<SharingStrategy, Result> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.combineLatest(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Emits arrays of the latest elements of all sources each time one of them
    /// emits, once every source has emitted at least once.
    ///
    /// ```
    /// source1:        --1-----2-----
    /// source2:        -----a-----b--
    /// combineLatest:  -----[1,a]-[2,a]-[2,b]-
    /// ```
    @_alwaysEmitIntoClient
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> SharedSequence<SharingStrategy, [Element]> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.combineLatest(collection.map { $0.asObservable() }))
    }

    /// Combines each element with the latest element of `second` through
    /// `resultSelector`; elements that arrive before `second` has emitted are
    /// dropped.
    ///
    /// ```
    /// source:               --1-----2--3--
    /// second:               -----a----b---
    /// withLatestFrom(second, resultSelector: +):
    ///                       --------2a-3b-
    /// ```
    ///
    /// Completes when the source completes.
    @_alwaysEmitIntoClient
    public func withLatestFrom<SecondO: SharedSequenceConvertibleType, ResultType>(
        _ second: SecondO, resultSelector: @escaping (Element, SecondO.Element) -> ResultType
    ) -> SharedSequence<SharingStrategy, ResultType> {
        SharedSequence(asObservable().withLatestFrom(second.asSharedSequence(), resultSelector: resultSelector))
    }

    /// Emits the latest element of `second` each time the source emits; elements
    /// that arrive before `second` has emitted are dropped.
    ///
    /// ```
    /// source:                 --1-----2--3--
    /// second:                 -----a----b---
    /// withLatestFrom(second): --------a--b--
    /// ```
    @_alwaysEmitIntoClient
    public func withLatestFrom<SecondO: SharedSequenceConvertibleType>(_ second: SecondO) -> SharedSequence<SharingStrategy, SecondO.Element> {
        SharedSequence(asObservable().withLatestFrom(second.asSharedSequence()))
    }
}

// MARK: - Utility

extension SharedSequenceConvertibleType {
    /// Runs side effects for each event without changing the sequence: `onX`
    /// before the event is forwarded, `afterX` after it; `onSubscribe` before
    /// subscribing to the source, `onSubscribed` after; `onDispose` when the
    /// subscription ends. The result is shared, so the handlers run once per
    /// event whatever the number of subscribers.
    ///
    /// ```
    /// source:            --1--2--
    /// do(onNext: log):   --1--2--      (log sees 1, 2)
    /// ```
    @_alwaysEmitIntoClient
    public func `do`(
        onNext: ((Element) -> Void)? = nil,
        afterNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        afterCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().do(
            onNext: onNext, afterNext: afterNext,
            onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }

    /// Prints every event, subscription and disposal (see
    /// ``ObservableType/debug(_:trimOutput:file:line:function:)``).
    ///
    /// ```
    /// source:   --1--
    /// debug():  --1--    prints "subscribed", "Event next(1)", ...
    /// ```
    @_alwaysEmitIntoClient
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        file: String = #file, line: UInt = #line, function: String = #function
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }

    /// Pairs each element with `obj`, held weakly, through `resultSelector`. As
    /// in RxSwift, an element that arrives after `obj` is gone completes the
    /// sequence instead.
    ///
    /// ```
    /// source:                --1--2--
    /// withUnretained(owner): --(owner,1)--(owner,2)--
    /// ```
    @_alwaysEmitIntoClient
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object, resultSelector: @escaping (Object, Element) -> Out
    ) -> SharedSequence<SharingStrategy, Out> {
        SharedSequence(asObservable().withUnretained(obj, resultSelector: resultSelector))
    }

    /// Pairs each element with `obj`, held weakly; an element that arrives after
    /// `obj` is gone completes the sequence instead.
    ///
    /// ```
    /// source:                 --1--2-----3--
    /// withUnretained(owner):  --(o,1)--(o,2)--|   (owner gone before 3)
    /// ```
    @_alwaysEmitIntoClient
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> SharedSequence<SharingStrategy, (Object, Element)> {
        SharedSequence(asObservable().withUnretained(obj))
    }
}

extension SharedSequence {
    /// A sequence that reports `message` to ``Hooks/contractViolationHandler``
    /// when subscribed and completes: what an invalid argument turns into.
    @_alwaysEmitIntoClient
    @usableFromInline
    static func invalidArgument(_ message: String) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: reportingInvalidArgument("SharedSequence: \(message)"))
    }
}
