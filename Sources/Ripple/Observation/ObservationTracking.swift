import Observation

// Bridges Swift's Observation framework (`@Observable` models) and Ripple.
//
// Note for files that import both modules: `Observation` also declares a type
// named `Observable` (the protocol behind the macro). Write `Ripple.Observable`
// (or use `ObservableType`'s static methods through a concrete element type,
// `Observable<String>`) where the compiler reports an ambiguity.
//
// Observation exists from macOS 14 / iOS 17 / tvOS 17 / watchOS 10 (visionOS 1)
// on; Ripple supports older releases, so everything here says so.

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ObservableType {
    /// An observable of a value computed from `@Observable` models: the current
    /// value on subscription, then a new value each time a property that `read`
    /// accessed changes. Never fails or completes.
    ///
    /// ```swift
    /// @Observable final class Editor { var title = ""; var isDirty = false }
    ///
    /// let header = Observable<String>.observing(on: MainScheduler.instance) {
    ///     editor.isDirty ? "\(editor.title) (edited)" : editor.title
    /// }
    /// ```
    ///
    /// ```
    /// title:      "a"--"b"-"c"------"d"--
    /// observing:  a------c----------d----   (one emission per scheduler turn)
    /// ```
    ///
    /// - Scheduler: `read` runs, and values are emitted, on `scheduler`. The first
    ///   read is scheduled with `schedule` (on the main thread, the main scheduler
    ///   runs it before `subscribe` returns); the reads after a change are
    ///   scheduled with `scheduleRelative(_:dueTime: .nanoseconds(0))`, that is,
    ///   on a later turn of the scheduler, because Observation reports a change
    ///   *before* the property is written (`willSet`). `read` must run where the
    ///   models may be read: pass the main scheduler for models the UI mutates.
    /// - Coalescing: after a change is reported, further changes are not tracked
    ///   until the value has been read again, so any number of changes before that
    ///   turn produce one element, the latest value. Equal values are not
    ///   filtered; add `distinctUntilChanged()` if needed.
    /// - Tracking: each read records the properties `read` accesses with
    ///   `withObservationTracking`, so a `read` with branches tracks the properties
    ///   of the branch it took. After disposal nothing is read or emitted; the
    ///   last registration stays in the model until its next change and does
    ///   nothing then (Observation has no way to cancel one).
    ///
    /// For `@MainActor` models, ``observing(_:)`` checks `read` as main-actor code.
    @_alwaysEmitIntoClient
    public static func observing(on scheduler: SchedulerType, _ read: @escaping () -> Element) -> Observable<Element> {
        Producer(site: SiteLiteral("observing")) { observer in
            let sink = ObservationTrackingSink(read: read, scheduler: scheduler, observer: observer)
            sink.start()
            return sink
        }
    }

    /// An observable of a value computed from `@MainActor` `@Observable` models,
    /// read and emitted on the main scheduler: ``observing(on:_:)`` with
    /// `MainScheduler.instance`, and a `read` that the compiler checks as
    /// main-actor code.
    ///
    /// ```swift
    /// @MainActor @Observable final class Session { var user: String? }
    ///
    /// let greeting = Observable<String>.observing { session.user.map { "Hi \($0)" } ?? "Sign in" }
    /// greeting.bind(to: label.rx.text).disposed(by: bag)
    /// ```
    ///
    /// Subscribed on the main thread, the current value is emitted before
    /// `subscribe` returns; every later value is emitted on the main queue, on
    /// the turn after the change.
    @_alwaysEmitIntoClient
    public static func observing(_ read: @escaping @MainActor () -> Element) -> Observable<Element> {
        observing(on: MainScheduler.instance) {
            MainActorDelivery.call(read, method: "Observable.observing(_:)")
        }
    }
}

/// Reads the value with observation tracking, emits it, and schedules the next
/// read when a tracked property changes.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@usableFromInline
final class ObservationTrackingSink<Element>: Sink<Element>, @unchecked Sendable {
    private let read: () -> Element
    private let scheduler: SchedulerType
    /// The scheduled read, cancelled by disposal.
    private let scheduled: SerialDisposable

    @usableFromInline
    init(read: @escaping () -> Element, scheduler: SchedulerType, observer: AnyObserver<Element>) {
        scheduled = SerialDisposable()
        self.read = read
        self.scheduler = scheduler
        super.init(observer: observer)
    }

    @usableFromInline
    func start() {
        scheduled.disposable = scheduler.schedule(self) { sink in
            sink.readAndTrack()
            return Disposables.create()
        }
    }

    /// Called by Observation, on the thread that is about to change a tracked
    /// property. Only one registration is live at a time (the next one is made by
    /// the read scheduled here), so reads never overlap.
    private func changeReported() {
        if isDisposed { return }
        scheduled.disposable = scheduler.scheduleRelative(self, dueTime: .nanoseconds(0)) { sink in
            sink.readAndTrack()
            return Disposables.create()
        }
    }

    private func readAndTrack() {
        if isDisposed { return }
        let value = withObservationTracking {
            read()
        } onChange: { [weak self] in
            self?.changeReported()
        }
        forwardNext(value)
    }

    override func disposeResources() {
        scheduled.dispose()
    }
}
