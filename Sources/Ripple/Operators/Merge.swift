extension ObservableType where Element: ObservableConvertibleType {
    /// Subscribes to every inner sequence as soon as it arrives and forwards the
    /// elements of all of them as they come.
    ///
    /// Completes when the outer sequence and every inner sequence have completed.
    /// Fails as soon as the outer sequence or any inner sequence fails; everything
    /// is then disposed.
    ///
    /// ```
    /// outer:    --a------b----------|
    /// a:          --1-----2--|
    /// b:                 --3----4--|
    /// merge():  ----1-----23----4---|
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func merge() -> Observable<Element.Element> {
        asObservable().merging(.all, site: SiteLiteral("merge")) { $0.asObservable() }
    }

    /// Like ``merge()``, but subscribes to at most `maxConcurrent` inner sequences
    /// at a time; the others wait, in arrival order, until one completes.
    ///
    /// `merge(maxConcurrent: 1)` is ``concat()``. A `maxConcurrent` of zero or less
    /// fails with `RxError.argumentOutOfRange`.
    ///
    /// Completes when the outer sequence and every inner sequence (running or
    /// waiting) have completed. Fails as soon as the outer sequence or any inner
    /// sequence fails.
    ///
    /// ```
    /// outer:                    --a--b--------------|
    /// a:                          --1---2|
    /// b:                                 --3--4|   (subscribed when a completes)
    /// merge(maxConcurrent: 1):  ----1---2--3--4-----|
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        guard maxConcurrent > 0 else {
            return .error(RxError.argumentOutOfRange("merge(maxConcurrent:)", "maxConcurrent", maxConcurrent, minimum: 1))
        }
        return asObservable().merging(.limited(maxConcurrent), site: SiteLiteral("merge")) { $0.asObservable() }
    }
}

extension ObservableType {
    /// Subscribes to all `sources` at once and forwards their elements as they
    /// come.
    ///
    /// Completes when every source has completed (at once for an empty
    /// collection). Fails as soon as one source fails; the others are then
    /// disposed.
    ///
    /// ```
    /// a:         --1-----3--|
    /// b:         ----2--------4--|
    /// merge:     --1-2---3----4--|
    /// ```
    @_alwaysEmitIntoClient
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Observable<Element>
    where Collection.Element == Observable<Element> {
        mergeSources(Array(sources), site: SiteLiteral("merge"))
    }

    /// Subscribes to all `sources` at once and forwards their elements as they
    /// come.
    ///
    /// Completes when every source has completed (at once for an empty array).
    /// Fails as soon as one source fails; the others are then disposed.
    ///
    /// ```
    /// a:         --1-----3--|
    /// b:         ----2--------4--|
    /// merge:     --1-2---3----4--|
    /// ```
    @_alwaysEmitIntoClient
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        mergeSources(sources, site: SiteLiteral("merge"))
    }

    /// Subscribes to all `sources` at once and forwards their elements as they
    /// come.
    ///
    /// Completes when every source has completed (at once when there is none).
    /// Fails as soon as one source fails; the others are then disposed.
    ///
    /// ```
    /// a:         --1-----3--|
    /// b:         ----2--------4--|
    /// merge:     --1-2---3----4--|
    /// ```
    @_alwaysEmitIntoClient
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        mergeSources(sources, site: SiteLiteral("merge"))
    }

    @_alwaysEmitIntoClient
    @usableFromInline
    static func mergeSources(_ sources: [Observable<Element>], site: SiteLiteral) -> Observable<Element> {
        #if CompactPipelines
        Observable<Element>.mergingSourcesOnce(sources, site: site)
        #else
        Observable<Element>.mergingSourcesHere(sources, site: site)
        #endif
    }
}

