// Single-source operators of `Infallible`. Each one applies the `Observable`
// operator of the same name; the closures here cannot throw and the sequences
// they combine with are infallible, so the result cannot fail either. Every
// operator completes when its source completes (unless it says otherwise).

// MARK: - Transforming

extension InfallibleType {
    /// Transforms each element with `transform`.
    ///
    /// ```
    /// source:           --1--2--3--|
    /// map { $0 * 10 }:  --10-20-30-|
    /// ```
    @_alwaysEmitIntoClient
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> Infallible<Result> {
        Infallible(asObservable().map(transform))
    }

    /// Transforms each element with `transform` and skips the `nil` results.
    ///
    /// ```
    /// source:                 --"1"--"x"--"3"--|
    /// compactMap { Int($0) }: --1---------3----|
    /// ```
    @_alwaysEmitIntoClient
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> Infallible<Result> {
        Infallible(asObservable().compactMap(transform))
    }

    /// Emits only the elements for which `predicate` is `true`.
    ///
    /// ```
    /// source:                     --1--2--3--4--|
    /// filter { $0.isMultiple(of: 2) }:
    ///                             -----2-----4--|
    /// ```
    @_alwaysEmitIntoClient
    public func filter(_ predicate: @escaping (Element) -> Bool) -> Infallible<Element> {
        Infallible(asObservable().filter(predicate))
    }

    /// Emits `seed` combined with each element by `accumulator`, keeping the
    /// result as the next seed: the running total.
    ///
    /// ```
    /// source:                         --1--2--3--|
    /// scan(0, accumulator: +):        --1--3--6--|
    /// ```
    ///
    /// The accumulation starts over with `seed` for every subscription.
    @_alwaysEmitIntoClient
    public func scan<Seed>(_ seed: Seed, accumulator: @escaping (Seed, Element) -> Seed) -> Infallible<Seed> {
        Infallible(asObservable().scan(seed, accumulator: accumulator))
    }

    /// Like ``scan(_:accumulator:)``, with an accumulator that mutates the
    /// running value in place (cheaper for collections).
    ///
    /// ```
    /// source:                                      --a--b--|
    /// scan(into: []) { $0.append($1) }:            --[a]-[a,b]-|
    /// ```
    @_alwaysEmitIntoClient
    public func scan<Seed>(into seed: Seed, accumulator: @escaping (inout Seed, Element) -> Void) -> Infallible<Seed> {
        Infallible(asObservable().scan(into: seed, accumulator: accumulator))
    }

    /// Pairs each element with its index, from 0.
    ///
    /// ```
    /// source:        --a--b--|
    /// enumerated():  --(0,a)--(1,b)--|
    /// ```
    @_alwaysEmitIntoClient
    public func enumerated() -> Infallible<(index: Int, element: Element)> {
        Infallible(asObservable().enumerated())
    }

    /// Drops every element, keeping only completion.
    ///
    /// ```
    /// source:            --1--2--|
    /// ignoreElements():  --------|
    /// ```
    @_alwaysEmitIntoClient
    public func ignoreElements() -> Infallible<Never> {
        Infallible<Never>(asObservable().ignoreElements())
    }

    /// Emits `elements` first, then the source's events.
    ///
    /// ```
    /// source:           --3--4--|
    /// startWith(1, 2):  12--3--4--|
    /// ```
    @_alwaysEmitIntoClient
    public func startWith(_ elements: Element...) -> Infallible<Element> {
        Infallible(asObservable().prepending(elements))
    }
}

extension ObservableType {
    /// `startWith` for an array of elements (what the variadic forms forward to).
    @_alwaysEmitIntoClient
    @usableFromInline
    func prepending(_ elements: [Element]) -> Observable<Element> {
        let source = asObservable()
        return Producer { observer in
            let sink = ForwardingSink(observer: observer)
            for element in elements {
                sink.forwardNext(element)
                if sink.isDisposed { return sink }
            }
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.forward($0) }))
            return sink
        }
    }
}

// MARK: - Flattening

