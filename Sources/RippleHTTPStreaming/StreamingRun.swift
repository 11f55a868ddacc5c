import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One subscription to a streamed response: owns the lock, the current
/// connection and the timers, and does what its ``StreamingMachine`` decides.
///
/// Connections follow one another (a new one opens only after the previous
/// one was closed), each part of a connection arrives from the transport
/// before the next, and the elements are delivered outside the lock: events
/// to the observer never overlap. Stale callbacks of a closed connection are
/// recognised by its generation and ignored.
final class StreamingRun<Format: StreamFormat, Output>: @unchecked Sendable {
    /// What happens to the connections, for observers that want to see it.
    enum Status {
        /// Connection number `attempt` (from 1) opens with `request`.
        case connecting(attempt: Int, request: URLRequest)
        case connected
        case waiting(TimeInterval, error: Error?)
    }

    private let lock = PlatformLock()
    private var machine: StreamingMachine<Format>
    private var observer: AnyObserver<Output>?
    /// Connections opened so far.
    private var attempts = 0
    private let output: (Format.Element) -> Output
    /// Turns a status into an output; `nil`: statuses are not delivered.
    private let status: ((Status) -> Output)?
    private var connection: Disposable?
    private var timer: Disposable?
    /// Increases with each connection; callbacks of older ones are ignored.
    private var generation = 0

    private let client: any HTTPClient
    private let scheduler: any SchedulerType
    /// How long a connection may take to answer (to its head), from when the
    /// transport sends it.
    private let timeout: RxTimeInterval?

    init(
        machine: StreamingMachine<Format>, client: any HTTPClient, scheduler: any SchedulerType, timeout: RxTimeInterval?,
        observer: AnyObserver<Output>, output: @escaping (Format.Element) -> Output, status: ((Status) -> Output)?
    ) {
        self.machine = machine
        self.output = output
        self.status = status
        self.client = client
        self.scheduler = scheduler
        self.timeout = timeout
        self.observer = observer
    }

    /// Opens the first connection.
    func start() {
        lock.lock()
        let request = machine.reconnect()
        generation += 1
        let generation = self.generation
        lock.unlock()
        connect(request, generation)
    }

    /// Closes everything; nothing is delivered from now on.
    func dispose() {
        lock.lock()
        observer = nil
        machine.cancel()
        generation += 1
        let held = (connection, timer)
        connection = nil
        timer = nil
        lock.unlock()
        held.0?.dispose()
        held.1?.dispose()
    }

    private func connect(_ request: URLRequest, _ generation: Int) {
        if let status {
            lock.lock()
            attempts += 1
            let observer = generation == self.generation ? self.observer : nil
            let attempt = attempts
            lock.unlock()
            observer?.onNext(status(.connecting(attempt: attempt, request: request)))
        }
        let subscription = client.stream(request, whenStarted: { [weak self] in self?.started(generation) })
            .subscribe { [weak self] event in self?.handle(event, generation) }
        lock.lock()
        guard generation == self.generation else {
            // Ended (or disposed) while subscribing: a synchronous transport.
            lock.unlock()
            subscription.dispose()
            return
        }
        connection = subscription
        lock.unlock()
    }

    /// The transport sent the request: the timeout starts.
    private func started(_ generation: Int) {
        guard let timeout else { return }
        let scheduled = scheduler.scheduleRelative((), dueTime: timeout) { [weak self] _ in
            self?.expire(generation)
            return Disposables.create()
        }
        lock.lock()
        guard generation == self.generation else {
            lock.unlock()
            scheduled.dispose()
            return
        }
        let previous = timer
        timer = scheduled
        lock.unlock()
        previous?.dispose()
    }

    private func expire(_ generation: Int) {
        lock.lock()
        guard generation == self.generation else {
            lock.unlock()
            return
        }
        let step = machine.timedOut(now: scheduler.now)
        lock.unlock()
        perform(step)
    }

    private func handle(_ event: Event<HTTPResponsePart>, _ generation: Int) {
        lock.lock()
        guard generation == self.generation else {
            lock.unlock()
            return
        }
        let now = scheduler.now
        let step: StreamingMachine<Format>.Step
        switch event {
        case .next(.head(let head)):
            step = machine.receivedHead(head, now: now)
            if case .open = machine.phase {
                // Answered: the timeout is over.
                timer?.dispose()
                timer = nil
            }
        case .next(.body(let chunk)):
            step = machine.receivedBody(chunk, now: now)
        case .error(let error):
            step = machine.ended(error, now: now)
        case .completed:
            step = machine.ended(nil, now: now)
        }
        lock.unlock()
        perform(step)
    }

    /// Delivers the step's elements and status (outside the lock), then does
    /// its action.
    private func perform(_ step: StreamingMachine<Format>.Step) {
        for element in step.elements {
            lock.lock()
            let observer = self.observer
            lock.unlock()
            guard let observer else { return }
            observer.onNext(output(element))
        }
        if let status, let change = step.status {
            lock.lock()
            let observer = self.observer
            lock.unlock()
            switch change {
            case .connected: observer?.onNext(status(.connected))
            case .waiting(let delay, let error): observer?.onNext(status(.waiting(delay, error: error)))
            }
        }
        guard let action = step.action else { return }
        lock.lock()
        generation += 1
        let generation = self.generation
        let held = (connection, timer)
        connection = nil
        timer = nil
        let observer: AnyObserver<Output>?
        switch action {
        case .reconnect:
            observer = nil
        case .complete, .fail:
            observer = self.observer
            self.observer = nil
        }
        lock.unlock()
        held.0?.dispose()
        held.1?.dispose()
        switch action {
        case .reconnect(let delay):
            let wait = scheduler.scheduleRelative((), dueTime: .fromSeconds(delay)) { [weak self] _ in
                self?.reconnect(generation)
                return Disposables.create()
            }
            lock.lock()
            if generation == self.generation {
                timer = wait
                lock.unlock()
            } else {
                lock.unlock()
                wait.dispose()
            }
        case .complete:
            observer?.onCompleted()
        case .fail(let error):
            observer?.onError(error)
        }
    }

    private func reconnect(_ generation: Int) {
        lock.lock()
        guard generation == self.generation else {
            lock.unlock()
            return
        }
        timer = nil
        let request = machine.reconnect()
        self.generation += 1
        let next = self.generation
        lock.unlock()
        connect(request, next)
    }
}
