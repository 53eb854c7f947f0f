#!/usr/bin/env python3
"""Compare one GPU benchmark across commits (or patched commits) in a single device call.

A GPU is lent for minutes, so a regression between two commits cannot be bisected one device
call per step.  Instead, build the benchmark at every candidate commit here (nvcc needs no GPU;
ccache makes commits that share objects cheap), pack the executables into one archive, and run
them all on the GPU machine in rounds, each round in another order, so that each variant is
measured beside the others under the same conditions:

    python3 tools/gpu/variants.py build --target PerfCudaTaskDag base=7e4a704 pool=b7435e0 \
        head=HEAD fix=HEAD+/tmp/fix.patch      # -> build/gpu-variants/kdag-variants.tar.gz
    # on the GPU machine, with build/gpu-variants carried (the archive alone):
    python3 tools/gpu/variants.py run build/gpu-variants/kdag-variants.tar.gz --out $OUT \
        --filter '^CudaTaskDag/Fib/30' --rounds 3 --budget-s 240 --counter gpu_tasks_per_s
    python3 tools/gpu/variants.py table $OUT/variants.json --counter gpu_tasks_per_s

The same serves a host benchmark with `build --preset release` (any configure preset of
CMakePresets.json), its archive run here:

    python3 tools/gpu/variants.py build --preset release --target PerfMemoryPool base=HEAD \
        nomark=HEAD+perf_tests/experiments/memory_pool/no-double-free-mark.patch
    python3 tools/gpu/variants.py run build/gpu-variants/kdag-variants.tar.gz --out /tmp/pool \
        --filter '^MemoryPoolPairsSideBySide/fixed32/' --rounds 5 --threads 2 --counter x_malloc

A variant is NAME=REV or NAME=REV+PATCH: REV is anything `git rev-parse` accepts in this
repository, PATCH a file `git apply` takes on top of it.  Each one is checked out in a worktree
of its own under --work (build/gpu-variants-trees, kept so that a second build is incremental)
and built with --preset (cuda by default).  `run` starts a run only while one as long as the longest so far
still fits the budget, gives each at most --run-timeout-s, keeps each run's output
(NAME.roundR.log) and rewrites variants.json (every sample) and variants.md (the table) under
--out after each run: per benchmark, each variant's
median time and counters over the rounds, each with its ratio to the first variant's.  A
variant whose run fails, matches no benchmark or reports an error (no GPU) is listed under the
table, and the command then exits 1.
"""
import argparse
import filecmp
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pack  # noqa: E402
import run as gpu_run  # noqa: E402
import summarize  # noqa: E402

ROOT = pack.ROOT


def parse_variant(spec):
    """NAME=REV[+PATCH] -> (name, rev, patch or None)."""
    name, sep, rest = spec.partition("=")
    if not sep or not name or not rest:
        raise SystemExit(f"variants.py: a variant is NAME=REV or NAME=REV+PATCH, not {spec!r}")
    if "/" in name or name.startswith("."):
        raise SystemExit(f"variants.py: a variant's name is a plain file name, not {name!r}")
    rev, plus, patch = rest.partition("+")
    return name, rev, (os.path.abspath(patch) if plus else None)