extension InfallibleType {
    /// Maps each element to an infallible sequence and merges all of them.
    ///
    /// ```
    /// source:            --1--------2---------|
    /// selector(1):         --a--b--|
    /// selector(2):                  --c--d--|
    /// flatMap(selector): ----a--b-----c--d---|
    /// ```
    ///
    /// Completes when the source and every inner sequence have completed.
    @_alwaysEmitIntoClient
    public func flatMap<Source: InfallibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().flatMap(selector))
    }

    /// Maps each element to an infallible sequence and emits the elements of the
    /// latest one only: a new element disposes the previous inner sequence.
    ///
    /// ```
    /// source:                  --1-----2-----------|
    /// selector(1):               --a-----b
    /// selector(2):                     --d--e--|
    /// flatMapLatest(selector): ----a-----d--e------|
    /// ```
    ///
    /// Completes when the source and the latest inner sequence have completed.
    @_alwaysEmitIntoClient
    public func flatMapLatest<Source: InfallibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().flatMapLatest(selector))
    }

    /// Maps each element to an infallible sequence, ignoring elements that arrive
    /// while the current inner sequence is still running.
    ///
    /// ```
    /// source:                 --1--2-----3---|
    /// selector(1):              --a--b|
    /// selector(3):                       --c|
    /// flatMapFirst(selector): ----a--b-----c-|      (2 ignored)
    /// ```
    ///
    /// Completes when the source and the running inner sequence have completed.
    @_alwaysEmitIntoClient
    public func flatMapFirst<Source: InfallibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().flatMapFirst(selector))
    }

    /// Maps each element to an infallible sequence and concatenates them: each
    /// inner sequence starts when the previous one completed.
    ///
    /// ```
    /// source:              --1--2------------|
    /// selector(1):           --a--b|
    /// selector(2):                 --c--d|
    /// concatMap(selector): ----a--b--c--d----|
    /// ```
    @_alwaysEmitIntoClient
    public func concatMap<Source: InfallibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().concatMap(selector))
    }
}

extension InfallibleType where Element: InfallibleType {
    /// Emits the elements of the latest inner sequence; a new inner sequence
    /// disposes the previous one.
    ///
    /// ```
    /// source:          --x-----y--------|
    /// x:                 --1-----2
    /// y:                       --4--|
    /// switchLatest():  ----1-----4------|
    /// ```
    @_alwaysEmitIntoClient
    public func switchLatest() -> Infallible<Element.Element> {
        Infallible<Element.Element>(asObservable().switchLatest())
    }

    /// Merges the elements of every inner sequence.
    ///
    /// ```
    /// source:   --x-----y------|
    /// x:          --1--2|
    /// y:                --3--4|
    /// merge():  ----1--2--3--4-|
    /// ```
    @_alwaysEmitIntoClient
    public func merge() -> Infallible<Element.Element> {
        Infallible<Element.Element>(asObservable().merge())
    }

    /// Merges the inner sequences, at most `maxConcurrent` at a time; the others
    /// wait in order. A `maxConcurrent` below 1 is reported to
    /// ``Hooks/contractViolationHandler`` and the sequence completes at once.
    ///
    /// ```
    /// source:                   --x--y-------|
    /// x:                          --1--2|
    /// y:                                --3|
    /// merge(maxConcurrent: 1):  ----1--2--3--|   (y waits for x)
    /// ```
    @_alwaysEmitIntoClient
    public func merge(maxConcurrent: Int) -> Infallible<Element.Element> {
        guard maxConcurrent > 0 else {
            return .invalidArgument("merge(maxConcurrent: \(maxConcurrent)) needs maxConcurrent > 0")
        }
        return Infallible<Element.Element>(asObservable().merge(maxConcurrent: maxConcurrent))
    }

    /// Concatenates the inner sequences, one after the other.
    ///
    /// ```
    /// source:    --x--y--------|
    /// x:           --1--2|
    /// y:                 --3|
    /// concat():  ----1--2--3---|
    /// ```
    @_alwaysEmitIntoClient
    public func concat() -> Infallible<Element.Element> {
        Infallible<Element.Element>(asObservable().concat())
    }
}

// MARK: - Filtering

