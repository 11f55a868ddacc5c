/// The pipeline: how synchronous operators are built and fused.
///
/// An operator that turns each upstream event into at most one downstream event,
/// on the delivering thread and before returning (`map`, `filter`, `take`, ...),
/// declares a ``PipelineStep`` and applies it with
/// ``ObservableType/appending(_:)``. Consecutive steps run as one pipeline: one
/// immutable ``PipelineStage`` per operator applied, and one ``PipelineSink`` per
/// subscription, however many steps there are. docs/Architecture.md ("Synchronous
/// operators: the pipeline") explains the design and its budget.

// MARK: Steps

/// What a step makes of one element, or of the end of its input: `.0`, the
/// element to pass on (nil: none), and `.1`, whether the stream completes after
/// it. So `(x, false)` passes `x` on, `(nil, false)` skips the input, `(x, true)`
/// passes `x` on then completes, `(nil, true)` completes. A failure is not a
/// case: it is thrown (so that, for a trivial `Output`, the result is a trivial
/// value, copied without reference counting).
///
/// A tuple rather than an enum (see "State is a tuple" in docs/Architecture.md):
/// a generic enum's value witnesses would be compiled into Ripple's binary, and
/// every app would link them, though a step's result never leaves the inlined,
/// specialised code that makes and reads it. Unlabelled: where a pipeline is
/// compiled once (the trait `CompactPipelines`), each entry point looks the
/// tuple's type up at run time, and with labels those lookups took a third of
/// a `map` → `filter` chain's instructions per event (docs/Performance.md,
/// "The step's result without labels").
@usableFromInline
typealias StepResult<Output> = (Output?, Bool)

/// One synchronous operator, as a pipeline runs it: its parameters, and what it
/// does with each element and with the end of its input.
///
/// `State` is what one subscription keeps between elements (`take`'s remaining
/// count, `scan`'s accumulated value), made by ``start()`` when a subscription
/// starts; `Void` for stateless steps. An error thrown by ``next(_:_:)``,
/// ``complete(_:)`` or ``fail(_:_:)`` fails the stream, as it would in the
/// operator's own sink: the steps after it see it in their ``fail(_:_:)``.
@usableFromInline
protocol PipelineStep {
    associatedtype Input
    associatedtype Output
    associatedtype State = Void

    /// A new subscription's state.
    func start() -> State

    /// One element.
    func next(_ input: Input, _ state: inout State) throws -> StepResult<Output>

    /// The input completed. By default, completes.
    func complete(_ state: inout State) throws -> StepResult<Output>

    /// The input failed. By default, fails with the same error (throws it).
    func fail(_ error: Swift.Error, _ state: inout State) throws -> StepResult<Output>

    #if CompactPipelines
    /// ``next(_:_:)``, with the element to pass on written to `output`
    /// (uninitialised before the call; initialised after it exactly when the
    /// result's `passes` is `true` and nothing was thrown). Only with the trait
    /// `CompactPipelines`, where a stage alone runs it (see ``StepFlow``); by
    /// default it calls ``next(_:_:)``, and the steps most chains start with
    /// (`map`, `compactMap`, `filter`) write their element themselves.
    func next(_ input: Input, _ state: inout State, into output: UnsafeMutablePointer<Output>) throws -> StepFlow

    /// ``complete(_:)``, in the same form as ``next(_:_:into:)``. By default
    /// it calls ``complete(_:)``; the steps that complete plainly (`map`,
    /// `compactMap`, `filter`) say so without making a ``StepResult``.
    func complete(_ state: inout State, into output: UnsafeMutablePointer<Output>) throws -> StepFlow
    #endif
}

#if CompactPipelines
/// What a step made of one element when it wrote the element itself
/// (``PipelineStep/next(_:_:into:)``): whether it passes one on, and whether
/// the stream ends after it, as ``StepResult``'s two parts. Not generic:
/// compiled once (the trait `CompactPipelines`), a function looks up on every
/// call each generic type it uses, and `StepResult`'s tuple and `Optional` were
/// about half of a `map` → `filter` chain's instructions per event
/// (docs/Architecture.md, "Compact pipelines").
@usableFromInline
struct StepFlow {
    @usableFromInline
    let passes: Bool
    @usableFromInline
    let ends: Bool

    @_alwaysEmitIntoClient
    init(passes: Bool, ends: Bool) {
        self.passes = passes
        self.ends = ends
    }
}

extension PipelineStep {
    /// By default: ``next(_:_:)``'s result, its element moved to `output`.
    @_alwaysEmitIntoClient
    func next(_ input: Input, _ state: inout State, into output: UnsafeMutablePointer<Output>) throws -> StepFlow {
        let result = try next(input, &state)
        guard let element = result.0 else { return StepFlow(passes: false, ends: result.1) }
        output.initialize(to: element)
        return StepFlow(passes: true, ends: result.1)
    }

    /// By default: ``complete(_:)``'s result, its element moved to `output`.
    @_alwaysEmitIntoClient
    func complete(_ state: inout State, into output: UnsafeMutablePointer<Output>) throws -> StepFlow {
        let result = try complete(&state)
        guard let element = result.0 else { return StepFlow(passes: false, ends: result.1) }
        output.initialize(to: element)
        return StepFlow(passes: true, ends: result.1)
    }

    /// ``apply(_:_:_:)`` on an element of the input (`ends`: its last), in the
    /// form of ``next(_:_:into:)``: what the step passes on is written to
    /// `output`.
    @_alwaysEmitIntoClient
    @inline(__always)
    func apply(
        element input: Input, ends: Bool, _ state: inout State, _ context: PipelineContext,
        into output: UnsafeMutablePointer<Output>
    ) throws -> StepFlow {
        if context.isStopped { return StepFlow(passes: false, ends: false) }
        let flow = try next(input, &state, into: output)
        guard ends else { return flow }
        // The input's last element: whatever the step makes of it, the stream
        // then ends; if it made nothing, the step completes.
        if !flow.passes && !flow.ends {
            return StepFlow(passes: try complete(&state, into: output).passes, ends: true)
        }
        return StepFlow(passes: flow.passes, ends: true)
    }

    /// ``apply(_:_:_:)`` on no element: skipped (`ends` false), or the end of
    /// the input.
    @_alwaysEmitIntoClient
    @inline(__always)
    func apply(
        endingWith ends: Bool, _ state: inout State, _ context: PipelineContext, into output: UnsafeMutablePointer<Output>
    ) throws -> StepFlow {
        if context.isStopped || !ends { return StepFlow(passes: false, ends: false) }
        return StepFlow(passes: try complete(&state, into: output).passes, ends: true)
    }

    /// ``applyFailure(_:_:_:)``, in the same form. Its ``StepResult`` makes
    /// it for cold paths only, out of line.
    @_alwaysEmitIntoClient
    @inline(__always)
    func applyFailure(
        _ error: Swift.Error, _ state: inout State, _ context: PipelineContext, into output: UnsafeMutablePointer<Output>
    ) throws -> StepFlow {
        if context.isStopped { return StepFlow(passes: false, ends: false) }
        guard let element = try fail(error, &state).0 else { return StepFlow(passes: false, ends: true) }
        output.initialize(to: element)
        return StepFlow(passes: true, ends: true)
    }
}
#endif

extension PipelineStep {
    @_alwaysEmitIntoClient
    func complete(_ state: inout State) throws -> StepResult<Output> { (nil, true) }

    @_alwaysEmitIntoClient
    func fail(_ error: Swift.Error, _ state: inout State) throws -> StepResult<Output> { throw error }
}

extension PipelineStep where State == Void {
    @_alwaysEmitIntoClient
    func start() {}
}