extension Observable {
    /// The operators of ``MergeSink``'s family on an outer sequence (`flatMap`,
    /// `flatMapFirst`, `concatMap`, `merge()`, `merge(maxConcurrent:)`), given
    /// the sink's mode and selector. By default the sink is made here, inlined
    /// where the operator is applied and specialised for its types; with the
    /// package trait `CompactPipelines`, by ``mergingOnce(_:site:_:)``, compiled
    /// once in Ripple (docs/Architecture.md, "Compact pipelines").
    @_alwaysEmitIntoClient
    @inline(__always)
    func merging<Result>(
        _ mode: MergeSink<Element, Result>.Mode, site: SiteLiteral,
        _ selector: @escaping (Element) throws -> Observable<Result>
    ) -> Observable<Result> {
        #if CompactPipelines
        mergingOnce(mode, site: site, selector)
        #else
        mergingHere(mode, site: site, selector)
        #endif
    }

    /// The body of ``merging(_:site:_:)``.
    @_alwaysEmitIntoClient
    @inline(__always)
    func mergingHere<Result>(
        _ mode: MergeSink<Element, Result>.Mode, site: SiteLiteral,
        _ selector: @escaping (Element) throws -> Observable<Result>
    ) -> Observable<Result> {
        let source = self
        return Producer(site: site) { observer in
            let sink = MergeSink<Element, Result>(mode: mode, selector: selector, observer: observer)
            sink.run(outer: source)
            return sink
        }
    }

    /// The static `merge`'s sink, made here (see ``merging(_:site:_:)``).
    @_alwaysEmitIntoClient
    @inline(__always)
    static func mergingSourcesHere(_ sources: [Observable<Element>], site: SiteLiteral) -> Observable<Element> {
        Producer(site: site) { observer in
            let sink = MergeSink<Element, Element>(mode: .all, selector: { .just($0) }, observer: observer)
            sink.run(sources: sources)
            return sink
        }
    }

    #if CompactPipelines
    /// ``mergingHere(_:site:_:)`` compiled once in Ripple, for every element
    /// type, and called, not inlined, by the app (the trait `CompactPipelines`).
    @usableFromInline
    @inline(never)
    func mergingOnce<Result>(
        _ mode: MergeSink<Element, Result>.Mode, site: SiteLiteral,
        _ selector: @escaping (Element) throws -> Observable<Result>
    ) -> Observable<Result> {
        mergingHere(mode, site: site, selector)
    }

    /// ``mergingSourcesHere(_:site:)`` compiled once in Ripple (the trait
    /// `CompactPipelines`).
    @usableFromInline
    @inline(never)
    static func mergingSourcesOnce(_ sources: [Observable<Element>], site: SiteLiteral) -> Observable<Element> {
        mergingSourcesHere(sources, site: site)
    }
    #endif
}

/// The subscription to one upstream of a multi-source operator: it subscribes to
/// its source and hands each event, with itself, to the operator's handler.
///
/// The handler usually holds the operator's sink, and the sink holds this object
/// (in a `CompositeDisposable` or `SerialDisposable`); the cycle is broken when
/// the sink disposes its group, or removes this object from it.
@usableFromInline
final class CombiningSubscription<Element>: SubscriptionBase, @unchecked Sendable {
    @usableFromInline
    let handler: (Event<Element>, CombiningSubscription<Element>) -> Void

    /// The key in the owner's `CompositeDisposable` (or its state's bag). Written
    /// before `subscribe(to:)` (under the owner's lock, if it has one), read only by
    /// the event handler afterwards.
    @usableFromInline
    @exclusivity(unchecked)
    var key: CompositeDisposable.DisposeKey?

    /// An identifier the owner may give this subscription (`flatMapLatest` tells
    /// the latest inner subscription from superseded ones with it). Written before
    /// `subscribe(to:)`.
    @usableFromInline
    @exclusivity(unchecked)
    var id: UInt64

    /// Links in the owner's ``InnerList`` (`MergeSink`). Only touched under the
    /// owner's lock while the subscription is in the list, and only by
    /// ``InnerList/disposeChain(_:)`` once the list detached it (after which the
    /// list never touches it again: see ``InnerList/isDetached``).
    @usableFromInline
    @exclusivity(unchecked)
    var nextInner: CombiningSubscription<Element>?
    /// Not a strong reference, so that the list holds no cycle; `unowned(unsafe)`
    /// because it is only ever read under the owner's lock while this
    /// subscription is linked, and a linked subscription's predecessor is alive:
    /// it is retained by *its* predecessor's `nextInner` (or by the list's
    /// `head`), and unlinking it (under the same lock) rewires this pointer first.
    /// `disposeChain` clears it without reading it. `DisposeRaceStressTests`
    /// exercises exactly these paths (removal racing detachment) under
    /// ThreadSanitizer.
    @usableFromInline
    @exclusivity(unchecked)
    unowned(unsafe) var previousInner: CombiningSubscription<Element>?
    @usableFromInline
    @exclusivity(unchecked)
    var isLinked: Bool