extension InfallibleType {
    /// Skips the first `count` elements.
    ///
    /// ```
    /// source:   --1--2--3--|
    /// skip(2):  --------3--|
    /// ```
    ///
    /// A negative `count` is reported to ``Hooks/contractViolationHandler`` and
    /// the sequence completes at once.
    @_alwaysEmitIntoClient
    public func skip(_ count: Int) -> Infallible<Element> {
        guard count >= 0 else { return .invalidArgument("skip(\(count)) needs count >= 0") }
        return Infallible(asObservable().skip(count))
    }

    /// Skips the elements emitted during `duration` after subscription.
    ///
    /// ```
    /// source:        --1--2--3--|
    /// skip(for 50):  -------2--3--|   (the first 50 ticks are dropped)
    /// ```
    @_alwaysEmitIntoClient
    public func skip(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().skip(duration, scheduler: scheduler))
    }

    /// Skips elements while `predicate` is `true`, then emits everything.
    ///
    /// ```
    /// source:                  --1--2--3--1--|
    /// skip(while: { $0 < 3 }): --------3--1--|
    /// ```
    @_alwaysEmitIntoClient
    public func skip(while predicate: @escaping (Element) -> Bool) -> Infallible<Element> {
        Infallible(asObservable().skip(while: predicate))
    }

    /// Skips elements until `other` emits an element.
    ///
    /// ```
    /// source:            --1--2--3--4--|
    /// other:             -------x------
    /// skip(until: other):--------3--4--|
    /// ```
    ///
    /// `other` may be any sequence (a relay, an `Observable`, ...), as in RxSwift.
    /// If it fails, the error is reported to ``Hooks/contractViolationHandler``
    /// and this sequence completes (it cannot fail).
    @_alwaysEmitIntoClient
    public func skip<Source: ObservableConvertibleType>(until other: Source) -> Infallible<Element> {
        .guarding(asObservable().skip(until: other), "skip(until:)")
    }

    /// Emits the first `count` elements, then completes.
    ///
    /// ```
    /// source:   --1--2--3--|
    /// take(2):  --1--(2|)
    /// ```
    ///
    /// A negative `count` is reported to ``Hooks/contractViolationHandler`` and
    /// the sequence completes at once.
    @_alwaysEmitIntoClient
    public func take(_ count: Int) -> Infallible<Element> {
        guard count >= 0 else { return .invalidArgument("take(\(count)) needs count >= 0") }
        return Infallible(asObservable().take(count))
    }

    /// Emits the elements of the first `duration` after subscription, then
    /// completes.
    ///
    /// ```
    /// source:        --1--2--3--|
    /// take(for 50):  --1--|
    /// ```
    @_alwaysEmitIntoClient
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().take(for: duration, scheduler: scheduler))
    }

    /// Emits elements while `predicate` is `true`; completes at the first element
    /// for which it is `false` (emitted too with `behavior: .inclusive`).
    ///
    /// ```
    /// source:                  --1--2--3--1--|
    /// take(while: { $0 < 3 }): --1--2--|
    /// ```
    @_alwaysEmitIntoClient
    public func take(while predicate: @escaping (Element) -> Bool, behavior: TakeBehavior = .exclusive) -> Infallible<Element> {
        Infallible(asObservable().take(while: predicate, behavior: behavior))
    }

    /// Emits elements until `predicate` is `true` for one; then completes (after
    /// emitting it too with `behavior: .inclusive`).
    ///
    /// ```
    /// source:                   --1--2--3--1--|
    /// take(until: { $0 == 2 }): --1--|
    /// ```
    @_alwaysEmitIntoClient
    public func take(until predicate: @escaping (Element) -> Bool, behavior: TakeBehavior = .exclusive) -> Infallible<Element> {
        Infallible(asObservable().take(until: predicate, behavior: behavior))
    }

    /// Emits elements until `other` emits an element, then completes.
    ///
    /// ```
    /// source:             --1--2--3--4--|
    /// other:              -------x------
    /// take(until: other): --1--2-|
    /// ```
    ///
    /// `other` may be any sequence (a relay, an `Observable`, ...), as in RxSwift.
    /// If it fails, the error is reported to ``Hooks/contractViolationHandler``
    /// and this sequence completes (it cannot fail).
    @_alwaysEmitIntoClient
    public func take<Source: ObservableConvertibleType>(until other: Source) -> Infallible<Element> {
        .guarding(asObservable().take(until: other), "take(until:)")
    }

    /// Emits the last `count` elements when the source completes.
    ///
    /// ```
    /// source:       --1--2--3--|
    /// takeLast(2):  -----------(23|)
    /// ```
    @_alwaysEmitIntoClient
    public func takeLast(_ count: Int) -> Infallible<Element> {
        guard count >= 0 else { return .invalidArgument("takeLast(\(count)) needs count >= 0") }
        return Infallible(asObservable().takeLast(count))
    }

    /// Emits the element at `index` (from 0), then completes. Completes without
    /// an element if the source completes earlier (RxSwift's `Observable` fails
    /// then; an `Infallible` cannot). A negative `index` is reported to
    /// ``Hooks/contractViolationHandler`` and the sequence completes at once.
    ///
    /// ```
    /// source:         --a--b--c--|
    /// element(at: 1): -----(b|)
    /// ```
    @_alwaysEmitIntoClient
    public func element(at index: Int) -> Infallible<Element> {
        guard index >= 0 else { return .invalidArgument("element(at: \(index)) needs index >= 0") }
        return Infallible(asObservable().skip(index).take(1))
    }

    /// Emits `default` then completes if the source completes without elements.
    ///
    /// ```
    /// source:              -----|
    /// ifEmpty(default: 0): -----(0|)
    /// ```
    @_alwaysEmitIntoClient
    public func ifEmpty(default: Element) -> Infallible<Element> {
        Infallible(asObservable().ifEmpty(default: `default`))
    }

    /// Continues with `other` if the source completes without elements.
    ///
    /// ```
    /// source:                -----|
    /// other:                      -1-2-|
    /// ifEmpty(switchTo: other): ------1-2-|
    /// ```
    @_alwaysEmitIntoClient
    public func ifEmpty(switchTo other: Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().ifEmpty(switchTo: other.asObservable()))
    }
}

