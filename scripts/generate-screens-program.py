#!/usr/bin/env python3
"""Writes Benchmarks/SizePrograms/screens/main.swift: N screens, each with a model
type of its own and the same two chains, built against Ripple and against RxSwift
(`ripple-compare --size`) to measure what each further screen of an app costs in
bytes and build time. The screens are written out, not generic: an app's screens
are separate code over separate types, and that is what each library's code
generation sees.

    python3 scripts/generate-screens-program.py [N]                  # N = 10 by default
    python3 scripts/generate-screens-program.py N --output FILE      # anywhere else
    python3 scripts/generate-screens-program.py --check              # the committed file is current

The committed file is the size gate's program and has 10 screens: a run with
another N and no `--output` refuses to overwrite it (its baseline is recorded
for 10). `--check` exits 1 when the committed file differs from what this script
writes (CI runs it).
"""
import argparse
import pathlib
import sys

GATED = pathlib.Path(__file__).resolve().parent.parent / "Benchmarks/SizePrograms/screens/main.swift"
GATED_COUNT = 10

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("count", nargs="?", type=int, default=GATED_COUNT, help="screens (default 10)")
parser.add_argument("--output", type=pathlib.Path, help="where to write (default: the gated program)")
parser.add_argument("--check", action="store_true", help="compare the committed program with this script's output")
args = parser.parse_args()
if args.count < 0:
    parser.error(f"the number of screens must be 0 or more, not {args.count}")
count = args.count
out = [
    f"// Size program \"screens\": {count} screens of an app, each with a model type of its own",
    "// and the same two chains (search, and a combined selection). Written by",
    "// scripts/generate-screens-program.py: edit that, not this file. The same source is",
    "// built against Ripple and against RxSwift (ripple-compare --size).",
    "#if canImport(Ripple)",
    "import Ripple",
    "#else",
    "import RxSwift",
    "#endif",
    "import Foundation",
]
for i in range(count):
    out.append(f"""
struct Model{i}: Equatable {{
    let id: Int
    let name: String
}}

final class Screen{i} {{
    let bag = DisposeBag()
    let query = BehaviorSubject<String>(value: "")
    let taps = PublishSubject<Int>()
    var shown: [Model{i}] = []

    init(scheduler: SchedulerType) {{
        query.map {{ $0.lowercased() + "{i}" }}
            .filter {{ $0.count > {i % 5} }}
            .distinctUntilChanged()
            .debounce(.milliseconds({i + 1}), scheduler: scheduler)
            .flatMapLatest {{ text in Observable.just([Model{i}(id: text.count, name: text)]).catchAndReturn([]) }}
            .subscribe(onNext: {{ [weak self] in self?.shown = $0 }})
            .disposed(by: bag)
        Observable.combineLatest(taps, query) {{ Model{i}(id: $0, name: $1) }}
            .map {{ $0.name }}
            .take(3)
            .subscribe(onNext: {{ print($0) }})
            .disposed(by: bag)
    }}
}}""")
out.append("")
out.append("let scheduler = MainScheduler.instance")
for i in range(count):
    out.append(f"let screen{i} = Screen{i}(scheduler: scheduler)")
    out.append(f"screen{i}.query.onNext(\"x\")")
out.append("var shown = 0")
for i in range(count):
    out.append(f"shown += screen{i}.shown.count")
out.append("print(shown)")
text = "\n".join(out) + "\n"
if args.check:
    if args.output is not None or count != GATED_COUNT:
        parser.error("--check compares the gated program with its default output: give neither N nor --output")
    current = GATED.read_text() if GATED.exists() else None
    if current != text:
        print(f"{GATED.relative_to(GATED.parents[3])} is not what scripts/generate-screens-program.py writes: "
              "run the script (and re-record the size baseline if the program changed)", file=sys.stderr)
        sys.exit(1)
    print(f"{GATED.relative_to(GATED.parents[3])} is current ({count} screens)")
    sys.exit(0)
path = args.output if args.output is not None else GATED
if path.resolve() == GATED and count != GATED_COUNT:
    parser.error(f"the gated program has {GATED_COUNT} screens (its size baseline is recorded for that); "
                 f"write {count} screens elsewhere with --output FILE")
path.parent.mkdir(parents=True, exist_ok=True)
path.write_text(text)
print(f"wrote {path} ({count} screens)")
