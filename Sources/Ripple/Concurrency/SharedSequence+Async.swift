extension SharedSequenceConvertibleType {
    /// The sequence's elements as an `AsyncStream`, for `for await` (no `try`: a
    /// ``Driver`` or ``Signal`` cannot fail).
    ///
    /// Reading `values` subscribes (joining the shared subscription: a `Driver`
    /// first gives its latest element). The loop ends when the sequence
    /// completes; the subscription is disposed when the loop ends for any reason
    /// (completion, `break`, `return`, a thrown error, cancellation of the
    /// iterating task, or the stream and its iterator being dropped).
    ///
    /// ```swift
    /// for await title in viewModel.title.values {
    ///     print(title)
    /// }
    /// ```
    ///
    /// ```
    /// driver:  --a--b--c--|
    /// values:  a, b, c, end
    /// ```
    ///
    /// Elements are delivered on the sharing scheduler (the main scheduler by
    /// default: on Linux, the main thread must run a `RunLoop` or
    /// `dispatchMain()`), then handed to the iterating task; buffering is
    /// unbounded.
    public var values: AsyncStream<Element> {
        nonFailingStream(asSharedSequence().asObservable())
    }
}
