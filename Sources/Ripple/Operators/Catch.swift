extension ObservableType {
    /// When the source fails, continues with the sequence `handler` returns for
    /// the error.
    ///
    /// The source is disposed when it fails, then the replacement is subscribed.
    /// The replacement's events (including its error) pass through unchanged. If
    /// `handler` throws, the result fails with that error.
    ///
    /// ```
    /// source:                         --1--2--#
    /// catch { _ in .of(8, 9) }:       --1--2--(89|)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        let source = asObservable()
        // The source and the handler stored in the observable (a ``ValueProducer``),
        // so that the subscription function captures nothing: one allocation per
        // operator, and one (the sink) per subscription.
        return ValueProducer(CatchOperator(source: source, handler: handler), site: SiteLiteral("catch")) { parameters, observer in
            let sink = CatchSink(parameters: parameters, observer: observer)
            sink.setUpstream(parameters.source.subscribeNested(sink: AnyObserver { sink.onSource($0) }))
            return sink
        }
    }

    /// When the source fails, sends `element` and completes.
    ///
    /// Elements and completion pass through unchanged. The same as
    /// `catch { _ in .just(element) }`: the failed source's subscription is
    /// disposed after `element` and the completion are delivered. Never fails.
    ///
    /// ```
    /// source:               --1--2--#
    /// catchAndReturn(0):    --1--2--(0|)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        // A step of the pipeline (docs/Architecture.md): with the operators
        // around it, it runs in the chain's one sink.
        appending(CatchAndReturnStep(element: element), site: SiteLiteral("catchAndReturn"))
    }

    /// Subscribes to the sequences of `sequence` one after the other, moving on
    /// to the next one each time the current one fails.
    ///
    /// Completes when the current sequence completes. Fails with the last
    /// sequence's error when every sequence failed; completes at once if
    /// `sequence` is empty. The sequence is iterated lazily, once per
    /// subscriber, and resubscription never grows the stack.
    ///
    /// ```
    /// first:                              --1--#
    /// second:                                  --2--|
    /// catch(sequence: [first, second]):   --1----2--|
    /// ```
    @_alwaysEmitIntoClient
    public static func `catch`<Sequence: Swift.Sequence>(sequence: Sequence) -> Observable<Element>
    where Sequence.Element == Observable<Element> {
        Producer(site: SiteLiteral("catch")) { observer in
            var iterator = sequence.makeIterator()
            let sink = CatchSequenceSink(nextSource: { iterator.next() }, observer: observer)
            sink.start()
            return sink
        }
    }
}

/// The step of `catchAndReturn`: elements and completion pass through; a
/// failure (of the source or of a step before it) becomes `element`, then
/// completion.
@usableFromInline
struct CatchAndReturnStep<Element>: PipelineStep {
    @usableFromInline
    let element: Element

    @_alwaysEmitIntoClient
    init(element: Element) {
        self.element = element
    }

    @_alwaysEmitIntoClient
    func next(_ input: Element, _ state: inout Void) -> StepResult<Element> {
        (input, false)
    }

    @_alwaysEmitIntoClient
    func fail(_ error: Swift.Error, _ state: inout Void) -> StepResult<Element> {
        (element, true)
    }
}

/// The parameters of `catch`: the source and the handler that makes the
/// replacement.
@usableFromInline
struct CatchOperator<Element> {
    @usableFromInline
    let source: Observable<Element>
    @usableFromInline
    let handler: (Swift.Error) throws -> Observable<Element>

    @_alwaysEmitIntoClient
    init(source: Observable<Element>, handler: @escaping (Swift.Error) throws -> Observable<Element>) {
        self.source = source
        self.handler = handler
    }
}

/// The sink of `catch`: the only object a subscription creates until the source
/// fails.
///
/// The source's subscription is the sink's upstream; on failure it is released
/// (``SubscriptionBase/releaseUpstream()``) before the replacement is subscribed,
/// as RxSwift does. The replacement's subscription is kept in ``replacement``,
/// published with ``replacementFlag`` in the same atomic word as the sink's
/// disposal, so that a `dispose()` racing with the failure releases it exactly
/// once. (A `SerialDisposable` and a `SingleAssignmentDisposable` per
/// subscription, with a lock each, did the same at the cost of six allocations.)
@usableFromInline
final class CatchSink<Element>: Sink<Element>, @unchecked Sendable {
    /// Set in ``SubscriptionBase/lifecycle`` while ``replacementSubscription``
    /// holds a subscription nobody has taken yet.
    @usableFromInline static var replacementFlag: Int { SubscriptionBase.firstSubclassFlag }

    /// The operator's parameters: the source, and what makes the replacement.
    @usableFromInline
    let parameters: CatchOperator<Element>

    /// The replacement's subscription. Written once, before ``replacementFlag`` is
    /// set; taken only by the thread whose clearing of that flag found it set.
    @usableFromInline
    @exclusivity(unchecked)
    final var replacementSubscription: SubscriptionBase?

    @_alwaysEmitIntoClient
    init(parameters: CatchOperator<Element>, observer: AnyObserver<Element>) {
        self.parameters = parameters
        super.init(observer: observer)
    }