    @_alwaysEmitIntoClient
    init(handler: @escaping (Event<Element>, CombiningSubscription<Element>) -> Void) {
        id = 0
        isLinked = false
        self.handler = handler
        super.init()
    }

    /// Subscribes to `source`; events arriving after this object was disposed are
    /// dropped.
    @_alwaysEmitIntoClient
    func subscribe(to source: Observable<Element>) {
        setUpstream(source.subscribe(sink: AnyObserver { self.on($0) }))
    }

    /// Out of line, so that the acquire load of ``isDisposed`` is inlined: in
    /// the observer closure (a thunk once specialised) it would be a call (see
    /// "The lock and the atomics" in docs/Architecture.md).
    @_alwaysEmitIntoClient
    @inline(never)
    func on(_ event: Event<Element>) {
        if !isDisposed {
            handler(event, self)
        }
    }
}

/// An intrusive doubly linked list of inner subscriptions, in insertion order:
/// adding and removing one is O(1) and allocates nothing (a keyed bag
/// reallocated its storage every few dozen inner sequences when each one
/// completes right away, as with `flatMap { .just($0) }`).
///
/// Only used under its owner's lock; ``detachAll()`` hands the whole chain to
/// the caller, who disposes it outside the lock. From then on the list is
/// ``isDetached`` and never touches those subscriptions again: an inner sequence
/// completing on another thread while the chain is being disposed must not
/// unlink its node from a chain that `disposeChain` is walking without the lock
/// (that race corrupted the heap).
@usableFromInline
struct InnerList<Element> {
    @usableFromInline var head: CombiningSubscription<Element>?
    /// `unowned(unsafe)`: read and written only under the owner's lock, and the
    /// last node is alive while it is linked (its predecessor's `nextInner`, or
    /// `head`, retains it). Cleared by ``detachAll()``.
    @usableFromInline unowned(unsafe) var tail: CombiningSubscription<Element>?
    /// ``detachAll()`` ran: the nodes belong to the disposing thread; ``append(_:)``
    /// and ``remove(_:)`` must not touch them.
    @usableFromInline var isDetached: Bool

    @_alwaysEmitIntoClient
    init() {
        isDetached = false
    }

    @_alwaysEmitIntoClient
    mutating func append(_ inner: CombiningSubscription<Element>) {
        precondition(!isDetached, "InnerList.append after detachAll")
        inner.previousInner = tail
        inner.nextInner = nil
        inner.isLinked = true
        if let tail {
            tail.nextInner = inner
        } else {
            head = inner
        }
        tail = inner
    }

    /// Unlinks `inner` if it is in the list. The caller holds a reference to it,
    /// so this never releases the last one.
    @_alwaysEmitIntoClient
    mutating func remove(_ inner: CombiningSubscription<Element>) {
        // Once detached, `inner` (if it was linked) is part of the chain that
        // `disposeChain` owns and walks outside the lock.
        guard !isDetached, inner.isLinked else { return }
        inner.isLinked = false
        let next = inner.nextInner
        let previous = inner.previousInner
        inner.nextInner = nil
        inner.previousInner = nil
        if let next {
            next.previousInner = previous
        } else {
            tail = previous
        }
        if let previous {
            previous.nextInner = next
        } else {
            head = next
        }
    }

    /// Empties the list and returns its first element; the chain stays linked
    /// through `nextInner` for ``disposeChain(_:)``.
    @_alwaysEmitIntoClient
    mutating func detachAll() -> CombiningSubscription<Element>? {
        let first = head
        head = nil
        tail = nil
        isDetached = true
        return first
    }

