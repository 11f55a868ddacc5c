extension ObservableType {
    /// An observable whose elements are produced by asynchronous code: for each
    /// subscriber, `body` runs in a new task with an observer to send elements
    /// to; the sequence completes when `body` returns and fails with the error it
    /// throws.
    ///
    /// ```swift
    /// let pages = Observable<Page>.task { observer in
    ///     var cursor: String? = nil
    ///     repeat {
    ///         let page = try await api.page(after: cursor)
    ///         observer.onNext(page)
    ///         cursor = page.next
    ///     } while cursor != nil
    /// }
    /// ```
    ///
    /// ```
    /// body sends 1, 2, returns:  --1--2--|
    /// body throws X:             --1--X
    /// ```
    ///
    /// - Isolation: `body` runs where its isolation says. A closure marked
    ///   `@MainActor` (or isolated to another actor) runs there, and the elements
    ///   it sends are delivered there; an unmarked closure runs on Swift's
    ///   cooperative pool. Use `observe(on:)` to deliver elsewhere.
    /// - Cancellation: disposing the subscription cancels the task
    ///   (`Task.isCancelled` becomes `true`; cancellable awaits such as
    ///   `Task.sleep` throw `CancellationError`). Once `dispose()` has returned no
    ///   new delivery starts: not the elements `body` still sends, not the
    ///   completion, not the cancellation error (an element whose delivery had
    ///   already begun on the task's thread may still finish, as with every
    ///   source that emits on another thread).
    /// - Contract: send events from one task at a time (as with
    ///   ``create(_:)``); a `.completed` or `.error` sent through the observer
    ///   ends the sequence early, and what `body` sends after it is ignored.
    ///
    /// For a single value, `Observable.fromAsync` and `Single.create(work:)` are
    /// shorter.
    ///
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - body: The asynchronous work. It runs once per subscription, possibly
    ///     concurrently for concurrent subscribers, hence `@Sendable`.
    @_alwaysEmitIntoClient
    public static func task(
        priority: TaskPriority? = nil,
        _ body: @escaping @Sendable @isolated(any) (AnyObserver<Element>) async throws -> Void
    ) -> Observable<Element> {
        Producer(site: SiteLiteral("task")) { observer in
            let sink = ForwardingSink(observer: observer)
            let emitter = AnyObserver<Element> { event in sink.forward(event) }
            let task = Task(priority: priority) {
                do {
                    try await body(emitter)
                    sink.forwardCompleted()
                } catch {
                    // After disposal (`forwardError` checks it) the error, usually
                    // a `CancellationError`, is dropped.
                    sink.forwardError(error)
                }
            }
            sink.setUpstream(TaskCancellation(task))
            return sink
        }
    }
}
