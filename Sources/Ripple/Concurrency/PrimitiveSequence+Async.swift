extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Creates a `Single` that runs `work` in a new task for each subscriber and
    /// succeeds with its result, or fails with the error it throws.
    ///
    /// Disposing the subscription cancels the task (`Task.isCancelled` becomes
    /// `true` and cancellable awaits inside `work` throw `CancellationError`);
    /// nothing is reported after disposal, not even the cancellation error. Work
    /// that ignores cancellation runs to its end and its result is dropped.
    ///
    /// ```swift
    /// let profile = Single.create { try await api.loadProfile() }
    /// ```
    ///
    /// ```
    /// work returns 42:   ------(42|)
    /// work throws X:     ------X
    /// ```
    ///
    /// The outcome is delivered on the task's thread (a thread of Swift's
    /// cooperative pool); use `observe(on:)` to move it.
    ///
    /// - Parameters:
    ///   - detached: `true` to run `work` in a detached task (it does not inherit
    ///     the subscribing task's task-local values or priority).
    ///   - priority: The task's priority.
    ///   - work: The asynchronous work. It runs once per subscription, possibly
    ///     concurrently for concurrent subscribers, hence `@Sendable`.
    @_alwaysEmitIntoClient
    public static func create(
        detached: Bool = false,
        priority: TaskPriority? = nil,
        work: @Sendable @escaping () async throws -> Element
    ) -> Single<Element> {
        Single(raw: Observable<Element>.fromAsync(detached: detached, priority: priority, work))
    }

    /// The element of this `Single`, awaited: subscribes, suspends until the
    /// outcome, and returns the element or throws the error.
    ///
    /// ```swift
    /// let user = try await api.user(id: 1).value
    /// ```
    ///
    /// ```
    /// single:  --(1|)        --#(X)
    /// value:   returns 1     throws X
    /// ```
    ///
    /// Cancelling the awaiting task disposes the subscription and throws
    /// `CancellationError` at once. A task cancelled before reading `value` still
    /// subscribes, as in RxSwift: an outcome delivered during `subscribe` (from
    /// `.just(1)` or `.error(e)`, say) is returned or thrown; otherwise the
    /// subscription is disposed and `CancellationError` thrown. A source that
    /// completes without an element throws `RxError.noElements`.
    ///
    /// **Sendable:** the element is handed over from the thread that produces it
    /// to the awaiting task, as `observe(on:)` does; it need not be `Sendable`.
    public var value: Element {
        get async throws {
            let source = primitiveSequence.source
            return try await AwaitedOutcome<Element>.run { outcome in
                source.subscribe(sink: AnyObserver { event in
                    switch event {
                    case .next(let element):
                        outcome.resume(with: .success(element))
                    case .error(let error):
                        outcome.resume(with: .failure(error))
                    case .completed:
                        // Only reached without an element (the first outcome wins).
                        outcome.resume(with: .failure(RxError.noElements))
                    }
                })
            }
        }
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// The element of this `Maybe`, awaited: subscribes, suspends until the
    /// outcome, and returns the element, `nil` when the `Maybe` completes empty,
    /// or throws the error.
    ///
    /// ```swift
    /// if let cached = try await cache.user(id: 1).value { show(cached) }
    /// ```
    ///
    /// ```
    /// maybe:   --(1|)        --|          --#(X)
    /// value:   returns 1     returns nil  throws X
    /// ```
    ///
    /// Cancelling the awaiting task disposes the subscription and throws
    /// `CancellationError` at once. A task cancelled before reading `value` still
    /// subscribes, as in RxSwift: an outcome delivered during `subscribe` (from
    /// `.empty()` or `.just(1)`, say) is returned; otherwise the subscription is
    /// disposed and `CancellationError` thrown.
    ///
    /// **Sendable:** the element is handed over from the thread that produces it
    /// to the awaiting task, as `observe(on:)` does; it need not be `Sendable`.
    public var value: Element? {
        get async throws {
            let source = primitiveSequence.source
            return try await AwaitedOutcome<Element?>.run { outcome in
                source.subscribe(sink: AnyObserver { event in
                    switch event {
                    case .next(let element):
                        outcome.resume(with: .success(element))
                    case .error(let error):
                        outcome.resume(with: .failure(error))
                    case .completed:
                        outcome.resume(with: .success(nil))
                    }
                })
            }
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Awaits this `Completable`: subscribes, suspends until the outcome, and
    /// returns when it completes or throws its error.
    ///
    /// ```swift
    /// try await store.save(user).value
    /// ```
    ///
    /// ```
    /// completable:  --|        --#(X)
    /// value:        returns    throws X
    /// ```
    ///
    /// Cancelling the awaiting task disposes the subscription and throws
    /// `CancellationError` at once. A task cancelled before reading `value` still
    /// subscribes, as in RxSwift: an outcome delivered during `subscribe` (from
    /// `.empty()` or `.error(e)`, say) is returned or thrown; otherwise the
    /// subscription is disposed and `CancellationError` thrown.
    public var value: Void {
        get async throws {
            let source = primitiveSequence.source
            return try await AwaitedOutcome<Void>.run { outcome in
                source.subscribe(sink: AnyObserver { event in
                    switch event {
                    case .next:
                        break
                    case .error(let error):
                        outcome.resume(with: .failure(error))
                    case .completed:
                        outcome.resume(with: .success(()))
                    }
                })
            }
        }
    }
}

/// Connects one subscription to one awaiting task: the task's continuation is
/// resumed exactly once, by the first of the outcome and the task's
/// cancellation, and the subscription is disposed in both cases.
final class AwaitedOutcome<Value>: @unchecked Sendable {
    private enum State {
        /// Not waiting yet (the continuation is not installed).
        case idle
        /// Not waiting yet, and the task is already cancelled: the subscription is
        /// still made, and `CancellationError` thrown unless it gives an outcome
        /// at once.
        case cancelledBeforeWaiting
        /// Boxed: built once per `await`, and a payload that depends on `Value`
        /// would cost every app this enum's value witnesses (docs/Architecture.md,
        /// "A generic enum's case ...").
        indirect case waiting(CheckedContinuation<Value, Swift.Error>)
        /// The continuation was resumed, by the outcome or by the cancellation.
        case finished
    }

    private let state = LockedState<State>(.idle)
    private let subscription = ClosureSubscription(onDisposed: nil)

    private init() {}

    /// Subscribes with `subscribe` (which reports through ``resume(with:)``) and
    /// waits for the outcome or for the task's cancellation.
    static func run(_ subscribe: @escaping (AwaitedOutcome) -> SubscriptionBase?) async throws -> Value {
        let outcome = AwaitedOutcome()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.wait(continuation, subscribe: subscribe)
            }
        } onCancel: {
            outcome.cancel()
        }
    }

    private func wait(_ continuation: CheckedContinuation<Value, Swift.Error>, subscribe: (AwaitedOutcome) -> SubscriptionBase?) {
        let cancelledEarly = state.withLock { state -> Bool in
            let cancelled: Bool
            if case .cancelledBeforeWaiting = state { cancelled = true } else { cancelled = false }
            state = .waiting(continuation)
            return cancelled
        }
        // The outcome may arrive (and dispose `subscription`) before `setUpstream`:
        // the subscription then disposes the upstream at once.
        subscription.setUpstream(subscribe(self))
        if cancelledEarly {
            // No outcome during `subscribe`: report the cancellation now.
            resume(with: .failure(CancellationError()))
        }
    }

    /// Resumes the awaiting task with `result` unless it was resumed already.
    func resume(with result: Result<Value, Swift.Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, Swift.Error>? in
            guard case .waiting(let continuation) = state else { return nil }
            state = .finished
            return continuation
        }
        guard let continuation else { return }
        subscription.dispose()
        // The documented hand-over of the element to the awaiting task.
        nonisolated(unsafe) let result = result
        continuation.resume(with: result)
    }

    private func cancel() {
        let continuation = state.withLock { state -> CheckedContinuation<Value, Swift.Error>? in
            switch state {
            case .idle:
                state = .cancelledBeforeWaiting
                return nil
            case .waiting(let continuation):
                state = .finished
                return continuation
            case .cancelledBeforeWaiting, .finished:
                return nil
            }
        }
        guard let continuation else { return }
        subscription.dispose()
        continuation.resume(throwing: CancellationError())
    }
}
