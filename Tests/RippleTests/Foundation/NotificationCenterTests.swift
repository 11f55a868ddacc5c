import Foundation
import Ripple
import RippleTest
import XCTest

/// `NotificationCenter.rx.notification(_:object:)` with RxCocoa's semantics
/// (RxSwift's `NSNotificationCenterTests`, and what they leave out).
final class NotificationCenterTests: RippleTestCase {
    private let notificationName = Notification.Name("RippleTestNotification")

    func testNotificationsWithoutAnObjectFilter() {
        let center = NotificationCenter()
        var received = 0
        center.post(name: notificationName, object: nil)

        let subscription = center.rx.notification(notificationName).subscribe(onNext: { _ in received += 1 })
        XCTAssertEqual(received, 0, "nothing is replayed")
        center.post(name: notificationName, object: nil)
        XCTAssertEqual(received, 1, "delivered before post returns")
        center.post(name: notificationName, object: NSObject())
        XCTAssertEqual(received, 2, "any sender")
        center.post(name: Notification.Name("Other"), object: nil)
        XCTAssertEqual(received, 2, "only the name asked for")

        subscription.dispose()
        center.post(name: notificationName, object: nil)
        XCTAssertEqual(received, 2, "the observer is removed on dispose")
    }

    func testNotificationsFromOneObject() {
        let center = NotificationCenter()
        let target = NSObject()
        var senders: [ObjectIdentifier?] = []
        let subscription = center.rx.notification(notificationName, object: target)
            .subscribe(onNext: { senders.append(($0.object as AnyObject?).map(ObjectIdentifier.init)) })

        center.post(name: notificationName, object: target)
        center.post(name: notificationName, object: nil)
        center.post(name: notificationName, object: NSObject())
        center.post(name: notificationName, object: target)
        XCTAssertEqual(senders, [ObjectIdentifier(target), ObjectIdentifier(target)])

        subscription.dispose()
        center.post(name: notificationName, object: target)
        XCTAssertEqual(senders.count, 2)
    }

    func testEveryNameWhenTheNameIsNil() {
        let center = NotificationCenter()
        var names: [Notification.Name] = []
        let subscription = center.rx.notification(nil).subscribe(onNext: { names.append($0.name) })
        center.post(name: notificationName, object: nil)
        center.post(name: Notification.Name("Other"), object: nil)
        XCTAssertEqual(names, [notificationName, Notification.Name("Other")])
        subscription.dispose()
    }

    func testTheNotificationCarriesItsUserInfo() throws {
        let center = NotificationCenter()
        var userInfo: [AnyHashable: Any]?
        let subscription = center.rx.notification(notificationName).subscribe(onNext: { userInfo = $0.userInfo })
        center.post(name: notificationName, object: nil, userInfo: ["count": 3])
        XCTAssertEqual(try XCTUnwrap(userInfo?["count"] as? Int), 3)
        subscription.dispose()
    }

    func testEachSubscriptionIsAnObserverOfItsOwn() {
        let center = NotificationCenter()
        let notification = center.rx.notification(notificationName)
        var first = 0
        var second = 0
        let a = notification.subscribe(onNext: { _ in first += 1 })
        let b = notification.subscribe(onNext: { _ in second += 1 })
        center.post(name: notificationName, object: nil)
        a.dispose()
        center.post(name: notificationName, object: nil)
        XCTAssertEqual(first, 1)
        XCTAssertEqual(second, 2)
        b.dispose()
    }

    func testTheObjectIsNotRetainedAndAReleasedObjectMatchesNothing() {
        let center = NotificationCenter()
        var target: NSObject? = NSObject()
        weak let watched = target
        let notification = center.rx.notification(notificationName, object: target)
        target = nil
        XCTAssertNil(watched, "the observable does not keep the object")

        var received = 0
        let subscription = notification.subscribe(onNext: { _ in received += 1 })
        center.post(name: notificationName, object: nil)
        center.post(name: notificationName, object: NSObject())
        XCTAssertEqual(received, 0, "no sender can be the released object")
        subscription.dispose()
    }

    func testDeliveredOnThePostingThread() {
        let center = NotificationCenter()
        let onPostingThread = Recorder<Bool>()
        let subscription = center.rx.notification(notificationName)
            .subscribe(onNext: { onPostingThread.append(($0.object as? Thread) === Thread.current) })
        let posted = expectation(description: "posted on another thread")
        let name = notificationName
        let thread = Thread {
            center.post(name: name, object: Thread.current)
            posted.fulfill()
        }
        thread.start()
        wait(for: [posted], timeout: 5)
        center.post(name: notificationName, object: Thread.current)
        XCTAssertEqual(onPostingThread.values, [true, true])
        subscription.dispose()
    }

    func testAPostFromTheSubscriberIsDeliveredAfterTheCurrentOne() {
        // RxCocoa would recurse; Ripple keeps the contract, as its subjects do.
        let center = NotificationCenter()
        var log: [String] = []
        let subscription = center.rx.notification(notificationName).subscribe(onNext: { notification in
            let label = notification.object as? String ?? "?"
            log.append("begin \(label)")
            if label == "outer" {
                center.post(name: self.notificationName, object: "inner" as NSString)
            }
            log.append("end \(label)")
        })
        center.post(name: notificationName, object: "outer" as NSString)
        XCTAssertEqual(log, ["begin outer", "end outer", "begin inner", "end inner"])
        subscription.dispose()
    }
}

/// Posts from several threads at once; also run under ThreadSanitizer.
final class NotificationCenterConcurrencyTests: RippleTestCase {
    func testConcurrentPostsReachTheSubscriberOneAtATime() {
        let center = NotificationCenter()
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let count = Atomic<Int>(0)
        let name = Notification.Name("RippleTestNotification")
        let subscription = center.rx.notification(name).subscribe(onNext: { _ in
            if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 {
                overlaps.add(1, ordering: .relaxed)
            }
            count.add(1, ordering: .relaxed)
            inside.subtract(1, ordering: .acquiringAndReleasing)
        })
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<500 {
                center.post(name: name, object: nil)
            }
        }
        subscription.dispose()
        XCTAssertEqual(overlaps.load(ordering: .relaxed), 0)
        XCTAssertEqual(count.load(ordering: .relaxed), 2_000)
    }
}