extension PipelineStep {
    /// This step applied to what the steps before it made of one input: the one
    /// place where the pipeline's semantics live (which step sees what, and when
    /// the stream ends), for every stage, the sink and the runs on a `just`.
    ///
    /// - `context.isStopped`: the subscription was disposed (possibly by a closure
    ///   of an earlier step): no further step runs, as every separate sink checks
    ///   its disposed flag first.
    /// - A terminal input gives a terminal result: what the step makes of the
    ///   last element or of the end ends the stream too.
    /// - An error thrown here fails the stream; ``applyFailure(_:_:_:)`` is the
    ///   same for an error thrown before this step.
    @_alwaysEmitIntoClient
    @inline(__always)
    func apply(_ upstream: StepResult<Input>, _ state: inout State, _ context: PipelineContext) throws -> StepResult<Output> {
        if context.isStopped { return (nil, false) }
        guard let input = upstream.0 else {
            // Skipped, or the end of the input.
            return upstream.1 ? (try complete(&state).0, true) : (nil, false)
        }
        let result = try next(input, &state)
        guard upstream.1 else { return result }
        // The input's last element: whatever the step makes of it, the stream
        // then ends; if it made nothing, the step completes.
        if result.0 == nil && !result.1 {
            return (try complete(&state).0, true)
        }
        return (result.0, true)
    }

    /// This step applied to a failure of the steps before it (or of the source).
    @_alwaysEmitIntoClient
    func applyFailure(_ error: Swift.Error, _ state: inout State, _ context: PipelineContext) throws -> StepResult<Output> {
        if context.isStopped { return (nil, false) }
        return (try fail(error, &state).0, true)
    }
}

extension ObservableType {
    /// This sequence followed by `step`: the way a synchronous operator is
    /// applied (see ``PipelineStep``). A new stage every time; nothing that
    /// exists is changed. `site` is the operator's (see ``OperatorSite``).
    ///
    /// With the package trait `CompactPipelines`, the stage is made by
    /// `PipelineStage.makeOnce(_:after:site:)`, compiled once in Ripple,
    /// rather than by `PipelineStage.make(_:after:site:)` specialised in the
    /// app for each step type (docs/Architecture.md, "Compact pipelines").
    @_alwaysEmitIntoClient
    func appending<Step: PipelineStep>(_ step: Step, site: SiteLiteral) -> Observable<Step.Output> where Step.Input == Element {
        #if CompactPipelines
        PipelineStage.makeOnce(step, after: asObservable(), site: site)
        #else
        PipelineStage.make(step, after: asObservable(), site: site)
        #endif
    }
}

// MARK: Stages

/// What a stage's steps run on, per subscription: the state block (the states of
/// every step up to the stage, see ``PipelineStage/stateOffset``) and the sink,
/// if there is one (a run on a `just` has none).
@usableFromInline
struct PipelineContext {
    @usableFromInline
    let state: UnsafeMutableRawPointer

    /// Unretained: the sink runs the steps, so it is alive while they run. (A
    /// strong or `unowned(unsafe)` field cost a retain and a release per element:
    /// the initialiser takes its argument owned.)
    @usableFromInline
    let sink: Unmanaged<PipelineSinkCore>?

    @_alwaysEmitIntoClient
    init(state: UnsafeMutableRawPointer, sink: Unmanaged<PipelineSinkCore>?) {
        self.state = state
        self.sink = sink
    }

    @_alwaysEmitIntoClient
    var isStopped: Bool {
        guard let sink else { return false }
        return sink._withUnsafeGuaranteedRef { $0.isDisposed }
    }
}

#if CompactPipelines
/// A stage's ``Pipeline/pull``: the steps up to and including the stage on
/// one input of the pipeline, in the form of ``PipelineStep/next(_:_:into:)``.
/// The input is an element (the address of the first step's output, which the
/// stage moves out; for a `just`, any address: its element) or none, whether
/// it ends the stream, or what the first step threw; the stage's element is
/// written to the last argument. (The trait `CompactPipelines`: a function
/// compiled once looks up every generic type it uses on every call, and a
/// ``StepResult``'s tuple and `Optional` were most of a stage's cost.)
@usableFromInline
typealias PullFunction<Output> = (
    Pipeline<Output>, PipelineContext, UnsafeMutableRawPointer?, _ ends: Bool, Swift.Error?, UnsafeMutablePointer<Output>
) throws -> StepFlow

/// A pipeline sink's ``PipelineSinkCore/receive``: the first step's output
/// (moved out by the callee) or none, whether it ends the stream, or what the
/// first step threw.
@usableFromInline
typealias ReceiveFunction = (PipelineSinkCore, UnsafeMutableRawPointer?, _ ends: Bool, Swift.Error?) -> Void
#else
/// A stage's ``Pipeline/pull``: the steps up to and including the stage on
/// one input of the pipeline (see ``PipelineStage/pullHere(_:_:_:at:)``).
@usableFromInline
typealias PullFunction<Output> = (Pipeline<Output>, PipelineContext, UnsafeRawPointer?, Swift.Error?) throws -> StepResult<Output>

/// A pipeline sink's ``PipelineSinkCore/receive``: a pointer to the first
/// step's result, or what the first step threw.
@usableFromInline
typealias ReceiveFunction = (PipelineSinkCore, UnsafeRawPointer?, Swift.Error?) -> Void
#endif

/// Calls `body` with `object` as the `T` it is known to be, without reference
/// counting: `unsafeDowncast` returns a new (+1) reference, which cost a retain
/// and a release per stage and element.
@_alwaysEmitIntoClient
@inline(__always)
func withBorrowed<T: AnyObject, Result>(_ object: AnyObject, as type: T.Type, _ body: (T) throws -> Result) rethrows -> Result {
    try Unmanaged<T>.fromOpaque(Unmanaged.passUnretained(object).toOpaque())._withUnsafeGuaranteedRef(body)
}

/// A stage of a pipeline, seen from the stages after it: what they need to know
/// about it whatever its step is. Its behaviour is a set of functions that
/// capture nothing and receive the stage itself; ``PipelineStage`` creates them
/// where the operator is applied, so they run code compiled for the caller's
/// concrete types (a method overridden in a generic class would run unspecialised,
/// looking type metadata up at run time).
@usableFromInline
class Pipeline<Output>: HandlersProducer<Output>, @unchecked Sendable {
    /// Runs the steps up to and including this stage on one input of the
    /// pipeline (see ``PipelineStage/pullHere(_:_:_:)`` for what the input is);
    /// throws the stream's failure.
    @usableFromInline
    let pull: PullFunction<Output>

    /// Initialises (`true`) or deinitialises (`false`) the states of the steps up
    /// to and including this stage in a state block.
    @usableFromInline
    let prepareStates: (Pipeline<Output>, UnsafeMutableRawPointer, _ initialize: Bool) -> Void

    /// Subscribes `sink` to the pipeline's source (through the first stage).
    @usableFromInline
    let subscribeSource: (Pipeline<Output>, PipelineSinkCore) -> SubscriptionBase?

    /// This stage followed by `filter(predicate)` (applied at the site given), as
    /// one new stage (see ``PipelineStage/predicate``); `nil` if the stage has a
    /// predicate already.
    @usableFromInline
    let appendingPredicate: (Pipeline<Output>, @escaping (Output) throws -> Bool, SiteLiteral) -> Observable<Output>?

    /// Bytes and alignment of the state block of a pipeline ending here (`0`: no
    /// step up to here has state).
    @usableFromInline
    let stateSize: Int
    @usableFromInline
    let stateAlignment: Int

    /// Where this stage's input comes from.
    @usableFromInline
    let position: StagePosition

    /// `true` when the pipeline's source is a `just`: then it runs during
    /// `subscribe`, without a sink (``runOnJust(_:)``).
    @usableFromInline
    let sourceIsJust: Bool

