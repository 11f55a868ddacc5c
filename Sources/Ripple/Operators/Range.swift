/// The integer types `range`, `interval` and `timer` count with.
public typealias RxAbstractInteger = FixedWidthInteger

extension ObservableType where Element: RxAbstractInteger {
    /// `count` consecutive integers starting at `start`, then completion.
    ///
    /// A negative `count`, or a range that overflows `Element`, fails with
    /// `RxError.argumentOutOfRange` / `RxError.overflow` instead of crashing.
    ///
    /// ```
    /// range(start: 1, count: 3):  (123|)
    /// ```
    @_alwaysEmitIntoClient
    @inline(never)
    public static func range(
        start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        guard count >= 0 else {
            return .error(RxError.argumentOutOfRange(RxError.OutOfRangeArgument(
                operation: "range(start:count:scheduler:)", name: "count", value: count, requirement: "it must be 0 or more"
            )))
        }
        if count > 0 && start.addingReportingOverflow(count - 1).overflow {
            return .error(RxError.overflow)
        }
        if CurrentThreadScheduler.isInstance(scheduler) {
            return Producer(site: SiteLiteral("range")) { observer in
                let sink = RangeSink(observer: observer, start: start, count: count)
                Trampoline.current.pointee.queue.append { sink.run() }
                return sink
            }
        }
        return emitting(scheduler: scheduler, site: SiteLiteral("range"), initial: { Element.zero }) { index in
            guard index < count else { return .completed }
            defer { index += 1 }
            return .next(start + index)
        }
    }
}

/// `range` on the trampoline: a counting loop with no closure call per element.
@usableFromInline
final class RangeSink<Element: RxAbstractInteger>: Sink<Element>, @unchecked Sendable {
    /// Only touched on the subscribing thread, from the trampoline.
    @usableFromInline
    @exclusivity(unchecked)
    final var index: Element
    @usableFromInline
    let start: Element
    @usableFromInline
    let count: Element

    @_alwaysEmitIntoClient
    init(observer: AnyObserver<Element>, start: Element, count: Element) {
        index = 0
        self.start = start
        self.count = count
        super.init(observer: observer)
    }

    @_alwaysEmitIntoClient
    func run() {
        let trampoline = Trampoline.current
        while !isDisposed {
            guard index < count else {
                forwardCompleted()
                return
            }
            let element = start + index
            index += 1
            forwardNext(element)
            if Trampoline.hasQueuedWork(trampoline) {
                trampoline.pointee.queue.append { self.run() }
                return
            }
        }
    }
}

extension ObservableType {
    /// The same element forever, sent on `scheduler`.
    ///
    /// ```
    /// repeatElement(1):  111111...
    /// ```
    @_alwaysEmitIntoClient
    public static func repeatElement(
        _ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        emitting(scheduler: scheduler, site: SiteLiteral("repeatElement"), initial: { () }) { _ in .next(element) }
    }

    /// Generates elements like a `for` loop: starting from `initialState`, emits the
    /// state while `condition` holds, moving on with `iterate`. If `condition` or
    /// `iterate` throws, the sequence fails with that error.
    ///
    /// ```
    /// generate(initialState: 1, condition: { $0 < 4 }, iterate: { $0 + 1 }):  (123|)
    /// ```
    @_alwaysEmitIntoClient
    public static func generate(
        initialState: Element,
        condition: @escaping (Element) throws -> Bool,
        scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        iterate: @escaping (Element) throws -> Element
    ) -> Observable<Element> {
        emitting(scheduler: scheduler, site: SiteLiteral("generate"), initial: { (state: initialState, isFirst: true) }) { generator in
            do {
                if !generator.isFirst {
                    generator.state = try iterate(generator.state)
                }
                generator.isFirst = false
                return try condition(generator.state) ? .next(generator.state) : .completed
            } catch {
                return .error(error)
            }
        }
    }
}
