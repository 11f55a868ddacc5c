import Ripple

/// A point on a ``TestScheduler``'s clock.
public typealias TestTime = Int

/// A value (usually an `Event`) recorded at a virtual time.
public struct Recorded<Value>: CustomDebugStringConvertible {
    /// When the value was recorded.
    public let time: TestTime
    /// The recorded value.
    public let value: Value

    /// Records `value` at `time`.
    public init(time: TestTime, value: Value) {
        self.time = time
        self.value = value
    }

    /// `value @ time`, as RxTest prints it.
    public var debugDescription: String {
        "\(value) @ \(time)"
    }
}

extension Recorded: Equatable where Value: Equatable {}
extension Recorded: Sendable where Value: Sendable {}

extension Recorded {
    /// Builds a `.next` event recorded at `time`: `.next(210, "a")`.
    public static func next<T>(_ time: TestTime, _ element: T) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .next(element))
    }

    /// Builds a `.completed` event recorded at `time`: `.completed(300)`.
    public static func completed<T>(_ time: TestTime, _ type: T.Type = T.self) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .completed)
    }

    /// Builds an `.error` event recorded at `time`: `.error(300, MyError())`.
    public static func error<T>(_ time: TestTime, _ error: Swift.Error, _ type: T.Type = T.self) -> Recorded<Event<T>>
    where Value == Event<T> {
        Recorded(time: time, value: .error(error))
    }

    /// The arguments as an array, for when the element type cannot be inferred
    /// from the context: `Recorded.events(.next(210, 1), .completed(300))`.
    ///
    /// As in RxTest there are exactly two forms, this one and the one taking an
    /// array. (A third form, variadic over arrays, made ordinary calls with
    /// arithmetic in their arguments too slow to type-check.)
    public static func events<T>(_ recordedEvents: Recorded<Event<T>>...) -> [Recorded<Event<T>>] where Value == Event<T> {
        recordedEvents
    }

    /// The array itself: `Recorded.events([.next(210, 1), .completed(300)])`.
    public static func events<T>(_ recordedEvents: [Recorded<Event<T>>]) -> [Recorded<Event<T>>] where Value == Event<T> {
        recordedEvents
    }
}

/// When a test observable was subscribed and unsubscribed, in virtual time.
public struct Subscription: Equatable, Hashable, Sendable, CustomDebugStringConvertible {
    /// The subscription time.
    public let subscribe: TestTime
    /// The unsubscription time; `Int.max` while still subscribed.
    public let unsubscribe: TestTime

    /// A subscription that is still active.
    public init(_ subscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = Int.max
    }

    /// A subscription that ended at `unsubscribe`.
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    /// `(200: 1000)`, or `(200: Infinity)` while subscribed, as RxTest 6 prints
    /// it (RxTest before 6.0 printed a space before the colon).
    public var debugDescription: String {
        "(\(subscribe): \(unsubscribe == Int.max ? "Infinity" : String(unsubscribe)))"
    }
}