    @_alwaysEmitIntoClient
    init(
        pull: @escaping PullFunction<Output>,
        prepareStates: @escaping (Pipeline<Output>, UnsafeMutableRawPointer, _ initialize: Bool) -> Void,
        subscribeSource: @escaping (Pipeline<Output>, PipelineSinkCore) -> SubscriptionBase?,
        appendingPredicate: @escaping (Pipeline<Output>, @escaping (Output) throws -> Bool, SiteLiteral) -> Observable<Output>?,
        site: SiteLiteral,
        position: StagePosition,
        stateSize: Int,
        stateAlignment: Int,
        sourceIsJust: Bool,
        subscribe: @escaping (HandlersProducer<Output>, Downstream<Output>) -> SubscriptionBase?
    ) {
        self.pull = pull
        self.prepareStates = prepareStates
        self.subscribeSource = subscribeSource
        self.appendingPredicate = appendingPredicate
        self.position = position
        self.stateSize = stateSize
        self.stateAlignment = stateAlignment
        self.sourceIsJust = sourceIsJust
        super.init(kind: .stage, site: site, subscribe)
    }

    /// A stage that behaves as `other` does, with the same functions and the
    /// same state layout: for ``PipelineStage/init(_:predicate:predicateSite:)``,
    /// whose stage differs from `other` in its predicate only. Generic over the
    /// output alone, so an app compiles one copy per element type, not one per
    /// step type.
    @_alwaysEmitIntoClient
    init(sameAs other: Pipeline<Output>) {
        pull = other.pull
        prepareStates = other.prepareStates
        subscribeSource = other.subscribeSource
        appendingPredicate = other.appendingPredicate
        position = other.position
        stateSize = other.stateSize
        stateAlignment = other.stateAlignment
        sourceIsJust = other.sourceIsJust
        super.init(
            kind: .stage, site: other.siteLiteral, other.subscribeDownstream)
    }

    /// The address given to steps whose state has no size: a value of a zero-sized
    /// type occupies no memory and is never loaded or stored, so any non-null
    /// address aligned for it will do (64 covers every alignment).
    @_alwaysEmitIntoClient
    static var emptyState: UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(bitPattern: 64).unsafelyUnwrapped
    }

    #if CompactPipelines
    /// Runs the whole pipeline during the call (its source is a `just`), with the
    /// states on the stack, and passes its events on: its elements to `next`
    /// (at most one from the `just`'s element, then, for a step that emits at
    /// the end or turns a failure into an element, one more), then its end to
    /// `end` (`nil`: completed). With the trait `CompactPipelines`: two
    /// functions rather than the default build's one taking an `Event`, since
    /// code compiled once that makes an `Event<Output>` looks its type up on
    /// every call. (Specialised, the two functions cost every program 4 to
    /// 8 KB more code, for about 60 instructions less per run.)
    @_alwaysEmitIntoClient
    final func runOnJust(_ next: (Output) -> Void, end: (Swift.Error?) -> Void) {
        withStates { state in
            let context = PipelineContext(state: state, sink: nil)
            withUnsafeTemporaryAllocation(of: Output.self, capacity: 1) { buffer in
                let output = buffer.baseAddress.unsafelyUnwrapped
                do {
                    // A non-nil input: the `just`'s element; nil: its completion.
                    if !Self.emit(try pull(self, context, state, false, nil, output), output, next, end) {
                        _ = Self.emit(try pull(self, context, nil, true, nil, output), output, next, end)
                    }
                } catch {
                    end(error)
                }
            }
        }
    }

    /// Passes what a ``PullFunction`` made on (the element in `output`, if it
    /// passes one); `true` if it ended the stream.
    @_alwaysEmitIntoClient
    @inline(__always)
    static func emit(
        _ flow: StepFlow, _ output: UnsafeMutablePointer<Output>, _ next: (Output) -> Void, _ end: (Swift.Error?) -> Void
    ) -> Bool {
        if flow.passes {
            next(output.move())
        }
        if flow.ends {
            end(nil)
        }
        return flow.ends
    }
    #else
    /// Runs the whole pipeline during the call (its source is a `just`), with the
    /// states on the stack, and passes its events to `emit`: at most one element
    /// from the `just`'s element, then the end (for a step that emits at the end,
    /// one that turns a failure into an element, one more element with it).
    @_alwaysEmitIntoClient
    final func runOnJust(_ emit: (Event<Output>) -> Void) {
        withStates { state in
            let context = PipelineContext(state: state, sink: nil)
            do {
                // A non-nil input: the `just`'s element; nil: its completion.
                if !Self.emit(try pull(self, context, UnsafeRawPointer(state), nil), emit) {
                    _ = Self.emit(try pull(self, context, nil, nil), emit)
                }
            } catch {
                emit(.error(error))
            }
        }
    }

    /// Passes `result` to `emit` as events; `true` if it ended the stream.
    @_alwaysEmitIntoClient
    @inline(__always)
    static func emit(_ result: StepResult<Output>, _ emit: (Event<Output>) -> Void) -> Bool {
        if let element = result.0 {
            emit(.next(element))
        }
        if result.1 {
            emit(.completed)
        }
        return result.1
    }
    #endif

    /// The pipeline run on its `just` (``runOnJust(_:)``) for `subscribe(observer)`,
    /// an operator's subscription and the handlers of `subscribe(onNext:...)` when
    /// they take the general path (which runs this on the trampoline, as a
    /// subscription would be). Not inlined: it is compiled once per output type,
    /// not once per stage type (every stage's `connect` reaches it).
    @_alwaysEmitIntoClient
    @inline(never)
    final func runOnJust(delivering downstream: Downstream<Output>) {
        #if CompactPipelines
        runOnJust(
            { downstream.next($0) },
            end: { error in
                if let error {
                    downstream.finish(.error(error))
                } else {
                    downstream.finish(.completed)
                }
            })
        #else
        runOnJust { event in downstream.on(event) }
        #endif
    }

    /// The pipeline run on its `just`, collected: what the flatMap family
    /// forwards instead of subscribing to an inner pipeline on a `just`.
    @_alwaysEmitIntoClient
    final func runOnJust() -> PipelineRun<Output> {
        var run: PipelineRun<Output> = (first: nil, second: nil, error: nil)
        #if CompactPipelines
        runOnJust(
            { element in
                if run.first == nil {
                    run.first = element
                } else {
                    run.second = element
                }
            },
            end: { error in
                if let error { run.error = error }
            })
        #else
        runOnJust { event in
            switch event {
            case .next(let element):
                if run.first == nil {
                    run.first = element
                } else {
                    run.second = element
                }
            case .error(let error):
                run.error = error
            case .completed:
                break
            }
        }
        #endif
        return run
    }

    /// `subscribe(onNext:onError:onCompleted:onDisposed:)` on a pipeline whose
    /// source is a `just`: the handlers are called during the call, in the order
    /// a subscription would call them (`onDisposed` last), and nothing is left to
    /// dispose, so no subscription object is made. An error without `onError` goes
    /// to ``Hooks/defaultErrorHandler``, as on the general path.
    @_alwaysEmitIntoClient
    final func runOnJust(
        onNext: ((Output) -> Void)?,
        onError: ((Swift.Error) -> Void)?,
        onCompleted: (() -> Void)?,
        onDisposed: (() -> Void)?
    ) -> Disposable {
        Trampoline.running {
            #if CompactPipelines
            runOnJust(
                { element in onNext?(element) },
                end: { error in
                    if let error {
                        Hooks.report(error, to: onError, callStack: onError == nil ? Hooks.recordedCallStack() ?? [] : [])
                    } else {
                        onCompleted?()
                    }
                    onDisposed?()
                })
            #else
            runOnJust { event in
                switch event {
                case .next(let element):
                    onNext?(element)
                case .error(let error):
                    Hooks.report(error, to: onError, callStack: onError == nil ? Hooks.recordedCallStack() ?? [] : [])
                    onDisposed?()
                case .completed:
                    onCompleted?()
                    onDisposed?()
                }
            }
            #endif
        }
        return Disposables.create()
    }

    /// Runs `body` with an initialised state block on the stack.
    @_alwaysEmitIntoClient
    @inline(__always)
    final func withStates(_ body: (UnsafeMutableRawPointer) -> Void) {
        guard stateSize > 0 else {
            body(Self.emptyState)
            return
        }
        withUnsafeTemporaryAllocation(byteCount: stateSize, alignment: stateAlignment) { buffer in
            let state = buffer.baseAddress.unsafelyUnwrapped
            prepareStates(self, state, true)
            body(state)
            prepareStates(self, state, false)
        }
    }
}

