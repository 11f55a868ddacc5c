import Dispatch
import Foundation
import OpenCombine
import OpenCombineDispatch
import Ripple

// 11. A macro workload: search as you type, per keystroke.
//
//   keystrokes → debounce(300 ms) → distinctUntilChanged
//              → flatMapLatest { request(query).map(decode).catchAndReturn(0) }
//              → share(replay: 1) → three subscribers
//
// The user types in bursts of four keystrokes 100 ms apart, then pauses 400 ms, so
// one keystroke in four gets past debounce; every second burst ends on the query
// the previous one ended on (typed, then corrected back), which
// distinctUntilChanged drops: one request per eight keystrokes. The request is a
// stub that answers synchronously. Time is virtual: Ripple's `HistoricalScheduler`,
// advanced after each keystroke. OpenCombine has no virtual-time scheduler, so its
// side uses `OpenCombineVirtualScheduler` below (a minimal one written for this
// workload); its `share(replay: 1)` equivalent is `multicast` through a
// `CurrentValueSubject` with `autoconnect()`.
let searchAsYouType = Workload(
    id: "search-as-you-type", title: "search as you type (debounce, distinct, flatMapLatest request, share, 3 subscribers)",
    unit: "keystroke", operations: 40_000,
    implementations: [
        .ripple: { n in
            let typing = Typing(keystrokes: n)
            let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 0))
            let keystrokes = PublishSubject<String>()
            let results = keystrokes
                .debounce(.milliseconds(300), scheduler: scheduler)
                .distinctUntilChanged()
                .flatMapLatest { query in
                    Single.just(query.utf8.count).map { $0 &* 3 }.catchAndReturn(0)
                }
                .share(replay: 1)
            let counter = Counter()
            let subscriptions = (0..<3).map { _ in results.subscribe(onNext: { counter.value &+= $0 }) }
            return {
                for i in 0..<n {
                    keystrokes.onNext(typing.queries[i])
                    scheduler.advanceTo(Date(timeIntervalSince1970: Double(typing.clock[i]) / 1_000))
                }
                subscriptions.forEach { $0.dispose() }
                return counter.value
            }
        },
        .openCombine: { n in
            let typing = Typing(keystrokes: n)
            let scheduler = OpenCombineVirtualScheduler()
            let keystrokes = OpenCombine.PassthroughSubject<String, Never>()
            let results = keystrokes
                .debounce(for: .milliseconds(300), scheduler: scheduler)
                .removeDuplicates()
                .map { query in
                    OpenCombine.Just(query.utf8.count).setFailureType(to: SearchFailure.self)
                        .map { $0 &* 3 }
                        .catch { _ in OpenCombine.Just(0) }
                }
                .switchToLatest()
                .multicast { OpenCombine.CurrentValueSubject<Int, Never>(0) }
                .autoconnect()
            let counter = Counter()
            let cancellables = (0..<3).map { _ in results.sink { counter.value &+= $0 } }
            return {
                for i in 0..<n {
                    keystrokes.send(typing.queries[i])
                    scheduler.advance(toMilliseconds: typing.clock[i])
                }
                cancellables.forEach { $0.cancel() }
                return counter.value
            }
        },
    ]
)

/// The keystrokes of the search workload, made during setup: the query after each
/// keystroke (short strings, stored inline: no allocation when passed on) and the
/// virtual time, in milliseconds, to advance to after it.
struct Typing: @unchecked Sendable {
    var queries: [String] = []
    var clock: [Int] = []

    init(keystrokes: Int) {
        queries.reserveCapacity(keystrokes)
        clock.reserveCapacity(keystrokes)
        var now = 0
        for i in 0..<keystrokes {
            let burst = i / 4
            let position = i % 4
            // Bursts 2k and 2k + 1 both end on "qk".
            queries.append(position == 3 ? "q\(burst / 2)" : "q\(burst / 2)-\(burst % 2)\(position)")
            now += position == 3 ? 500 : 100
            clock.append(now)
        }
    }
}

struct SearchFailure: Error {}

/// A minimal virtual-time scheduler for OpenCombine (which ships none): work runs
/// when `advance(toMilliseconds:)` passes its due time. Single-threaded, like the
/// workload that uses it.
final class OpenCombineVirtualScheduler: OpenCombine.Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = DispatchQueue.OCombine.SchedulerTimeType
    typealias SchedulerOptions = Never

    /// Virtual time starts at one second (a `DispatchTime` of zero means "now").
    private static let origin: UInt64 = 1_000_000_000

    private(set) var now = SchedulerTimeType(DispatchTime(uptimeNanoseconds: origin))
    var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    private final class Item: OpenCombine.Cancellable {
        var due: SchedulerTimeType
        let interval: SchedulerTimeType.Stride?
        let action: () -> Void
        var cancelled = false

        init(due: SchedulerTimeType, interval: SchedulerTimeType.Stride?, action: @escaping () -> Void) {
            self.due = due
            self.interval = interval
            self.action = action
        }

        func cancel() { cancelled = true }
    }

    /// Pending work, unordered (there are rarely more than two items).
    private var items: [Item] = []

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        items.append(Item(due: now, interval: nil, action: action))
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        items.append(Item(due: date, interval: nil, action: action))
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any OpenCombine.Cancellable {
        let item = Item(due: date, interval: interval, action: action)
        items.append(item)
        return item
    }

    /// Runs the work due up to `milliseconds` after the origin, earliest first, then
    /// sets the clock there.
    func advance(toMilliseconds milliseconds: Int) {
        let target = SchedulerTimeType(DispatchTime(uptimeNanoseconds: Self.origin + UInt64(milliseconds) * 1_000_000))
        while true {
            items.removeAll { $0.cancelled }
            guard let index = items.indices.min(by: { items[$0].due < items[$1].due }),
                  items[index].due <= target else { break }
            let item = items[index]
            now = item.due
            if let interval = item.interval {
                item.due = item.due.advanced(by: interval)
            } else {
                items.remove(at: index)
            }
            item.action()
        }
        now = target
    }
}
