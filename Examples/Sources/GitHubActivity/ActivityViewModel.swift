import Foundation
import GitHubKit
import Ripple
import RippleHTTP
import RippleHTTPStreaming

/// The live activity of a repository, and the state of its connection: what
/// the `activity` demo shows. The view model never references the view.
///
/// ```swift
/// let updates = session.eventStream(for: LiveEventsRequest(owner: "kasel", name: "kit", baseURL: api))
/// let viewModel = ActivityViewModel(updates: updates)
/// viewModel.state.drive(onNext: render)
/// ```
public final class ActivityViewModel {
    /// Everything the screen shows.
    public struct State: Equatable, Sendable {
        /// The connection, as the user sees it.
        public enum Connection: Equatable, Sendable {
            /// Opening connection number `attempt`, resuming after `resumingAfter`.
            case connecting(attempt: Int, resumingAfter: String?)
            /// Events arrive as they happen.
            case live
            /// The connection ended or failed (`reason`); the next one opens in `seconds`.
            case reconnecting(inSeconds: Double, reason: String?)
            /// The server has nothing more (`204 No Content`).
            case ended
            /// The stream gave up (the retry policy did).
            case failed(String)
        }

        public var connection = Connection.connecting(attempt: 1, resumingAfter: nil)
        /// The latest events, newest first.
        public var events: [RepositoryEvent] = []
        /// Events received in all.
        public var received = 0
        /// Connections opened in all.
        public var connections = 0
        /// The ID of the latest event (what a reconnection resumes after).
        public var lastEventID: String?
        /// Events whose data did not decode (skipped).
        public var skipped = 0

        public init() {}
    }

    /// The state, starting with "connecting"; on the main scheduler.
    public let state: Driver<State>

    /// - Parameters:
    ///   - updates: `Session.eventStream(for:)` of the repository's live events.
    ///   - keep: how many events the state keeps.
    public init(updates: Observable<EventStreamUpdate>, keep: Int = 100) {
        enum Input {
            case update(EventStreamUpdate)
            case ended
            case failed(Error)
        }
        state = updates
            .map { Input.update($0) }
            .concat(Observable.just(Input.ended))
            .catch { .just(.failed($0)) }
            .scan(State()) { state, input in
                switch input {
                case .update(let update): return ActivityViewModel.reduce(state, update, keep: keep)
                case .ended:
                    var state = state
                    state.connection = .ended
                    return state
                case .failed(let error):
                    var state = state
                    state.connection = .failed(ActivityViewModel.reason(error))
                    return state
                }
            }
            .startWith(State())
            .asDriver(onErrorJustReturn: State())
    }

    /// The state after `update`: a pure function.
    public static func reduce(_ state: State, _ update: EventStreamUpdate, keep: Int) -> State {
        var state = state
        switch update {
        case .connecting(let attempt, let lastEventID):
            state.connection = .connecting(attempt: attempt, resumingAfter: lastEventID)
            state.connections = attempt
        case .connected:
            state.connection = .live
        case .event(let event):
            state.lastEventID = event.id
            if let decoded = try? RepositoryEvent(event) {
                state.events.insert(decoded, at: 0)
                if state.events.count > keep { state.events.removeLast(state.events.count - keep) }
                state.received += 1
            } else {
                state.skipped += 1
            }
        case .waiting(let seconds, let error):
            state.connection = .reconnecting(inSeconds: seconds, reason: error.map(reason))
        }
        return state
    }

    /// A short reason for the status line.
    static func reason(_ error: Error) -> String {
        if let error = error as? HTTPError {
            switch error {
            case .transport(let urlError):
                switch urlError.code {
                case .networkConnectionLost: return "connection lost"
                case .cannotConnectToHost: return "cannot connect"
                case .timedOut: return "timed out"
                default: return "network error \(urlError.code.rawValue)"
                }
            case .unacceptableStatusCode(let code, _, _):
                return "HTTP \(code)"
            default:
                return "\(error)"
            }
        }
        return "\(error)"
    }
}
