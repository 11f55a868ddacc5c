/// Where an operator was applied: its name, and the file and line of the call.
///
/// Every operator records its site when it is applied, through `file: StaticString
/// = #fileID, line: UInt = #line` parameters that call sites never spell out (an
/// RxSwift call site compiles unchanged). Error traces (``RippleErrorTrace``), the
/// live ``SubscriptionGraph`` and leak reports show it:
///
/// ```
/// map at SearchViewModel.swift:42
/// ```
public struct OperatorSite: Hashable, Sendable, CustomStringConvertible {
    /// The operator's name, as written at the call site (`map`, `flatMapLatest`,
    /// `observe(on:)`, `asDriver(onErrorJustReturn:)`).
    public let operatorName: String
    /// The file, as `#fileID` gives it (`SearchFeature/SearchViewModel.swift`);
    /// empty when Ripple does not know it (a source such as `just`, a subject).
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
        file.split(separator: "/").last.map(String.init) ?? file
    }

    /// `map at SearchViewModel.swift:42`, or just `map` when the site is unknown.
    public var description: String {
        isKnown ? "\(operatorName) at \(fileName):\(line)" : operatorName
    }
}

/// An operator's site as stored in each observable: two pointers to the
/// operator's name and file (`StaticString` literals, which are nul-terminated
/// UTF-8 in the binary) and the line. Reading them into an ``OperatorSite`` costs
/// string copies, which only the debugging tools pay; storing them costs three
/// words per operator and no retain.
///
/// `@unchecked Sendable`: the pointers point to string literals, immutable for
/// the life of the process.
@usableFromInline
struct SiteLiteral: @unchecked Sendable {
    @usableFromInline let name: UnsafeRawPointer?
    @usableFromInline let file: UnsafeRawPointer?
    @usableFromInline let line: UInt32

    /// No site: a source, a subject, an observable Ripple builds for itself.
    @inlinable
    static var none: SiteLiteral { SiteLiteral(name: nil, file: nil, line: 0) }

    @inlinable
    init(name: UnsafeRawPointer?, file: UnsafeRawPointer?, line: UInt32) {
        self.name = name
        self.file = file
        self.line = line
    }

    /// The site of the operator `name` applied at `file`:`line`.
    @inlinable
    init(_ name: StaticString, _ file: StaticString, _ line: UInt) {
        self.name = name.hasPointerRepresentation ? UnsafeRawPointer(name.utf8Start) : nil
        self.file = file.hasPointerRepresentation ? UnsafeRawPointer(file.utf8Start) : nil
        self.line = UInt32(truncatingIfNeeded: line)
    }

    /// The operator's name only (an operator built inside Ripple for a source
    /// with no call site of its own).
    @inlinable
    init(_ name: StaticString) {
        self.name = name.hasPointerRepresentation ? UnsafeRawPointer(name.utf8Start) : nil
        self.file = nil
        self.line = 0
    }

    @inlinable
    var isNone: Bool { name == nil }

    /// The public form; `nil` for ``none``. An operator applied inside Ripple's
    /// own modules (a `Driver`'s `share`, a helper built on another operator)
    /// has its name only: its file and line would point into Ripple, not to
    /// the code that built the chain.
    var site: OperatorSite? {
        guard let name else { return nil }
        var path = file.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
        if SiteLiteral.internalModules.contains(where: { path.hasPrefix($0) }) {
            path = ""
        }
        return OperatorSite(
            operatorName: String(cString: name.assumingMemoryBound(to: CChar.self)),
            file: path,
            line: path.isEmpty ? 0 : Int(line)
        )
    }

    /// `#fileID` prefixes of Ripple's own modules.
    static let internalModules = ["Ripple/", "RippleHTTP/", "RippleHTTPTesting/", "RippleTest/"]
}
