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
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        let source = asObservable()
        return Producer { observer in
            let sink = CatchSink(handler: handler, observer: observer)
            sink.run(source)
            return sink
        }
    }

    /// When the source fails, sends `element` and completes.
    ///
    /// ```
    /// source:               --1--2--#
    /// catchAndReturn(0):    --1--2--(0|)
    /// ```
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        `catch` { _ in .just(element) }
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
    public static func `catch`<Sequence: Swift.Sequence>(sequence: Sequence) -> Observable<Element>
    where Sequence.Element == Observable<Element> {
        Producer { observer in
            var iterator = sequence.makeIterator()
            let sink = CatchSequenceSink(nextSource: { iterator.next() }, observer: observer)
            sink.start()
            return sink
        }
    }
}

final class CatchSink<Element>: Sink<Element>, @unchecked Sendable {
    private let handler: (Swift.Error) throws -> Observable<Element>
    private let subscription = SerialDisposable()

    init(handler: @escaping (Swift.Error) throws -> Observable<Element>, observer: AnyObserver<Element>) {
        self.handler = handler
        super.init(observer: observer)
    }

    func run(_ source: Observable<Element>) {
        let original = SingleAssignmentDisposable()
        subscription.disposable = original
        let sourceSubscription = source.subscribe(sink: AnyObserver { [self] event in onSource(event) })
        original.setDisposable(sourceSubscription ?? Disposables.create())
    }

    private func onSource(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            forwardNext(element)
        case .completed:
            forwardCompleted()
        case .error(let error):
            guard !isDisposed else { return }
            let replacement: Observable<Element>
            do {
                replacement = try handler(error)
            } catch {
                forwardError(error)
                return
            }
            let holder = SingleAssignmentDisposable()
            subscription.disposable = holder
            let replacementSubscription = replacement.subscribe(sink: AnyObserver { [self] event in forward(event) })
            holder.setDisposable(replacementSubscription ?? Disposables.create())
        }
    }

    override func disposeResources() {
        subscription.dispose()
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
class CatchSequenceSink<Element>: Sink<Element>, @unchecked Sendable {
    private struct Gate {
        var isRunning = false
        var hasPending = false
        var lastError: Swift.Error?
    }

    /// The next source to try, `nil` when there is none. Called only by the
    /// thread that runs the loop.
    private let nextSource: () -> Observable<Element>?
    private let gate = LockedState(Gate())
    /// The current attempt.
    let current = SerialDisposable()

    init(nextSource: @escaping () -> Observable<Element>?, observer: AnyObserver<Element>) {
        self.nextSource = nextSource
        super.init(observer: observer)
    }

    /// Subscribes to the first source. Called from the operator's subscription,
    /// where the current thread's trampoline is running.
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
        gate.withLock { $0.lastError = error }
        subscribeNext()
    }

    override func disposeResources() {
        current.dispose()
    }
}
