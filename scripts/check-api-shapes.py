#!/usr/bin/env python3
"""RxSwift's call shapes are API: compares the parameter lists of Ripple's public
declarations with RxSwift 6.10.2's.

An operator's parameter list is read by the compiler's overload ranking in every
app and library that declares its own helpers beside the operators (`map(to:)`,
key-path `map`, `mapToVoid`): one more defaulted parameter changes which
declaration wins, in code nobody here will see (issue 34). So every public
function, method and initializer of Ripple (and RippleTest) whose name RxSwift,
RxRelay, RxCocoa, RxTest or RxBlocking also declares, in the same place, must
take exactly the parameters of one of RxSwift's declarations of that name there:
the same labels, in the same order, the same ones defaulted. A deliberate
difference is listed, with its reason, in scripts/api-shapes/deviations.json
(and explained in docs/MigratingFromRxSwift.md); a listed difference that no
longer exists fails too, so the list stays true.

    scripts/check-api-shapes.py --generate scripts/api-shapes/rxswift-6.10.2.json DIR...
        Writes the data from the symbol graphs of RxSwift 6.10.2's modules
        (`swift package dump-symbol-graph --minimum-access-level public` in a
        checkout of the tag; RxCocoa's traits built on Linux the same way).
    scripts/check-api-shapes.py [--symbol-graphs DIR]
        Checks Ripple. Without a directory, it extracts the symbol graphs of
        Ripple and RippleTest from the root package's debug build (`swift build`
        first; `swift package dump-symbol-graph` would build every dependency).
"""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "scripts" / "api-shapes" / "rxswift-6.10.2.json"
DEVIATIONS = ROOT / "scripts" / "api-shapes" / "deviations.json"

RX_MODULES = {"RxSwift", "RxRelay", "RxCocoa", "RxTest", "RxBlocking"}
RIPPLE_MODULES = {"Ripple", "RippleTest"}
FUNCTION_KINDS = {"swift.func", "swift.method", "swift.type.method", "swift.init", "swift.func.op"}

# Protocols and the types that conform to them declare the same operators; a
# declaration is compared with RxSwift's in the same family.
FAMILIES = {
    "ObservableType": "Observable", "Observable": "Observable", "ObservableConvertibleType": "Observable",
    "ConnectableObservableType": "Observable", "ConnectableObservable": "Observable",
    "PrimitiveSequence": "PrimitiveSequence", "PrimitiveSequenceType": "PrimitiveSequence",
    "SharedSequence": "SharedSequence", "SharedSequenceConvertibleType": "SharedSequence",
    "Infallible": "Infallible", "InfallibleType": "Infallible",
    "ObserverType": "Observer", "AnyObserver": "Observer",
}


def family(path):
    if not path:
        return "<module>"
    head = FAMILIES.get(path[0], path[0])
    return "/".join([head] + path[1:])


def constraint_key(symbol):
    """The constraints that tell RxSwift's trait extensions apart (Single vs Maybe,
    Driver vs Signal)."""
    constraints = symbol.get("swiftGenerics", {}).get("constraints", []) + \
        symbol.get("swiftExtension", {}).get("constraints", [])
    keep = []
    for c in constraints:
        lhs = c.get("lhs", "").replace("Self.", "")
        rhs = c.get("rhs", "")
        # Only a concrete trait (`Trait == SingleTrait`), not a relation between
        # generic parameters (`SharingStrategy == O.SharingStrategy`).
        if c.get("kind") == "sameType" and lhs in ("Trait", "SharingStrategy") and re.fullmatch(r"\w+(Trait|SharingStrategy)", rhs):
            keep.append(f"{lhs}=={rhs}")
    return ",".join(sorted(set(keep)))


def split_top_level(text):
    parts, depth, current, i = [], 0, "", 0
    while i < len(text):
        ch = text[i]
        if text.startswith("->", i):
            current += "->"
            i += 2
            continue
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
        i += 1
    if current.strip():
        parts.append(current)
    return parts


def parameter_list(declaration, name):
    """The text between the parentheses of the declaration's parameter list."""
    start = declaration.find(name + "(") if not name.startswith("init") else declaration.find("init")
    if start < 0:
        start = 0
    # Skip the generic parameter clause.
    i = declaration.find("(", start)
    angle = declaration.find("<", start)
    if 0 <= angle < i:
        depth, j = 0, angle
        while j < len(declaration):
            if declaration[j] == "<":
                depth += 1
            elif declaration[j] == ">" and declaration[j - 1] != "-":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        i = declaration.find("(", j)
    depth, j = 0, i
    while j < len(declaration):
        if declaration.startswith("->", j):
            j += 2
            continue
        if declaration[j] in "([<":
            depth += 1
        elif declaration[j] in ")]>":
            depth -= 1
            if depth == 0:
                return declaration[i + 1:j]
        j += 1
    return ""


def shape(symbol):
    """`name(label:label?:)`, a `?` marking a defaulted parameter."""
    title = symbol["names"]["title"]
    base = title.split("(")[0]
    declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
    params = split_top_level(parameter_list(declaration, base))
    labels = re.findall(r"([^:()]+):", title[len(base):])
    if len(labels) != len(params):
        # Operators and unusual titles: labels from the title only.
        return title
    out = []
    for label, param in zip(labels, params):
        defaulted = re.search(r"(?<![=!<>])=(?!=)", param) is not None
        out.append(label + ("?" if defaulted else "") + ":")
    return f"{base}({''.join(out)})"


