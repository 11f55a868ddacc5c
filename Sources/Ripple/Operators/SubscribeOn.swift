extension ObservableType {
    /// Subscribes to the source (and later disposes the subscription) on
    /// `scheduler`: the work a cold source does on subscription runs there.
    ///
    /// Events are not moved; use ``observe(on:)`` to choose where observers are
    /// called.
    ///
    /// ```
    /// source.subscribe(on: background)   // the source's subscribe runs on background
    /// ```
    @_alwaysEmitIntoClient
    public func subscribe(
        on scheduler: ImmediateSchedulerType
    ) -> Observable<Element> {
        // Subscribes to `self` itself (not `asObservable()`), as RxSwift does, so a
        // custom source sees exactly one subscribe and one dispose, both on
        // `scheduler`.
        Producer(site: SiteLiteral("subscribe(on:)")) { observer in
            // While recording, the subscription made later on `scheduler` is an
            // edge into this operator's node, like a synchronous one.
            let node = SubscriptionRecorder.isRecording ? SubscriptionRecorder.currentNode : nil
            let sink = ForwardingSink(observer: observer)
            // `subscription` holds first the pending scheduled action, then the
            // source subscription. The action may run before `schedule` returns
            // (an immediate scheduler, or another thread winning the race), so
            // what `schedule` returns goes into its own single-assignment slot:
            // storing it in `subscription` would replace, and so dispose, the
            // source subscription the action just made.
            let subscription = SerialDisposable()
            let pendingAction = SingleAssignmentDisposable()
            subscription.disposable = pendingAction
            pendingAction.setDisposable(scheduler.schedule(()) { _ in
                let inner = SubscriptionRecorder.with(current: node) { self.subscribe(AnyObserver { sink.forward($0) }) }
                subscription.disposable = ScheduledDisposable(scheduler: scheduler, disposable: inner)
                return Disposables.create()
            })
            sink.setUpstream(disposable: subscription)
            return sink
        }
    }

    /// Deprecated spelling of ``subscribe(on:)``.
    @_alwaysEmitIntoClient
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        subscribe(on: scheduler)
    }
}
