#!/usr/bin/env python3
"""Summarise a GPU run of the packed suite (tools/gpu/run.py) as JSON, text and Markdown.

A results folder holds what run.py wrote:
    manifest.json                  the pack's manifest (commit, tests, benchmarks)
    device.json                    {"name", "driver", "memory", "host_threads"}
    tests/<name>.json              Google Test's JSON report (absent if the executable crashed)
    tests/<name>.run.json          {"exit_code", "seconds", "timed_out"}
    benchmarks/<name>.json         Google Benchmark's JSON output
    benchmarks/<name>.run.json     {"exit_code", "seconds", "timed_out"}

    python3 tools/gpu/summarize.py RESULTS --json summary.json --text summary.txt
    python3 tools/gpu/summarize.py --markdown summary.json      # the benchmark report's GPU table

Counting rules: an executable passes when it exits 0 and reports every test it ran; it is
skipped (never passed) when every one of its tests skipped; it fails when it exits non-zero,
times out, reports no result, or any test fails.  A benchmark executable fails when it exits
non-zero: PerfMain does so when a benchmark's own result check failed.
"""
import argparse
import json
import os
import sys

# Keys of a Google Benchmark entry that are not user counters.
BENCHMARK_FIELDS = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
    "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "aggregate_name",
    "aggregate_unit", "error_occurred", "error_message", "label",
}
NO_GPU_PREFIX = "no GPU visible"


def _load(path, default=None):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def _gtest_cases(report):
    """(suite.test, outcome) for every test in a Google Test JSON report."""
    for suite in report.get("testsuites", []):
        for case in suite.get("testsuite", []):
            name = f"{suite.get('name', '?')}.{case.get('name', '?')}"
            if case.get("failures"):
                yield name, "failed"
            elif case.get("result") == "SKIPPED" or case.get("status") == "NOTRUN":
                yield name, "skipped"
            else:
                yield name, "passed"


def summarize_test(name, results_dir):
    run = _load(os.path.join(results_dir, "tests", name + ".run.json"), {})
    report = _load(os.path.join(results_dir, "tests", name + ".json"))
    entry = {"name": name, "exit_code": run.get("exit_code"), "seconds": run.get("seconds"),
             "passed": 0, "failed": 0, "skipped": 0, "failed_cases": []}
    if report is not None:
        for case, outcome in _gtest_cases(report):
            entry[outcome] += 1
            if outcome == "failed":
                entry["failed_cases"].append(case)
    if run.get("timed_out"):
        entry["status"], entry["reason"] = "failed", "timed out"
    elif run.get("exit_code") != 0:
        entry["status"], entry["reason"] = "failed", f"exit code {run.get('exit_code')}"
    elif report is None:
        entry["status"], entry["reason"] = "failed", "no Google Test report"
    elif entry["failed"]:
        entry["status"] = "failed"
    elif entry["passed"] == 0 and entry["skipped"] > 0:
        entry["status"] = "skipped"
    elif entry["passed"] == 0:
        entry["status"], entry["reason"] = "failed", "ran no test"
    else:
        entry["status"] = "passed"
    return entry


def summarize_benchmark(name, results_dir):
    run = _load(os.path.join(results_dir, "benchmarks", name + ".run.json"), {})
    report = _load(os.path.join(results_dir, "benchmarks", name + ".json"), {})
    results, errors = [], []
    for b in report.get("benchmarks", []):
        if b.get("error_occurred"):
            errors.append({"name": b.get("run_name", b.get("name")), "message": b.get("error_message", "")})
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        counters = {k: v for k, v in b.items() if k not in BENCHMARK_FIELDS and isinstance(v, (int, float))}
        results.append({"name": b.get("run_name", b.get("name")), "real_time": b.get("real_time"),
                        "time_unit": b.get("time_unit", "ns"),
                        "statistic": "median" if b.get("run_type") == "aggregate" else "single",
                        "counters": counters})
    entry = {"name": name, "exit_code": run.get("exit_code"), "seconds": run.get("seconds"), "results": results,
             "errors": errors, "env": run.get("env", {})}
    if run.get("not_run"):
        entry["status"], entry["reason"] = "failed", "not run: the budget was spent"
    elif run.get("timed_out"):
        entry["status"], entry["reason"] = "failed", "timed out"
    elif run.get("exit_code") != 0:
        entry["status"], entry["reason"] = "failed", f"exit code {run.get('exit_code')}"
    elif not report:
        entry["status"], entry["reason"] = "failed", "no Google Benchmark report"
    elif not results and errors and all(e["message"].startswith(NO_GPU_PREFIX) for e in errors):
        entry["status"] = "skipped"
    elif errors:
        entry["status"], entry["reason"] = "failed", "a benchmark reported an error"
    else:
        entry["status"] = "passed"
    return entry