    /// Disposes a chain returned by ``detachAll()``, in insertion order, breaking
    /// the links one at a time (no recursive deallocation of a long chain).
    @_alwaysEmitIntoClient
    static func disposeChain(_ first: CombiningSubscription<Element>?) {
        var node = first
        while let inner = node {
            node = inner.nextInner
            inner.nextInner = nil
            inner.previousInner = nil
            inner.isLinked = false
            inner.dispose()
        }
    }
}

@usableFromInline
struct MergeState<Element> {
    /// Inner sequences subscribed (or reserved, for `flatMapFirst`) and not yet
    /// completed.
    @usableFromInline var active: Int
    @usableFromInline var outerDone: Bool
    /// A terminal event has been put in the outbox.
    @usableFromInline var terminated: Bool
    /// Inner sequences waiting for a free slot (`merge(maxConcurrent:)`, `concatMap`).
    @usableFromInline var queue: RingBuffer<Observable<Element>>
    /// A thread is running ``MergeSink/subscribeQueued()``.
    @usableFromInline var isSubscribing: Bool
    /// The inner subscriptions, kept here (not in a `CompositeDisposable`) so that
    /// registering or forgetting one costs no lock besides the state's.
    /// Detached by `disposeResources()`, after which new inner subscriptions are
    /// not registered.
    @usableFromInline var inners: InnerList<Element>

    @_alwaysEmitIntoClient
    init() {
        active = 0
        outerDone = false
        terminated = false
        queue = RingBuffer()
        isSubscribing = false
        inners = InnerList()
    }

    /// Frees the slot of an inner sequence that completed: completes the stream
    /// if it was the last one and the outer sequence is done. `true` if the caller
    /// must now run ``MergeSink/subscribeQueued()`` (queued sequences are waiting
    /// and no thread runs that loop).
    @_alwaysEmitIntoClient
    mutating func releaseSlot(_ outbox: inout SerializingSink<MergeState<Element>, Element>.Outbox) -> Bool {
        active -= 1
        if terminated { return false }
        if queue.isEmpty {
            if outerDone && active == 0 {
                terminated = true
                outbox.terminate(.completed)
            }
            return false
        }
        if isSubscribing { return false }
        isSubscribing = true
        return true
    }

    /// Registers `inner`; `false` once the sink has released its resources.
    @_alwaysEmitIntoClient
    mutating func register(_ inner: CombiningSubscription<Element>) -> Bool {
        if inners.isDetached { return false }
        inners.append(inner)
        return true
    }
}

/// The engine of `flatMap`, `flatMapFirst`, `concatMap`, `merge()`,
/// `merge(maxConcurrent:)`, `concat()` and the static `merge`.
///
/// Each outer element is mapped (outside any lock; the outer sequence is
/// serialized, so the selector never runs concurrently with itself) to an inner
/// sequence, which is subscribed, dropped or queued depending on the mode. Inner
/// subscriptions live in the state (so reserving a slot and registering the
/// subscription take one lock round trip); events leave through the serializing
/// outbox.
///
/// Queued inner sequences are subscribed by a loop that one thread at a time
/// runs: an inner sequence that completes while being subscribed (synchronous
/// sources) frees its slot, and the loop picks the next one instead of recursing,
/// so `concatMap` over many synchronous sequences uses constant stack.
///
/// Everything is visible to callers (`@_alwaysEmitIntoClient` functions,
/// `@inlinable` initialisers): the operators build the sink where they are
/// applied, so it is specialised for the caller's element types (with the
/// package trait `CompactPipelines`, Ripple builds it instead:
/// `Observable.mergingOnce(_:site:_:)`).
@usableFromInline
final class MergeSink<SourceElement, Element>: SerializingSink<MergeState<Element>, Element>, @unchecked Sendable {
    @usableFromInline
    enum Mode {
        /// Subscribe to every inner sequence at once (`flatMap`, `merge`).
        case all
        /// Drop outer elements while an inner sequence is active (`flatMapFirst`).
        case first
        /// At most this many inner sequences at a time; the rest wait in order.
        case limited(Int)
    }

