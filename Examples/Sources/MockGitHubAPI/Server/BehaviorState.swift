import Foundation
import Synchronization

/// The per-request decisions of ``MockGitHubConfiguration/Behavior``.
struct RequestPlan: Sendable {
    struct RateLimitHeaders: Sendable, Equatable {
        var limit: Int
        var remaining: Int
        var reset: Int
        var used: Int
    }

    var latency: Duration
    var rateLimit: RateLimitHeaders?
    var rateLimited: Bool
    var failureStatus: Int?
    var malformed: Bool
}

/// The mutable state behind the behaviour: current settings, the three random
/// streams, the rate-limit window and counters. All access goes through one lock;
/// nothing is awaited or called out while it is held.
final class BehaviorState: Sendable {
    private struct State {
        var behavior: MockGitHubConfiguration.Behavior
        var latencyRandom: SplitMix64
        var failureRandom: SplitMix64
        var malformedRandom: SplitMix64
        var windowStart: Date?
        var used = 0
        var served = 0
    }

    private let state: Mutex<State>

    init(behavior: MockGitHubConfiguration.Behavior, seed: UInt64) {
        // Three independent streams, so that one setting never shifts another's decisions.
        state = Mutex(
            State(
                behavior: behavior,
                latencyRandom: SplitMix64(seed: seed ^ 0x4C61_7465_6E63_7921),
                failureRandom: SplitMix64(seed: seed ^ 0x4661_696C_7572_6521),
                malformedRandom: SplitMix64(seed: seed ^ 0x4D61_6C66_6F72_6D21)
            )
        )
    }

    var behavior: MockGitHubConfiguration.Behavior {
        state.withLock { $0.behavior }
    }

    var servedCount: Int {
        state.withLock { $0.served }
    }

    /// Replaces the settings; a changed rate limit starts a fresh window.
    func update(_ behavior: MockGitHubConfiguration.Behavior) {
        state.withLock { state in
            if state.behavior.rateLimit != behavior.rateLimit {
                state.windowStart = nil
                state.used = 0
            }
            state.behavior = behavior
        }
    }

    /// Draws the decisions for the next request and counts it.
    func plan(now: Date = Date()) -> RequestPlan {
        state.withLock { state in
            state.served += 1
            let behavior = state.behavior
            let latencyDraw = state.latencyRandom.unit()
            let failureDraw = state.failureRandom.unit()
            let failureIndex = state.failureRandom.uniform(max(1, behavior.failureStatuses.count))
            let malformedDraw = state.malformedRandom.unit()

            let latency: Duration
            switch behavior.latency {
            case .none: latency = .zero
            case .fixed(let duration): latency = duration
            case .uniform(let low, let high): latency = low + (high - low) * latencyDraw
            }

            var headers: RequestPlan.RateLimitHeaders?
            var limited = false
            if let rateLimit = behavior.rateLimit {
                let window = Double(rateLimit.window.components.seconds) + Double(rateLimit.window.components.attoseconds) * 1e-18
                if let start = state.windowStart, now.timeIntervalSince(start) < window {
                    // still in the current window
                } else {
                    state.windowStart = now
                    state.used = 0
                }
                if state.used < rateLimit.limit {
                    state.used += 1
                } else {
                    limited = true
                }
                let reset = (state.windowStart ?? now).addingTimeInterval(window).timeIntervalSince1970.rounded(.up)
                headers = .init(
                    limit: rateLimit.limit, remaining: rateLimit.limit - state.used, reset: Int(reset), used: state.used)
            }
            let statuses = behavior.failureStatuses.isEmpty ? [500] : behavior.failureStatuses
            return RequestPlan(
                latency: latency,
                rateLimit: headers,
                rateLimited: limited,
                failureStatus: failureDraw < behavior.failureRate ? statuses[failureIndex % statuses.count] : nil,
                malformed: malformedDraw < behavior.malformedJSONRate
            )
        }
    }
}
