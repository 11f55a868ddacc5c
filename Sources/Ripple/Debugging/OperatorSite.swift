/// Where an operator was applied: its name, and the file and line of the call.
///
/// While ``Hooks/recordsOperatorSites`` is on, every operator applied records
/// where it was applied (the return addresses of the call, symbolicated when a
/// report shows them); `checkpoint(_:)` always does. Error traces
/// (``RippleErrorTrace``), the live subscription graph (`SubscriptionGraph`, in
/// RippleDebugExport) and leak reports show it:
///
/// ```
/// map at SearchViewModel.swift:42
/// ```
public struct OperatorSite: Hashable, Sendable, CustomStringConvertible {
    /// The operator's name, as written at the call site (`map`, `flatMapLatest`,
    /// `observe(on:)`, `asDriver(onErrorJustReturn:)`).
    public let operatorName: String
    /// The file, in the form `#fileID` gives (`SearchFeature/SearchViewModel.swift`;
    /// the file name alone when the module is unknown, as for top-level code);
    /// empty when Ripple does not know it: a source such as `just` or a subject,
    /// an operator applied while sites were not recorded, or a binary without
    /// debugging symbols (see docs/Debugging.md).
    public let file: String
    /// The line of the call; 0 when unknown.
    public let line: Int

    /// A site (for tests of code that consumes traces and graphs).
    public init(operatorName: String, file: String, line: Int) {
        self.operatorName = operatorName
        self.file = file
        self.line = line
    }

    /// `true` when the file and line are known.
    public var isKnown: Bool { !file.isEmpty }

    /// The file's name without its module (`SearchViewModel.swift`).
    public var fileName: String {
        Self.lastComponent(of: file)
    }

    /// What follows the last `/` of `path` (all of it when there is none).
    static func lastComponent(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// `map at SearchViewModel.swift:42`, or just `map` when the site is unknown.
    public var description: String {
        isKnown ? "\(operatorName) at \(fileName):\(line)" : operatorName
    }
}

/// An operator's site as stored in each observable: a pointer to the operator's
/// name (a `StaticString` literal, nul-terminated UTF-8 in the binary) and, when
/// the site was captured, the number of its capture in ``OperatorSites`` (0: none).
/// Two words, trivially copyable: storing one costs two stores and no retain.
///
/// Where the operator was applied is not a parameter of the operator (RxSwift's
/// call shapes are API: a defaulted `file:line:` changes which overload wins in
/// code that declares its own helpers beside the operators). It is captured,
/// while ``Hooks/recordsOperatorSites`` is on, as the return addresses of the
/// call, and symbolicated only when a graph, a trace or a leak report shows it.
///
/// `@unchecked Sendable`: the pointer points to a string literal, immutable for
/// the life of the process.
@usableFromInline
struct SiteLiteral: @unchecked Sendable {
    @usableFromInline let name: UnsafeRawPointer?
    @usableFromInline let capture: UInt32

    /// No site: a source, a subject, an observable Ripple builds for itself.
    @_alwaysEmitIntoClient
    static var none: SiteLiteral { SiteLiteral(name: nil, capture: 0) }

    @_alwaysEmitIntoClient
    init(name: UnsafeRawPointer?, capture: UInt32) {
        self.name = name
        self.capture = capture
    }

    /// The site of the operator `name`, applied by the caller: with the call's
    /// place while subscriptions are recorded (one relaxed load and a branch
    /// when they are not).
    @_alwaysEmitIntoClient
    init(_ name: StaticString) {
        self.name = name.hasPointerRepresentation ? UnsafeRawPointer(name.utf8Start) : nil
        self.capture = SubscriptionRecorder.isRecording ? OperatorSites.capture() : 0
    }

    /// A name without a place: what a relay calls the subject inside it.
    @_alwaysEmitIntoClient
    init(label name: StaticString) {
        self.name = name.hasPointerRepresentation ? UnsafeRawPointer(name.utf8Start) : nil
        self.capture = 0
    }

    /// The site of the operator `name`, its place captured whether or not
    /// subscriptions are recorded: for `checkpoint(_:)`, which exists to say
    /// where it was written.
    @_alwaysEmitIntoClient
    init(alwaysCapturing name: StaticString) {
        self.name = name.hasPointerRepresentation ? UnsafeRawPointer(name.utf8Start) : nil
        self.capture = OperatorSites.capture()
    }

    @_alwaysEmitIntoClient
    var isNone: Bool { name == nil }

    /// The public form; `nil` for ``none``. The file and line are those of the
    /// code that applied the operator, outside Ripple's own modules; empty when
    /// they are unknown (the site was not captured, or the binary has no
    /// debugging symbols, or the platform cannot symbolicate).
    var site: OperatorSite? {
        guard let name else { return nil }
        let place = OperatorSites.place(of: capture)
        return OperatorSite(
            operatorName: String(cString: name.assumingMemoryBound(to: CChar.self)),
            file: place?.file ?? "",
            line: place?.line ?? 0
        )
    }
}
