// A program that subscribes to Ripple streams from main-actor code, the way an
// app's first `main.swift` or a `@MainActor` view model does. `IsolationProbeTests`
// runs it as a child process, one scenario per run, and reads what it printed:
// a debug stop can only be observed from outside.
//
// The same file is compiled twice: in Swift 6 language mode (this target) and,
// through a symbolic link, in Swift 5 mode (`ripple-isolation-probe-swift5`), where
// it must behave exactly as RxSwift code does.
//
//   ripple-isolation-probe <context> <case> <feed>
//     context: top-level | view-model
//     case:    plain | nested | single | observer (an `AnyObserver` closure)
//     feed:    background     events arrive on a dispatch queue, off the main actor
//              main           events arrive on the main queue: on the main thread,
//                             then from the main queue drained by dispatchMain()
//              report         as background, with the release builds' behaviour
//                             (the violation reported, the events delivered on the
//                             main queue) instead of the debug stop
//
//   ripple-isolation-probe dispatch-main drive main
//     drives a Driver from a block on the main queue drained by dispatchMain()
//     (on Linux, a worker thread): the main queue counts as the main thread

import Dispatch
import Foundation
#if DEBUG
@testable import Ripple
#else
import Ripple
#endif

/// What the program prints and where its events come from.
enum Probe {
    /// Writes a line at once (stdout is a pipe: a stop would lose buffered output).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Says where a handler runs, and counts it.
    static func handled(_ name: String, _ value: Int) {
        say("handled \(name) \(value) mainQueue=\(isOnMainQueue) mainThread=\(Thread.isMainThread)")
        finished.signal()
    }

    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) ?? false }

    /// Signalled by each handler.
    static let finished = DispatchSemaphore(value: 0)

    static let arguments = Array(CommandLine.arguments.dropFirst())
    static var feed: String { arguments.count == 3 ? arguments[2] : "" }

    /// A subject fed on the main thread, then on the main queue (feed `main`).
    static let subject = PublishSubject<Int>()

    /// Elements: observed on a concurrent queue, or from ``subject``.
    static func source() -> Observable<Int> {
        feed == "main" ? subject.asObservable() : Observable.just(1).observe(on: ConcurrentDispatchQueueScheduler(qos: .default))
    }

    /// A `Single` that succeeds on a dispatch queue, as a network response does,
    /// or with ``subject``'s first element.
    static func single() -> Single<Int> {
        if feed == "main" { return subject.take(1).asSingle() }
        return Single.just(1).delay(.milliseconds(5), scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
    }
}

#if swift(>=6)
Probe.say("language mode 6")
#else
Probe.say("language mode 5")
#endif

guard Probe.arguments.count == 3 else {
    Probe.say("usage: ripple-isolation-probe <top-level|view-model> <plain|nested|single|observer> <background|main|report>")
    exit(64)
}
let (context, scenario, feed) = (Probe.arguments[0], Probe.arguments[1], Probe.arguments[2])

let bag = DisposeBag()

/// A main-actor view model: its handlers use its main-actor state.
@MainActor
final class ViewModel {
    private(set) var items: [Int] = []
    private let bag = DisposeBag()
    /// The view model of this run, kept for the events that arrive later.
    static var current: ViewModel?

    func subscribe(_ scenario: String) {
        switch scenario {
        case "plain":
            Probe.source().subscribe(onNext: { value in
                self.items.append(value)
                Probe.handled("view-model plain", value)
            }).disposed(by: bag)
        case "nested":
            Probe.source().subscribe(onNext: { value in
                self.items = [value].map { $0 + 1 }
                Probe.handled("view-model nested", value)
            }).disposed(by: bag)
        case "observer":
            Probe.source().subscribe(AnyObserver { event in
                guard case .next(let value) = event else { return }
                self.items = [value].map { $0 + 2 }
                Probe.handled("view-model observer", value)
            }).disposed(by: bag)
        default:
            Probe.single().subscribe(onSuccess: { value in
                self.items = [value].map { $0 * 10 }
                Probe.handled("view-model single", value)
            }).disposed(by: bag)
        }
    }
}

if context == "dispatch-main" {
    Hooks.contractViolationHandler = { message in Probe.say("reported: \(message)") }
    DispatchQueue.main.async {
        Probe.say("on the main queue: mainThread=\(Thread.isMainThread)")
        _ = Driver.just(1).drive(onNext: { Probe.handled("dispatch-main drive", $0) })
        exit(0)
    }
    dispatchMain()
}

if feed == "report" {
    #if DEBUG
    // What a release build does instead of stopping: report and deliver on the
    // main queue.
    MainActorDelivery.debugViolationHandler.withLock { handler in
        handler = { message in Probe.say("reported: \(message)") }
    }
    #else
    Probe.say("the report feed needs a debug build")
    exit(64)
    #endif
}

switch (context, scenario) {
case ("view-model", _):
    MainActor.assumeIsolated {
        ViewModel.current = ViewModel()
        ViewModel.current?.subscribe(scenario)
    }
case ("top-level", "plain"):
    Probe.source().subscribe(onNext: { value in
        Probe.handled("top-level plain", value)
    }).disposed(by: bag)
case ("top-level", "observer"):
    Probe.source().subscribe(AnyObserver { event in
        guard case .next(let value) = event else { return }
        let next = [value].map { $0 + 2 }
        Probe.handled("top-level observer", next[0] - 2)
    }).disposed(by: bag)
case ("top-level", "nested"):
    Probe.source().subscribe(onNext: { value in
        let next = [value].map { $0 + 1 }
        Probe.handled("top-level nested", next[0] - 1)
    }).disposed(by: bag)
default:
    Probe.single().subscribe(onSuccess: { value in
        let next = [value].map { $0 * 10 }
        Probe.handled("top-level single", next[0] / 10)
    }).disposed(by: bag)
}

switch feed {
case "main":
    // On the main thread: delivered before `onNext` returns.
    Probe.say("sending 1 on the main thread")
    Probe.subject.onNext(1)
    Probe.say("sent 1")
    // On the main queue drained by dispatchMain() (on Linux, a worker thread).
    DispatchQueue.main.async {
        Probe.say("sending 2 on the main queue")
        Probe.subject.onNext(2)
        Probe.say("sent 2")
        exit(0)
    }
    dispatchMain()
case "report":
    // The events wait on the main queue, which dispatchMain() drains.
    DispatchQueue.global().async {
        let done = Probe.finished.wait(timeout: .now() + 20) == .success
        Probe.say(done ? "end" : "timeout")
        exit(done ? 0 : 1)
    }
    dispatchMain()
default:
    // Swift 5: the handler runs where the event arrives. Swift 6: a debug stop.
    let done = Probe.finished.wait(timeout: .now() + 20) == .success
    Probe.say(done ? "end" : "timeout")
    exit(done ? 0 : 1)
}