extension InfallibleType where Element: Equatable {
    /// Drops elements equal to the previous one.
    ///
    /// ```
    /// source:                  --1--1--2--2--1--|
    /// distinctUntilChanged():  --1-----2-----1--|
    /// ```
    @_alwaysEmitIntoClient
    public func distinctUntilChanged() -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged())
    }
}

extension InfallibleType {
    /// Drops elements whose key equals the previous element's key.
    ///
    /// ```
    /// source:                          --a1--a2--b1--|
    /// distinctUntilChanged(\.letter):  --a1------b1--|
    /// ```
    @_alwaysEmitIntoClient
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) -> Key) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(keySelector))
    }

    /// Drops elements that `comparer` says are equal to the previous one.
    ///
    /// ```
    /// source:                                    --1--2--4--5--|
    /// distinctUntilChanged { $0 / 2 == $1 / 2 }: --1--2--4-----|
    /// ```
    @_alwaysEmitIntoClient
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) -> Bool) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(comparer))
    }

    /// Drops elements whose key `comparer` says equals the previous element's key.
    ///
    /// ```
    /// source:                                               --a1--A2--b3--|
    /// distinctUntilChanged({ $0.letter }, comparer: caseInsensitive):
    ///                                                       --a1------b3--|
    /// ```
    @_alwaysEmitIntoClient
    public func distinctUntilChanged<Key>(
        _ keySelector: @escaping (Element) -> Key, comparer: @escaping (Key, Key) -> Bool
    ) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Drops elements whose property at `keyPath` equals the previous element's.
    ///
    /// ```
    /// source:                              --a1--a2--b1--|
    /// distinctUntilChanged(at: \.letter):  --a1------b1--|
    /// ```
    @_alwaysEmitIntoClient
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(at: keyPath))
    }
}

// MARK: - Time

