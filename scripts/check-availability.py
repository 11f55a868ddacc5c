#!/usr/bin/env python3
"""Checks, without an Apple SDK, that Ripple builds for its minimum deployment
targets: macOS 10.15, iOS 13, tvOS 13, watchOS 6, visionOS 1 (Package.swift).

No Apple toolchain runs here, so the compiler cannot say it; this script says
what it can from the sources of the root package (Sources/ and Tests/, which
build for the same minimum):

1. Package.swift declares exactly the minimum below.
2. Synchronization, Observation and Runtime exist only on newer systems (macOS
   15 / 14 / 26, and the matching iOS, tvOS, watchOS; Runtime on macOS only). A
   file imports one either inside `#if canImport(Module)`, and then every use
   of the module's API must be availability-marked (rule 3, which also catches
   a public declaration using it without `@available`): the form of
   OperatorSites.swift, `@available(macOS 26, *)` on what uses `Runtime`; or
   unconditionally, and then the file is an availability-marked place: every
   top-level declaration in it carries an `@available` above the minimum.
3. Every use of an API of the list below (standard library, Concurrency,
   Foundation, Swift runtime features) sits where the OS it needs is guaranteed:
   inside a declaration marked `@available`, an `if #available` block, after a
   `guard #available ... else`, or in `#if` branches that do not build for that
   platform. A mark must cover each Apple platform the API needs a newer
   release of: `@available(macOS 13, *)` alone leaves iOS at 13, and a
   `ContinuousClock` there still needs iOS 16.

What it cannot see: an API that is not in the list, an overload chosen by the
type checker, a use through a type alias. The list is kept by hand from Apple's
documentation and the toolchain's .swiftinterface files (whose Linux copies
carry the Apple availability of the standard library and Concurrency); add to
it when Ripple starts using something newer than its minimum. The Apple builds
of .github/workflows/apple.yml (not run here) are the real proof.

Usage: scripts/check-availability.py [--self-test] [ROOT]
"""

import os
import re
import sys

PLATFORMS = ("macOS", "iOS", "tvOS", "watchOS", "visionOS")
FLOOR = {"macOS": (10, 15), "iOS": (13,), "tvOS": (13,), "watchOS": (6,), "visionOS": (1,)}
PACKAGE_PLATFORMS = ".macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)"


def v(text):
    return tuple(int(part) for part in text.split("."))


def needs(macos, ios, tvos, watchos, visionos="1"):
    return {"macOS": v(macos), "iOS": v(ios), "tvOS": v(tvos), "watchOS": v(watchos), "visionOS": v(visionos)}


SWIFT_5_7 = needs("13", "16", "16", "9")        # Clock, Duration, Regex, parameterized existentials
SWIFT_5_9 = needs("14", "17", "17", "10")       # Observation, makeStream, discarding task groups, packs
SWIFT_6_0 = needs("15", "18", "18", "11", "2")  # Synchronization, typed AsyncSequence, Int128
SWIFT_6_2 = needs("26", "26", "26", "26", "26")  # Span, InlineArray, Task.immediate
RUNTIME = {"macOS": v("26")}                     # the Runtime module: macOS only (none on iOS, tvOS, ...)
FOUNDATION_2021 = needs("12", "15", "15", "8")   # format styles, async URLSession, Date.now
FOUNDATION_2022 = needs("13", "16", "16", "9")   # URL(filePath:), appending(path:)
UIKIT_14 = {"iOS": v("14"), "tvOS": v("14")}     # UIAction and the closure-based control API

