extension ObservableType {
    /// Subscribes to the source only after `dueTime`; its events then pass
    /// through unchanged.
    ///
    /// Disposing before `dueTime` cancels the subscription that was scheduled.
    ///
    /// ```
    /// source (cold):                     --1--2--|
    /// delaySubscription(3, scheduler):   -----1--2--|
    /// ```
    @_alwaysEmitIntoClient
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return Producer(site: SiteLiteral("delaySubscription")) { observer in
            let sink = ForwardingSink(observer: observer)
            sink.setUpstream(disposable: scheduler.scheduleRelative(sink, dueTime: dueTime) { sink in
                let subscription = source.subscribe(sink: AnyObserver { sink.forward($0) })
                return subscription ?? Disposables.create()
            })
            return sink
        }
    }
}