def git(*args, cwd=ROOT):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def build_variant(name, rev, patch, target, work, preset="cuda"):
    """Checks `rev` out in work/name, applies `patch`, builds `target` with the configure preset
    `preset` (in build/<preset>); returns (path of the executable, full commit, subject)."""
    commit = git("rev-parse", "--verify", rev + "^{commit}")
    subject = git("log", "-1", "--format=%s", commit)
    tree = os.path.join(work, name)
    if not os.path.isdir(tree):
        git("worktree", "add", "--force", "--detach", tree, commit)
    git("checkout", "--quiet", "--force", "--detach", commit, cwd=tree)
    git("clean", "-fdq", cwd=tree)  # files an earlier patch added (build/ is ignored, and stays)
    if patch is not None:
        git("apply", patch, cwd=tree)
    build_dir = os.path.join(tree, "build", preset)
    # Paths hashed relative to the worktree: objects equal to another commit's come from the cache.
    env = dict(os.environ, CCACHE_BASEDIR=tree, CCACHE_NOHASHDIR="1")
    log_path = os.path.join(tree, "build", "variant-build.log")
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    start = time.monotonic()
    with open(log_path, "w") as log:
        steps = [["cmake", "--build", build_dir, "--target", target]]
        if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
            steps.insert(0, ["cmake", "--preset", preset, "-B", build_dir])
        for step in steps:
            if subprocess.run(step, cwd=tree, env=env, stdout=log, stderr=subprocess.STDOUT).returncode != 0:
                with open(log_path, errors="replace") as f:
                    tail = f.read()[-3000:]
                raise SystemExit(f"variants.py: building {name} failed ({log_path}):\n{tail}")
    exe = os.path.join(build_dir, "perf_tests", target)
    if not os.path.exists(exe):
        raise SystemExit(f"variants.py: {target} was built but {exe} does not exist")
    print(f"{name}: {commit[:10]}{' + ' + os.path.basename(patch) if patch else ''} built in "
          f"{time.monotonic() - start:.0f} s", flush=True)
    return exe, commit, subject


def build(args):
    variants = [parse_variant(s) for s in args.variants]
    names = [v[0] for v in variants]
    if len(set(names)) != len(names):
        raise SystemExit("variants.py: two variants have the same name")
    os.makedirs(args.work, exist_ok=True)
    manifest = {"target": args.target, "variants": []}
    with tempfile.TemporaryDirectory() as tmp:
        stage = os.path.join(tmp, "kdag-variants")
        os.makedirs(os.path.join(stage, "lib"))
        libraries = {}
        for name, rev, patch in variants:
            exe, commit, subject = build_variant(name, rev, patch, args.target, os.path.abspath(args.work), args.preset)
            os.makedirs(os.path.join(stage, "bin", name))
            copy = os.path.join(stage, "bin", name, args.target)
            pack.copy_stripped(exe, copy)
            for lib in pack.build_tree_libraries(exe, os.path.dirname(os.path.dirname(exe))):
                first = libraries.setdefault(os.path.basename(lib), lib)
                if not filecmp.cmp(first, lib, shallow=False):
                    raise SystemExit(f"variants.py: {name} loads a {os.path.basename(lib)} other than the one of "
                                     f"an earlier variant ({lib}, {first}); one archive holds one of each")
            manifest["variants"].append({"name": name, "commit": commit, "subject": subject,
                                         "patch": os.path.basename(patch) if patch else None,
                                         "exe": f"bin/{name}/{args.target}"})
        for base, lib in sorted(libraries.items()):
            shutil.copy2(lib, os.path.join(stage, "lib", base))
        size_mib = pack.write_archive(stage, manifest, args.output)
    print(f"{args.output}: {len(variants)} variants of {args.target}, {size_mib:.1f} MiB")
    if size_mib > args.max_mib:
        print(f"variants.py: the archive is over {args.max_mib} MiB", file=sys.stderr)
        return 1
    return 0


def read_samples(report_path):
    """({benchmark name: {"real_time": ns, counter: value...}}, [error messages]) of one Google
    Benchmark JSON report (a run with repetitions contributes its median; a benchmark that
    reported an error, e.g. no GPU, contributes its message)."""
    with open(report_path) as f:
        report = json.load(f)
    out, errors = {}, []
    for b in report.get("benchmarks", []):
        if b.get("error_occurred"):
            errors.append(f"{b.get('run_name', b.get('name'))}: {b.get('error_message', 'error')}")
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        if b.get("run_type") != "aggregate" and b.get("repetitions", 1) > 1:
            continue  # its median is the aggregate entry
        scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        values = {"real_time": b["real_time"] * scale}
        for key, value in b.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool) and key not in summarize.BENCHMARK_FIELDS:
                values[key] = value
        out[b.get("run_name", b["name"])] = values
    return out, errors