# (description, pattern on code with comments and strings removed, requirement[, module]):
# an entry with a module is checked in files that import it (`Atomic` means
# Synchronization's only there; the tests have an `Atomic` class of their own).
APIS = [
    ("ContinuousClock / SuspendingClock", r"\b(ContinuousClock|SuspendingClock)\b", SWIFT_5_7),
    ("Duration", r"\bDuration\b", SWIFT_5_7),
    ("the Clock / InstantProtocol / DurationProtocol protocols", r"\b(Clock|InstantProtocol|DurationProtocol)\b", SWIFT_5_7),
    ("Task.sleep(for:) / sleep(until:)", r"\bsleep\(\s*(for|until):", SWIFT_5_7),
    ("Regex and regex literals", r"\bRegex\b|\bRegexBuilder\b|#/|\.wholeMatch\(|\.firstMatch\(of|\.prefixMatch\(", SWIFT_5_7),
    ("a parameterized protocol type (any P<T>): run-time support", r"\bany\s+[A-Z]\w*(\.\w+)*\s*<", SWIFT_5_7),
    ("AsyncStream.makeStream", r"\.makeStream\(", SWIFT_5_9),
    ("discarding task groups", r"\bwith(Throwing)?DiscardingTaskGroup\b", SWIFT_5_9),
    ("Observation", r"@Observable\b|\bwithObservationTracking\b|\bObservationIgnored\b|\bObservationTracked\b"
     r"|\bObservationRegistrar\b", SWIFT_5_9, "Observation"),
    ("Ripple's Observation interop (observing)", r"\.observing\s*(\(|\{)", SWIFT_5_9),
    ("RippleTest's trace marbles (a Duration frame)", r"\b(MarbleTimeline|MarbleDiagram)\(\s*trace:", SWIFT_5_7),
    ("a generic type with a parameter pack", r"\b(struct|class|enum|actor)\s+\w+\s*<[^>]*\beach\b", SWIFT_5_9),
    ("Synchronization (Mutex, Atomic)", r"\bMutex\s*(<|\()|\bAtomic\s*(<|\()|\bAtomicLazyReference\b|\bWordPair\b", SWIFT_6_0,
     "Synchronization"),
    ("task executors", r"\bTaskExecutor\b|\bwithTaskExecutorPreference\b|\bexecutorPreference:|\bglobalConcurrentExecutor\b",
     SWIFT_6_0),
    ("AsyncIteratorProtocol.next(isolation:)", r"\.next\(\s*isolation:", SWIFT_6_0),
    ("Int128 / UInt128", r"\bU?Int128\b", SWIFT_6_0),
    ("the Runtime module (backtraces)", r"\b(Backtrace|SymbolicatedBacktrace|ImageMap)\b", RUNTIME, "Runtime"),
    ("Span / InlineArray", r"\b(Span|RawSpan|MutableSpan|MutableRawSpan|OutputSpan|InlineArray|UTF8Span)\b", SWIFT_6_2),
    ("Task.immediate", r"\bTask\.immediate\b|\bTask\s*\(\s*immediate", SWIFT_6_2),
    ("format styles and .formatted()", r"\bFormatStyle\b|\.formatted\(|\bISO8601FormatStyle\b", FOUNDATION_2021),
    ("Date.now", r"\bDate\.now\b", FOUNDATION_2021),
    ("AttributedString", r"\bAttributedString\b", FOUNDATION_2021),
    ("async URLSession methods", r"\.(data|bytes|upload|download)\((for|from):", FOUNDATION_2021),
    ("URL(filePath:) / appending(path:) / URL.homeDirectory",
     r"\bURL\(\s*filePath:|\.appending\(\s*(path|component|components):|\bURL\.(homeDirectory|temporaryDirectory|currentDirectory)\b",
     FOUNDATION_2022),
    ("UIAction / addAction(_:for:) / removeAction(identifiedBy:for:)",
     r"\bUIAction\b|\.addAction\(|\.removeAction\(\s*identifiedBy:", UIKIT_14),
]

# Modules that exist only on newer systems. A file imports one either inside
# `#if canImport(Module)` (then every use of its API is checked by the list above:
# OperatorSites.swift's form, `@available(macOS 26, *)` on what uses `Runtime`), or
# unconditionally, and then the whole file is an availability-marked place: every
# top-level declaration carries an `@available` above the minimum.
MARKED_MODULES = ("Synchronization", "Observation", "Runtime")

DECL = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|open|final|static|class|"
    r"override|convenience|required|nonisolated|isolated|indirect|mutating|nonmutating|lazy|weak|unowned|dynamic|"
    r"@\w+(?:\([^)]*\))?)\s+)*(func|var|let|class|struct|enum|protocol|actor|extension|init|deinit|subscript|typealias|"
    r"macro|case|associatedtype)\b")
AVAILABLE = re.compile(r"@available\(([^)]*)\)")
IF_AVAILABLE = re.compile(r"\b(if|guard|while)\b[^{]*#available\(([^)]*)\)")


def parse_availability(arguments):
    """Platform versions of an `@available(...)` or `#available(...)` argument list
    (`macOS 14, iOS 17, *` or `macOS, introduced: 14`); empty when it names none."""
    result = {}
    for item in arguments.split(","):
        item = item.strip()
        match = re.match(r"^(macOS|OSX|iOS|tvOS|watchOS|visionOS|macCatalyst)\s+(\d+(?:\.\d+)*)$", item)
        if match:
            result["macOS" if match.group(1) == "OSX" else match.group(1)] = v(match.group(2))
    long_form = re.match(r"^\s*(macOS|iOS|tvOS|watchOS|visionOS)\s*,\s*introduced:\s*(\d+(?:\.\d+)*)", arguments)
    if long_form:
        result[long_form.group(1)] = v(long_form.group(2))
    return result