    @usableFromInline
    enum LimitedAction {
        case none, subscribe, runPipeline, startLoop
    }

    @usableFromInline let mode: Mode
    @usableFromInline let maxConcurrent: Int
    @usableFromInline let selector: (SourceElement) throws -> Observable<Element>

    @_alwaysEmitIntoClient
    init(mode: Mode, selector: @escaping (SourceElement) throws -> Observable<Element>, observer: AnyObserver<Element>) {
        self.mode = mode
        if case .limited(let limit) = mode {
            maxConcurrent = limit
        } else {
            maxConcurrent = .max
        }
        self.selector = selector
        super.init(state: MergeState(), observer: observer)
    }

    /// Subscribes to the outer sequence.
    @_alwaysEmitIntoClient
    func run(outer: Observable<SourceElement>) {
        setUpstream(outer.subscribe(sink: AnyObserver { self.outerOn($0) }))
    }

    /// Subscribes to a fixed list of sources (the static `merge`).
    @_alwaysEmitIntoClient
    func run(sources: [Observable<Element>]) {
        let count = sources.count
        update { state, outbox in
            state.outerDone = true
            state.active = count
            if count == 0 {
                state.terminated = true
                outbox.terminate(.completed)
            }
        }
        for source in sources {
            if isDisposed { return }
            let inner = makeInner()
            let registered = update { state, _ in !state.terminated && state.register(inner) }
            if !registered { return }
            inner.subscribe(to: source)
        }
    }

    @_alwaysEmitIntoClient
    func outerOn(_ event: Event<SourceElement>) {
        switch event {
        case .next(let element):
            outerNext(element)
        case .error(let error):
            fail(error)
        case .completed:
            updateOutOfLine { state, outbox in
                state.outerDone = true
                if !state.terminated && state.active == 0 && state.queue.isEmpty {
                    state.terminated = true
                    outbox.terminate(.completed)
                }
            }
            // The outer sequence is done: what its operators captured goes now,
            // not when the last inner sequence ends (as in RxSwift).
            releaseUpstream()
        }
    }

    @_alwaysEmitIntoClient
    func outerNext(_ element: SourceElement) {
        if isDisposed { return }
        if case .first = mode {
            let accepted = update { state, _ -> Bool in
                if state.terminated || state.active > 0 { return false }
                state.active += 1
                return true
            }
            if !accepted { return }
        }
        let source: Observable<Element>
        do {
            source = try selector(element)
        } catch {
            fail(error)
            return
        }
        // An inner `just` is not subscribed to: its element is forwarded in one
        // update (see ``JustProducer``); nor is a pipeline on a `just`
        // (`just(x).map(f)`), which runs here instead (see ``InnerSource``).
        let kind = source.innerSource
        switch mode {
        case .first:
            switch kind {
            case .just:
                let element = source.justElement
                update { state, outbox in
                    state.active -= 1
                    if !state.terminated {
                        outbox.next(element)
                    }
                }
            case .pipeline:
                runPipeline(source.asPipeline)
            case .subscribe:
                let inner = makeInner()
                if update({ state, _ in state.register(inner) }) {
                    inner.subscribe(to: source)
                }
            }
        case .all:
            switch kind {
            case .just:
                let element = source.justElement
                update { state, outbox in
                    if !state.terminated {
                        outbox.next(element)
                    }
                }
            case .pipeline:
                // No slot to reserve: the pipeline ends before this returns, and
                // the outer sequence cannot complete meanwhile (it is serialized).
                let run = source.asPipeline.runOnJust()
                if run.first != nil {
                    update { state, outbox in
                        if !state.terminated {
                            outbox.next(elementsOf: run)
                        }
                    }
                }
                if let error = run.error {
                    fail(error)
                }
            case .subscribe:
                // Reserving the slot and registering the subscription: one lock.
                let inner = makeInner()
                let accepted = update { state, _ -> Bool in
                    if state.terminated || !state.register(inner) { return false }
                    state.active += 1
                    return true
                }
                if accepted {
                    inner.subscribe(to: source)
                }
            }
        case .limited:
            let maxConcurrent = maxConcurrent
            var inner: CombiningSubscription<Element>?
            if case .subscribe = kind {
                inner = makeInner()
            }
            let action = update { state, outbox -> LimitedAction in
                if state.terminated { return .none }
                if !state.isSubscribing && state.queue.isEmpty && state.active < maxConcurrent {
                    switch kind {
                    case .just:
                        outbox.next(source.justElement)
                        return .none
                    case .pipeline:
                        // The slot is held while the steps (user code) run, outside
                        // the lock, as it would be by a subscription.
                        state.active += 1
                        return .runPipeline
                    case .subscribe:
                        guard let inner, state.register(inner) else { return .none }
                        state.active += 1
                        return .subscribe
                    }
                }
                state.queue.append(source)
                if state.isSubscribing { return .none }
                state.isSubscribing = true
                return .startLoop
            }
            switch action {
            case .none: break
            case .subscribe: inner?.subscribe(to: source)
            case .runPipeline:
                runPipeline(source.asPipeline)
            case .startLoop: subscribeQueued()
            }
        }
    }