def round_order(count, r, rounds):
    """The order of `count` variants in round r: shifted by r * count / rounds and reversed in odd
    rounds, so that over the rounds each variant runs early and late, and next to others."""
    shift = (r * count) // max(1, rounds)
    order = [(i + shift) % count for i in range(count)]
    return order[::-1] if r % 2 else order


def run(args):
    deadline = time.monotonic() + args.budget_s
    os.makedirs(args.out, exist_ok=True)
    with gpu_run.unpacked(args.archive, "kdag-variants") as (root, manifest):
        return run_unpacked(args, deadline, root, manifest)


def run_unpacked(args, deadline, root, manifest):
    variants = manifest["variants"]
    if args.only:
        by_name = {v["name"]: v for v in variants}
        wanted = args.only.split(",")
        unknown = [n for n in wanted if n not in by_name]
        if unknown:
            raise SystemExit(f"variants.py: no variant named {', '.join(unknown)} in {args.archive}")
        variants = [by_name[n] for n in wanted]
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.path.join(root, "lib") + os.pathsep + env.get("LD_LIBRARY_PATH", "")
    threads = args.threads or os.cpu_count()
    counters = [c for c in (args.counter or "").split(",") if c]
    results = {"target": manifest["target"], "filter": args.filter, "rounds": args.rounds,
               "device": gpu_run.device_info(), "variants": [dict(v, samples=[], failures=[]) for v in variants]}

    def write_results():  # after every run: a run cut short still leaves its table
        with open(os.path.join(args.out, "variants.json"), "w") as f:
            json.dump(results, f, indent=1)
        with open(os.path.join(args.out, "variants.md"), "w") as f:
            f.write(markdown(results, counters))

    slowest = 0.0  # the longest run so far: a run is started only if one as long still fits
    for r in range(args.rounds):
        for i in round_order(len(variants), r, args.rounds):
            v = results["variants"][i]
            left = deadline - time.monotonic()
            if left < max(1.0, slowest):
                v["failures"].append(f"round {r}: not run, the budget is spent")
                continue
            report = os.path.join(args.out, f"{v['name']}.round{r}.json")
            command = [os.path.join(root, v["exe"]), f"--benchmark_filter={args.filter}",
                       f"--kokkos-num-threads={threads}", "--benchmark_out_format=json",
                       f"--benchmark_out={report}", *args.benchmark_arg]
            start = time.monotonic()
            log_path = os.path.join(args.out, f"{v['name']}.round{r}.log")
            with open(log_path, "w") as log:
                try:
                    code = subprocess.run(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                                          timeout=min(left, args.run_timeout_s)).returncode
                except subprocess.TimeoutExpired:
                    code = None
            with open(log_path, errors="replace") as log:
                tail = log.read()[-600:] if code is not None else "timed out"
            seconds = time.monotonic() - start
            slowest = max(slowest, seconds)
            print(f"round {r} {v['name']}: exit {code} in {seconds:.1f} s", flush=True)
            try:
                samples, errors = read_samples(report) if code == 0 else ({}, [f"exit {code}: {tail.strip()}"])
            except (OSError, ValueError):
                samples, errors = {}, ["no Google Benchmark report (did the filter match a benchmark?)"]
            if code == 0 and not samples and not errors:
                errors = ["no benchmark matched the filter"]
            v["failures"].extend(f"round {r}: {e}" for e in errors)
            if samples:
                v["samples"].append(samples)
            write_results()
    write_results()
    with open(os.path.join(args.out, "variants.md")) as f:
        sys.stdout.write(f.read())
    return 0 if all(not v["failures"] for v in results["variants"]) else 1


def medians(variant, benchmark, key):
    values = [s[benchmark][key] for s in variant["samples"] if benchmark in s and key in s[benchmark]]
    return statistics.median(values) if values else None, len(values)


