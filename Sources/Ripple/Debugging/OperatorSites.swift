#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#if os(Linux)
import CRippleStacks
#elseif canImport(Runtime)
import Runtime
#endif

/// Where operators were applied: the captured call stacks behind
/// ``SiteLiteral/capture``, and their symbolication.
///
/// An operator takes no `file:line:` parameter (its shape is RxSwift's), so its
/// site is found from the call stack: ``capture()`` records the return addresses
/// of the calling thread, interned so that an operator applied again from the
/// same place stores the same number. ``place(of:)`` symbolicates a capture the
/// first time a graph, trace or leak report asks, skipping the frames of
/// Ripple's own modules: the first frame left is the code that applied the
/// operator (an operator built on another one, inside Ripple, gets its caller's
/// place too). The answer is cached.
///
/// - On Linux the C library does the unwinding (`backtrace`, from the binaries'
///   unwind tables) and lists the loaded images (`dl_iterate_phdr`, under the
///   loader's lock), through `CRippleStacks`; the function and its line come
///   from the image's file (``ELFImage``: its symbol table and
///   ``DWARFLineTable``). Nothing reads memory another thread may unmap.
/// - On Apple platforms the toolchain's `Runtime` module captures (frame-pointer
///   unwinding) and asks the system's symbolication, from macOS 26 on.
///
/// Where this cannot work, a site has the operator's name only, never a crash:
/// - an Apple platform without the `Runtime` module or older than it needs
///   (before macOS 26; iOS, tvOS, watchOS, visionOS);
/// - the binary has no symbols or no debugging information (a stripped binary,
///   a release build without `-g`): the frame has no function or no line.
@usableFromInline
enum OperatorSites {
    /// The captures: index `n - 1` holds capture number `n`.
    /// The captures, and capture numbers by their return addresses (a tuple:
    /// see "State is a tuple" in docs/Architecture.md).
    typealias Store = (captures: [Capture], numbers: [[UInt]: UInt32])

    /// One captured call stack, and what it symbolicated to once asked: the
    /// return addresses, innermost first; on Apple platforms, the `Runtime`
    /// module's backtrace (an `any Sendable` so that the store itself needs no
    /// availability); the place, once looked up (a tuple: see "State is a
    /// tuple" in docs/Architecture.md).
    typealias Capture = (addresses: [UInt], backtrace: (any Sendable)?, place: Place??)

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

    static let store = LockedState<Store>((captures: [], numbers: [:]))