def above_floor(availability):
    return any(availability.get(platform, FLOOR[platform]) > FLOOR[platform] for platform in PLATFORMS)


def merge(outer, inner):
    merged = dict(outer)
    for platform, version in inner.items():
        merged[platform] = max(version, merged.get(platform, FLOOR[platform]))
    return merged


def strip_code(text):
    """The file's text with comments and string contents blanked (newlines kept),
    so that braces and names inside them count for nothing."""
    out = []
    i, n = 0, len(text)
    depth_comment = 0
    while i < n:
        c = text[i]
        if depth_comment:
            if text.startswith("*/", i):
                depth_comment -= 1
                i += 2
            elif text.startswith("/*", i):
                depth_comment += 1
                i += 2
            else:
                out.append("\n" if c == "\n" else " ")
                i += 1
            continue
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            depth_comment = 1
            i += 2
            out.append("  ")
            continue
        raw = re.match(r'#+(?=")', text[i:])
        hashes = raw.group(0) if raw else ""
        if text.startswith(hashes + '"""', i):
            end_marker = '"""' + hashes
            j = text.find(end_marker, i + len(hashes) + 3)
            j = n if j < 0 else j + len(end_marker)
            out.append('""' + "".join("\n" if ch == "\n" else " " for ch in text[i + 2:j - 1]) + '"')
            i = j
            continue
        if text.startswith(hashes + '"', i):
            j = i + len(hashes) + 1
            while j < n and text[j] != "\n":
                if not hashes and text[j] == "\\":
                    j += 2
                    continue
                if text.startswith('"' + hashes, j):
                    j += 1 + len(hashes)
                    break
                j += 1
            out.append('"' + " " * (j - i - 2) + '"')
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out)


def platform_condition(condition):
    """The Apple platforms an `#if` condition can be true on (None: unknown, all)."""
    condition = condition.strip()
    while condition.startswith("(") and condition.endswith(")") and balanced(condition[1:-1]):
        condition = condition[1:-1].strip()
    if condition.startswith("!"):
        inner = platform_condition(condition[1:])
        return None if inner is None else set(PLATFORMS) - inner
    if "||" in condition:
        parts = [platform_condition(part) for part in condition.split("||")]
        return None if any(part is None for part in parts) else set().union(*parts)
    if "&&" in condition:
        parts = [platform_condition(part) for part in condition.split("&&")]
        known = [part for part in parts if part is not None]
        return set(PLATFORMS).intersection(*known) if known else None
    match = re.match(r"^os\((\w+)\)$", condition)
    if match:
        name = {"OSX": "macOS"}.get(match.group(1), match.group(1))
        return {name} & set(PLATFORMS) if name in PLATFORMS or name in ("Linux", "Windows", "Android", "FreeBSD", "WASI") else None
    match = re.match(r"^canImport\((\w+)\)$", condition)
    if match:
        return {
            "Darwin": set(PLATFORMS), "Glibc": set(), "Musl": set(), "WinSDK": set(), "Android": set(),
            "UIKit": {"iOS", "tvOS", "visionOS"}, "AppKit": {"macOS"}, "WatchKit": {"watchOS"},
            "FoundationNetworking": set(),
        }.get(match.group(1))
    return None


def balanced(text):
    depth = 0
    for character in text:
        depth += {"(": 1, ")": -1}.get(character, 0)
        if depth < 0:
            return False
    return depth == 0


class Scope:
    def __init__(self, availability, is_type_level):
        self.availability = availability
        self.is_type_level = is_type_level