def entries(directory, modules):
    result = []
    for file in sorted(pathlib.Path(directory).glob("*.symbols.json")):
        graph = json.loads(file.read_text())
        module = graph["module"]["name"]
        if module not in modules:
            continue
        for symbol in graph["symbols"]:
            kind = symbol["kind"]["identifier"]
            if kind not in FUNCTION_KINDS:
                continue
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            # A protocol extension's member repeated on each conforming type:
            # compared once, where it is declared.
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            path = symbol["pathComponents"][:-1]
            title = symbol["names"]["title"]
            base = title.split("(")[0]
            static = "static " if kind == "swift.type.method" else ""
            unavailable = any(
                a.get("isUnconditionallyUnavailable") or a.get("obsoleted") and a.get("domain") == "Swift"
                for a in symbol.get("availability", []))
            result.append({
                "key": f"{family(path)} {static}{base} [{constraint_key(symbol)}]",
                "shape": shape(symbol),
                "onlyBeforeSwift6": unavailable,
                "swift6Only": any(a.get("domain") == "Swift" and "introduced" in a
                                  for a in symbol.get("availability", [])),
            })
    return result


def generate(out, directories):
    table = {}
    for directory in directories:
        for entry in entries(directory, RX_MODULES):
            table.setdefault(entry["key"], set()).add(entry["shape"])
    data = {key: sorted(shapes) for key, shapes in sorted(table.items())}
    pathlib.Path(out).write_text(json.dumps({
        "source": "RxSwift 6.10.2 (RxSwift, RxRelay, RxTest, RxBlocking; RxCocoa's traits, bindings and "
                  "Foundation extensions built on Linux): public functions, methods and initializers, keyed by "
                  "where they are declared (protocol and conforming type together), static or not, the trait "
                  "constraint of their extension, and their base name; each shape lists the argument labels, "
                  "`?` after a defaulted one.",
        "declarations": data,
    }, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(data)} keys to {out}")


def check(directory):
    rx = json.loads(DATA.read_text())["declarations"]
    groups = json.loads(DEVIATIONS.read_text())["groups"]
    allowed = {(shape["key"], shape["shape"]) for group in groups for shape in group["shapes"]}
    seen_allowed = set()
    problems = []
    ripple = entries(directory, RIPPLE_MODULES)
    for entry in ripple:
        key, got = entry["key"], entry["shape"]
        if key not in rx or got in rx[key]:
            continue
        if (key, got) in allowed:
            seen_allowed.add((key, got))
            continue
        problems.append(f"{key}: {got} is not RxSwift's shape; RxSwift declares {', '.join(rx[key])}")
    for key, got in sorted(allowed - seen_allowed):
        problems.append(f"{key}: {got} is listed in {DEVIATIONS.name} but Ripple no longer declares it")
    guide = (ROOT / "docs" / "MigratingFromRxSwift.md").read_text()
    for group in groups:
        if group["docMention"] not in guide:
            problems.append(f"deviation group {group['name']!r}: docs/MigratingFromRxSwift.md does not mention "
                            f"{group['docMention']!r}")
    if problems:
        print("API shapes that differ from RxSwift 6.10.2's:", file=sys.stderr)
        for problem in sorted(set(problems)):
            print("  " + problem, file=sys.stderr)
        print(f"{len(set(problems))} problem(s). Give the declaration RxSwift's parameters, or list it in "
              f"{DEVIATIONS.relative_to(ROOT)} with the reason (and say it in docs/MigratingFromRxSwift.md).",
              file=sys.stderr)
        return 1
    checked = sum(1 for entry in ripple if entry["key"] in rx)
    print(f"API shapes: {checked} declarations with RxSwift's names checked against RxSwift 6.10.2; "
          f"{len(seen_allowed)} deliberate differences in {len(groups)} documented groups.")
    return 0


def extract_ripple():
    """Ripple's and RippleTest's symbol graphs, extracted from the modules of the
    root package's debug build (seconds; run after `swift build`)."""
    output = ROOT / ".build" / "api-shapes"
    output.mkdir(parents=True, exist_ok=True)
    for old in output.glob("*.json"):
        old.unlink()
    bin_path = pathlib.Path(subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                                           capture_output=True, text=True).stdout.strip())
    modules = str(bin_path / "Modules")
    # Ripple imports the package's C targets (CRippleAtomics, CRippleStacks):
    # their module maps, which SwiftPM writes into the build directory.
    c_modules = []
    for module_map in sorted(bin_path.glob("*.build/module.modulemap")):
        c_modules += ["-Xcc", f"-fmodule-map-file={module_map}"]
    triple = subprocess.run(["swiftc", "-print-target-info"], check=True, capture_output=True, text=True).stdout
    target = json.loads(triple)["target"]["triple"]
    for module in sorted(RIPPLE_MODULES):
        subprocess.run(["swift", "symbolgraph-extract", "-module-name", module, "-I", modules, *c_modules,
                        "-target", target, "-minimum-access-level", "public", "-output-dir", str(output)],
                       cwd=ROOT, check=True)
    return output


def main(argv):
    if len(argv) >= 3 and argv[1] == "--generate":
        generate(argv[2], argv[3:])
        return 0
    if len(argv) == 3 and argv[1] == "--symbol-graphs":
        return check(argv[2])
    if len(argv) == 1:
        return check(extract_ripple())
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
