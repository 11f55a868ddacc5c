extension InfallibleType {
    /// The sequence's elements as an `AsyncStream`, for `for await` (no `try`: an
    /// ``Infallible`` cannot fail).
    ///
    /// Reading `values` subscribes to the sequence, so each `for await … in
    /// source.values` loop has its own subscription. The loop receives each
    /// element and ends when the sequence completes. The subscription is disposed
    /// when the loop ends for any reason: completion, `break` / `return` / a thrown
    /// error in the loop body, cancellation of the task that iterates, or the
    /// stream being dropped without being iterated (precisely: when the stream and
    /// its iterator are both gone).
    ///
    /// ```swift
    /// for await query in searchText.asInfallible().values {
    ///     await search(query)
    /// }
    /// ```
    ///
    /// ```
    /// source:  --1--2--3--|
    /// values:  1, 2, 3, end
    /// ```
    ///
    /// **Buffering:** unbounded, as for ``ObservableConvertibleType/values``:
    /// elements emitted faster than the loop consumes them are queued, none is
    /// dropped. **Sendable:** elements are handed over from the emitting thread to
    /// the iterating task, like `observe(on:)` does; emit values, not shared
    /// mutable state.
    public var values: AsyncStream<Element> {
        nonFailingStream(asObservable())
    }
}

/// An `AsyncStream` of `source`'s elements, for sources that cannot fail
/// (`Infallible`, `Driver`, `Signal`): subscribes when created, disposes when the
/// stream terminates (completion, cancellation, or stream and iterator dropped).
func nonFailingStream<Element>(_ source: Observable<Element>) -> AsyncStream<Element> {
    AsyncStream(Element.self, bufferingPolicy: .unbounded) { continuation in
        let subscription = ClosureSubscription(onDisposed: nil)
        // Installed before subscribing, so that a loop cancelled while the
        // subscription is being made still disposes it (`setUpstream` handles a
        // dispose that comes first).
        continuation.onTermination = { _ in
            subscription.dispose()
        }
        let observer = AnyObserver<Element> { event in
            if subscription.isDisposed { return }
            switch event {
            case .next(let element):
                // The documented hand-over of an element to the consuming task.
                nonisolated(unsafe) let element = element
                continuation.yield(element)
            case .error(let error):
                // Cannot happen for the sources this serves; never lose it silently.
                Hooks.reportContractViolation("values: a sequence that cannot fail failed with \(error)")
                continuation.finish()
            case .completed:
                continuation.finish()
            }
        }
        subscription.setUpstream(source.subscribe(sink: observer))
    }
}
