import Dispatch
import Foundation

// Main-actor handlers and events that arrive elsewhere.
//
// In Swift 6 a closure written in main-actor code (top-level code, a `@MainActor`
// type) that is not `@Sendable` belongs to the main actor: the compiler lets it use
// main-actor state, and closures nested in it check at run time where they run
// (SE-0423), stopping the program without a message when it is not the main actor.
// Ripple calls handlers where events arrive. So the subscribe family learns the
// isolation of the code that subscribes (`isolation: (any Actor)? = #isolation`,
// Swift 6 callers only: see `Subscribe.swift`) and, when it is the main actor,
// routes the handlers through a `MainActorGate`, the one mechanism that keeps
// main-actor handlers on the main actor. The `onMainActor:` forms below, whose
// handlers are typed `@MainActor`, use the same gate.
//
// They have their own label rather than overloading `onNext:`: for a closure literal
// Swift prefers the non-isolated overload in every context (checked with Swift 6.3),
// so an overload would never be picked where it matters, in non-isolated code that
// calls main-actor methods.

/// Checks and reports for code that must run on the main actor.
@usableFromInline
enum MainActorDelivery {
    /// `true` when the current code may run main-actor code synchronously.
    @usableFromInline
    static var isOnMainActor: Bool {
        // The main *queue* is the main actor's executor. On Linux, after
        // `dispatchMain()` (or in an async `main`) a worker thread drains it, so
        // the main thread alone would be wrong there. The main thread is tested
        // first because it is cheaper (see ``isMainThread``) and sufficient: no
        // other thread drains the main queue while the main thread runs code, and
        // it also covers the main thread inside another queue's `sync` block,
        // whose queue-specific lookup says "not main".
        isMainThread || DispatchQueue.isMain
    }

    /// Whether the calling thread is the process's main thread.
    ///
    /// On Linux `Thread.isMainThread` makes a system call (`gettid`) every time,
    /// so the answer is kept per thread in a pthread key: each thread asks once,
    /// then pays one `pthread_getspecific` (measured under callgrind, per event of
    /// a main-actor subscriber: `Thread.isMainThread` 60 instructions plus the
    /// system call, the queue-specific lookup 250, this about 50).
    static var isMainThread: Bool {
        #if canImport(Darwin)
        pthread_main_np() != 0
        #else
        if let known = pthread_getspecific(isMainThreadKey) {
            return Int(bitPattern: known) == 1
        }
        let isMain = Thread.isMainThread
        pthread_setspecific(isMainThreadKey, UnsafeRawPointer(bitPattern: isMain ? 1 : 2))
        return isMain
        #endif
    }

    #if !canImport(Darwin)
    /// Per thread: `nil` (not asked yet), 1 (the main thread) or 2.
    private static let isMainThreadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
    #endif

    /// Called, in debug builds, when a main-actor handler was about to run off
    /// the main actor. Stops the program; tests replace it to observe the
    /// violation (the delivery then continues as in a release build).
    static let debugViolationHandler = LockedState<@Sendable (String) -> Void>({ message in
        preconditionFailure(message)
    })

    /// Returns `body()`, a main-actor function, checked as ``MainActorGate`` checks
    /// handlers; off the main actor the call waits for the main queue to run it.
    @usableFromInline
    static func call<Value>(_ body: @escaping @MainActor () -> Value, method: String) -> Value {
        if isOnMainActor {
            return assumingMainActor(body)()
        }
        report("""
            the @MainActor function of \(method) was called off the main actor, \(currentThread). \
            Deliver on the main queue: observe(on: MainScheduler.instance) before \(method).
            """)
        let work = UncheckedSendable(assumingMainActor(body))
        return DispatchQueue.main.sync {
            UncheckedSendable(work.value())
        }.value
    }

    /// Stops a debug build with `message` (``debugViolationHandler``); reports it
    /// to ``Hooks/contractViolationHandler`` in a release build.
    static func report(_ message: String) {
        #if DEBUG
        debugViolationHandler.withLock { $0 }("Ripple: " + message)
        #else
        Hooks.reportContractViolation(message)
        #endif
    }

    /// Where the caller runs, for a report: the thread's name (on Linux, the end of
    /// the dispatch queue's label) and the thread.
    static var currentThread: String {
        let name = Thread.current.name ?? ""
        return name.isEmpty ? "on thread \(Thread.current)" : "on thread '\(name)' (\(Thread.current))"
    }

    /// A main-actor function as a plain one, for code that has checked it is on
    /// the main actor. This is what `MainActor.assumeIsolated` does after its own
    /// check; its check is skipped because it may disagree with ours on a main
    /// queue drained by another thread (see ``isOnMainActor``). A synchronous
    /// global-actor function has the same representation as a non-isolated one.
    @usableFromInline
    static func assumingMainActor<Value, Result>(
        _ function: @escaping @MainActor (Value) -> Result
    ) -> (Value) -> Result {
        unsafeBitCast(function, to: ((Value) -> Result).self)
    }

