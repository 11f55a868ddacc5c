#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#if canImport(Runtime)
import Runtime
#endif

/// Where operators were applied: the captured call stacks behind
/// ``SiteLiteral/capture``, and their symbolication.
///
/// An operator takes no `file:line:` parameter (its shape is RxSwift's), so its
/// site is found from the call stack: ``capture()`` records the return addresses
/// of the calling thread (the toolchain's `Runtime` module, frame-pointer
/// unwinding: 20 to 35 µs of CPU, no symbol lookup), interned so that an operator
/// applied again from the same place stores the same number. ``place(of:)``
/// symbolicates a capture the first time a graph, trace or leak report asks,
/// skipping the frames of Ripple's own modules: the first frame left is the
/// code that applied the operator (an operator built on another one, inside
/// Ripple, gets its caller's place too). The answer is cached.
///
/// Where this cannot work, a site has the operator's name only, never a crash:
/// - the platform has no `Runtime` module or an older OS than it needs (Apple
///   platforms before macOS 26; iOS, tvOS, watchOS, visionOS);
/// - the binary has no debugging information (a release build without `-g`,
///   a stripped binary): the frame has no source location;
/// - the process runs under valgrind, whose memory layout the `Runtime` module's
///   image reader does not survive (it is detected, and nothing is captured).
@usableFromInline
enum OperatorSites {
    /// The captures: index `n - 1` holds capture number `n`.
    struct Store {
        var captures: [Capture] = []
        /// Capture numbers by their return addresses.
        var numbers: [[UInt]: UInt32] = [:]
    }

    /// One captured call stack, and what it symbolicated to once asked.
    struct Capture {
        /// The `Runtime` module's backtrace (an `any Sendable` so that the store
        /// itself needs no availability).
        let backtrace: any Sendable
        var place: Place??
    }

    /// A file (as `#fileID` writes it, or its name alone when the module is not
    /// known) and a line.
    struct Place: Hashable, Sendable {
        let file: String
        let line: Int
    }

    /// More distinct places than any program applies operators from: past it,
    /// new places are not captured (a program building chains from generated
    /// code in a loop would otherwise grow the store without end).
    static let capacity = 1 << 16

    static let store = LockedState(Store())