    /// Runs an inner pipeline on a `just` (see ``InnerSource``) whose slot is
    /// already reserved, then frees the slot as the inner sequence's completion
    /// would (`flatMapFirst`, `concatMap`, `merge(maxConcurrent:)`).
    @_alwaysEmitIntoClient
    func runPipeline(_ pipeline: Pipeline<Element>) {
        let run = pipeline.runOnJust()
        if let error = run.error {
            if run.first != nil {
                update { state, outbox in
                    if !state.terminated {
                        outbox.next(elementsOf: run)
                    }
                }
            }
            fail(error)
            return
        }
        let startLoop = update { state, outbox -> Bool in
            if !state.terminated {
                outbox.next(elementsOf: run)
            }
            return state.releaseSlot(&outbox)
        }
        if startLoop {
            subscribeQueued()
        }
    }

    /// Subscribes to waiting inner sequences while slots are free. One thread at a
    /// time runs this loop (`isSubscribing`); others leave their work in the queue.
    @_alwaysEmitIntoClient
    func subscribeQueued() {
        let maxConcurrent = maxConcurrent
        while true {
            let inner = makeInner()
            let next = update { state, _ -> Observable<Element>? in
                if !state.terminated && state.active < maxConcurrent && !state.queue.isEmpty && state.register(inner) {
                    state.active += 1
                    return state.queue.popFirst()
                }
                state.isSubscribing = false
                return nil
            }
            guard let next else { return }
            inner.subscribe(to: next)
        }
    }

    /// A subscription to one inner sequence. Its handler captures only the sink,
    /// so creating it allocates nothing besides the subscription itself.
    @_alwaysEmitIntoClient
    func makeInner() -> CombiningSubscription<Element> {
        CombiningSubscription<Element> { [self] event, inner in
            innerOn(event, from: inner)
        }
    }

    @_alwaysEmitIntoClient
    func innerOn(_ event: Event<Element>, from inner: CombiningSubscription<Element>) {
        switch event {
        case .next(let element):
            update { state, outbox in
                if !state.terminated {
                    outbox.next(element)
                }
            }
        case .error(let error):
            fail(error)
        case .completed:
            // Disposed before the completion is processed, as a member of a
            // `CompositeDisposable` removed from it would be; forgotten by the
            // same update that frees its slot.
            inner.dispose()
            let startLoop = update { state, outbox -> Bool in
                state.inners.remove(inner)
                return state.releaseSlot(&outbox)
            }
            if startLoop {
                subscribeQueued()
            }
        }
    }

    @_alwaysEmitIntoClient
    func fail(_ error: Swift.Error) {
        updateOutOfLine { state, outbox in
            if state.terminated { return }
            state.terminated = true
            outbox.terminate(.error(error))
        }
    }

    @inlinable
    override func disposeResources() {
        let inners = withState { state -> CombiningSubscription<Element>? in
            // Moved out, disposed and released after the lock: releasing the last
            // reference to an inner chain may run user code (deinits).
            return state.inners.detachAll()
        }
        InnerList.disposeChain(inners)
    }
}