/// The events of a pipeline run on a `just` (``Pipeline/runOnJust()``): at most
/// two elements (one from the `just`'s element, one from its end; `second` only
/// after `first`), then completion, or `error`. A tuple: see "State is a tuple"
/// in docs/Architecture.md.
@usableFromInline
typealias PipelineRun<Output> = (first: Output?, second: Output?, error: Swift.Error?)

/// The functions a stage is made with (``Pipeline``'s `pull`,
/// `prepareStates`, `subscribeSource`, `appendingPredicate` and
/// `subscribe`, and the predicate that passes everything, for a stage without
/// a `filter` after it); see ``PipelineStage/makeFunctions()``.
@usableFromInline
typealias StageFunctions<Output> = (
    passAll: (Output) throws -> Bool,
    pull: PullFunction<Output>,
    prepareStates: (Pipeline<Output>, UnsafeMutableRawPointer, _ initialize: Bool) -> Void,
    subscribeSource: (Pipeline<Output>, PipelineSinkCore) -> SubscriptionBase?,
    appendingPredicate: (Pipeline<Output>, @escaping (Output) throws -> Bool, SiteLiteral) -> Observable<Output>?,
    subscribe: (HandlersProducer<Output>, Downstream<Output>) -> SubscriptionBase?
)

#if CompactPipelines
/// The functions of each step type's stages, made once (see
/// ``PipelineStage/stageFunctions()``), by the step type.
enum StageFunctionsCache {
    static let functions = LockedState<[ObjectIdentifier: AnyObject]>([:])
}

/// A step type's stage functions in ``StageFunctionsCache``.
final class StageFunctionsBox<Output>: @unchecked Sendable {
    let functions: StageFunctions<Output>

    init(_ functions: StageFunctions<Output>) {
        self.functions = functions
    }
}
#endif

/// Where a stage's input comes from, decided when the stage is built.
@usableFromInline
enum StagePosition: UInt8 {
    /// The first stage; its source is subscribed to. The first step runs in the
    /// observer the source is given (``PipelineStage/receiveFromSource(_:_:)``),
    /// which passes its result on.
    case firstOnSource
    /// The first stage; its source is a `just`, whose element is the input.
    case firstOnJust
    /// The second stage of a pipeline whose first stage is ``firstOnSource``: its
    /// input is the first step's result, which it reads directly (one indirect
    /// call per element fewer than asking the first stage).
    case secondOnSource
    /// Any other: asks the stage before it.
    case later
}

/// One operator applied: its step, and the sequence it was applied to (the
/// previous stage, or the pipeline's source). Immutable.
@usableFromInline
final class PipelineStage<Step: PipelineStep>: Pipeline<Step.Output>, @unchecked Sendable {
    @usableFromInline
    let step: Step
    @usableFromInline
    let upstream: Observable<Step.Input>
    /// Where this step's state lies in the state block.
    @usableFromInline
    let stateOffset: Int
    /// The predicate of a `filter` applied right after this stage's operator:
    /// it runs on what the step passes on, as the filter's own step would, but
    /// in the same call. Without it `map { }.filter { }`, the most common
    /// chain, cost a second call per element (`cold-range`: 178 against 133
    /// instructions per element).
    @usableFromInline
    let predicate: (Step.Output) throws -> Bool
    /// Whether ``predicate`` was given (it passes everything otherwise). Not an
    /// optional closure: calling one loaded from a stored optional cost a retain
    /// and a release of its context per element (`cold-range`, 187 → 163
    /// instructions per element in `ripple-compare --instructions`).
    @usableFromInline
    let hasPredicate: Bool
    /// Where that `filter` was applied.
    @usableFromInline
    let predicateSite: SiteLiteral

    /// A stage of `step` after `upstream`: computes the state layout and makes
    /// the stage's functions.
    ///
    /// A static function rather than the initialiser because Ripple's own binary
    /// compiles every initialiser of a class (its method descriptor refers to it),
    /// unspecialised, even when it is `@_alwaysEmitIntoClient`: the functions made
    /// here, and everything they call (the stage's entry points, its `connect`
    /// and `subscribeSink`), were 21 KB of unspecialised code in every app.
    /// A static function of a final class is compiled only where it is called.
    ///
    /// Always inlined into the operator: left to the optimizer, the
    /// specialisation for `map` and `compactMap` stayed out of line once the
    /// operators lost their `file:line:` parameters, and its owned arguments
    /// cost a retain each (`build-8-literals`: 7 965 -> 7 659 instructions per
    /// chain with it).
    @_alwaysEmitIntoClient
    @inline(__always)
    static func make(
        _ step: Step, after upstream: Observable<Step.Input>, site: SiteLiteral
    ) -> PipelineStage<Step> {
        make(step, after: upstream, site: site, functions: makeFunctions())
    }

    /// ``make(_:after:site:)`` with the stage's functions given: made in place
    /// (the default build, where they capture nothing) or taken from
    /// ``stageFunctions()`` (`CompactPipelines`, where each would capture the
    /// step type).
    @_alwaysEmitIntoClient
    @inline(__always)
    static func make(
        _ step: Step, after upstream: Observable<Step.Input>, site: SiteLiteral, functions: StageFunctions<Step.Output>
    ) -> PipelineStage<Step> {
        let previous: Pipeline<Step.Input>? = upstream.kind == .stage ? upstream.asPipeline : nil
        let sourceIsJust = previous?.sourceIsJust ?? (upstream.kind == .just)
        let position: StagePosition
        switch previous?.position {
        case nil: position = sourceIsJust ? .firstOnJust : .firstOnSource
        case .firstOnSource?: position = .secondOnSource
        case _?: position = .later
        }
        // The state block holds the previous stages' states, then this step's.
        let before = previous?.stateSize ?? 0
        let size = MemoryLayout<Step.State>.size
        let alignment = MemoryLayout<Step.State>.alignment
        let stateOffset = size == 0 ? before : (before + alignment - 1) / alignment * alignment
        return PipelineStage(
            step: step, upstream: upstream, stateOffset: stateOffset, predicate: functions.passAll, hasPredicate: false,
            predicateSite: .none,
            pull: functions.pull,
            prepareStates: functions.prepareStates,
            subscribeSource: functions.subscribeSource,
            appendingPredicate: functions.appendingPredicate,
            site: site,
            position: position,
            stateSize: size == 0 ? before : stateOffset + size,
            stateAlignment: max(previous?.stateAlignment ?? 1, alignment),
            sourceIsJust: sourceIsJust,
            subscribe: functions.subscribe
        )
    }

    /// The functions of a stage of this step type. They capture nothing: they
    /// receive the stage (one allocation per operator applied, see
    /// docs/Architecture.md). Specialised, they need no context; in generic
    /// code each captures the step type (see ``stageFunctions()``).
    @_alwaysEmitIntoClient
    @inline(__always)
    static func makeFunctions() -> StageFunctions<Step.Output> {
        (
            passAll: { _ in true },
            pull: pullFunction(),
            prepareStates: { stage, state, initialize in
                withBorrowed(stage, as: PipelineStage<Step>.self) { $0.prepare(state, initialize: initialize) }
            },
            subscribeSource: { stage, sink in
                withBorrowed(stage, as: PipelineStage<Step>.self) { $0.subscribeFirst(sink) }
            },
            appendingPredicate: { stage, predicate, predicateSite in
                withBorrowed(stage, as: PipelineStage<Step>.self) { stage in
                    guard !stage.hasPredicate else { return nil }
                    return PipelineStage(stage, predicate: predicate, predicateSite: predicateSite)
                }
            },
            subscribe: { stage, downstream in
                withBorrowed(stage, as: PipelineStage<Step>.self) { $0.connect(downstream) }
            }
        )
    }