    /// Whether this process can capture stacks (see the type's comment).
    static let canCapture: Bool = {
        #if os(Linux)
        return true
        #elseif canImport(Runtime)
        if #available(macOS 26.0, *) {
            return true
        }
        return false
        #else
        return false
        #endif
    }()

    /// Captures the calling thread's stack and returns its number, or 0 when
    /// nothing could be captured. Never inlined: its own frame is a known one to
    /// skip, and operators stay small.
    @usableFromInline
    @inline(never)
    static func capture() -> UInt32 {
        guard canCapture else { return 0 }
        #if os(Linux)
        // 24 frames: Ripple's own (the operator, those it is built on, this
        // function) and the caller's, with room for generic and closure frames.
        return withUnsafeTemporaryAllocation(of: UInt.self, capacity: 24) { buffer in
            let count = Int(ripple_stack_capture(buffer.baseAddress, Int32(buffer.count)))
            return intern(Array(buffer.prefix(count)), backtrace: nil)
        }
        #elseif canImport(Runtime)
        if #available(macOS 26.0, *) {
            return captureBacktrace()
        }
        return 0
        #else
        return 0
        #endif
    }

    /// The number of the capture of `addresses`, added to the store if new.
    private static func intern(_ addresses: [UInt], backtrace: (any Sendable)?) -> UInt32 {
        guard !addresses.isEmpty else { return 0 }
        return store.withLock { store in
            if let number = store.numbers[addresses] {
                return number
            }
            guard store.captures.count < capacity else { return 0 }
            store.captures.append((addresses: addresses, backtrace: backtrace, place: nil))
            let number = UInt32(store.captures.count)
            store.numbers[addresses] = number
            return number
        }
    }

    #if !os(Linux) && canImport(Runtime)
    @available(macOS 26.0, *)
    private static func captureBacktrace() -> UInt32 {
        // 24 frames: Ripple's own (the operator, those it is built on, this
        // function) and the caller's, with room for generic and closure frames.
        guard let backtrace = try? Backtrace.capture(algorithm: .fast, limit: 24, offset: 0, top: 0) else {
            return 0
        }
        var addresses: [UInt] = []
        for frame in backtrace.frames {
            if let address = UInt(frame.originalProgramCounter) {
                addresses.append(address)
            }
        }
        return intern(addresses, backtrace: backtrace)
    }
    #endif

    /// Where capture `number` was made, symbolicated on first use; `nil` when it
    /// is 0 or cannot be symbolicated.
    static func place(of number: UInt32) -> Place? {
        guard number > 0 else { return nil }
        let (capture, known): (Capture?, Place??) = store.withLock { store in
            let index = Int(number) - 1
            guard index < store.captures.count else { return (nil, .some(nil)) }
            return (store.captures[index], store.captures[index].place)
        }
        if let known {
            return known
        }
        // Symbolicated outside the lock (it reads the binary's debugging
        // information: milliseconds); two threads asking at once both do it and
        // store the same answer.
        let place = capture.flatMap(symbolicate)
        store.withLock { store in
            store.captures[Int(number) - 1].place = .some(place)
        }
        return place
    }

    private static func symbolicate(_ capture: Capture) -> Place? {
        #if os(Linux)
        return firstPlaceOutsideRipple(capture.addresses)
        #elseif canImport(Runtime)
        if #available(macOS 26.0, *), let backtrace = capture.backtrace as? Backtrace {
            return firstPlaceOutsideRipple(backtrace)
        }
        return nil
        #else
        return nil
        #endif
    }

    #if os(Linux)
    /// The first frame of `addresses` outside Ripple's modules, as a place: its
    /// image from the loader, its function from the image's symbol table (the
    /// module from the function's mangled name), its line from the image's line
    /// table (built once per image: about a second for a 46 MB test binary,
    /// then a binary search per frame).
    private static func firstPlaceOutsideRipple(_ addresses: [UInt]) -> Place? {
        for returnAddress in addresses {
            // A return address is the instruction after the call: the call's
            // line is the one of the byte before it.
            let address = returnAddress &- 1
            guard let (image, bias) = image(containing: address), UInt64(address) >= UInt64(bias) else { return nil }
            let fileAddress = UInt64(address) - UInt64(bias)
            // A frame without a symbol cannot be told apart: stop rather than
            // name a place that may be Ripple's own.
            guard let symbol = image.functionName(containing: fileAddress) else { return nil }
            if isThunk(mangled: symbol) { continue }
            let module = moduleName(ofMangled: symbol)
            if let module, rippleModules.contains(module) { continue }
            guard let location = image.lineTable?.location(of: fileAddress) else { return nil }
            return place(module: module, path: location.file, line: location.line)
        }
        return nil
    }

    /// The images read so far, by path (`nil`: unreadable). Never emptied: the
    /// mappings stay valid for the life of the process.
    private static let images = LockedState([String: ELFImage?]())

    /// The image file containing `address` and its load bias.
    private static func image(containing address: UInt) -> (ELFImage, UInt)? {
        var bias: UInt = 0
        let path: String? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { buffer in
            guard ripple_stack_image(address, buffer.baseAddress, buffer.count, &bias) == 1 else { return nil }
            return String(cString: buffer.baseAddress!)
        }
        guard let path else { return nil }
        if let known = images.withLock({ $0[path] }) {
            return known.map { ($0, bias) }
        }
        // Read outside the lock (about a second for a large binary). Two threads
        // may read the same file: the first stored is kept (the other is
        // released and unmapped), so that every caller uses the same image.
        let read = ELFImage(path: path)
        let image = images.withLock { images in
            if let stored = images[path] { return stored }
            images[path] = .some(read)
            return read
        }
        return image.map { ($0, bias) }
    }

    /// Whether a Swift symbol is a compiler-generated thunk (partial
    /// application forwarder, reabstraction thunk, protocol witness, Objective-C
    /// bridge), which stands between the caller and the code it calls: skipped.
    static func isThunk(mangled name: String) -> Bool {
        guard name.hasPrefix("$s") || name.hasPrefix("_$s") || name.hasPrefix("$e") || name.hasPrefix("_$e") else {
            return false
        }
        return ["TA", "Ta", "TR", "Tr", "TW", "To", "TO"].contains { name.hasSuffix($0) }
    }
    #elseif canImport(Runtime)
    /// The first frame of `backtrace` outside Ripple's modules, as a place, from
    /// the system's symbolication.
    @available(macOS 26.0, *)
    private static func firstPlaceOutsideRipple(_ backtrace: Backtrace) -> Place? {
        let options: Backtrace.SymbolicationOptions = [.showInlineFrames, .showSourceLocations, .useSymbolCache]
        guard let symbolicated = backtrace.symbolicated(with: nil, options: options) else { return nil }
        for frame in symbolicated.frames {
            // A frame without a symbol cannot be told apart: stop rather than
            // name a place that may be Ripple's own.
            guard let symbol = frame.symbol else { return nil }
            if frame.isSwiftThunk { continue }
            let module = moduleName(ofMangled: symbol.rawName)
            if let module, rippleModules.contains(module) || module == "Runtime" { continue }
            guard let location = symbol.sourceLocation else { return nil }
            return place(module: module, path: location.path, line: location.line)
        }
        return nil
    }
    #endif

    /// A place from the path the debugging information gives; `nil` for a line
    /// of Ripple's own sources (an operator inlined into its caller, whose
    /// address then maps to Ripple's code).
    static func place(module: String?, path: String, line: Int) -> Place? {
        guard line > 0, !path.hasPrefix(rippleSources) else { return nil }
        let fileName = OperatorSite.lastComponent(of: path)
        return Place(file: module.map { "\($0)/\(fileName)" } ?? fileName, line: line)
    }

    /// The directory of Ripple's modules' sources, as this build saw it.
    static let rippleSources: String = {
        let path = "\(#filePath)"
        guard let range = path.range(of: "/Ripple/Debugging/", options: .backwards) else { return "\u{0}" }
        return String(path[..<range.lowerBound]) + "/"
    }()


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
            // The name's length, in decimal. Read digit by digit: `Int(_:)` of a
            // substring is 2 KB of parsing code in every app.
            var length = 0
            var digits = 0
            for byte in rest.utf8 {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
                guard length <= (Int.max - 9) / 10 else { return nil }   // no overflow, 32-bit `Int` too
                length = length * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            }
            guard length > 0 else { return nil }
            rest = rest.dropFirst(digits)
            guard rest.count >= length else { return nil }
            return String(rest.prefix(length))
        }
        return nil
    }
}
