#!/usr/bin/env python3
"""Writes Benchmarks/SizePrograms/screens/main.swift: N screens, each with a model
type of its own and the same two chains, built against Ripple and against RxSwift
(`ripple-compare --size`) to measure what each further screen of an app costs in
bytes and build time. The screens are written out, not generic: an app's screens
are separate code over separate types, and that is what each library's code
generation sees.

    python3 scripts/generate-screens-program.py [N]     # N = 10 by default
"""
import pathlib
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 10
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
path = pathlib.Path(__file__).resolve().parent.parent / "Benchmarks/SizePrograms/screens/main.swift"
path.parent.mkdir(parents=True, exist_ok=True)
path.write_text("\n".join(out) + "\n")
print(f"wrote {path.relative_to(path.parents[3])} ({count} screens)")
