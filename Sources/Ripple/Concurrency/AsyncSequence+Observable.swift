extension AsyncSequence where Self: Sendable {
    /// An observable that iterates this asynchronous sequence and emits its elements.
    ///
    /// Each subscription starts a new task that makes a new iterator: the sequence
    /// is iterated once per subscriber. The observable completes when the iteration
    /// ends, or when the sequence throws `CancellationError` (as in RxSwift: a
    /// cancelled sequence ends, it does not fail), and fails with any other error
    /// the sequence throws. Disposing the subscription cancels the task; nothing is
    /// emitted after disposal.
    ///
    /// ```swift
    /// let ticks = AsyncStream<Int> { continuation in … }
    /// ticks.asObservable()
    ///     .subscribe(onNext: { print($0) })
    ///     .disposed(by: bag)
    /// ```
    ///
    /// ```
    /// async sequence:  1, 2, 3, end     1, throws X     1, throws CancellationError
    /// asObservable():  --1--2--3--|     --1--X          --1--|
    /// ```
    ///
    /// Events are delivered on the task's thread (a thread of Swift's cooperative
    /// pool); use `observe(on:)` to move them. A sequence that ignores task
    /// cancellation keeps its task running after disposal until its next element,
    /// which is then dropped.
    ///
    /// **Sendable:** the sequence must be `Sendable` because it is iterated from
    /// tasks of its own, possibly several at once for concurrent subscribers; the
    /// compiler then proves that doing so is safe. (`AsyncStream` and the standard
    /// library's sequence adapters are `Sendable` when their elements are.) The
    /// elements themselves need not be `Sendable`: each one is created by the task
    /// that emits it.
    ///
    /// - Parameter priority: The priority of the iterating task.
    @_alwaysEmitIntoClient
    public func asObservable(priority: TaskPriority? = nil) -> Observable<Element> {
        Producer(site: SiteLiteral("asObservable")) { observer in
            let sink = ForwardingSink(observer: observer)
            let task = Task(priority: priority) {
                do {
                    for try await element in self {
                        if sink.isDisposed { return }
                        sink.forwardNext(element)
                    }
                    sink.forwardCompleted()
                } catch is CancellationError {
                    // Dropped after disposal, like every event (`forwardCompleted`
                    // checks it).
                    sink.forwardCompleted()
                } catch {
                    sink.forwardError(error)
                }
            }
            sink.setUpstream(TaskCancellation(task))
            return sink
        }
    }
}

extension ObservableType {
    /// An observable that iterates `asyncSequence` and emits its elements: the same
    /// as `asyncSequence.asObservable(priority:)` (one task per subscription, which
    /// makes a new iterator; `Sendable` required for the same reasons).
    ///
    /// ```
    /// async sequence:  1, 2, 3, end
    /// from(_:):        --1--2--3--|
    /// ```
    ///
    /// Completes when the iteration ends or the sequence throws `CancellationError`,
    /// fails with any other error the sequence throws; disposing cancels the
    /// iterating task.
    // Disfavoured: RxSwift has no such overload, and beside `from(_:)` of an array
    // and of a `Sequence` it made the type checker try an asynchronous source for
    // every `from` argument: `flatMap { Observable.from([$0, $0 + 1]) }.concatMap
    // { ... }.reduce(0, accumulator: +)` took 8 times the solver scopes. It is still
    // the one chosen for an `AsyncSequence`, which nothing else accepts.
    @_alwaysEmitIntoClient
    @_disfavoredOverload
    public static func from<Source: AsyncSequence & Sendable>(
        _ asyncSequence: Source,
        priority: TaskPriority? = nil
    ) -> Observable<Element> where Source.Element == Element {
        asyncSequence.asObservable(priority: priority)
    }
}