# The GPU task DAG's goals, read from PerfCudaTaskDag's medians (perf_tests/README.md, "The GPU
# task DAG"): Fibonacci(30) tasks per second, the TaskTeam wavefront against the host scheduler on
# the device machine's cores, the minimum effective granularity (the work per leaf at which the
# tasks reach half of one plain kernel's speed), and the measured worker shape against the default;
# with no target, the workers' device memory, the adaptive quadrature against the host, and the
# sparse Cholesky and its triangular solves against the host and against a kernel per level of
# its tree.
FIB30_GOAL_TASKS_PER_S = 50e6
GRANULARITY_EFFICIENCY = 0.5
SHAPE_DAGS = {0: "fibonacci", 1: "granularity", 2: "wavefront"}


def _runs_of(results, prefix, *needed):
    """[(parameters {name: int}, counters)] of the results named `prefix` + "name:value/..." that have
    every counter in `needed`."""
    return [({k: int(v) for k, v in (p.split(":") for p in name.split("/")[2:] if ":" in p)}, c)
            for name, c in results.items() if name.startswith(prefix) and all(n in c for n in needed)]


def _task_dag_results(summary):
    """{short benchmark name: counters} of PerfCudaTaskDag's default run, or None if it has none."""
    for e in summary["benchmarks"]["per_executable"]:
        if e["name"] == "PerfCudaTaskDag" and e["results"]:
            return {_short_name(r["name"]): r["counters"] for r in e["results"]}
    return None


def _minimum_granularity(points):
    """points: [(work, efficiency)].  The work at which efficiency first reaches the threshold,
    interpolated in log(work) between the last point below it and the first at or above it."""
    points = sorted(points)
    for i, (work, eff) in enumerate(points):
        if eff < GRANULARITY_EFFICIENCY:
            continue
        if i == 0:
            return {"work": work, "bound": "at most"}
        (w0, e0) = points[i - 1]
        t = (GRANULARITY_EFFICIENCY - e0) / (eff - e0)
        return {"work": round(w0 * (work / w0) ** t), "bound": "about"}
    return {"work": points[-1][0], "bound": "above"} if points else None


def _tile_size(name):
    """The tile size of a CudaTaskDag/<DAG>/<b> benchmark's name."""
    return int(name.split("/")[2])