extension InfallibleType {
    /// Emits an element only after `dueTime` passed without another element;
    /// on completion the pending element is emitted first.
    ///
    /// ```
    /// source:            --a-b-----c--|
    /// debounce(20):      --------b----c|
    /// ```
    @_alwaysEmitIntoClient
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().debounce(dueTime, scheduler: scheduler))
    }

    /// Emits at most one element per `dueTime`: the first of a burst at once and,
    /// with `latest: true`, the latest of the burst at the end of the window.
    ///
    /// ```
    /// source:                     --abc-------d--|
    /// throttle(30, latest: true): --a--c------d--|
    /// throttle(30, latest: false):--a---------d--|
    /// ```
    @_alwaysEmitIntoClient
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().throttle(dueTime, latest: latest, scheduler: scheduler))
    }

    /// Shifts every event by `dueTime` on `scheduler`.
    ///
    /// ```
    /// source:     --1--2--|
    /// delay(30):  -----1--2--|
    /// ```
    @_alwaysEmitIntoClient
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().delay(dueTime, scheduler: scheduler))
    }

    /// Subscribes to the source `dueTime` after the subscription.
    ///
    /// ```
    /// source (cold):          --1--|
    /// delaySubscription(30):  -----1--|
    /// ```
    @_alwaysEmitIntoClient
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().delaySubscription(dueTime, scheduler: scheduler))
    }

    /// Delivers every event on `scheduler`.
    ///
    /// ```
    /// source (thread A):        --1--2--|
    /// observe(on: B) (thread B): --1--2--|
    /// ```
    @_alwaysEmitIntoClient
    public func observe(on scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(asObservable().observe(on: scheduler))
    }

    /// Subscribes to (and disposes) the source on `scheduler`.
    ///
    /// ```
    /// subscribe(on: s):  subscription (and disposal) of the source happen on s;
    ///                    the elements are not moved
    /// ```
    @_alwaysEmitIntoClient
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(asObservable().subscribe(on: scheduler))
    }
}

// MARK: - Sharing and utility

extension InfallibleType {
    /// Shares one subscription to the source between all subscribers, replaying
    /// the latest `replay` elements to each new one (see
    /// ``ObservableType/share(replay:scope:)``).
    ///
    /// ```
    /// source:          --1--2--3--|
    /// share(replay: 1)
    ///   subscriber A:  --1--2--3--|
    ///   subscriber B:        2-3--|
    /// ```
    ///
    /// A negative `replay` is reported to ``Hooks/contractViolationHandler`` and
    /// the sequence completes at once.
    @_alwaysEmitIntoClient
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Infallible<Element> {
        guard replay >= 0 else { return .invalidArgument("share(replay: \(replay)) needs replay >= 0") }
        return Infallible(asObservable().share(replay: replay, scope: scope))
    }

    /// Runs side effects for each event without changing the sequence: `onX`
    /// before the event is forwarded, `afterX` after it; `onSubscribe` before
    /// subscribing to the source, `onSubscribed` after; `onDispose` when the
    /// subscription ends (by completion or disposal).
    ///
    /// ```
    /// source:            --1--2--|
    /// do(onNext: log):   --1--2--|      (log sees 1, 2)
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
    ) -> Infallible<Element> {
        Infallible(asObservable().do(
            onNext: onNext, afterNext: afterNext,
            onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }

    /// Prints every event, subscription and disposal (see
    /// ``ObservableType/debug(_:trimOutput:file:line:function:)``).
    ///
    /// ```
    /// source:   --1--|
    /// debug():  --1--|    prints "subscribed", "Event next(1)", "Event completed", "isDisposed"
    /// ```
    @_alwaysEmitIntoClient
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        file: String = #file, line: UInt = #line, function: String = #function
    ) -> Infallible<Element> {
        Infallible(asObservable().debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }

    /// Pairs each element with `obj`, held weakly, through `resultSelector`. As
    /// in RxSwift, an element that arrives after `obj` is gone completes the
    /// sequence instead.
    ///
    /// ```
    /// source:                 --1--2--|
    /// withUnretained(owner):  --(owner,1)--(owner,2)--|
    /// ```
    @_alwaysEmitIntoClient
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object, resultSelector: @escaping (Object, Element) -> Out
    ) -> Infallible<Out> {
        Infallible<Out>(asObservable().withUnretained(obj, resultSelector: resultSelector))
    }

    /// Pairs each element with `obj`, held weakly; an element that arrives after
    /// `obj` is gone completes the sequence instead.
    ///
    /// ```
    /// source:                 --1--2-----3--
    /// withUnretained(owner):  --(o,1)--(o,2)--|   (owner gone before 3)
    /// ```
    @_alwaysEmitIntoClient
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> Infallible<(Object, Element)> {
        Infallible<(Object, Element)>(asObservable().withUnretained(obj))
    }
}