    @_alwaysEmitIntoClient
    func onSource(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            forwardNext(element)
        case .completed:
            forwardCompleted()
        case .error(let error):
            sourceFailed(error)
        }
    }

    /// Makes the replacement, releases the source, then subscribes to the
    /// replacement. Kept out of line: the cold path.
    @_alwaysEmitIntoClient
    @inline(never)
    func sourceFailed(_ error: Swift.Error) {
        // Once only: a source that broke the contract with a second error is
        // ignored, as is an error after disposal.
        let done = SubscriptionBase.disposedFlag | SubscriptionBase.releasedFlag
        guard AtomicCell.load(&lifecycle, ordering: .acquiring) & done == 0 else { return }
        let replacement: Observable<Element>
        do {
            replacement = try parameters.handler(error)
        } catch {
            forwardError(error)
            return
        }
        releaseUpstream()
        let subscription = replacement.subscribe(sink: AnyObserver { self.forward($0) })
        guard let subscription, !subscription.isDisposed else { return }
        replacementSubscription = subscription
        let old = AtomicCell.bitwiseOr(&lifecycle, Self.replacementFlag, ordering: .acquiringAndReleasing).oldValue
        if old & SubscriptionBase.disposedFlag != 0 {
            // Disposed meanwhile: whichever of this thread and `disposeResources()`
            // clears the flag releases the subscription.
            takeReplacement()?.dispose()
        }
    }

    /// The replacement's subscription, if this call is the one that clears
    /// ``replacementFlag``.
    @_alwaysEmitIntoClient
    func takeReplacement() -> SubscriptionBase? {
        let old = AtomicCell.bitwiseAnd(&lifecycle, ~Self.replacementFlag, ordering: .acquiringAndReleasing).oldValue
        return old & Self.replacementFlag != 0 ? replacementSubscription.take() : nil
    }

    @inlinable
    override func disposeResources() {
        // A plain load first: without a failure there is nothing to release, and
        // a replacement published after this load sees the disposal itself.
        if AtomicCell.load(&lifecycle, ordering: .acquiring) & Self.replacementFlag != 0 {
            takeReplacement()?.dispose()
        }
    }
}

/// Subscribes to one source after another (`catch(sequence:)`, `retry`,
/// `retry(when:)`), iteratively: a source that fails while it is being
/// subscribed makes the running loop subscribe the next one, instead of
/// recursing, so even endless synchronous retries use constant stack.
///
/// A failure during the very first subscription (inside the subscription to
/// this operator) is retried from the current thread's trampoline, once the
/// subscriber holds this subscription: so that it can still dispose it, for
/// example with `take(1)` downstream of a source that always fails at once.
@usableFromInline
class CatchSequenceSink<Element>: Sink<Element>, @unchecked Sendable {
    /// Whether a thread runs the loop, whether another source is due, and the
    /// last error (a tuple: see "State is a tuple" in docs/Architecture.md).
    private typealias Gate = (isRunning: Bool, hasPending: Bool, lastError: Swift.Error?)

    /// The next source to try, `nil` when there is none. Called only by the
    /// thread that runs the loop.
    private let nextSource: () -> Observable<Element>?
    private let gate: LockedState<Gate>
    /// The current attempt.
    let current: SerialDisposable

    @usableFromInline
    init(nextSource: @escaping () -> Observable<Element>?, observer: AnyObserver<Element>) {
        gate = LockedState((isRunning: false, hasPending: false, lastError: nil))
        current = SerialDisposable()
        self.nextSource = nextSource
        super.init(observer: observer)
    }

    /// Subscribes to the first source. Called from the operator's subscription,
    /// where the current thread's trampoline is running.
    @usableFromInline
    func start() {
        gate.withLock { $0.isRunning = true }
        step()
        guard continuesLoop() else { return }
        let trampoline = Trampoline.current
        if trampoline.pointee.isRunning {
            trampoline.pointee.queue.append { [self] in runLoop() }
        } else {
            runLoop()
        }
    }

    /// Subscribes to the next source, now or (if the loop is running on some
    /// thread) as soon as the current step of the loop returns.
    final func subscribeNext() {
        let runsLoop = gate.withLock { gate -> Bool in
            if gate.isRunning {
                gate.hasPending = true
                return false
            }
            gate.isRunning = true
            return true
        }
        if runsLoop {
            runLoop()
        }
    }

    /// Runs steps until no resubscription is pending. The caller owns the loop.
    private func runLoop() {
        repeat {
            step()
        } while continuesLoop()
    }

    /// Consumes a pending resubscription, or gives up the loop.
    private func continuesLoop() -> Bool {
        gate.withLock { gate -> Bool in
            if gate.hasPending {
                gate.hasPending = false
                return true
            }
            gate.isRunning = false
            return false
        }
    }

    private func step() {
        guard !isDisposed else { return }
        guard let source = nextSource() else {
            if let error = gate.withLock({ $0.lastError }) {
                forwardError(error)
            } else {
                forwardCompleted()
            }
            return
        }
        let attempt = SingleAssignmentDisposable()
        current.disposable = attempt
        let subscription = source.subscribe(sink: AnyObserver { [self] event in
            switch event {
            case .next(let element):
                forwardNext(element)
            case .completed:
                forwardCompleted()
            case .error(let error):
                guard !isDisposed else { return }
                sourceFailed(error)
            }
        })
        attempt.setDisposable(subscription ?? Disposables.create())
    }

    /// The current source failed: by default, remember the error and try the
    /// next source.
    func sourceFailed(_ error: Swift.Error) {
        var replaced: Swift.Error? = error  // released after the lock
        gate.withLock { swap(&$0.lastError, &replaced) }
        subscribeNext()
    }

    override func disposeResources() {
        current.dispose()
    }
}