    /// ``assumingMainActor(_:)`` for a function without arguments.
    @usableFromInline
    static func assumingMainActor<Result>(_ function: @escaping @MainActor () -> Result) -> () -> Result {
        unsafeBitCast(function, to: (() -> Result).self)
    }

    /// ``assumingMainActor(_:)`` for a function of two arguments.
    @usableFromInline
    static func assumingMainActor<First, Second>(
        _ function: @escaping @MainActor (First, Second) -> Void
    ) -> (First, Second) -> Void {
        unsafeBitCast(function, to: ((First, Second) -> Void).self)
    }
}

/// Keeps the handlers of one subscription made in main-actor code on the main
/// actor: the one place where Ripple moves a handler call to the main queue.
///
/// - An event that arrives on the main queue (or the main thread) while nothing
///   is waiting is delivered at once, as without the gate: one queue-identity
///   check and one atomic load per event.
/// - An event that arrives elsewhere is reported (once per subscription: a debug
///   build stops with a message naming the subscription and the fix, a release
///   build calls ``Hooks/contractViolationHandler``) and delivered on the main
///   queue instead. Events that arrive on the main queue while some are waiting
///   there queue up behind them, so the handlers see the events in order.
/// - What is waiting checks the subscription when it runs (the handlers do):
///   after `dispose()` nothing more is delivered.
/// - `onDisposed` runs at once when the subscription is disposed on the main
///   actor, else it is reported and run on the main queue.
///
/// Nonisolated subscriptions (every operator's, Swift 5 code) have no gate and pay
/// nothing per event.
@usableFromInline
final class MainActorGate: @unchecked Sendable {
    /// The subscribing call, for the report: `subscribe(onNext:onError:onCompleted:onDisposed:)`.
    private let method: StaticString
    /// Where it was called, for the report: the capture of the call stack (see
    /// ``OperatorSites``), made in debug builds of Ripple (what a debug build of
    /// an app uses) and while subscriptions are recorded, 0 otherwise. A gate
    /// exists only for subscriptions made in main-actor code; the capture costs
    /// 20 to 35 µs of CPU (a screen's few dozen subscriptions: about a
    /// millisecond, in a debug build), its symbolication happens only if there
    /// is something to report.
    private let capture: UInt32
    /// Deliveries handed to the main queue that have not run yet. Written on the
    /// thread that delivers (events to one subscriber never overlap) and on the
    /// main queue; read on the main queue to decide whether an event may overtake
    /// them.
    @exclusivity(unchecked) private final var waiting: AtomicCell<Int>
    /// Whether the violation was reported: once per subscription.
    @exclusivity(unchecked) private final var reported: AtomicCell<Bool>

    @usableFromInline
    init(method: StaticString) {
        waiting = AtomicCell(0)
        reported = AtomicCell(false)
        self.method = method
        #if DEBUG
        capture = OperatorSites.capture()
        #else
        capture = SubscriptionRecorder.isRecording ? OperatorSites.capture() : 0
        #endif
    }

    /// The gate for a subscription made in code isolated to `isolation`
    /// (`#isolation` at the subscribing call): a gate for the main actor, `nil`
    /// for nonisolated code (no cost) and for other actors (see the Swift
    /// concurrency guide: the runtime has no check Ripple could report from).
    @_alwaysEmitIntoClient
    @inline(__always)
    static func forSubscriber(_ isolation: (any Actor)?, _ method: StaticString) -> MainActorGate? {
        guard let isolation else { return nil }
        return forActor(isolation, method)
    }

    @usableFromInline
    static func forActor(_ isolation: any Actor, _ method: StaticString) -> MainActorGate? {
        isolation === MainActor.shared ? MainActorGate(method: method) : nil
    }

    /// Calls `body(value)` on the main actor: now, when called there with nothing
    /// waiting; else on the main queue, after what is waiting.
    @_alwaysEmitIntoClient
    func deliver<Value>(_ value: Value, _ body: @escaping (Value) -> Void) {
        if mayDeliverNow {
            body(value)
        } else {
            deliverOnMainQueue(value, body)
        }
    }

    /// An observer that delivers its events to `on` through ``deliver(_:_:)``.
    @_alwaysEmitIntoClient
    func observer<Element>(_ on: @escaping (Event<Element>) -> Void) -> AnyObserver<Element> {
        AnyObserver(eventHandler: handler(on))
    }

    /// `on`, called through ``deliver(_:_:)``.
    @_alwaysEmitIntoClient
    func handler<Element>(_ on: @escaping (Event<Element>) -> Void) -> (Event<Element>) -> Void {
        { event in self.deliver(event, on) }
    }