def task_dag_goals(summary):
    """Each goal: {"goal", "value", "status"}; status "met", "not met" or "unmeasured" (the granularity,
    which has no target: "reported" or "not reached" within the works measured).  None without
    PerfCudaTaskDag's results."""
    results = _task_dag_results(summary)
    if results is None:
        return None
    goals = []
    fib = results.get("CudaTaskDag/Fib/30", {}).get("gpu_tasks_per_s")
    goals.append({"goal": "Fibonacci(30) at >= 50 M tasks/s",
                  "value": None if fib is None else f"{fib / 1e6:.3g} M tasks/s",
                  "status": "unmeasured" if fib is None else ("met" if fib >= FIB30_GOAL_TASKS_PER_S else "not met")})
    ratios = []  # (DAG, tile size, GPU over host)
    for dag, benchmark, counter in (("wavefront", "Wavefront", "ratio_gpu_to_host"),
                                    ("Cholesky", "Cholesky", "ratio_gpu_to_host"),
                                    ("Cholesky built on the GPU", "Cholesky", "ratio_built_to_host")):
        sizes = sorted((_tile_size(name), c[counter]) for name, c in results.items()
                       if name.startswith(f"CudaTaskDag/{benchmark}/") and c.get(counter) is not None)
        ratios.extend((dag, b, r) for b, r in sizes)
    goals.append({"goal": "TaskTeam DAGs (wavefront, tiled Cholesky) faster than the host scheduler",
                  "value": ", ".join(f"{dag} {b}x{b} tiles {r:.3g}x the host" for dag, b, r in ratios) or None,
                  "status": "unmeasured" if not ratios else ("met" if max(r for _, _, r in ratios) > 1 else "not met")})
    points = [(int(c["work"]), c["efficiency"]) for name, c in results.items()
              if name.startswith("CudaTaskDag/Granularity/") and "work" in c and "efficiency" in c]
    g = _minimum_granularity(points)
    goals.append({"goal": "minimum effective granularity (50% of one kernel's speed)",
                  "value": None if g is None else f"{g['bound']} {g['work']} steps per leaf",
                  "status": "unmeasured" if g is None else ("not reached" if g["bound"] == "above" else "reported")})
    shapes = []
    for d, dag in SHAPE_DAGS.items():
        c = results.get(f"CudaTaskDag/Measured/dag:{d}")
        if c and "speedup" in c:
            kept = f"{int(c.get('kept_blocks', 0))}x{int(c.get('kept_warps', 0))}"
            shapes.append((dag, c["speedup"], kept))
    worst = min((s for _, s, _ in shapes), default=None)
    goals.append({"goal": "measured worker shape not slower than the default (>= 0.9x: a tie within 10%)",
                  "value": ", ".join(f"{dag} {s:.3g}x (kept {k})" for dag, s, k in shapes) or None,
                  "status": "unmeasured" if worst is None else ("met" if worst >= 0.9 else "not met")})
    memory = [(dag, results[f"CudaTaskDag/WorkerMemory/dag:{d}"]["speedup"]) for d, dag in SHAPE_DAGS.items()
              if "speedup" in results.get(f"CudaTaskDag/WorkerMemory/dag:{d}", {})]
    goals.append({"goal": "device memory for the workers' spawns, over the managed pool (no target: reported)",
                  "value": ", ".join(f"{dag} {s:.3g}x" for dag, s in memory) or None,
                  "status": "reported" if memory else "unmeasured"})
    adaptive = sorted((params["peaks"], params["spawn_depth"], c["ratio_gpu_to_host"])
                      for params, c in _runs_of(results, "CudaTaskDag/Adaptive/", "ratio_gpu_to_host"))
    goals.append({"goal": "adaptive quadrature (work found while it runs) against the host scheduler "
                          "(no target: reported)",
                  "value": ", ".join(f"{p} peak(s), tasks to depth {d}: {r:.3g}x the host" for p, d, r in adaptive)
                  or None,
                  "status": "reported" if adaptive else "unmeasured"})
    sparse_counters = ("ratio_gpu_to_host", "ratio_gpu_to_levels")

    def sparse_runs(prefix):
        return sorted((params["dims"], params["grid"], params["grain"], c["ratio_gpu_to_host"],
                       c["ratio_gpu_to_levels"], c.get("ratio_team_to_host"), c.get("ratio_team_to_levels"))
                      for params, c in _runs_of(results, prefix, *sparse_counters))

    def sparse_value(runs):
        return ", ".join(f"{g}^{d} grid, grain {c}: {h:.3g}x the host, {lv:.3g}x the level kernels"
                         + ("" if th is None else f" (team chains: {th:.3g}x the host, {tlv:.3g}x the level kernels)")
                         for d, g, c, h, lv, th, tlv in runs) or None

    sparse = sparse_runs("CudaTaskDag/Sparse/")
    goals.append({"goal": "sparse Cholesky (an elimination tree of small tasks) against the host scheduler and "
                          "a kernel per tree level (no target: reported)",
                  "value": sparse_value(sparse), "status": "reported" if sparse else "unmeasured"})
    solves = sparse_runs("CudaTaskDag/SparseSolve/")
    goals.append({"goal": "triangular solves with the sparse factor (forward up the tree, backward down it) "
                          "against the host scheduler and a kernel per tree level each way (no target: reported)",
                  "value": sparse_value(solves), "status": "reported" if solves else "unmeasured"})
    return goals


def summarize(results_dir):
    manifest = _load(os.path.join(results_dir, "manifest.json"), {})
    device = _load(os.path.join(results_dir, "device.json"), {})
    tests = [summarize_test(t["name"], results_dir) for t in manifest.get("tests", [])]
    benchmarks = [summarize_benchmark(b["name"], results_dir) for b in manifest.get("benchmarks", [])]

    def count(entries, key="status"):
        return {s: sum(1 for e in entries if e[key] == s) for s in ("passed", "failed", "skipped")}

    cases = {s: sum(e[s] for e in tests) for s in ("passed", "failed", "skipped")}
    ok = all(e["status"] != "failed" for e in tests + benchmarks)
    summary = {"device": device, "commit": manifest.get("commit", "unknown"), "ok": ok,
               "tests": {"executables": count(tests), "cases": cases, "per_executable": tests},
               "benchmarks": {"executables": count(benchmarks), "per_executable": benchmarks}}
    summary["task_dag_goals"] = task_dag_goals(summary)
    return summary


