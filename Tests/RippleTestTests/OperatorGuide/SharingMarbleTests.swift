import Ripple
import RippleTest
import Testing

/// Hot and cold, in marbles: how many times the source runs with and without
/// `share`, and what late subscribers see.
///
/// The source is a cold "request" (`--a--b|`: it starts over for each
/// subscription). Subscriber A subscribes at frame 0, subscriber B at frame 3.
@Suite("Sharing operators in marbles") struct SharingMarbleTests {
    /// Subscribes one observer to `observable` at each of `times`, runs the
    /// scheduler, disposes everything at 1000, and returns the observers.
    static func subscribers(
        _ scheduler: TestScheduler, _ observable: Observable<String>, at times: [TestTime]
    ) -> [TestableObserver<String>] {
        let box = SubscriptionBox()
        let observers = times.map { time -> TestableObserver<String> in
            let observer = scheduler.createObserver(String.self)
            scheduler.scheduleAt(time) { box.add(observable.subscribe(observer)) }
            return observer
        }
        scheduler.scheduleAt(1000) { box.disposeAll() }
        scheduler.start()
        return observers
    }

    @Test("without share, each subscriber runs the cold source again")
    func cold() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let request = try scheduler.createColdObservable("--a--b|")
        let subscribers = Self.subscribers(scheduler, request.asObservable(), at: [200, 230])
        assertMarbles(subscribers[0], "--a--b|")
        assertMarbles(subscribers[1], "-----a--b|")
        assertSubscriptions(request, "^-----!", "---^-----!")     // two runs: two requests
        try DocumentationImages.check("share-cold", diagram: [
            GuideRow.cold("request, run 1", request, subscription: 0),
            GuideRow.cold("request, run 2", request, subscription: 1),
            GuideRow.events("A", subscribers[0].events, subscription: Subscription(200)),
            GuideRow.events("B (at frame 3)", subscribers[1].events, subscription: Subscription(230)),
        ])
    }

    @Test("with share, subscribers share one run; replay gives late ones the latest element")
    func share() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let request = try scheduler.createColdObservable("--a--b|")
        let subscribers = Self.subscribers(scheduler, request.share(), at: [200, 230])
        assertMarbles(subscribers[0], "--a--b|")
        assertMarbles(subscribers[1], "-----b|")                 // a was sent before B came
        assertSubscriptions(request, "^-----!")                    // one run

        let other = TestScheduler(initialClock: 0)
        let request2 = try other.createColdObservable("--a--b|")
        let replaying = Self.subscribers(other, request2.share(replay: 1), at: [200, 230])
        assertMarbles(replaying[0], "--a--b|")
        assertMarbles(replaying[1], "---a-b|")                   // a is replayed when B subscribes
        assertSubscriptions(request2, "^-----!")

        try DocumentationImages.check("share", diagram: [
            GuideRow.cold("request, one run", request),
            GuideRow.events("A", subscribers[0].events, subscription: Subscription(200)),
            GuideRow.events("B with share()", subscribers[1].events, subscription: Subscription(230)),
            GuideRow.events("B with share(replay: 1)", replaying[1].events, subscription: Subscription(230)),
        ])
    }

    @Test("after the source completed, .whileConnected runs it again; .forever replays the end")
    func scopes() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let request = try scheduler.createColdObservable("--a--b|")
        let whileConnected = Self.subscribers(scheduler, request.share(replay: 1), at: [200, 300])
        assertMarbles(whileConnected[1], "------------a--b|")     // a new run of the request
        assertSubscriptions(request, "^-----!", "----------^-----!")

        let other = TestScheduler(initialClock: 0)
        let request2 = try other.createColdObservable("--a--b|")
        let forever = Self.subscribers(other, request2.share(replay: 1, scope: .forever), at: [200, 300])
        assertMarbles(forever[1], "----------(b|)")             // the buffer and the completion
        assertSubscriptions(request2, "^-----!")

        try DocumentationImages.check("share-scope", diagram: [
            GuideRow.events("A", whileConnected[0].events, subscription: Subscription(200)),
            GuideRow.events("C at frame 10, .whileConnected", whileConnected[1].events, subscription: Subscription(300)),
            GuideRow.events("C at frame 10, .forever", forever[1].events, subscription: Subscription(300)),
        ])
    }

    @Test("share disconnects when the last subscriber leaves")
    func refCounting() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let ticks = try scheduler.createHotObservable("-1-2-3-4-5-6-|")
        let shared = ticks.share()
        let a = scheduler.createObserver(String.self)
        let b = scheduler.createObserver(String.self)
        let subscriptionA = SubscriptionBox()
        let subscriptionB = SubscriptionBox()
        scheduler.scheduleAt(200) { subscriptionA.add(shared.subscribe(a)) }
        scheduler.scheduleAt(240) { subscriptionB.add(shared.subscribe(b)) }
        scheduler.scheduleAt(260) { subscriptionA.disposeAll() }
        scheduler.scheduleAt(280) { subscriptionB.disposeAll() }
        scheduler.start()
        assertMarbles(a, "-1-2-3")
        assertMarbles(b, "-----3-4")
        assertSubscriptions(ticks, "^-------!")                    // A's subscribe to B's dispose
    }

    @Test("publish shares nothing until connect()")
    func publish() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let ticks = try scheduler.createHotObservable("-1-2-3-4-|")
        let published = ticks.publish()
        let early = scheduler.createObserver(String.self)
        let box = SubscriptionBox()
        scheduler.scheduleAt(200) { box.add(published.subscribe(early)) }
        scheduler.scheduleAt(240) { box.add(published.connect()) }
        scheduler.scheduleAt(1000) { box.disposeAll() }
        scheduler.start()
        assertMarbles(early, "-----3-4-|")
        assertSubscriptions(ticks, "----^----!")
    }
}
