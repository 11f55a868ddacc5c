extension ObservableConvertibleType {
    /// The sequence's elements as an `AsyncThrowingStream`, for `for try await`.
    ///
    /// Reading `values` subscribes to the sequence (so each `for try await … in
    /// source.values` loop has its own subscription). The loop receives each
    /// element, ends when the sequence completes, and throws the sequence's error.
    /// The subscription is disposed when the loop ends for any reason: completion,
    /// error, `break` / `return` / a thrown error in the loop body, cancellation of
    /// the task that iterates, or the stream being dropped without being iterated.
    /// Cancelling the iterating task ends the loop by throwing `CancellationError`,
    /// as RxSwift's `values` does (elements already buffered are delivered first).
    /// (Precisely: when the stream and its iterator are both gone. With the usual
    /// `for … in source.values` that is the end of the loop; a stream kept in a
    /// variable keeps its subscription until the variable goes away.)
    ///
    /// ```swift
    /// for try await query in searchText.values {
    ///     await search(query)
    /// }
    /// ```
    ///
    /// ```
    /// source:  --1--2--3--|        --1--X
    /// values:  1, 2, 3, end        1, then `throw X`
    /// ```
    ///
    /// **Buffering:** unbounded. Elements emitted faster than the loop consumes them
    /// are queued, none is dropped; a loop that is slower than a never-ending source
    /// therefore grows the queue without limit. Throttle or sample the source first
    /// (or stop the loop) when that matters.
    ///
    /// **Sendable:** elements are not required to be `Sendable`, as everywhere in
    /// Ripple: each element is handed over from the thread that emits it to the task
    /// that iterates, like `observe(on:)` does. Emit values (or objects nobody
    /// mutates afterwards), not shared mutable state.
    public var values: AsyncThrowingStream<Element, Swift.Error> {
        let source = asObservable()
        return AsyncThrowingStream(Element.self, bufferingPolicy: .unbounded) { continuation in
            let subscription = ClosureSubscription(onDisposed: nil)
            // Installed before subscribing, so that a loop cancelled while the
            // subscription is being made still disposes it (`setUpstream` handles a
            // dispose that comes first).
            continuation.onTermination = { termination in
                if case .cancelled = termination {
                    // The stream calls this before it finishes on its own, so the
                    // iteration ends with `CancellationError` instead of a plain
                    // end (once the buffered elements are read).
                    continuation.finish(throwing: CancellationError())
                }
                subscription.dispose()
            }
            let observer = AnyObserver<Element> { event in
                if subscription.isDisposed { return }
                switch event {
                case .next(let element):
                    // The documented hand-over of an element to the consuming task
                    // (see "Sendable" above).
                    nonisolated(unsafe) let element = element
                    continuation.yield(element)
                case .error(let error):
                    continuation.finish(throwing: error)
                case .completed:
                    continuation.finish()
                }
            }
            subscription.setUpstream(source.subscribe(sink: observer))
        }
    }
}

extension ObservableType {
    /// An observable that runs `work` in a new task for each subscriber, emits its
    /// result and completes; if `work` throws, the error is emitted instead.
    ///
    /// Disposing the subscription cancels the task (`Task.isCancelled` becomes
    /// `true` and cancellable awaits inside `work` throw `CancellationError`);
    /// nothing is emitted after disposal, not even the cancellation error. Work that
    /// ignores cancellation runs to its end and its result is dropped.
    ///
    /// ```swift
    /// let profile = Observable.fromAsync { try await api.loadProfile() }
    /// ```
    ///
    /// ```
    /// work returns 42:   ------(42|)
    /// work throws X:     ------X
    /// ```
    ///
    /// Events are delivered on the task's thread (a thread of Swift's cooperative
    /// pool); use `observe(on:)` to move them.
    ///
    /// - Parameters:
    ///   - detached: `true` to run `work` in a detached task (it does not inherit
    ///     the subscribing task's task-local values or priority).
    ///   - priority: The task's priority.
    ///   - work: The asynchronous work. It runs once per subscription, possibly
    ///     concurrently for concurrent subscribers, hence `@Sendable`.
    @_alwaysEmitIntoClient
    public static func fromAsync(
        detached: Bool = false,
        priority: TaskPriority? = nil,
        _ work: @escaping @Sendable () async throws -> Element
    ) -> Observable<Element> {
        Producer(site: SiteLiteral("fromAsync")) { observer in
            let sink = ForwardingSink(observer: observer)
            let operation: @Sendable () async -> Void = {
                do {
                    let element = try await work()
                    sink.forwardNext(element)
                    sink.forwardCompleted()
                } catch {
                    // After disposal (`forwardError` checks it) the error, usually
                    // a `CancellationError`, is dropped.
                    sink.forwardError(error)
                }
            }
            let task = detached
                ? Task.detached(priority: priority, operation: operation)
                : Task(priority: priority, operation: operation)
            sink.setUpstream(TaskCancellation(task))
            return sink
        }
    }
}

/// Cancels a task when the subscription that owns it is disposed.
@usableFromInline
final class TaskCancellation: SubscriptionBase, @unchecked Sendable {
    let task: Task<Void, Never>

    @usableFromInline
    init(_ task: Task<Void, Never>) {
        self.task = task
        super.init()
    }

    override func disposeResources() {
        task.cancel()
    }
}