    /// The stage's ``Pipeline/pull``: ``pullHere(_:_:_:at:)``.
    @_alwaysEmitIntoClient
    @inline(__always)
    static func pullFunction() -> PullFunction<Step.Output> {
        #if CompactPipelines
        return { stage, context, input, ends, failure, output in
            try withBorrowed(stage, as: PipelineStage<Step>.self) {
                try $0.pullHere(context, input, ends, failure, at: $0.position, into: output)
            }
        }
        #else
        return { stage, context, input, failure in
            try withBorrowed(stage, as: PipelineStage<Step>.self) { try $0.pullHere(context, input, failure, at: $0.position) }
        }
        #endif
    }

    #if CompactPipelines
    /// ``make(_:after:site:)``, compiled once in Ripple for every step type
    /// (unspecialised) and called, not inlined, by the app: the stage's
    /// functions and its sink's entry points are Ripple's generic code, so an
    /// app compiles none of them per chain. Only with the package trait
    /// `CompactPipelines` (see ``ObservableType/appending(_:site:)``).
    @usableFromInline
    @inline(never)
    static func makeOnce(
        _ step: Step, after upstream: Observable<Step.Input>, site: SiteLiteral
    ) -> Observable<Step.Output> {
        make(step, after: upstream, site: site, functions: stageFunctions())
    }

    /// ``makeFunctions()``, made once per step type. Compiled once, each of the
    /// six functions captures the step type's metadata: made for every stage
    /// they were six allocations more per operator applied (`build-8-literals`
    /// made 51 allocations instead of 9; docs/Architecture.md, "Compact
    /// pipelines"). The cache holds the functions only, nothing of a chain.
    static func stageFunctions() -> StageFunctions<Step.Output> {
        let key = ObjectIdentifier(Step.self)
        if let cached = StageFunctionsCache.functions.withLock({ $0[key] }) {
            return unsafeDowncast(cached, to: StageFunctionsBox<Step.Output>.self).functions
        }
        let functions = makeFunctions()
        StageFunctionsCache.functions.withLock { cache in
            if cache[key] == nil { cache[key] = StageFunctionsBox(functions) }
        }
        return functions
    }
    #endif

    /// Stores what ``make(_:after:site:)`` computed and
    /// made; nothing else (see there why).
    @_alwaysEmitIntoClient
    @inline(__always)
    init(
        step: Step, upstream: Observable<Step.Input>, stateOffset: Int, predicate: @escaping (Step.Output) throws -> Bool,
        hasPredicate: Bool, predicateSite: SiteLiteral,
        pull: @escaping PullFunction<Step.Output>,
        prepareStates: @escaping (Pipeline<Step.Output>, UnsafeMutableRawPointer, _ initialize: Bool) -> Void,
        subscribeSource: @escaping (Pipeline<Step.Output>, PipelineSinkCore) -> SubscriptionBase?,
        appendingPredicate: @escaping (Pipeline<Step.Output>, @escaping (Step.Output) throws -> Bool, SiteLiteral) -> Observable<Step.Output>?,
        site: SiteLiteral, position: StagePosition, stateSize: Int, stateAlignment: Int, sourceIsJust: Bool,
        subscribe: @escaping (HandlersProducer<Step.Output>, Downstream<Step.Output>) -> SubscriptionBase?
    ) {
        self.step = step
        self.upstream = upstream
        self.stateOffset = stateOffset
        self.predicate = predicate
        self.hasPredicate = hasPredicate
        self.predicateSite = predicateSite
        super.init(
            pull: pull, prepareStates: prepareStates, subscribeSource: subscribeSource, appendingPredicate: appendingPredicate,
            site: site, position: position, stateSize: stateSize, stateAlignment: stateAlignment, sourceIsJust: sourceIsJust,
            subscribe: subscribe)
    }

    /// `stage` followed by `filter(predicate)`: the same step, upstream, state
    /// layout and functions, with the predicate. Copies what
    /// ``make(_:after:site:)`` made for `stage` rather
    /// than making it again, so that the function each stage type makes for a
    /// following `filter` (``Pipeline/appendingPredicate``) stays small: it is
    /// compiled for every step type an app uses (docs/Architecture.md, "Code per
    /// stage").
    @_alwaysEmitIntoClient
    init(_ stage: PipelineStage<Step>, predicate: @escaping (Step.Output) throws -> Bool, predicateSite: SiteLiteral) {
        step = stage.step
        upstream = stage.upstream
        stateOffset = stage.stateOffset
        self.predicate = predicate
        hasPredicate = true
        self.predicateSite = predicateSite
        super.init(sameAs: stage)
    }

    /// Every operator of the pipeline up to this stage, upstream first: the
    /// subscription graph shows one node per operator (one subscription records
    /// the whole pipeline, see ``SubscriptionRecorder``).
    override var graphOperators: [SiteLiteral] {
        let before = upstream.kind == .stage ? upstream.graphOperators : []
        return before + (predicateSite.isNone ? [siteLiteral] : [siteLiteral, predicateSite])
    }

    /// This step's state in `context`'s state block.
    @_alwaysEmitIntoClient
    @inline(__always)
    func state(_ context: PipelineContext) -> UnsafeMutablePointer<Step.State> {
        (context.state + stateOffset).assumingMemoryBound(to: Step.State.self)
    }

    /// This stage's step, then its predicate, on what the steps before it made
    /// of one input.
    @_alwaysEmitIntoClient
    @inline(__always)
    func run(_ upstream: StepResult<Step.Input>, _ context: PipelineContext) throws -> StepResult<Step.Output> {
        try filtered(step.apply(upstream, &state(context).pointee, context), context)
    }

    /// The same for a failure before this stage.
    @_alwaysEmitIntoClient
    @inline(__always)
    func runFailure(_ error: Swift.Error, _ context: PipelineContext) throws -> StepResult<Step.Output> {
        try filtered(step.applyFailure(error, &state(context).pointee, context), context)
    }

    #if CompactPipelines
    /// ``run(_:_:)`` and ``filtered(_:_:)`` in the form of
    /// ``PipelineStep/next(_:_:into:)`` (the trait `CompactPipelines`): this
    /// stage's step, then its predicate, on an element of its input (`ends`:
    /// the input's last); what passes is written to `output`. Compiled once, an
    /// entry point looks up per call every generic type it uses: these make no
    /// ``StepResult`` (docs/Architecture.md, "Compact pipelines").
    @_alwaysEmitIntoClient
    @inline(__always)
    func run(
        element: Step.Input, ends: Bool, _ context: PipelineContext, into output: UnsafeMutablePointer<Step.Output>
    ) throws -> StepFlow {
        try filtered(step.apply(element: element, ends: ends, &state(context).pointee, context, into: output), output, context)
    }

    /// The same on no element: skipped (`ends` false), or the end of the input.
    @_alwaysEmitIntoClient
    @inline(__always)
    func run(endingWith ends: Bool, _ context: PipelineContext, into output: UnsafeMutablePointer<Step.Output>) throws -> StepFlow {
        try filtered(step.apply(endingWith: ends, &state(context).pointee, context, into: output), output, context)
    }

