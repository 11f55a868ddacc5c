import Dispatch
import Foundation

// Handlers typed `@MainActor`, for code that calls main-actor methods: the
// compiler checks their bodies as main-actor code, and Ripple checks at run time
// that they are only ever called on the main thread.
//
// They have their own label (`onMainActor:`) rather than overloading `onNext:`:
// for a closure literal Swift prefers the non-isolated overload in every context
// (checked with Swift 6.3), so an overload would never be picked where it matters,
// in non-isolated code that calls main-actor methods.

/// Runs `@MainActor` handlers after checking that the caller is on the main
/// thread (or on the main queue, which is the main actor's executor).
enum MainActorDelivery {
    /// `true` when the current code may run main-actor code synchronously.
    static var isOnMainActor: Bool {
        // On Linux, after `dispatchMain()` the main queue may be drained by a
        // thread that is not the process's main thread; it is still the main
        // actor's executor, hence the second test.
        Thread.isMainThread || DispatchQueue.isMain
    }

    /// Called, in debug builds, when a `@MainActor` handler was about to run off
    /// the main thread. Traps; tests replace it to observe the violation.
    static let debugViolationHandler = LockedState<@Sendable (String) -> Void>({ message in
        preconditionFailure(message)
    })

    /// Calls `handler(value)` if on the main actor. Otherwise reports the
    /// violation (a trap in debug builds, ``Hooks/contractViolationHandler`` in
    /// release builds) and delivers on the main queue instead, so that main-actor
    /// code never runs on another thread.
    static func deliver<Value>(_ value: Value, to handler: @escaping @MainActor (Value) -> Void, method: String) {
        if isOnMainActor {
            runAssumingMainActor(handler, value)
            return
        }
        reportViolation(method: method)
        let work = UncheckedSendable((value, handler))
        DispatchQueue.main.async {
            runAssumingMainActor(work.value.1, work.value.0)
        }
    }

    /// Returns `body()`, a main-actor function, checked as ``deliver(_:to:method:)``
    /// is; off the main actor the call waits for the main queue to run it.
    static func call<Value>(_ body: @escaping @MainActor () -> Value, method: String) -> Value {
        if isOnMainActor {
            return runAssumingMainActor({ _ in body() }, ())
        }
        reportViolation(method: method)
        let work = UncheckedSendable(body)
        return DispatchQueue.main.sync {
            UncheckedSendable(runAssumingMainActor({ _ in work.value() }, ()))
        }.value
    }

    private static func reportViolation(method: String) {
        let message = """
            Ripple: the @MainActor handler of \(method) was called off the main thread \
            (\(Thread.current)). Deliver on the main thread: use a Driver or Signal \
            (not mocked with a background scheduler), or observe(on: MainScheduler.instance) \
            before \(method).
            """
        #if DEBUG
        debugViolationHandler.withLock { $0 }(message)
        #else
        Hooks.reportContractViolation(message)
        #endif
    }

    /// Calls a main-actor function from code that has checked it is on the main
    /// actor. This is what `MainActor.assumeIsolated` does after its own check;
    /// its check is skipped because it may disagree with ours on a main queue
    /// drained by another thread (see ``isOnMainActor``). A synchronous
    /// global-actor function has the same representation as a non-isolated one.
    private static func runAssumingMainActor<Value, Result>(
        _ handler: @escaping @MainActor (Value) -> Result, _ value: Value
    ) -> Result {
        let plain = unsafeBitCast(handler, to: ((Value) -> Result).self)
        return plain(value)
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
    /// every element at run time: delivered on another thread, it stops a debug
    /// build with a message naming the fix; a release build reports it to
    /// ``Hooks/contractViolationHandler`` and runs `onNext` on the main queue
    /// instead (later, so possibly out of order). An error is reported to
    /// ``Hooks/contractViolationHandler``, as for ``bind(onNext:)``.
    public func bind(onMainActor onNext: @escaping @MainActor (Element) -> Void) -> Disposable {
        bind(onNext: { element in
            MainActorDelivery.deliver(element, to: onNext, method: "bind(onMainActor:)")
        })
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
    public func bind<Object: AnyObject>(
        with object: Object, onMainActor onNext: @escaping @MainActor (Object, Element) -> Void
    ) -> Disposable {
        weak let weakObject = object
        return bind(onNext: { element in
            guard let object = weakObject else { return }
            MainActorDelivery.deliver((object, element), to: { onNext($0.0, $0.1) }, method: "bind(with:onMainActor:)")
        })
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
    /// Like ``drive(onNext:onCompleted:onDisposed:)`` it expects to be called on the
    /// main thread. A driver whose sharing scheduler is mocked with a scheduler that
    /// runs on another thread would call the handlers off the main thread: that
    /// stops a debug build with a clear message (see ``ObservableType/bind(onMainActor:)``).
    public func drive(
        onMainActor onNext: @escaping @MainActor (Element) -> Void,
        onCompleted: (@MainActor () -> Void)? = nil
    ) -> Disposable {
        checkMainThreadSubscription("drive")
        return asObservable().subscribe(
            onNext: { MainActorDelivery.deliver($0, to: onNext, method: "drive(onMainActor:)") },
            onCompleted: onCompleted.map { onCompleted in
                { MainActorDelivery.deliver((), to: { _ in onCompleted() }, method: "drive(onMainActor:)") }
            }
        )
    }

    /// Calls `onNext`, a `@MainActor` function, with `object` (held weakly) and
    /// every element; once `object` is gone, elements are ignored.
    ///
    /// ```swift
    /// viewModel.count
    ///     .drive(with: self, onMainActor: { owner, count in owner.render(count) })
    ///     .disposed(by: bag)
    /// ```
    public func drive<Object: AnyObject>(
        with object: Object, onMainActor onNext: @escaping @MainActor (Object, Element) -> Void
    ) -> Disposable {
        checkMainThreadSubscription("drive")
        weak let weakObject = object
        return asObservable().subscribe(onNext: { element in
            guard let object = weakObject else { return }
            MainActorDelivery.deliver((object, element), to: { onNext($0.0, $0.1) }, method: "drive(with:onMainActor:)")
        })
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
    public func emit(
        onMainActor onNext: @escaping @MainActor (Element) -> Void,
        onCompleted: (@MainActor () -> Void)? = nil
    ) -> Disposable {
        checkMainThreadSubscription("emit")
        return asObservable().subscribe(
            onNext: { MainActorDelivery.deliver($0, to: onNext, method: "emit(onMainActor:)") },
            onCompleted: onCompleted.map { onCompleted in
                { MainActorDelivery.deliver((), to: { _ in onCompleted() }, method: "emit(onMainActor:)") }
            }
        )
    }

    /// Calls `onNext`, a `@MainActor` function, with `object` (held weakly) and
    /// every element; once `object` is gone, elements are ignored.
    public func emit<Object: AnyObject>(
        with object: Object, onMainActor onNext: @escaping @MainActor (Object, Element) -> Void
    ) -> Disposable {
        checkMainThreadSubscription("emit")
        weak let weakObject = object
        return asObservable().subscribe(onNext: { element in
            guard let object = weakObject else { return }
            MainActorDelivery.deliver((object, element), to: { onNext($0.0, $0.1) }, method: "emit(with:onMainActor:)")
        })
    }
}
