import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Networking policies as operators. Each exists on `Observable` and on
// `Single`, so they compose with anything an `HTTPClient` or a `Session`
// returns, and each takes its scheduler, so tests run them in virtual time.

extension ObservableType {
    /// Resubscribes (sends the request again) after failures that `policy`
    /// retries, waiting its backoff (or the server's `Retry-After`) on
    /// `scheduler`.
    ///
    /// Completes when an attempt completes. Fails with the last error when the
    /// error is not retried (not transient), when `policy.maxRetries` retries
    /// failed, or when a `Retry-After` exceeds `policy.retryAfterLimit`. An
    /// invalid policy (see ``RetryPolicy/isValid``) fails at once, without
    /// subscribing, with ``HTTPError/invalidRequest(_:)`` naming the bad
    /// setting (``RetryPolicy/invalidSetting``). Disposing during a wait
    /// cancels it.
    ///
    /// ```
    /// source (cold):                               --#(503)
    /// retry(RetryPolicy(maxRetries: 2, initialDelay: 1, multiplier: 2), scheduler):
    ///                                              --·1s·--·2s·--#(503)     (3 attempts)
    /// source (cold, 429 with "Retry-After: 5"):    --#(429)
    ///                                              --·5s·--...
    /// ```
    @_alwaysEmitIntoClient
    public func retry(_ policy: RetryPolicy, scheduler: SchedulerType) -> Observable<Element> {
        if let problem = policy.invalidSetting {
            return .error(HTTPError.invalidRequest("invalid RetryPolicy: \(problem)"))
        }
        guard policy.maxRetries > 0 else { return asObservable() }
        return asObservable().retry(when: { (errors: Observable<Swift.Error>) -> Observable<Int> in
            errors.enumerated().flatMap { index, error -> Observable<Int> in
                guard let delay = policy.delay(beforeRetry: index + 1, after: error, now: scheduler.now) else {
                    return .error(error)
                }
                return Observable<Int>.timer(.fromSeconds(delay), scheduler: scheduler)
            }
        })
    }

    /// Fails with ``HTTPError/transport(_:)`` (`URLError(.timedOut)`) if the
    /// source sends nothing for `dueTime` (on `scheduler`) after subscription
    /// or after its last element; the source (the request) is then disposed,
    /// which cancels it. For a `Single`, `dueTime` bounds the whole request.
    ///
    /// Unlike `timeout(_:scheduler:)` (which fails with `RxError.timeout`), the
    /// error is the one a network timeout gives, so ``RetryPolicy`` retries it
    /// and view models handle one case. A `dueTime` of zero or less fails with
    /// ``HTTPError/invalidRequest(_:)``; `.never` changes nothing.
    ///
    /// ```
    /// source:                     ---------(r|)
    /// requestTimeout(5, s):       -----#(transport .timedOut)
    /// ```
    @_alwaysEmitIntoClient
    public func requestTimeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        guard let seconds = dueTime.seconds else {
            return .error(HTTPError.invalidRequest("the timeout must be positive (got \(dueTime))"))
        }
        if seconds.isInfinite { return asObservable() }
        return timeout(dueTime, other: Observable<Element>.error(HTTPError.transport(URLError(.timedOut))), scheduler: scheduler)
    }
}

extension ObservableType where Element == HTTPResponse {
    /// Fails with ``HTTPError/unacceptableStatusCode(_:headers:body:)`` when a
    /// response's status code is not in `acceptable`; passes the others.
    ///
    /// ```
    /// source:        --(200)--(404)--|
    /// validate():    --(200)--#(unacceptableStatusCode 404)
    /// ```
    @_alwaysEmitIntoClient
    public func validate(_ acceptable: AcceptableStatusCodes = .successful) -> Observable<HTTPResponse> {
        map { try acceptable.validate($0) }
    }

    /// Decodes each response's body as JSON (optionally at a key path of the
    /// JSON's own keys), failing with ``HTTPError/undecodableBody(_:body:)``
    /// (the decoding error and the raw body) when it does not decode.
    ///
    /// ```
    /// source:                                  --({"owner":{"login":"ann"}})--|
    /// decode(String.self, at: "owner.login"):  --("ann")----------------------|
    /// ```
    @_alwaysEmitIntoClient
    public func decode<Value: Decodable>(
        _ type: Value.Type, at keyPath: String? = nil, decoder: JSONDecoder = .snakeCaseISO8601
    ) -> Observable<Value> {
        map { response in
            do {
                return try response.decode(type, at: keyPath, using: decoder)
            } catch {
                throw HTTPError.undecodableBody(error, body: HTTPError.bodyPrefix(response.data))
            }
        }
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// ``ObservableType/retry(_:scheduler:)`` for a `Single`.
    ///
    /// ```
    /// single:                        --#(503)
    /// retry(policy, scheduler: s):   --·backoff·--(r|)
    /// ```
    @_alwaysEmitIntoClient
    public func retry(_ policy: RetryPolicy, scheduler: SchedulerType) -> Single<Element> {
        primitiveSequence.asObservable().retry(policy, scheduler: scheduler).asSingle()
    }

    /// ``ObservableType/requestTimeout(_:scheduler:)`` for a `Single`.
    ///
    /// ```
    /// single:                    ---------(r|)
    /// requestTimeout(5, s):      -----#(transport .timedOut)
    /// ```
    @_alwaysEmitIntoClient
    public func requestTimeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Single<Element> {
        primitiveSequence.asObservable().requestTimeout(dueTime, scheduler: scheduler).asSingle()
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait, Element == HTTPResponse {
    /// ``ObservableType/validate(_:)`` for a `Single`.
    ///
    /// ```
    /// single:       --(404|)
    /// validate():   --#(unacceptableStatusCode 404)
    /// ```
    @_alwaysEmitIntoClient
    public func validate(_ acceptable: AcceptableStatusCodes = .successful) -> Single<HTTPResponse> {
        primitiveSequence.asObservable().validate(acceptable).asSingle()
    }

    /// ``ObservableType/decode(_:at:decoder:)`` for a `Single`.
    ///
    /// ```
    /// single:                           --({"id":1}|)
    /// decode(Item.self):                --(Item(1)|)
    /// ```
    @_alwaysEmitIntoClient
    public func decode<Value: Decodable>(
        _ type: Value.Type, at keyPath: String? = nil, decoder: JSONDecoder = .snakeCaseISO8601
    ) -> Single<Value> {
        primitiveSequence.asObservable().decode(type, at: keyPath, decoder: decoder).asSingle()
    }
}