def _format_number(v):
    if isinstance(v, float):
        if v != 0 and (abs(v) >= 1e5 or abs(v) < 1e-2):
            return f"{v:.3g}"
        return f"{v:.3f}".rstrip("0").rstrip(".")
    return str(v)


def _counters_text(counters):
    return ", ".join(f"{k}={_format_number(v)}" for k, v in sorted(counters.items()))


def text(summary):
    d = summary["device"]
    t, b = summary["tests"], summary["benchmarks"]
    lines = [
        f"device: {d.get('name', '?')}, driver {d.get('driver', '?')}, {d.get('memory', '?')}, "
        f"{d.get('host_threads', '?')} host threads",
        f"commit: {summary['commit']}",
        f"result: {'PASS' if summary['ok'] else 'FAIL'}",
        "test executables: {passed} passed, {failed} failed, {skipped} skipped".format(**t["executables"]),
        "tests: {passed} passed, {failed} failed, {skipped} skipped".format(**t["cases"]),
        "benchmark executables: {passed} passed, {failed} failed, {skipped} skipped".format(**b["executables"]),
        "",
    ]
    if summary.get("task_dag_goals"):
        lines.append("GPU task DAG goals:")
        lines.extend(f"  {g['status']:10} {g['goal']}: {g['value'] or 'no result'}" for g in summary["task_dag_goals"])
        lines.append("")
    for e in t["per_executable"]:
        extra = f" ({e['reason']})" if e.get("reason") else ""
        lines.append(f"  {e['status']:7} {e['name']}: {e['passed']} passed, {e['failed']} failed, "
                     f"{e['skipped']} skipped, {_format_number(e['seconds'] or 0.0)} s{extra}")
        lines.extend(f"          FAILED {c}" for c in e["failed_cases"])
    lines.append("")
    for e in b["per_executable"]:
        extra = f" ({e['reason']})" if e.get("reason") else ""
        lines.append(f"  {e['status']:7} {e['name']}: {_format_number(e['seconds'] or 0.0)} s{extra}")
        for err in e["errors"]:
            lines.append(f"          ERROR {err['name']}: {err['message']}")
        for r in e["results"]:
            lines.append(f"          {r['name']}: {_format_number(r['real_time'])} {r['time_unit']} ({r['statistic']})"
                         + (f"; {_counters_text(r['counters'])}" if r["counters"] else ""))
    return "\n".join(lines) + "\n"


def _short_name(name):
    """A benchmark's name without Google Benchmark's fixed suffixes."""
    for suffix in ("/real_time", "/iterations:1"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name


def markdown(summary):
    d = summary["device"]
    lines = [
        f"Device: {d.get('name', '?')} (driver {d.get('driver', '?')}), {d.get('host_threads', '?')} host threads; "
        f"commit {summary['commit']}; produced by `tools/gpu/summarize.py --markdown summary.json`.",
    ]
    for e in summary["benchmarks"]["per_executable"]:
        env = " ".join(f"{k}={v}" for k, v in sorted(e.get("env", {}).items()))
        lines += ["", f"`{e['name'].split('.')[0]}`" + (f" with `{env}`" if env else "") + f": {e['status']}", "",
                  "| benchmark | time (median) | counters (ratios measured in the same run) |", "|---|---|---|"]
        for r in e["results"]:
            lines.append(f"| `{_short_name(r['name'])}` | {_format_number(r['real_time'])} {r['time_unit']} | "
                         f"{_counters_text(r['counters'])} |")
        for err in e["errors"]:
            lines.append(f"| `{_short_name(err['name'])}` | error | {err['message']} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", help="a results folder, or a summary.json with --markdown")
    parser.add_argument("--json", help="write the summary as JSON here")
    parser.add_argument("--text", help="write the summary as text here")
    parser.add_argument("--markdown", action="store_true", help="print the benchmark table of a summary.json")
    args = parser.parse_args(argv)
    if args.markdown:
        summary = _load(args.source) if os.path.isfile(args.source) else summarize(args.source)
        if summary is None:
            raise SystemExit(f"summarize.py: cannot read {args.source}")
        sys.stdout.write(markdown(summary))
        return 0
    summary = summarize(args.source)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)
    body = text(summary)
    if args.text:
        with open(args.text, "w") as f:
            f.write(body)
    sys.stdout.write(body)
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