def markdown(results, counters=()):
    """One table per benchmark: each variant's median time and counters over its rounds, each with
    its ratio to the first variant's (time above 1: slower; a rate above 1: faster)."""
    variants = results["variants"]
    benchmarks = []
    for v in variants:
        for s in v["samples"]:
            benchmarks.extend(b for b in s if b not in benchmarks)
    lines = [f"{results['target']} on {results.get('device', {}).get('name', 'unknown')}, filter "
             f"`{results['filter']}`, {results['rounds']} rounds, medians; the first variant is the baseline", ""]
    for b in benchmarks:
        keys = ["real_time"] + [c for c in counters if any(b in s and c in s[b] for v in variants for s in v["samples"])]
        head = "| variant | commit |" + "".join(
            f" {'time (ms)' if k == 'real_time' else k} | vs first |" for k in keys) + " rounds |"
        lines += [f"### {b}", "", head, "|" + "---|" * (head.count("|") - 1)]
        for v in variants:
            row = f"| {v['name']} | {v['commit'][:10]}{' + ' + v['patch'] if v.get('patch') else ''} |"
            n = 0
            for k in keys:
                value, n_k = medians(v, b, k)
                base, _ = medians(variants[0], b, k)
                n = max(n, n_k)
                if value is None:
                    row += " - | - |"
                    continue
                shown = f"{value / 1e6:.3f}" if k == "real_time" else f"{value:.4g}"
                row += f" {shown} | {value / base:.2f} |" if base else f" {shown} | - |"
            lines.append(row + f" {n} |")
        lines.append("")
    for v in variants:
        for failure in v["failures"]:
            lines.append(f"- {v['name']}: {failure}")
    return "\n".join(lines) + "\n"


def table(args):
    with open(args.results) as f:
        sys.stdout.write(markdown(json.load(f), [c for c in (args.counter or "").split(",") if c]))
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the target at each variant and pack them")
    b.add_argument("variants", nargs="+", help="NAME=REV or NAME=REV+PATCH; the first is the baseline")
    b.add_argument("--target", default="PerfCudaTaskDag")
    b.add_argument("--preset", default="cuda", help="the configure preset each variant is built with")
    b.add_argument("--work", default=os.path.join(ROOT, "build", "gpu-variants-trees"),
                   help="where the worktrees go (keep it out of the folder a device call carries)")
    b.add_argument("--output", default=os.path.join(ROOT, "build", "gpu-variants", "kdag-variants.tar.gz"))
    b.add_argument("--max-mib", type=float, default=60.0)
    r = sub.add_parser("run", help="run every variant on this (GPU) machine in rotating rounds")
    r.add_argument("archive")
    r.add_argument("--out", default=os.environ.get("OUT") or os.path.join(os.getcwd(), "gpu-out"))
    r.add_argument("--filter", required=True, help="--benchmark_filter for every variant")
    r.add_argument("--rounds", type=int, default=3)
    r.add_argument("--only", default="", help="comma-separated variant names to run, in this order, the first "
                                              "one the baseline (default: all, in the archive's order)")
    r.add_argument("--run-timeout-s", type=float, default=60.0, help="the time limit of one run of a variant")
    r.add_argument("--budget-s", type=float, default=240.0)
    r.add_argument("--threads", type=int, default=0, help="--kokkos-num-threads (default: every core)")
    r.add_argument("--counter", default=None, help="comma-separated user counters to show beside the time")
    r.add_argument("--benchmark-arg", action="append", default=[],
                   help="one more argument for every run (repeatable), e.g. --benchmark-arg=--benchmark_repetitions=3")
    t = sub.add_parser("table", help="print the table of a run's variants.json")
    t.add_argument("results")
    t.add_argument("--counter", default=None, help="comma-separated user counters to show beside the time")
    args = parser.parse_args(argv)
    return {"build": build, "run": run, "table": table}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