    /// Whether this process can capture stacks (see the type's comment).
    static let canCapture: Bool = {
        #if canImport(Runtime)
        if let preload = getenv("LD_PRELOAD").map({ String(cString: $0) }), preload.contains("vgpreload") {
            return false
        }
        if #available(macOS 26.0, *) {
            return true
        }
        #endif
        return false
    }()

    /// Captures the calling thread's stack and returns its number, or 0 when
    /// nothing could be captured. Never inlined: its own frame is a known one to
    /// skip, and operators stay small.
    @usableFromInline
    @inline(never)
    static func capture() -> UInt32 {
        guard canCapture else { return 0 }
        #if canImport(Runtime)
        if #available(macOS 26.0, *) {
            return captureBacktrace()
        }
        #endif
        return 0
    }

    #if canImport(Runtime)
    /// The images of the process, read once: a capture only needs to carry some
    /// map (symbolication reads a fresh one), and reading it costs milliseconds.
    @available(macOS 26.0, *)
    private static let images = ImageMap.capture()

    @available(macOS 26.0, *)
    private static func captureBacktrace() -> UInt32 {
        // 24 frames: Ripple's own (the operator, those it is built on, this
        // function) and the caller's, with room for generic and closure frames.
        guard let backtrace = try? Backtrace.capture(algorithm: .fast, limit: 24, offset: 0, top: 0, images: images) else {
            return 0
        }
        var addresses: [UInt] = []
        for frame in backtrace.frames {
            if let address = UInt(frame.originalProgramCounter) {
                addresses.append(address)
            }
        }
        return store.withLock { store in
            if let number = store.numbers[addresses] {
                return number
            }
            guard store.captures.count < capacity else { return 0 }
            store.captures.append(Capture(backtrace: backtrace, place: nil))
            let number = UInt32(store.captures.count)
            store.numbers[addresses] = number
            return number
        }
    }
    #endif

    /// Where capture `number` was made, symbolicated on first use; `nil` when it
    /// is 0 or cannot be symbolicated.
    static func place(of number: UInt32) -> Place? {
        guard number > 0 else { return nil }
        let (backtrace, known): ((any Sendable)?, Place??) = store.withLock { store in
            let index = Int(number) - 1
            guard index < store.captures.count else { return (nil, .some(nil)) }
            return (store.captures[index].backtrace, store.captures[index].place)
        }
        if let known {
            return known
        }
        // Symbolicated outside the lock (it reads the binary's debugging
        // information: milliseconds); two threads asking at once both do it and
        // store the same answer.
        let place = backtrace.flatMap(symbolicate)
        store.withLock { store in
            store.captures[Int(number) - 1].place = .some(place)
        }
        return place
    }

    private static func symbolicate(_ captured: any Sendable) -> Place? {
        #if canImport(Runtime)
        if #available(macOS 26.0, *), let backtrace = captured as? Backtrace {
            return firstPlaceOutsideRipple(backtrace)
        }
        #endif
        return nil
    }

    #if canImport(Runtime)
    /// The first frame of `backtrace` outside Ripple's modules, as a place.
    ///
    /// On Linux the frames are symbolicated by name only (the `Runtime` module
    /// reads the ELF symbol table: tens of microseconds), and the line comes
    /// from ``DWARFLineTable``, built once per image (the `Runtime` module's
    /// own source locations cost about 100 ms per frame in a large binary). On
    /// Apple platforms the `Runtime` module asks the system's symbolication.
    @available(macOS 26.0, *)
    private static func firstPlaceOutsideRipple(_ backtrace: Backtrace) -> Place? {
        #if os(Linux)
        let options: Backtrace.SymbolicationOptions = []
        #else
        let options: Backtrace.SymbolicationOptions = [.showInlineFrames, .showSourceLocations, .useSymbolCache]
        #endif
        guard let symbolicated = backtrace.symbolicated(with: ImageMap.capture(), options: options) else { return nil }
        for frame in symbolicated.frames {
            // A frame without a symbol cannot be told apart: stop rather than
            // name a place that may be Ripple's own.
            guard let symbol = frame.symbol else { return nil }
            if frame.isSwiftThunk { continue }
            let module = moduleName(ofMangled: symbol.rawName)
            if let module, rippleModules.contains(module) || module == "Runtime" { continue }
            #if os(Linux)
            guard symbol.imageIndex >= 0, symbol.imageIndex < symbolicated.images.count,
                  let path = symbolicated.images[symbol.imageIndex].path,
                  let address = UInt64(frame.captured.adjustedProgramCounter),
                  let base = UInt64(symbolicated.images[symbol.imageIndex].baseAddress),
                  address >= base,
                  let location = lineTable(ofImageAt: path)?.location(of: address - base)
            else { return nil }
            return place(module: module, path: location.file, line: location.line)
            #else
            guard let location = symbol.sourceLocation else { return nil }
            return place(module: module, path: location.path, line: location.line)
            #endif
        }
        return nil
    }
    #endif

    /// A place from the path the debugging information gives; `nil` for a line
    /// of Ripple's own sources (an operator inlined into its caller, whose
    /// address then maps to Ripple's code).
    static func place(module: String?, path: String, line: Int) -> Place? {
        guard line > 0, !path.hasPrefix(rippleSources) else { return nil }
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        return Place(file: module.map { "\($0)/\(fileName)" } ?? fileName, line: line)
    }

    /// The directory of Ripple's modules' sources, as this build saw it.
    static let rippleSources: String = {
        let path = "\(#filePath)"
        guard let range = path.range(of: "/Ripple/Debugging/", options: .backwards) else { return "\u{0}" }
        return String(path[..<range.lowerBound]) + "/"
    }()

    #if os(Linux)
    /// The line tables read so far, by image path (`nil`: unreadable).
    private static let lineTables = LockedState([String: DWARFLineTable?]())

    private static func lineTable(ofImageAt path: String) -> DWARFLineTable? {
        if let known = lineTables.withLock({ $0[path] }) {
            return known
        }
        // Read outside the lock (tens of milliseconds for a large binary).
        let table = DWARFLineTable(path: path)
        lineTables.withLock { $0[path] = .some(table) }
        return table
    }
    #endif

    /// The modules whose frames are skipped: the operator's own code and what it
    /// is built on.
    static let rippleModules: Set<String> = ["Ripple", "RippleTest", "RippleHTTP", "RippleHTTPTesting", "RippleCocoa"]

    /// The module of a Swift symbol from its mangled name (`$s6Ripple...` is in
    /// `Ripple`); `nil` for a C symbol (`main`, which top-level code compiles
    /// to) or a symbol whose context is not a module.
    static func moduleName(ofMangled name: String) -> String? {
        var rest = Substring(name)
        for prefix in ["$s", "_$s", "$e", "_$e"] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            let digits = rest.prefix(while: \.isASCIIDigit)
            guard let length = Int(digits), length > 0 else { return nil }
            rest = rest.dropFirst(digits.count)
            guard rest.count >= length else { return nil }
            return String(rest.prefix(length))
        }
        return nil
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
