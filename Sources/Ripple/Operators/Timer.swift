extension ObservableType where Element: RxAbstractInteger {
    /// Emits 0, 1, 2, ... every `period` on `scheduler`, forever.
    ///
    /// A negative `period` fails with `RxError.argumentOutOfRange` when
    /// subscribed; a zero period emits as fast as the scheduler runs its timers.
    /// Elements are delivered where `scheduler` runs its work (its dispatch
    /// queue; the main queue for `MainScheduler.instance`).
    ///
    /// ```
    /// interval(10):  ---------0---------1---------2--...
    /// ```
    @_alwaysEmitIntoClient
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        timer(period, period: period, scheduler: scheduler, site: SiteLiteral("interval"))
    }

    /// Emits 0 after `dueTime`; then, if `period` is given, 1, 2, ... every `period`
    /// forever, otherwise completes right after the 0.
    ///
    /// ```
    /// timer(5):              ----(0|)
    /// timer(5, period: 10):  ----0---------1---------2--...
    /// ```
    ///
    /// A negative `dueTime` means "now". A negative `period` fails with
    /// `RxError.argumentOutOfRange` when subscribed (a dispatch timer cannot repeat
    /// backwards; libdispatch would crash the process). Elements are delivered
    /// where `scheduler` runs its work (its dispatch queue; the main queue for
    /// `MainScheduler.instance`).
    @_alwaysEmitIntoClient
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType) -> Observable<Element> {
        timer(dueTime, period: period, scheduler: scheduler, site: SiteLiteral("timer"))
    }

    /// ``timer(_:period:scheduler:)`` under the name of the operator applied
    /// (`interval` is a `timer` whose first element comes after one period).
    @_alwaysEmitIntoClient
    static func timer(
        _ dueTime: RxTimeInterval, period: RxTimeInterval?, scheduler: SchedulerType, site: SiteLiteral
    ) -> Observable<Element> {
        if let period, period.isNegative {
            return .error(RxError.argumentOutOfRange)
        }
        return Producer(site: site) { observer in
            let sink = ForwardingSink(observer: observer)
            if let period {
                sink.setUpstream(disposable: scheduler.schedulePeriodic(Element.zero, startAfter: dueTime, period: period) { count in
                    sink.forwardNext(count)
                    return count &+ 1
                })
            } else {
                sink.setUpstream(disposable: scheduler.scheduleRelative((), dueTime: dueTime) { _ in
                    sink.forwardNext(0)
                    sink.forwardCompleted()
                    return Disposables.create()
                })
            }
            return sink
        }
    }
}