    /// The same for a failure before this stage: out of line, being the one
    /// path that still makes a ``StepResult`` (``PipelineStep/fail(_:_:)``'s).
    @_alwaysEmitIntoClient
    @inline(never)
    func runFailure(
        _ error: Swift.Error, _ context: PipelineContext, into output: UnsafeMutablePointer<Step.Output>
    ) throws -> StepFlow {
        try filtered(step.applyFailure(error, &state(context).pointee, context, into: output), output, context)
    }

    /// The same for an event of the source (the first stage). Its element is
    /// what `run(element: element, ends: false, ...)` does, without the
    /// checks of the end; the source's end runs out of line.
    @_alwaysEmitIntoClient
    @inline(__always)
    func run(_ event: Event<Step.Input>, _ context: PipelineContext, into output: UnsafeMutablePointer<Step.Output>) throws -> StepFlow {
        guard case .next(let element) = event else { return try runEnd(event, context, into: output) }
        if context.isStopped { return StepFlow(passes: false, ends: false) }
        return try filtered(step.next(element, &state(context).pointee, into: output), output, context)
    }

    /// The source's completion or failure, out of line (see above).
    @_alwaysEmitIntoClient
    @inline(never)
    func runEnd(_ event: Event<Step.Input>, _ context: PipelineContext, into output: UnsafeMutablePointer<Step.Output>) throws -> StepFlow {
        if case .error(let error) = event {
            return try runFailure(error, context, into: output)
        }
        return try run(endingWith: true, context, into: output)
    }

    /// ``filtered(_:_:)`` for an element in `output` (if `flow` passes one):
    /// it stays there if ``predicate`` accepts it, and is destroyed otherwise.
    @_alwaysEmitIntoClient
    @inline(__always)
    func filtered(_ flow: StepFlow, _ output: UnsafeMutablePointer<Step.Output>, _ context: PipelineContext) throws -> StepFlow {
        guard hasPredicate && flow.passes else { return flow }
        // As a `filter` step of its own: the step's closure may have disposed
        // the subscription, and then nothing more happens.
        if context.isStopped {
            output.deinitialize(count: 1)
            return StepFlow(passes: false, ends: false)
        }
        // Moved out and back rather than read in place: a read copies it.
        let element = output.move()
        guard try predicate(element) else {
            // A rejected last element still ends the stream.
            return StepFlow(passes: false, ends: flow.ends)
        }
        output.initialize(to: element)
        return flow
    }
    #else
    /// The same for an event of the source (the first stage). Specialised,
    /// the `CompactPipelines` form above costs more: 1 instruction per element
    /// for its element's path, 10 for its completion out of line (`hot-chain`,
    /// `cold-range`).
    @_alwaysEmitIntoClient
    @inline(__always)
    func run(_ event: Event<Step.Input>, _ context: PipelineContext) throws -> StepResult<Step.Output> {
        switch event {
        case .next(let element): return try run((element, false), context)
        case .completed: return try run((nil, true), context)
        case .error(let error): return try runFailure(error, context)
        }
    }
    #endif

    /// `result` through ``predicate``, as through a `filter` step of its own.
    @_alwaysEmitIntoClient
    @inline(__always)
    func filtered(_ result: StepResult<Step.Output>, _ context: PipelineContext) throws -> StepResult<Step.Output> {
        guard hasPredicate, let element = result.0 else { return result }
        if context.isStopped { return (nil, false) }
        // A rejected last element still ends the stream.
        return try predicate(element) ? result : (nil, result.1)
    }

    #if CompactPipelines
    /// The steps up to and including this one, on one input of the pipeline,
    /// in the form of ``PullFunction`` (the trait `CompactPipelines`); throws
    /// the stream's failure. The input depends on the pipeline's source:
    ///
    /// - a source subscribed to: what ``receiveFromSource(_:_:)`` made of an
    ///   event: `input` is the address of the first step's element (moved out
    ///   here or by an earlier stage) or nil, `ends` whether the stream ends,
    ///   or `failure` is what the first step threw;
    /// - a `just`: `input` is non-nil for its element, nil (and `ends`) for its
    ///   completion.
    @_alwaysEmitIntoClient
    @inline(__always)
    func pullHere(
        _ context: PipelineContext, _ input: UnsafeMutableRawPointer?, _ ends: Bool, _ failure: Swift.Error?,
        at position: StagePosition, into output: UnsafeMutablePointer<Step.Output>
    ) throws -> StepFlow {
        switch position {
        case .firstOnSource:
            if let failure { throw failure }
            guard let input else { return StepFlow(passes: false, ends: ends) }
            output.moveInitialize(from: input.assumingMemoryBound(to: Step.Output.self), count: 1)
            return StepFlow(passes: true, ends: ends)
        case .firstOnJust:
            if input == nil { return try run(endingWith: true, context, into: output) }
            return try run(element: upstream.justElement, ends: false, context, into: output)
        case .secondOnSource:
            if let failure { return try runFailure(failure, context, into: output) }
            guard let input else { return try run(endingWith: ends, context, into: output) }
            return try run(element: input.assumingMemoryBound(to: Step.Input.self).move(), ends: ends, context, into: output)
        case .later:
            return try withUnsafeTemporaryAllocation(of: Step.Input.self, capacity: 1) { buffer in
                let element = buffer.baseAddress.unsafelyUnwrapped
                let flow: StepFlow
                do {
                    flow = try withBorrowed(upstream, as: Pipeline<Step.Input>.self) { previous in
                        try previous.pull(previous, context, input, ends, failure, element)
                    }
                } catch {
                    return try runFailure(error, context, into: output)
                }
                guard flow.passes else { return try run(endingWith: flow.ends, context, into: output) }
                return try run(element: element.move(), ends: flow.ends, context, into: output)
            }
        }
    }

    /// The source's observer, for the first stage: runs the first step on each
    /// event and hands what it made (or its failure) to the sink's entry point,
    /// which moves the element out. Inlined into the observer closure.
    @_alwaysEmitIntoClient
    @inline(__always)
    static func receiveFromSource(_ event: Event<Step.Input>, _ sink: PipelineSinkCore) {
        let context = sink.context
        withUnsafeTemporaryAllocation(of: Step.Output.self, capacity: 1) { buffer in
            let output = buffer.baseAddress.unsafelyUnwrapped
            let flow: StepFlow
            do {
                flow = try sink.withFirst(PipelineStage<Step>.self) { try $0.run(event, context, into: output) }
            } catch {
                sink.receive(sink, nil, false, error)
                return
            }
            if !flow.passes && !flow.ends { return }  // skipped
            sink.receive(sink, flow.passes ? UnsafeMutableRawPointer(output) : nil, flow.ends, nil)
        }
    }
    #else
    /// The steps up to and including this one, on one input of the pipeline;
    /// throws the stream's failure. The input depends on the pipeline's source:
    ///
    /// - a source subscribed to: the first step's result, computed by
    ///   ``receiveFromSource(_:_:)``: `input` points to it (a `StepResult` of the
    ///   first step's output), or `failure` is what the first step threw;
    /// - a `just`: `input` is non-nil for its element, `nil` for its completion.
    @_alwaysEmitIntoClient
    @inline(__always)
    func pullHere(
        _ context: PipelineContext, _ input: UnsafeRawPointer?, _ failure: Swift.Error?, at position: StagePosition
    ) throws -> StepResult<Step.Output> {
        let upstreamResult: StepResult<Step.Input>
        switch position {
        case .firstOnSource:
            if let failure { throw failure }
            return input.unsafelyUnwrapped.assumingMemoryBound(to: StepResult<Step.Output>.self).pointee
        case .firstOnJust:
            upstreamResult = input == nil ? (nil, true) : (upstream.justElement, false)
        case .secondOnSource:
            if let failure {
                return try runFailure(failure, context)
            }
            upstreamResult = input.unsafelyUnwrapped.assumingMemoryBound(to: StepResult<Step.Input>.self).pointee
        case .later:
            do {
                upstreamResult = try withBorrowed(upstream, as: Pipeline<Step.Input>.self) { previous in
                    try previous.pull(previous, context, input, failure)
                }
            } catch {
                return try runFailure(error, context)
            }
        }
        return try run(upstreamResult, context)
    }