    /// `onDisposed`, run on the main actor: at once when the subscription is
    /// disposed there, else on the main queue (reported).
    @_alwaysEmitIntoClient
    func guarding(_ onDisposed: (() -> Void)?) -> (() -> Void)? {
        guard let onDisposed else { return nil }
        return { self.disposed(onDisposed) }
    }

    /// `onDisposed` through `delivery`'s ``guarding(_:)``, or as it is without a gate.
    @_alwaysEmitIntoClient
    static func onDisposed(_ onDisposed: (() -> Void)?, through delivery: MainActorGate?) -> (() -> Void)? {
        guard let delivery else { return onDisposed }
        return delivery.guarding(onDisposed)
    }

    @usableFromInline
    var mayDeliverNow: Bool {
        AtomicCell.load(&waiting, ordering: .relaxed) == 0 && MainActorDelivery.isOnMainActor
    }

    @usableFromInline
    func deliverOnMainQueue<Value>(_ value: Value, _ body: @escaping (Value) -> Void) {
        if !MainActorDelivery.isOnMainActor {
            reportOnce("an event arrived off the main actor, \(MainActorDelivery.currentThread)", fix: eventFix)
        }
        // Counted before the hand-over, which orders the count before the block.
        AtomicCell.add(&waiting, 1, ordering: .relaxed)
        let work = UncheckedSendable((value, body))
        DispatchQueue.main.async {
            work.value.1(work.value.0)
            AtomicCell.subtract(&self.waiting, 1, ordering: .relaxed)
        }
    }

    @usableFromInline
    func disposed(_ onDisposed: @escaping () -> Void) {
        if MainActorDelivery.isOnMainActor {
            onDisposed()
            return
        }
        reportOnce(
            "it was disposed off the main actor, \(MainActorDelivery.currentThread), and its onDisposed handler belongs to the main actor",
            fix: "dispose the subscription on the main actor")
        let work = UncheckedSendable(onDisposed)
        DispatchQueue.main.async { work.value() }
    }

    /// How to make the events arrive on the main queue, for the report.
    private var eventFix: String {
        let method = "\(method)"
        if method.hasPrefix("drive") || method.hasPrefix("emit") {
            return "a Driver or Signal delivers on the main queue unless SharingScheduler is mocked with another scheduler: mock it with MainScheduler.instance (or a TestScheduler driven on the main thread)"
        }
        if method.hasPrefix("Binder") {
            return "create the binder with the main scheduler (its default)"
        }
        if method.hasPrefix("AnyObserver") {
            return "add .observe(on: MainScheduler.instance) before the subscription or binding that uses this observer (a Driver or Signal delivers there already)"
        }
        return "add .observe(on: MainScheduler.instance) before \(method) (a Driver or Signal delivers there already)"
    }

    private func reportOnce(_ what: String, fix: String) {
        if AtomicCell.exchange(&reported, true, ordering: .relaxed) { return }
        let place = OperatorSites.place(of: capture).map { " at \($0.file):\($0.line)" } ?? ""
        MainActorDelivery.report("""
            \(method)\(place) was called from main-actor code, so its handlers \
            belong to the main actor, but \(what). Ripple never runs them off the main actor: \
            a debug build stops here, a release build reports this and delivers on the main \
            queue instead, in order. Fix: \(fix); if the handlers may run anywhere, subscribe \
            from nonisolated code.
            """)
    }
}

extension ObservableType {
    /// Calls `onNext`, a `@MainActor` function, with every element. The sequence
    /// must deliver on the main thread, typically after
    /// `observe(on: MainScheduler.instance)`.
    ///
    /// Inside `onNext` the compiler checks the code as main-actor code: a view
    /// model or view calls its main-actor methods directly, from any context,
    /// without `MainActor.assumeIsolated`.
    ///
    /// ```swift
    /// results
    ///     .observe(on: MainScheduler.instance)
    ///     .bind(onMainActor: { [weak self] in self?.show($0) })
    ///     .disposed(by: bag)
    /// ```
    ///
    /// ```
    /// source (main thread):  --1--2--
    /// onNext:                  1  2
    /// ```
    ///
    /// Ripple cannot prove statically where an `Observable` delivers, so it checks
    /// every element at run time, as for every subscription made in main-actor
    /// code: delivered elsewhere, it stops a debug build with a message naming the
    /// fix; a release build reports it to ``Hooks/contractViolationHandler`` and
    /// runs `onNext` on the main queue instead, in order. An error is reported to
    /// ``Hooks/contractViolationHandler``, as for ``bind(onNext:isolation:)``.
    @_alwaysEmitIntoClient
    public func bind(
        onMainActor onNext: @escaping @MainActor (Element) -> Void
    ) -> Disposable {
        bind(onNext: MainActorDelivery.assumingMainActor(onNext),
             delivery: MainActorGate(method: "bind(onMainActor:)"))
    }

