import Ripple

// What `Hooks.recordsOperatorSites` costs when it is on (docs/Debugging.md,
// "What recording costs"): the rows below against `hot-chain` and
// `subscribe-dispose`, which run the same chains with recording off.

/// `hot-chain` with its subscription recorded: per event.
let recordedHotChain = Workload(
    id: "recorded-hot-chain", title: "hot-chain, subscription recorded", unit: "event", operations: 1_000_000,
    implementations: [
        .ripple: { n in
            Hooks.recordsOperatorSites = true
            defer { Hooks.recordsOperatorSites = false }
            return rippleSubjectEvents { $0.map { $0 &* 2 }.filter { $0 % 3 != 0 } }(n)
        },
    ]
)

/// `subscribe-dispose` with recording on: per subscription.
let recordedSubscriptionLifecycle = Workload(
    id: "recorded-subscribe-dispose", title: "subscribe-dispose, recorded", unit: "subscription", operations: 100_000,
    implementations: [
        .ripple: { n in
            let counter = Counter()
            Hooks.recordsOperatorSites = true
            let chain = Observable.just(1).map { $0 + 1 }.filter { $0 > 0 }
            Hooks.recordsOperatorSites = false
            return {
                Hooks.recordsOperatorSites = true
                defer { Hooks.recordsOperatorSites = false }
                for _ in 0..<n {
                    chain.subscribe(onNext: { counter.value &+= $0 }).dispose()
                }
                return counter.value
            }
        },
    ]
)

let recordingWorkloads = [recordedHotChain, recordedSubscriptionLifecycle]
