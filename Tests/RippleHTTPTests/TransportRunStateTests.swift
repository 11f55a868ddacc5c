import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import RippleHTTP
import RippleTest
import XCTest

/// The run skeleton every transport shares: the pure decisions
/// (`TransportRunState`), and `TransportRun` giving a connection slot back
/// exactly once, whatever ends the request.
final class TransportRunStateTests: RippleTestCase {
    private let request = URLRequest(url: URL(string: "http://a.test/start")!)

    func testAGrantedRequestIsHandedOverRunsAndFinishesOnce() {
        var state = TransportRunState<Int>(request: request)
        XCTAssertFalse(state.mayHandOver, "no slot yet")
        XCTAssertTrue(state.granted())
        XCTAssertTrue(state.mayHandOver)
        XCTAssertTrue(state.handedOver(1))
        guard case .running(1) = state.phase else { return XCTFail("\(state.phase)") }
        state.finish()
        guard case .finished = state.phase else { return XCTFail("\(state.phase)") }
        XCTAssertFalse(state.handedOver(2), "nothing is handed over after the end")
        XCTAssertTrue(state.releaseSlot())
        XCTAssertFalse(state.releaseSlot(), "the slot goes back once")
    }

    func testADisposeWhileWaitingWithdrawsAndALateGrantGivesTheSlotBack() {
        var state = TransportRunState<Int>(request: request)
        guard case .withdraw = state.dispose() else { return XCTFail("a waiting request leaves the queue") }
        XCTAssertFalse(state.releaseSlot(), "no slot held")
        XCTAssertFalse(state.granted(), "the grant came anyway: nothing is sent")
        XCTAssertTrue(state.releaseSlot())
        XCTAssertFalse(state.releaseSlot())
        guard case .disposed = state.phase else { return XCTFail("\(state.phase)") }
    }

    func testADisposeDuringTheHandOverSendsNothing() {
        var state = TransportRunState<Int>(request: request)
        XCTAssertTrue(state.granted())
        guard case .nothing = state.dispose() else { return XCTFail("the hand-over sees the dispose") }
        XCTAssertFalse(state.mayHandOver)
        XCTAssertFalse(state.handedOver(1), "a task made meanwhile is cancelled")
        state.finish()
        guard case .disposed = state.phase else { return XCTFail("\(state.phase)") }
        XCTAssertTrue(state.releaseSlot())
    }

    func testAReceiverThatWantsNoMoreCancelsTheTaskOnceAndADisposeAfterItCancelsNothing() {
        var state = TransportRunState<Int>(request: request)
        XCTAssertNil(state.stop(), "nothing running yet")
        XCTAssertTrue(state.granted())
        XCTAssertTrue(state.handedOver(4))
        XCTAssertEqual(state.stop(), 4, "over the size limit: the task is cancelled")
        XCTAssertNil(state.stop(), "once: FoundationNetworking makes every cancel wait for its work queue")
        guard case .nothing = state.dispose() else { return XCTFail("already cancelled") }
        XCTAssertFalse(state.resendAfterLostConnection(), "a stopped transfer is not sent again")
        XCTAssertFalse(state.mayHandOver, "nor redirected")
    }

    func testALostConnectionResendsAnIdempotentRequestOnceAndNeverAfterADisposeOrForAPost() {
        var state = TransportRunState<Int>(request: request)
        XCTAssertTrue(state.granted())
        XCTAssertTrue(state.handedOver(1))
        XCTAssertTrue(state.resendAfterLostConnection(), "a GET goes once more")
        XCTAssertTrue(state.handedOver(2))
        XCTAssertFalse(state.resendAfterLostConnection(), "not a third time")

        var post = request
        post.httpMethod = "POST"
        var posting = TransportRunState<Int>(request: post)
        XCTAssertTrue(posting.granted())
        XCTAssertTrue(posting.handedOver(1))
        XCTAssertFalse(posting.resendAfterLostConnection(), "a POST is not repeated")

        var disposed = TransportRunState<Int>(request: request)
        XCTAssertTrue(disposed.granted())
        XCTAssertTrue(disposed.handedOver(1))
        guard case .cancel(1) = disposed.dispose() else { return XCTFail("the task in flight is cancelled") }
        XCTAssertFalse(disposed.resendAfterLostConnection(), "nothing is sent after a dispose")
        XCTAssertFalse(disposed.handedOver(2), "nor handed over (a redirect)")
    }

    func testADisposeWhileRunningCancelsTheTaskAndItsEndFinishesTheRun() {
        var state = TransportRunState<Int>(request: request)
        XCTAssertTrue(state.granted())
        XCTAssertTrue(state.handedOver(7))
        guard case .cancel(7) = state.dispose() else { return XCTFail("the task in flight is cancelled") }
        guard case .running(7) = state.phase else { return XCTFail("\(state.phase)") }
        state.finish()
        guard case .finished = state.phase else { return XCTFail("\(state.phase)") }
        guard case .nothing = state.dispose() else { return XCTFail("a finished run has nothing to cancel") }
    }

    func testAFollowedRedirectBecomesTheCurrentRequestAndARefusedOneTheStopReason() {
        var state = TransportRunState<Int>(request: request)
        let policy = RedirectPolicy(maximumRedirects: 1)
        guard case .follow(let next) = state.redirect(by: policy, status: 302, location: "/next", responseURL: request.url) else {
            return XCTFail("the first redirect is followed")
        }
        XCTAssertEqual(next.url?.absoluteString, "http://a.test/next")
        XCTAssertEqual(state.current.url, next.url)
        XCTAssertEqual(state.redirects, 1)
        XCTAssertNil(state.stopReason)

        guard case .fail(let error) = state.redirect(by: policy, status: 302, location: "/again", responseURL: next.url) else {
            return XCTFail("over the limit")
        }
        XCTAssertEqual(state.stopReason?.localizedDescription, error.localizedDescription)
        XCTAssertEqual(state.current.url, next.url, "a refused redirect is not followed")

        guard case .deliver = state.redirect(by: policy, status: 200, location: nil, responseURL: next.url) else {
            return XCTFail("not a redirect")
        }
    }

    func testTheRunGivesItsSlotBackOnceWhoeverEndsIt() {
        let limiter = ConnectionLimiter(limit: 1)
        let handedOver = Counter()
        func makeRun() -> TransportRun<Int> {
            TransportRun(
                request: request, limiter: limiter, started: {},
                receiver: ResponseReceiver(collectingUpTo: 0, observer: { _ in }), cancel: { _ in })
        }
        let first = makeRun(), second = makeRun(), third = makeRun()
        first.begin { handedOver.increment() }
        second.begin { handedOver.increment() }
        third.begin { handedOver.increment() }
        XCTAssertEqual(handedOver.value, 1, "one slot: the others wait")
        XCTAssertEqual(limiter.snapshot.waiting.values.first?.count, 2)

        second.dispose()
        XCTAssertEqual(limiter.snapshot.waiting.values.first?.count, 1, "a disposed request leaves the queue")

        first.finish(nil)
        XCTAssertEqual(handedOver.value, 2, "the slot passes to the third, not to the disposed second")
        first.finish(nil)
        first.dispose()
        XCTAssertEqual(limiter.snapshot.running.values.first, 1, "ending the first again gives nothing back")

        third.handOverLocked { _ in 3 }
        third.dispose()
        XCTAssertEqual(limiter.snapshot.running.values.first, 1, "cancelled, not ended yet: the slot is held")
        third.finish(nil)
        XCTAssertEqual(limiter.snapshot, ConnectionSlots(limit: 1), "everything given back")
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
