#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Work queued on a thread's trampoline (see ``CurrentThreadScheduler``): a
/// closure. Sources that emit on the trampoline queue a closure that captures only
/// their sink, which costs no allocation, and whose code is specialised for the
/// sink's concrete type.
@usableFromInline
typealias TrampolineTask = () -> Void

/// The per-thread state of the current-thread scheduler. It lives in raw
/// thread-local memory, so reading it costs neither reference counting nor a
/// dictionary lookup.
@usableFromInline
struct TrampolineState {
    /// `true` while a trampoline is running on this thread: newly scheduled work is
    /// queued instead of being run immediately.
    @usableFromInline var isRunning: Bool
    @usableFromInline var queue: RingBuffer<TrampolineTask>
    /// While subscriptions are recorded: the graph node (unretained) on whose
    /// behalf this thread subscribes or delivers, so that a subscription made now
    /// is drawn as an edge into it (see ``SubscriptionRecorder``).
    var graphContext: UnsafeMutableRawPointer?

    @_alwaysEmitIntoClient
    init() {
        isRunning = false
        queue = RingBuffer()
    }
}

@usableFromInline
enum Trampoline {
    /// The calling thread's trampoline state.
    @_alwaysEmitIntoClient
    static var current: UnsafeMutablePointer<TrampolineState> {
        if let raw = pthread_getspecific(key) {
            return raw.assumingMemoryBound(to: TrampolineState.self)
        }
        return makeCurrent()
    }

    @usableFromInline
    static let key: pthread_key_t = {
        #if canImport(Darwin)
        var key = pthread_key_t()
        #else
        var key = pthread_key_t()
        #endif
        let result = pthread_key_create(&key) { raw in
            #if canImport(Darwin)
            let pointer = raw.assumingMemoryBound(to: TrampolineState.self)
            #else
            guard let pointer = raw?.assumingMemoryBound(to: TrampolineState.self) else { return }
            #endif
            pointer.deinitialize(count: 1)
            pointer.deallocate()
        }
        precondition(result == 0, "Ripple: pthread_key_create failed (\(result))")
        return key
    }()

    @usableFromInline
    static func makeCurrent() -> UnsafeMutablePointer<TrampolineState> {
        let pointer = UnsafeMutablePointer<TrampolineState>.allocate(capacity: 1)
        pointer.initialize(to: TrampolineState())
        pthread_setspecific(key, pointer)
        return pointer
    }

    /// Runs `body` with this thread's trampoline marked as running, then runs the work
    /// queued meanwhile, in order, before returning `body`'s result.
    @_alwaysEmitIntoClient
    static func run<Result>(_ state: UnsafeMutablePointer<TrampolineState>, _ body: () -> Result) -> Result {
        state.pointee.isRunning = true
        let result = body()
        drain(state)
        return result
    }

    /// Runs `body` with this thread's trampoline running: directly if it already
    /// is (inside a subscription), else as ``run(_:_:)`` does. What
    /// `Observable.subscribe(sink:)` does around a subscription, for entry points
    /// that subscribe without it (a pipeline taking `subscribe(onNext:...)`'s
    /// handlers). With `enters` false, `body` just runs (a source that RxSwift
    /// subscribes without the trampoline, see ``ObservableKind/entersTrampoline``).
    /// One call of `body` for every case: inlined, `body` is compiled once, not
    /// once per branch.
    @_alwaysEmitIntoClient
    @inline(__always)
    static func running<Result>(if enters: Bool = true, _ body: () -> Result) -> Result {
        var started: UnsafeMutablePointer<TrampolineState>?
        if enters {
            let state = current
            if !state.pointee.isRunning {
                state.pointee.isRunning = true
                started = state
            }
        }
        let result = body()
        if let started {
            drain(started)
        }
        return result
    }

    @usableFromInline
    static func drain(_ state: UnsafeMutablePointer<TrampolineState>) {
        while let task = state.pointee.queue.popFirst() {
            task()
        }
        state.pointee.isRunning = false
    }

    /// `true` when the current thread's trampoline has work queued: a source that
    /// emits in a loop must then yield its turn to keep the trampoline's order.
    @_alwaysEmitIntoClient
    static func hasQueuedWork(_ state: UnsafeMutablePointer<TrampolineState>) -> Bool {
        !state.pointee.queue.isEmpty
    }
}