    /// The source's observer, for the first stage: runs the first step on each
    /// event and hands its result (or failure) to the sink's entry point.
    /// Inlined into the observer closure: a call in between cost about 15
    /// instructions per element.
    @_alwaysEmitIntoClient
    @inline(__always)
    static func receiveFromSource(_ event: Event<Step.Input>, _ sink: PipelineSinkCore) {
        let context = sink.context
        var result: StepResult<Step.Output>
        do {
            // Only the step inside the closure: with the rest in it too, the
            // closure was not inlined (about 25 instructions per element).
            result = try sink.withFirst(PipelineStage<Step>.self) { try $0.run(event, context) }
        } catch {
            sink.receive(sink, nil, error)
            return
        }
        if result.0 == nil && !result.1 { return }  // skipped
        // The result's address is only read during the call: no stack protector
        // needed (it cost about 6 instructions per element).
        _withUnprotectedUnsafePointer(to: &result) { sink.receive(sink, UnsafeRawPointer($0), nil) }
    }
    #endif

    /// Initialises (`true`) or deinitialises (`false`) the states of the steps up
    /// to and including this one in `state`.
    @_alwaysEmitIntoClient
    func prepare(_ state: UnsafeMutableRawPointer, initialize: Bool) {
        if MemoryLayout<Step.State>.size > 0 {
            let pointer = (state + stateOffset).assumingMemoryBound(to: Step.State.self)
            if initialize {
                pointer.initialize(to: step.start())
            } else {
                pointer.deinitialize(count: 1)
            }
        }
        if position == .later || position == .secondOnSource {
            withBorrowed(upstream, as: Pipeline<Step.Input>.self) { previous in
                if previous.stateSize > 0 {
                    previous.prepareStates(previous, state, initialize)
                }
            }
        }
    }

    /// Subscribes `sink` to the pipeline's source, through the first stage.
    @_alwaysEmitIntoClient
    func subscribeFirst(_ sink: PipelineSinkCore) -> SubscriptionBase? {
        guard position == .firstOnSource || position == .firstOnJust else {
            return withBorrowed(upstream, as: Pipeline<Step.Input>.self) { previous in
                previous.subscribeSource(previous, sink)
            }
        }
        // Written before the source can send anything: the source publishes the
        // observer with its own synchronisation.
        sink.first = Unmanaged.passUnretained(self)
        // The observer captures only the sink: no allocation.
        return upstream.subscribeNested(sink: AnyObserver { event in
            PipelineStage<Step>.receiveFromSource(event, sink)
        })
    }

    /// `subscribe(observer)`, every operator's subscription to this stage, and
    /// `subscribe(onNext:onError:onCompleted:onDisposed:)`, whose handlers the
    /// sink calls itself. Inlined into the stage's subscribe function (one per
    /// stage type, for both kinds of subscriber), its one caller.
    @_alwaysEmitIntoClient
    @inline(__always)
    func connect(_ downstream: Downstream<Step.Output>) -> SubscriptionBase? {
        if sourceIsJust {
            runOnJust(delivering: downstream)
            return nil
        }
        return subscribeSink(downstream)
    }

    /// The sink's entry point, when this stage is the last one and not the
    /// first: runs the steps after the first, then delivers. Inlined into the
    /// entry point's closure. It reads the stage's position (second on a source,
    /// or later) per element rather than being compiled once per position: two
    /// instructions per element, against one closure fewer per stage type in
    /// every app (docs/Architecture.md, "Code per stage").
    #if CompactPipelines
    @_alwaysEmitIntoClient
    @inline(__always)
    static func receive(_ core: PipelineSinkCore, _ input: UnsafeMutableRawPointer?, _ ends: Bool, _ failure: Swift.Error?) {
        withBorrowed(core, as: PipelineSink<Step.Output>.self) { sink in
            sink.withTail(PipelineStage<Step>.self) { stage in
                sink.deliver { try stage.pullHere(sink.context, input, ends, failure, at: stage.position, into: $0) }
            }
        }
    }
    #else
    @_alwaysEmitIntoClient
    @inline(__always)
    static func receive(_ core: PipelineSinkCore, _ input: UnsafeRawPointer?, _ failure: Swift.Error?) {
        withBorrowed(core, as: PipelineSink<Step.Output>.self) { sink in
            let result: StepResult<Step.Output>
            do {
                result = try sink.withTail(PipelineStage<Step>.self) { stage in
                    try stage.pullHere(sink.context, input, failure, at: stage.position)
                }
            } catch {
                sink.finish(failingWith: error)
                return
            }
            sink.deliver(result)
        }
    }
    #endif

    /// The source's observer when this stage is the only one: the step runs and
    /// its result is delivered in the same call (a pipeline of one step costs one
    /// call per element, like an operator with a sink of its own).
    ///
    /// With the trait `CompactPipelines`, an element takes ``runAlone(_:_:)``
    /// and the end of the source runs out of line (``receiveAloneEnd(_:_:)``).
    @_alwaysEmitIntoClient
    @inline(__always)
    static func receiveAlone(_ event: Event<Step.Input>, _ sink: PipelineSink<Step.Output>) {
        #if CompactPipelines
        guard case .next(let element) = event else {
            receiveAloneEnd(event, sink)
            return
        }
        sink.withTail(PipelineStage<Step>.self) { $0.runAlone(element, sink) }
        #else
        let result: StepResult<Step.Output>
        do {
            result = try sink.withTail(PipelineStage<Step>.self) { try $0.run(event, sink.context) }
        } catch {
            sink.finish(failingWith: error)
            return
        }
        sink.deliver(result)
        #endif
    }

    #if CompactPipelines
    /// The end of the source, when this stage is the only one: out of line
    /// (see ``receiveAlone(_:_:)``).
    @_alwaysEmitIntoClient
    @inline(never)
    static func receiveAloneEnd(_ event: Event<Step.Input>, _ sink: PipelineSink<Step.Output>) {
        sink.withTail(PipelineStage<Step>.self) { stage in
            sink.deliver { try stage.runEnd(event, sink.context, into: $0) }
        }
    }

    /// One element of the source, when this stage is the only one: what
    /// `run(.next(element), context)`, ``filtered(_:_:)`` and
    /// ``PipelineSink/deliver(_:)`` do, with the step writing its element in
    /// place (``PipelineStep/next(_:_:into:)``), so that no ``StepResult`` is
    /// made (the trait `CompactPipelines`).
    @_alwaysEmitIntoClient
    @inline(__always)
    func runAlone(_ element: Step.Input, _ sink: PipelineSink<Step.Output>) {
        if sink.isDisposed { return }
        withUnsafeTemporaryAllocation(of: Step.Output.self, capacity: 1) { buffer in
            let output = buffer.baseAddress.unsafelyUnwrapped
            let flow: StepFlow
            do {
                flow = try step.next(element, &state(sink.context).pointee, into: output)
            } catch {
                sink.finish(failingWith: error)
                return
            }
            if flow.passes {
                let value = output.move()
                var accepted = true
                if hasPredicate {
                    // As in `filtered`: the step's closure may have disposed
                    // the subscription, and then nothing more happens.
                    if sink.isDisposed { return }
                    do {
                        accepted = try predicate(value)
                    } catch {
                        sink.finish(failingWith: error)
                        return
                    }
                }
                // A rejected last element still ends the stream (below).
                if accepted && !sink.isDisposed {
                    sink.downstream.next(value)
                }
            }
            if flow.ends {
                sink.finish(failingWith: nil)
            }
        }
    }
    #endif