    /// Calls `onNext`, a `@MainActor` function, with `object` (held weakly) and
    /// every element; once `object` is gone, elements are ignored. Checked as
    /// ``bind(onMainActor:)`` is.
    ///
    /// ```swift
    /// titles.observe(on: MainScheduler.instance)
    ///     .bind(with: self, onMainActor: { owner, title in owner.title = title })
    ///     .disposed(by: bag)
    /// ```
    @_alwaysEmitIntoClient
    public func bind<Object: AnyObject>(
        with object: Object, onMainActor onNext: @escaping @MainActor (Object, Element) -> Void
    ) -> Disposable {
        bind(with: object, onNext: MainActorDelivery.assumingMainActor(onNext),
             delivery: MainActorGate(method: "bind(with:onMainActor:)"))
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Calls `onNext`, a `@MainActor` function, with every element, and
    /// `onCompleted` on completion.
    ///
    /// A `Driver` delivers on the main scheduler, so this is where main-actor code
    /// belongs: the compiler checks the handlers as main-actor code, from any
    /// calling context.
    ///
    /// ```swift
    /// viewModel.title
    ///     .drive(onMainActor: { [weak self] in self?.titleLabel.text = $0 })
    ///     .disposed(by: bag)
    /// ```
    ///
    /// ```
    /// driver:  --1--2--|
    /// onNext:    1  2          onCompleted at |
    /// ```
    ///
    /// Like `drive(onNext:onCompleted:onDisposed:)` it expects to be called on the
    /// main thread. A driver whose sharing scheduler is mocked with a scheduler that
    /// runs on another thread would call the handlers off the main thread: that
    /// stops a debug build with a clear message (see ``ObservableType/bind(onMainActor:)``).
    @_alwaysEmitIntoClient
    public func drive(
        onMainActor onNext: @escaping @MainActor (Element) -> Void,
        onCompleted: (@MainActor () -> Void)? = nil
    ) -> Disposable {
        drive(onNext: MainActorDelivery.assumingMainActor(onNext),
              onCompleted: onCompleted.map { MainActorDelivery.assumingMainActor($0) }, onDisposed: nil,
              delivery: MainActorGate(method: "drive(onMainActor:)"))
    }

    /// Calls `onNext`, a `@MainActor` function, with `object` (held weakly) and
    /// every element; once `object` is gone, elements are ignored.
    ///
    /// ```swift
    /// viewModel.count
    ///     .drive(with: self, onMainActor: { owner, count in owner.render(count) })
    ///     .disposed(by: bag)
    /// ```
    @_alwaysEmitIntoClient
    public func drive<Object: AnyObject>(
        with object: Object, onMainActor onNext: @escaping @MainActor (Object, Element) -> Void
    ) -> Disposable {
        drive(with: object, onNext: MainActorDelivery.assumingMainActor(onNext),
              onCompleted: nil, onDisposed: nil,
              delivery: MainActorGate(method: "drive(with:onMainActor:)"))
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Calls `onNext`, a `@MainActor` function, with every element, and
    /// `onCompleted` on completion.
    ///
    /// A `Signal` delivers on the main scheduler: the compiler checks the handlers
    /// as main-actor code, from any calling context.
    ///
    /// ```swift
    /// viewModel.showAlert
    ///     .emit(onMainActor: { [weak self] message in self?.present(message) })
    ///     .disposed(by: bag)
    /// ```
    ///
    /// ```
    /// signal:  --a--b--|
    /// onNext:    a  b          onCompleted at |
    /// ```
    ///
    /// Checked at run time as ``SharedSequenceConvertibleType/drive(onMainActor:onCompleted:)`` is.
    @_alwaysEmitIntoClient
    public func emit(
        onMainActor onNext: @escaping @MainActor (Element) -> Void,
        onCompleted: (@MainActor () -> Void)? = nil
    ) -> Disposable {
        emit(onNext: MainActorDelivery.assumingMainActor(onNext),
             onCompleted: onCompleted.map { MainActorDelivery.assumingMainActor($0) }, onDisposed: nil,
             delivery: MainActorGate(method: "emit(onMainActor:)"))
    }

    /// Calls `onNext`, a `@MainActor` function, with `object` (held weakly) and
    /// every element; once `object` is gone, elements are ignored.
    @_alwaysEmitIntoClient
    public func emit<Object: AnyObject>(
        with object: Object, onMainActor onNext: @escaping @MainActor (Object, Element) -> Void
    ) -> Disposable {
        emit(with: object, onNext: MainActorDelivery.assumingMainActor(onNext),
             onCompleted: nil, onDisposed: nil,
             delivery: MainActorGate(method: "emit(with:onMainActor:)"))
    }
}