def check_file(path, text, problems):
    code = strip_code(text)
    lines = code.split("\n")
    original = text.split("\n")

    imported, unconditional = [], []
    for module in MARKED_MODULES:
        import_line = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|internal|package|private|fileprivate)\s+)?import\s+"
                                 + module + r"\b")
        guards = []
        for line in lines:
            directive = re.match(r"^\s*#(if|elseif|else|endif)\b(.*)$", line)
            if directive:
                kind = directive.group(1)
                if kind == "if":
                    guards.append(directive.group(2).strip() == "canImport(%s)" % module)
                elif kind == "endif" and guards:
                    guards.pop()
                elif kind == "elseif" and guards:
                    guards[-1] = directive.group(2).strip() == "canImport(%s)" % module
                elif guards:
                    guards[-1] = False
                continue
            if import_line.match(line):
                imported.append(module)
                if not any(guards):
                    unconditional.append(module)
                break

    scopes = [Scope({}, True)]
    platform_stack = []  # (active set for this branch, set of the enclosing context, condition set)
    active = set(PLATFORMS)
    pending = {}            # @available seen, waiting for its declaration
    pending_marked = False  # the pending attributes include a version mark
    block_availability = None  # `if #available` waiting for its `{`
    declaration_open = None    # a declaration whose `{` is still to come
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        directive = re.match(r"^#(if|elseif|else|endif)\b(.*)$", stripped)
        if directive:
            kind, condition = directive.group(1), directive.group(2)
            if kind == "if":
                platforms = platform_condition(condition)
                platform_stack.append((active, platforms))
                active = active if platforms is None else active & platforms
            elif kind in ("elseif", "else") and platform_stack:
                outer, previous = platform_stack[-1]
                if kind == "else":
                    active = outer if previous is None else outer - previous
                else:
                    platforms = platform_condition(condition)
                    active = outer if platforms is None else outer & platforms
            elif kind == "endif" and platform_stack:
                active, _ = platform_stack.pop()
            continue
        if not stripped:
            continue

        for match in AVAILABLE.finditer(line):
            found = parse_availability(match.group(1))
            pending = merge(pending, found)
            pending_marked = pending_marked or above_floor(found)
        condition = IF_AVAILABLE.search(line)
        context = scopes[-1].availability
        declaration = DECL.match(re.sub(r"@available\([^)]*\)", "", line))

        if declaration and scopes[-1].is_type_level and len(scopes) == 1 and unconditional:
            if not pending_marked and declaration.group(1) not in ("case", "associatedtype"):
                problems.append(f"{path}:{number}: imports {', '.join(unconditional)} (not under #if canImport) but this "
                                f"top-level declaration has no @available above the minimum: mark it (and so everything "
                                f"in it), or import the module under #if canImport and mark what uses it")
        line_availability = merge(context, pending) if declaration else context
        if condition and condition.group(1) == "if":
            block_availability = merge(context, parse_availability(condition.group(2)))
            line_availability = block_availability

        attribute_only = stripped.startswith("@") and not declaration
        if attribute_only:
            line_availability = merge(context, pending)
        if active:
            for description, pattern, requirement, *module in APIS:
                if module and module[0] not in imported:
                    continue
                if re.search(pattern, line):
                    missing = [f"{platform} {'.'.join(map(str, version))}"
                               for platform, version in requirement.items()
                               if platform in active and line_availability.get(platform, FLOOR[platform]) < version]
                    if missing:
                        problems.append(f"{path}:{number}: {description} needs {', '.join(missing)}, not guaranteed "
                                        f"here: {original[number - 1].strip()[:100]}")

        if declaration:
            declaration_open = merge(context, pending)
            pending, pending_marked = {}, False
        for character in line:
            if character == "{":
                if block_availability is not None:
                    scopes.append(Scope(block_availability, False))
                    block_availability = None
                elif declaration_open is not None:
                    kind = declaration.group(1) if declaration else ""
                    scopes.append(Scope(declaration_open, kind in ("class", "struct", "enum", "protocol", "actor", "extension")))
                    declaration_open = None
                else:
                    scopes.append(Scope(scopes[-1].availability, False))
            elif character == "}":
                if len(scopes) > 1:
                    scopes.pop()
        if condition and condition.group(1) == "guard":
            scopes[-1].availability = merge(scopes[-1].availability, parse_availability(condition.group(2)))
        if declaration and "{" not in line and not line.rstrip().endswith(("(", ",", "->", "=", "where")):
            declaration_open = None


def check_package(root, problems):
    with open(os.path.join(root, "Package.swift")) as file:
        package = file.read()
    match = re.search(r"^\s*platforms:\s*\[(.*?)\]", package, re.S | re.M)
    declared = re.sub(r"//[^\n]*", "", match.group(1)) if match else ""
    declared = ", ".join(part.strip() for part in declared.split(",") if part.strip())
    if declared != PACKAGE_PLATFORMS:
        problems.append(f"Package.swift: platforms are [{declared}], this script checks for [{PACKAGE_PLATFORMS}]")


def check(root):
    problems = []
    check_package(root, problems)
    for top in ("Sources", "Tests"):
        for directory, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if name.endswith(".swift"):
                    path = os.path.join(directory, name)
                    with open(path, encoding="utf-8") as file:
                        check_file(os.path.relpath(path, root), file.read(), problems)
    return problems