    /// The sink's entry point after the first stage: ``receive(_:_:_:)``.
    @_alwaysEmitIntoClient
    @inline(__always)
    func receiveFunction() -> ReceiveFunction {
        #if CompactPipelines
        return { core, input, ends, failure in PipelineStage<Step>.receive(core, input, ends, failure) }
        #else
        return { core, input, failure in PipelineStage<Step>.receive(core, input, failure) }
        #endif
    }

    /// The pipeline's one sink for this subscription; this stage's step runs in
    /// its entry point. The entry point is chosen here: the stage alone (its
    /// step runs in the source's observer, one call per element), or after the
    /// first stage (``receive(_:_:_:)``).
    @_alwaysEmitIntoClient
    func subscribeSink(_ downstream: Downstream<Step.Output>) -> SubscriptionBase {
        switch position {
        // (A stage on a `just` never gets here: `connect` runs it instead.)
        case .firstOnSource, .firstOnJust:
            let sink = PipelineSink(tail: self, downstream: downstream, receive: PipelineSinkCore.receivesNothing)
            sink.setUpstream(upstream.subscribeNested(sink: AnyObserver { event in
                PipelineStage<Step>.receiveAlone(event, sink)
            }))
            return sink
        case .secondOnSource, .later:
            let sink = PipelineSink(tail: self, downstream: downstream, receive: receiveFunction())
            // Through the first stage (``subscribeFirst(_:)``, which the
            // previous stage's function runs): this stage is not first.
            sink.setUpstream(withBorrowed(upstream, as: Pipeline<Step.Input>.self) { previous in
                previous.subscribeSource(previous, sink)
            })
            return sink
        }
    }
}

// MARK: The sink

/// The part of a pipeline's sink that the source's observer sees: that observer
/// is compiled with the first step, which knows the pipeline's input type but not
/// its output.
@usableFromInline
class PipelineSinkCore: SubscriptionBase, @unchecked Sendable {
    /// The last stage's entry point: gets what the first step made, or what
    /// it threw (see ``ReceiveFunction`` and ``PipelineStage/pullHere(_:_:_:at:)``).
    @usableFromInline
    let receive: ReceiveFunction

    /// The steps' states (``Pipeline/emptyState`` when none has one).
    @usableFromInline
    let state: UnsafeMutableRawPointer

    /// The first stage. Set once, before the source is subscribed to; unretained:
    /// the last stage, which the sink holds, holds it. Read without reference
    /// counting (``withFirst(_:_:)``), once per element.
    @usableFromInline
    @exclusivity(unchecked)
    final var first: Unmanaged<AnyObject>?

    @_alwaysEmitIntoClient
    init(state: UnsafeMutableRawPointer, receive: @escaping ReceiveFunction) {
        self.state = state
        self.receive = receive
        super.init()
    }

    /// The entry point of a sink whose stage is alone: the source's observer
    /// runs the step and delivers (``PipelineStage/receiveAlone(_:_:)``).
    @_alwaysEmitIntoClient
    static var receivesNothing: ReceiveFunction {
        #if CompactPipelines
        return { _, _, _, _ in }
        #else
        return { _, _, _ in }
        #endif
    }

    @_alwaysEmitIntoClient
    final var context: PipelineContext {
        PipelineContext(state: state, sink: Unmanaged.passUnretained(self))
    }

    /// Calls `body` with the first stage, as the `Stage` it is.
    @_alwaysEmitIntoClient
    @inline(__always)
    final func withFirst<Stage: AnyObject, Result>(_ type: Stage.Type, _ body: (Stage) throws -> Result) rethrows -> Result {
        try first.unsafelyUnwrapped._withUnsafeGuaranteedRef { try withBorrowed($0, as: Stage.self, body) }
    }
}

/// The one object a subscription to a pipeline creates (besides its state block,
/// when a step has state): it runs every step, holds the last stage (which holds
/// the others), delivers to `downstream`, and is the whole chain's subscription.
@usableFromInline
final class PipelineSink<Output>: PipelineSinkCore, @unchecked Sendable {
    @usableFromInline
    let tail: Pipeline<Output>
    /// ``tail``, for reading without reference counting once per element (a
    /// load of ``tail`` cost a retain and a release per element: `cold-range`,
    /// `ripple-compare --instructions`).
    @usableFromInline
    let unretainedTail: Unmanaged<Pipeline<Output>>
    @usableFromInline
    let downstream: Downstream<Output>

    @_alwaysEmitIntoClient
    init(tail: Pipeline<Output>, downstream: Downstream<Output>, receive: @escaping ReceiveFunction) {
        self.tail = tail
        unretainedTail = Unmanaged.passUnretained(tail)
        self.downstream = downstream
        let state: UnsafeMutableRawPointer
        if tail.stateSize > 0 {
            state = .allocate(byteCount: tail.stateSize, alignment: tail.stateAlignment)
            tail.prepareStates(tail, state, true)
        } else {
            state = Pipeline<Output>.emptyState
        }
        super.init(state: state, receive: receive)
    }

    /// Calls `body` with the last stage, as the `Stage` it is, without reference
    /// counting (the sink holds it).
    @_alwaysEmitIntoClient
    @inline(__always)
    final func withTail<Stage: AnyObject, Result>(_ type: Stage.Type, _ body: (Stage) throws -> Result) rethrows -> Result {
        try Unmanaged<Stage>.fromOpaque(unretainedTail.toOpaque())._withUnsafeGuaranteedRef(body)
    }

    deinit {
        // Only here: an event on another thread may still be running the steps
        // when the subscription is disposed.
        if tail.stateSize > 0 {
            tail.prepareStates(tail, state, false)
            state.deallocate()
        }
    }

    /// Passes the last step's result on: an element unless disposed, a terminal
    /// event followed by the disposal of the whole chain.
    @_alwaysEmitIntoClient
    @inline(__always)
    final func deliver(_ result: StepResult<Output>) {
        if let element = result.0, !isDisposed {
            downstream.next(element)
        }
        if result.1 {
            finish(failingWith: nil)
        }
    }

    #if CompactPipelines
    /// ``deliver(_:)`` for what the last stage makes in the form of
    /// ``PipelineStep/next(_:_:into:)``: `run` writes it to the buffer it is
    /// given, and its element, if it passes one, is moved out and delivered;
    /// what `run` throws ends the stream.
    @_alwaysEmitIntoClient
    @inline(__always)
    final func deliver(running run: (UnsafeMutablePointer<Output>) throws -> StepFlow) {
        withUnsafeTemporaryAllocation(of: Output.self, capacity: 1) { buffer in
            let output = buffer.baseAddress.unsafelyUnwrapped
            let flow: StepFlow
            do {
                flow = try run(output)
            } catch {
                finish(failingWith: error)
                return
            }
            deliver(flow, output)
        }
    }

    /// The element in `output`, if `flow` passes one (moved out here), then
    /// the end if `flow` ends the stream.
    @_alwaysEmitIntoClient
    @inline(__always)
    final func deliver(_ flow: StepFlow, _ output: UnsafeMutablePointer<Output>) {
        if flow.passes {
            let element = output.move()
            if !isDisposed {
                downstream.next(element)
            }
        }
        if flow.ends {
            finish(failingWith: nil)
        }
    }
    #endif

    /// Ends the stream with `error`, or completes it (`nil`). Compiled once
    /// (the trait `CompactPipelines`), out of line: the entry points that call
    /// it then use no `Event<Output>`, a type metadata lookup per element;
    /// specialised, inlined, so that the event is made where it is known.
    @_alwaysEmitIntoClient
    #if CompactPipelines
    @inline(never)
    #else
    @inline(__always)
    #endif
    final func finish(failingWith error: Swift.Error?) {
        finish(error.map { .error($0) } ?? .completed)
    }

    /// Out of line: the cold path.
    @_alwaysEmitIntoClient
    @inline(never)
    final func finish(_ event: Event<Output>) {
        if !isDisposed {
            downstream.finish(event)
        }
        dispose()
    }
}
