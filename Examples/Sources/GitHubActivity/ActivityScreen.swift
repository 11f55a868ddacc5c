import Foundation
import GitHubKit
import Ripple
import TerminalUI

/// The `activity` demo's screen: a repository's live events, newest first,
/// under a status line that shows the connection (live, reconnecting with
/// the `Last-Event-ID` it resumes after, ended, failed). `d` asks the
/// embedded mock server to drop the connection, to watch the reconnection;
/// `q` or Esc quits.
public final class ActivityScreen: TerminalScreen {
    public let frames: Driver<Frame>
    public let quit: Signal<Void>
    public let viewModel: ActivityViewModel
    private let bag = DisposeBag()

    /// - Parameters:
    ///   - repository: `owner/name`, for the title.
    ///   - source: where the events come from, for the title.
    ///   - drop: drops the live connections (the embedded mock server's
    ///     `MockGitHubServer.dropLiveEventConnections()`); `nil`: `d` does nothing.
    public init(host: TerminalHost, viewModel: ActivityViewModel, repository: String, source: String, drop: (() -> Void)? = nil) {
        self.viewModel = viewModel
        let keys = host.keySignal
        quit = Signal.merge(host.quitKeys, keys.filter { $0 == .character("q") }.map { _ in () })
        if let drop {
            keys.filter { $0 == .character("d") }.emit(onNext: { _ in drop() }).disposed(by: bag)
        }
        frames = Driver.combineLatest(viewModel.state, host.sizeDriver) { state, size in
            ActivityScreen.frame(state, repository: repository, source: source, canDrop: drop != nil, size: size)
        }
    }

    /// What the screen shows for `state`: a pure function.
    public static func frame(_ state: ActivityViewModel.State, repository: String, source: String, canDrop: Bool, size: TerminalSize) -> Frame {
        var lines: [Line] = [
            Line([Span("Live activity", style: TextStyle(bold: true)), Span("  ·  \(repository)  ·  \(source)")]),
            status(state),
            "",
        ]
        let room = max(0, size.rows - lines.count - 2)
        if state.events.isEmpty {
            lines.append(Line("Waiting for the first event…", style: TextStyle(dim: true)))
        }
        for event in state.events.prefix(room) {
            lines.append(Line([Span(time(event.createdAt) + "  ", style: TextStyle(dim: true)), Span("#\(event.id)  ", style: TextStyle(dim: true)), Span(event.summary)]))
        }
        while lines.count < size.rows - 1 { lines.append("") }
        let keys = canDrop ? "d drop the connection  q quit" : "q quit"
        lines.append(Line(keys, style: TextStyle(dim: true)))
        return Frame(lines: lines.map { $0.truncated(to: size.columns) })
    }

    static func status(_ state: ActivityViewModel.State) -> Line {
        let counts = "  ·  \(state.received) event\(state.received == 1 ? "" : "s")  ·  connection \(state.connections)"
            + (state.lastEventID.map { "  ·  last event \($0)" } ?? "")
            + (state.skipped > 0 ? "  ·  \(state.skipped) skipped" : "")
        switch state.connection {
        case .connecting(let attempt, let after):
            let resume = after.map { " (Last-Event-ID: \($0))" } ?? ""
            return Line([Span("◌ connecting\(attempt > 1 ? " again" : "")\(resume)", style: TextStyle(foreground: .yellow)), Span(counts)])
        case .live:
            return Line([Span("● live", style: TextStyle(bold: true, foreground: .green)), Span(counts)])
        case .reconnecting(let seconds, let reason):
            let why = reason.map { "\($0), " } ?? "stream ended, "
            return Line([Span("○ \(why)reconnecting in \(String(format: "%.1f", seconds)) s", style: TextStyle(foreground: .yellow)), Span(counts)])
        case .ended:
            return Line([Span("■ the server has no more events", style: TextStyle(dim: true)), Span(counts)])
        case .failed(let reason):
            return Line([Span("✕ gave up: \(reason)", style: TextStyle(foreground: .red)), Span(counts)])
        }
    }

    static func time(_ date: Date?) -> String {
        guard let date else { return "--:--:--" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }
}
