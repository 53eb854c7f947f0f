#!/usr/bin/env python3
"""The benchmark report's headline table, made from Google Benchmark's JSON.

    python3 tools/perf/report.py run --build build/release --out perf-json   # runs the benchmarks
    python3 tools/perf/report.py table perf-json                           # prints the table
    python3 tools/perf/report.py update perf_tests/README.md perf-json     # rewrites it in place

`run` runs each executable of tools/perf/headline.json ("runs") with its filter, with
--kokkos-num-threads (2), --benchmark_repetitions (5) and aggregates only, and writes
OUT/<executable>.json plus OUT/commands.json (the command lines, as run).  `table` makes one row
per entry of "rows": the value is the median of `num` divided by the median of `den` (when
given), both taken from the same run, with the row's goal, the command and the machine (cores
from the report's context, and the core-to-core round trip measured in the same run: the
benchmark counter the spec names as "round_trip", else PerfWorkGraph's BM_CoreToCore).  `update` replaces the text between the README's
"<!-- headline:begin -->" and "<!-- headline:end -->" markers, so a regression shows as a changed
ratio in a diff.  The CMake target `perf_report` runs `run` and `update` on the release build.
A missing benchmark or counter makes its row say so and the command exit non-zero.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = os.path.join(HERE, "headline.json")
BEGIN, END = "<!-- headline:begin -->", "<!-- headline:end -->"
CORE_TO_CORE = {"exe": "PerfWorkGraph", "name": "BM_CoreToCore/manual_time", "field": "round_trip_ns"}


def load_spec(path=SPEC):
    with open(path) as f:
        return json.load(f)


def medians(report):
    """{benchmark run name: its median entry} of one Google Benchmark JSON report.  A benchmark
    run once (no aggregates) is its own median."""
    out, singles = {}, {}
    for b in report.get("benchmarks", []):
        if b.get("error_occurred"):
            continue
        name = b.get("run_name", b.get("name"))
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                out[name] = b
        else:
            singles.setdefault(name, b)
    for name, b in singles.items():
        out.setdefault(name, b)
    return out


def load_results(folder, spec):
    results = {}
    for exe in spec["runs"]:
        path = os.path.join(folder, exe + ".json")
        if os.path.exists(path):
            with open(path) as f:
                results[exe] = json.load(f)
    commands = {}
    path = os.path.join(folder, "commands.json")
    if os.path.exists(path):
        with open(path) as f:
            commands = json.load(f)
    return results, commands


def operand(results, side):
    """The median of side["field"] (a counter, or real_time) of one benchmark, times side["scale"]."""
    report = results.get(side["exe"])
    if report is None:
        return None, f"no report of {side['exe']}"
    entry = medians(report).get(side["name"])
    if entry is None:
        return None, f"no {side['name']} in {side['exe']}"
    value = entry.get(side["field"])
    if not isinstance(value, (int, float)):
        return None, f"no {side['field']} in {side['name']}"
    return float(value) * side.get("scale", 1.0), None


def row_value(results, row):
    num, why = operand(results, row["num"])
    if why:
        return None, why
    if "den" not in row:
        return num, None
    den, why = operand(results, row["den"])
    if why:
        return None, why
    if den == 0:
        return None, "zero denominator"
    return num / den, None


def machine(results, spec=None):
    cores = None
    for report in results.values():
        cores = report.get("context", {}).get("num_cpus", cores)
        if cores:
            break
    trip, _ = operand(results, (spec or {}).get("round_trip", CORE_TO_CORE))
    parts = [f"{cores} cores" if cores else "cores not reported"]
    parts.append(f"core-to-core round trip {trip:.0f} ns" if trip is not None else "round trip not measured")
    return ", ".join(parts)


def meets(value, goal):
    """Whether value meets a goal written as '<= x' or '>= x' (None: no goal)."""
    if not goal:
        return None
    op, bound = goal.split()
    return value <= float(bound) if op == "<=" else value >= float(bound)


def table(results, commands, spec):
    """(markdown lines, number of rows without a value)."""
    where = machine(results, spec)
    dates = sorted(r.get("context", {}).get("date", "") for r in results.values())
    lines = [f"Measured {dates[0]} to {dates[-1]}." if dates and dates[0] else "Measurement dates not reported.", "",
             "| benchmark | baseline (same run) | ratio (medians) | goal | command | machine |",
             "|---|---|---|---|---|---|"]
    missing = 0
    for row in spec["rows"]:
        value, why = row_value(results, row)
        if value is None:
            missing += 1
            shown = f"missing: {why}"
        else:
            ok = meets(value, row.get("goal"))
            shown = f"{value:.2f} {row.get('unit', 'x')}" + ("" if ok is None else (" (met)" if ok else " (not met)"))
        exe = row["num"]["exe"]
        command = commands.get(exe, exe).replace("|", "\\|")  # a table cell ends at a bare |
        lines.append(f"| {row['what']} | {row['baseline']} | {shown} | {row.get('goal', '')} | `{command}` | {where} |")
    return lines, missing


def run(build, out, spec, threads, repetitions):
    os.makedirs(out, exist_ok=True)
    commands = {}
    for exe, args in spec["runs"].items():
        path = os.path.join(build, "perf_tests", exe)
        json_path = os.path.join(out, exe + ".json")
        argv = [path, f"--kokkos-num-threads={threads}", *args, f"--benchmark_repetitions={repetitions}",
                "--benchmark_report_aggregates_only=true", f"--benchmark_out={json_path}",
                "--benchmark_out_format=json"]
        shown = " ".join([exe, *argv[1:-2]])
        print(f"running {shown}", file=sys.stderr)
        result = subprocess.run(argv, stdout=subprocess.DEVNULL)
        if result.returncode != 0:
            print(f"{exe} exited with {result.returncode}", file=sys.stderr)
            return result.returncode
        commands[exe] = shown
    with open(os.path.join(out, "commands.json"), "w") as f:
        json.dump(commands, f, indent=1)
    return 0


def update(readme, lines):
    with open(readme) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{readme}: no {BEGIN} ... {END} markers")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(readme, "w") as f:
        f.write(head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spec", default=SPEC)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run")
    p.add_argument("--build", default="build/release")
    p.add_argument("--out", default="perf-json")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--repetitions", type=int, default=5)
    p = sub.add_parser("table")
    p.add_argument("folder")
    p = sub.add_parser("update")
    p.add_argument("readme")
    p.add_argument("folder")
    args = parser.parse_args(argv)
    spec = load_spec(args.spec)
    if args.command == "run":
        return run(args.build, args.out, spec, args.threads, args.repetitions)
    results, commands = load_results(args.folder, spec)
    lines, missing = table(results, commands, spec)
    if args.command == "table":
        print("\n".join(lines))
    else:
        update(args.readme, lines)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
