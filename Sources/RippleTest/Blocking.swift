import Dispatch
import Foundation
import Ripple

extension ObservableConvertibleType {
    /// Turns the sequence into a blocking one, for tests that run real schedulers.
    ///
    /// - Parameter timeout: How long to wait for the sequence to terminate; `nil`
    ///   waits forever. Running out of time throws `RxError.timeout`.
    public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
        BlockingObservable(timeout: timeout, source: asObservable())
    }
}

/// The outcome of a blocking sequence.
public enum MaterializedSequenceResult<T> {
    /// The sequence completed after sending `elements`.
    case completed(elements: [T])
    /// The sequence failed with `error` after sending `elements`.
    case failed(elements: [T], error: Error)
}

extension MaterializedSequenceResult: Sendable where T: Sendable {}

/// Waits for a sequence to terminate and returns what it sent.
///
/// Waiting on the main thread keeps the main run loop (and so `MainScheduler`)
/// running, so sequences that deliver on the main queue do not deadlock.
public struct BlockingObservable<Element>: Sendable {
    let timeout: TimeInterval?
    let source: Observable<Element>

    init(timeout: TimeInterval?, source: Observable<Element>) {
        self.timeout = timeout
        self.source = source
    }

    /// All elements, once the sequence completes.
    ///
    /// - Throws: The sequence's error, or `RxError.timeout`.
    public func toArray() throws -> [Element] {
        switch materializeResult(maxElements: nil) {
        case .completed(let elements): return elements
        case .failed(_, let error): throw error
        }
    }

    /// The first element (`nil` for an empty sequence). Disposes the subscription
    /// after the first element.
    public func first() throws -> Element? {
        switch materializeResult(maxElements: 1) {
        case .completed(let elements): return elements.first
        case .failed(_, let error): throw error
        }
    }

    /// The last element (`nil` for an empty sequence).
    public func last() throws -> Element? {
        try toArray().last
    }

    /// The only element.
    ///
    /// - Throws: `RxError.noElements` or `RxError.moreThanOneElement`, the
    ///   sequence's error, or `RxError.timeout`.
    public func single() throws -> Element {
        try single { _ in true }
    }

    /// The only element that satisfies `predicate`.
    ///
    /// The subscription is disposed at the second match, so `predicate` is not
    /// evaluated for the elements after it.
    public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
        switch materializeResult(maxElements: 2, predicate: predicate) {
        case .failed(_, let error): throw error
        case .completed(let elements):
            guard let element = elements.first else { throw RxError.noElements }
            guard elements.count == 1 else { throw RxError.moreThanOneElement }
            return element
        }
    }

    /// The elements and how the sequence ended; a timeout is reported as a failure
    /// with `RxError.timeout`.
    public func materialize() -> MaterializedSequenceResult<Element> {
        materializeResult(maxElements: nil)
    }

    /// `predicate` is applied after the deadline check and before the element
    /// limit, so that a limit reached stops the predicate too (`single(_:)`).
    private func materializeResult(
        maxElements: Int?, predicate: ((Element) throws -> Bool)? = nil
    ) -> MaterializedSequenceResult<Element> {
        let state = LockedBox<(elements: [Element], error: Error?, done: Bool)>(([], nil, false))
        let semaphore = DispatchSemaphore(value: 0)
        // A synchronous source emits during `subscribe`, before the wait below
        // starts, so neither the element limit nor the timeout could stop an
        // infinite one. Operators in the chain do: `take` disposes the source once
        // the limit is reached, and a deadline checked at each element ends the
        // subscription with `RxError.timeout` once the time is up.
        var gated = source
        if let timeout {
            let deadline = DispatchTime.now() + timeout
            gated = gated.take(while: { _ in
                if DispatchTime.now() < deadline { return true }
                state.withLock { $0.error = RxError.timeout }
                return false
            })
        }
        if let predicate {
            gated = gated.filter(predicate)
        }
        if let maxElements {
            gated = gated.take(maxElements)
        }
        let subscription = SerialDisposable()
        let finish: @Sendable () -> Void = {
            let first = state.withLock { state -> Bool in
                if state.done { return false }
                state.done = true
                return true
            }
            if first { semaphore.signal() }
        }
        subscription.disposable = gated.subscribe { event in
            switch event {
            case .next(let element):
                let reachedLimit = state.withLock { state -> Bool in
                    state.elements.append(element)
                    return maxElements.map { state.elements.count >= $0 } ?? false
                }
                if reachedLimit {
                    finish()
                }
            case .error(let error):
                state.withLock { $0.error = error }
                finish()
            case .completed:
                finish()
            }
        }
        let completed = wait(on: semaphore, isDone: { state.value.done })
        subscription.dispose()
        if !completed {
            return .failed(elements: state.value.elements, error: RxError.timeout)
        }
        let final = state.value
        if let error = final.error {
            return .failed(elements: final.elements, error: error)
        }
        return .completed(elements: final.elements)
    }

    /// Waits for the semaphore; on the main thread, runs the main run loop meanwhile.
    private func wait(on semaphore: DispatchSemaphore, isDone: () -> Bool) -> Bool {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        if Thread.isMainThread {
            while !isDone() {
                if let deadline, Date() >= deadline { return false }
                let slice = Date().addingTimeInterval(0.01)
                _ = RunLoop.current.run(mode: .default, before: deadline.map { min($0, slice) } ?? slice)
            }
            return true
        }
        guard let timeout else {
            semaphore.wait()
            return true
        }
        return semaphore.wait(timeout: .now() + timeout) == .success
    }
}