SELF_TEST = [
    # (expected number of problems, source)
    (1, "func f() { let c = ContinuousClock() }"),
    (0, "@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)\nfunc f() {\n    let c = ContinuousClock()\n}"),
    (1, "@available(macOS 13, *)\nfunc f() {\n    let c = ContinuousClock()\n}"),  # iOS, tvOS, watchOS: one line
    (0, "func f() {\n    if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {\n        _ = ContinuousClock.now\n    }\n}"),
    (1, "func f() {\n    if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {\n    } else {\n        _ = ContinuousClock.now\n    }\n}"),
    (0, "func f() -> Int {\n    guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return 0 }\n    _ = ContinuousClock.now\n    return 1\n}"),
    (0, "#if os(Linux)\nlet c = ContinuousClock()\n#endif"),
    (0, "// ContinuousClock in a comment\nlet s = \"Duration in a string\""),
    (1, "import Observation\n\nfinal class Model {}"),
    (0, "import Observation\n\n@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)\n@Observable\nfinal class Model {}"),
    (0, "#if canImport(Runtime)\nimport Runtime\n\n@available(macOS 26, *)\npublic struct Site {\n    public let x: Int\n}\n#endif"),
    # OperatorSites.swift's form: the type is everywhere, what uses Runtime is marked
    (0, "#if canImport(Runtime)\nimport Runtime\n#endif\nenum Sites {\n    static func capture() -> Int {\n"
        "        #if canImport(Runtime)\n        if #available(macOS 26.0, *) { return grab() }\n        #endif\n"
        "        return 0\n    }\n    #if canImport(Runtime)\n    @available(macOS 26.0, *)\n"
        "    private static func grab() -> Int { _ = Backtrace.self; return 1 }\n    #endif\n}"),
    (1, "#if canImport(Runtime)\nimport Runtime\n#endif\nenum Sites {\n    #if canImport(Runtime)\n"
        "    public static func grab(_ b: Backtrace) -> Int { 1 }\n    #endif\n}"),  # a public use, unmarked
    (1, "import Runtime\nenum Sites {}"),  # unconditional import, unmarked declaration
    # Linux first, Runtime on the other platforms: an #elseif guard counts
    (0, "#if os(Linux)\nimport Glibc\n#elseif canImport(Runtime)\nimport Runtime\n#endif\nenum Sites {}"),
    (2, "#if canImport(Runtime)\nlet x = 1\n#else\nimport Runtime\n#endif\nenum Sites {}"),  # one per declaration
    (2, "import Synchronization\nlet counter = Atomic<Int>(0)"),  # the import rule and the API
    (0, "final class Atomic<Value> {}\nlet counter = Atomic<Int>(0)"),  # not Synchronization's
    (1, "#if !os(Linux)\nlet c = ContinuousClock()\n#endif"),
    (0, "#if canImport(Glibc)\nlet c = ContinuousClock()\n#else\nlet d = 1\n#endif"),
    (1, "final class C {\n    let d: (any Sequence<Int>)? = nil\n}"),
    (0, "@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)\nextension Duration {\n    var ns: Int { 0 }\n}\nfunc g() {}"),
    (1, "@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)\nextension Duration {\n    var ns: Int { 0 }\n}\nfunc g(_ d: Duration) {}"),
    (1, 'func f() {\n    let html = """\n    { Duration }\n    """\n    _ = ContinuousClock.now\n}'),
]


def self_test():
    failures = 0
    for expected, source in SELF_TEST:
        problems = []
        check_file("<self-test>", source, problems)
        if len(problems) != expected:
            failures += 1
            print(f"self-test: expected {expected} problem(s), found {len(problems)} in:\n{source}\n{problems}\n")
    return failures


def main(arguments):
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    if "--self-test" in arguments:
        failures = self_test()
        print(f"check-availability self-test: {len(SELF_TEST) - failures}/{len(SELF_TEST)} cases as expected")
        return 1 if failures else 0
    paths = [argument for argument in arguments if not argument.startswith("--")]
    if paths:
        root = os.path.abspath(paths[0])
    problems = check(root)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-availability: {len(problems)} problem(s); the minimum is macOS 10.15, iOS 13, tvOS 13, "
              f"watchOS 6, visionOS 1 (see the comment at the top of scripts/check-availability.py)")
        return 1
    print("check-availability: Sources/ and Tests/ use nothing above macOS 10.15 / iOS 13 / tvOS 13 / watchOS 6 / "
          "visionOS 1 outside an availability-marked place (as far as its list of APIs goes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
