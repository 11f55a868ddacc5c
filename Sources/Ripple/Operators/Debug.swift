import Foundation

extension ObservableType {
    /// Prints every subscription, event and disposal of this sequence, with a
    /// timestamp and `identifier`, in RxSwift's format:
    ///
    /// ```
    /// 2026-11-22 10:00:00.000: search -> subscribed
    /// 2026-11-22 10:00:00.301: search -> Event next(ripple)
    /// 2026-11-22 10:00:00.302: search -> isDisposed
    /// ```
    ///
    /// `identifier` defaults to the call site (`file:line (function)`). With
    /// `trimOutput`, long event descriptions are shortened to 40 characters. Lines go
    /// to ``DebugOutput/sink`` (standard output by default).
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        file: String = #file, line: UInt = #line, function: String = #function
    ) -> Observable<Element> {
        let identifier = identifier ?? "\((file as NSString).lastPathComponent):\(line) (\(function))"
        let source = asObservable()
        return Producer { observer in
            DebugOutput.log(identifier, "subscribed")
            let sink = DebugSink(identifier: identifier, trimOutput: trimOutput, observer: observer)
            sink.setUpstream(source.subscribe(sink: AnyObserver { sink.on($0) }))
            return sink
        }
    }
}

final class DebugSink<Element>: Sink<Element>, @unchecked Sendable {
    private let identifier: String
    private let trimOutput: Bool

    init(identifier: String, trimOutput: Bool, observer: AnyObserver<Element>) {
        self.identifier = identifier
        self.trimOutput = trimOutput
        super.init(observer: observer)
    }

    func on(_ event: Event<Element>) {
        let maxLength = 40
        var text = event.debugDescription
        if trimOutput && text.count > maxLength {
            text = String(text.prefix(maxLength / 2)) + "..." + String(text.suffix(maxLength / 2))
        }
        DebugOutput.log(identifier, "Event \(text)")
        forward(event)
    }

    override func disposeResources() {
        DebugOutput.log(identifier, "isDisposed")
    }
}

/// Where the `debug` operator writes.
public enum DebugOutput {
    private static let state = LockedState<@Sendable (String) -> Void>({ print($0) })

    /// Receives each line the `debug` operator produces (without a trailing
    /// newline). Replace it to route debug output to a logger or a test.
    public static var sink: @Sendable (String) -> Void {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    static func log(_ identifier: String, _ message: String) {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        sink("\(formatter.string(from: Date())): \(identifier) -> \(message)")
    }
}
