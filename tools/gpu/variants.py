#!/usr/bin/env python3
"""Compare one GPU benchmark across commits (or patched commits) in a single device call.

A GPU is lent for minutes, so a regression between two commits cannot be bisected one device
call per step.  Instead, build the benchmark at every candidate commit here (nvcc needs no GPU;
ccache makes commits that share objects cheap), pack the executables into one archive, and run
them all on the GPU machine in rotating rounds, so that each variant is measured beside the
others under the same conditions:

    python3 tools/gpu/variants.py build --target PerfCudaTaskDag --work /tmp/kdag-variants \\
        base=7e4a704 pool=b7435e0 head=HEAD fix=HEAD+/tmp/fix.patch
    # on the GPU machine, with build/gpu-variants carried:
    python3 tools/gpu/variants.py run build/gpu-variants/kdag-variants.tar.gz --out $OUT \\
        --filter '^CudaTaskDag/Fib/30' --rounds 3 --budget-s 240
    python3 tools/gpu/variants.py table $OUT/variants.json --counter gpu_tasks_per_s

A variant is NAME=REV or NAME=REV+PATCH: REV is anything `git rev-parse` accepts in this
repository, PATCH a file `git apply` takes on top of it.  Each one is checked out in a worktree
of its own under --work (kept, so that a second build is incremental) and built with the cuda
preset.  `run` writes variants.json (every sample) and variants.md (the table) under --out; the
table gives, per benchmark, each variant's median time and counter over the rounds and its ratio
to the first variant's.
"""
import argparse
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


def build_variant(name, rev, patch, target, work):
    """Checks `rev` out in work/name, applies `patch`, builds `target` with the cuda preset; returns
    (path of the executable, full commit, subject)."""
    commit = git("rev-parse", "--verify", rev + "^{commit}")
    subject = git("log", "-1", "--format=%s", commit)
    tree = os.path.join(work, name)
    if not os.path.isdir(tree):
        git("worktree", "add", "--force", "--detach", tree, commit)
    git("checkout", "--quiet", "--force", "--detach", commit, cwd=tree)
    if patch is not None:
        git("apply", patch, cwd=tree)
    build_dir = os.path.join(tree, "build", "cuda")
    # Paths hashed relative to the worktree: objects equal to another commit's come from the cache.
    env = dict(os.environ, CCACHE_BASEDIR=tree, CCACHE_NOHASHDIR="1")
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        subprocess.run(["cmake", "--preset", "cuda", "-B", build_dir], cwd=tree, env=env, check=True,
                       stdout=subprocess.DEVNULL)
    start = time.monotonic()
    subprocess.run(["cmake", "--build", build_dir, "--target", target], cwd=tree, env=env, check=True,
                   stdout=subprocess.DEVNULL)
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
    strip = shutil.which("strip")
    manifest = {"target": args.target, "variants": []}
    with tempfile.TemporaryDirectory() as tmp:
        stage = os.path.join(tmp, "kdag-variants")
        os.makedirs(os.path.join(stage, "lib"))
        libraries = {}
        for name, rev, patch in variants:
            exe, commit, subject = build_variant(name, rev, patch, args.target, os.path.abspath(args.work))
            os.makedirs(os.path.join(stage, "bin", name))
            copy = os.path.join(stage, "bin", name, args.target)
            shutil.copy2(exe, copy)
            if strip:
                subprocess.run([strip, "--strip-unneeded", copy], check=True)
            for lib in pack.build_tree_libraries(exe, os.path.dirname(os.path.dirname(exe))):
                libraries.setdefault(os.path.basename(lib), lib)
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
            if isinstance(value, (int, float)) and not isinstance(value, bool) and key not in (
                    "real_time", "cpu_time", "iterations", "repetitions", "repetition_index", "threads",
                    "family_index", "per_family_instance_index"):
                values[key] = value
        out[b.get("run_name", b["name"])] = values
    return out, errors


def run(args):
    deadline = time.monotonic() + args.budget_s
    os.makedirs(args.out, exist_ok=True)
    root, manifest = gpu_run.unpack(args.archive, "kdag-variants")
    variants = manifest["variants"]
    if args.only:
        wanted = args.only.split(",")
        unknown = [n for n in wanted if n not in {v["name"] for v in variants}]
        if unknown:
            raise SystemExit(f"variants.py: no variant named {', '.join(unknown)} in {args.archive}")
        variants = [v for v in variants if v["name"] in wanted]
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.path.join(root, "lib") + os.pathsep + env.get("LD_LIBRARY_PATH", "")
    threads = args.threads or os.cpu_count()
    results = {"target": manifest["target"], "filter": args.filter, "rounds": args.rounds,
               "device": gpu_run.device_info(), "variants": [dict(v, samples=[], failures=[]) for v in variants]}
    total = args.rounds * len(variants)
    done = 0
    for r in range(args.rounds):
        # Rotated each round, so that no variant always runs first (after the GPU idled) or last.
        order = [(i + r) % len(variants) for i in range(len(variants))]
        for i in order:
            v = results["variants"][i]
            share = (deadline - time.monotonic()) / max(1, total - done)
            done += 1
            if share < 1.0:
                v["failures"].append(f"round {r}: no time left in the budget")
                continue
            report = os.path.join(args.out, f"{v['name']}.round{r}.json")
            command = [os.path.join(root, v["exe"]), f"--benchmark_filter={args.filter}",
                       f"--kokkos-num-threads={threads}", "--benchmark_out_format=json",
                       f"--benchmark_out={report}", *args.benchmark_args]
            start = time.monotonic()
            try:
                proc = subprocess.run(command, env=env, capture_output=True, text=True, timeout=2 * share)
                code = proc.returncode
                tail = (proc.stdout + proc.stderr)[-600:]
            except subprocess.TimeoutExpired:
                code, tail = None, "timed out"
            seconds = time.monotonic() - start
            print(f"round {r} {v['name']}: exit {code} in {seconds:.1f} s", flush=True)
            if code != 0 or not os.path.exists(report):
                v["failures"].append(f"round {r}: exit {code}: {tail.strip()}")
                continue
            samples, errors = read_samples(report)
            v["failures"].extend(f"round {r}: {e}" for e in errors)
            if samples:
                v["samples"].append(samples)
    with open(os.path.join(args.out, "variants.json"), "w") as f:
        json.dump(results, f, indent=1)
    body = markdown(results, args.counter)
    with open(os.path.join(args.out, "variants.md"), "w") as f:
        f.write(body)
    sys.stdout.write(body)
    return 0 if all(not v["failures"] for v in results["variants"]) else 1


def medians(variant, benchmark, key):
    values = [s[benchmark][key] for s in variant["samples"] if benchmark in s and key in s[benchmark]]
    return statistics.median(values) if values else None, len(values)


def markdown(results, counter=None):
    """One table per benchmark: each variant's median time (and counter) over its rounds, and the
    ratio of its time to the first variant's (above 1: slower)."""
    variants = results["variants"]
    benchmarks = []
    for v in variants:
        for s in v["samples"]:
            benchmarks.extend(b for b in s if b not in benchmarks)
    lines = [f"{results['target']} on {results.get('device', {}).get('name', 'unknown')}, filter "
             f"`{results['filter']}`, {results['rounds']} rotating rounds, medians", ""]
    for b in benchmarks:
        head = "| variant | commit | time (ms) | vs first |" + (f" {counter} |" if counter else "") + " rounds |"
        lines += [f"### {b}", "", head, "|" + "---|" * (head.count("|") - 1)]
        base, _ = medians(variants[0], b, "real_time")
        for v in variants:
            t, n = medians(v, b, "real_time")
            label = v["commit"][:10] + (f" + {v['patch']}" if v.get("patch") else "")
            ratio = f"{t / base:.2f}" if t is not None and base else "-"
            row = f"| {v['name']} | {label} | {t / 1e6:.3f} | {ratio} |" if t is not None else \
                f"| {v['name']} | {label} | - | - |"
            if counter:
                c, _ = medians(v, b, counter)
                row += f" {c:.4g} |" if c is not None else " - |"
            lines.append(row + f" {n} |")
        lines.append("")
    for v in variants:
        for failure in v["failures"]:
            lines.append(f"- {v['name']}: {failure}")
    return "\n".join(lines) + "\n"


def table(args):
    with open(args.results) as f:
        sys.stdout.write(markdown(json.load(f), args.counter))
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the target at each variant and pack them")
    b.add_argument("variants", nargs="+", help="NAME=REV or NAME=REV+PATCH; the first is the baseline")
    b.add_argument("--target", default="PerfCudaTaskDag")
    b.add_argument("--work", default=os.path.join(ROOT, "build", "gpu-variants", "trees"))
    b.add_argument("--output", default=os.path.join(ROOT, "build", "gpu-variants", "kdag-variants.tar.gz"))
    b.add_argument("--max-mib", type=float, default=60.0)
    r = sub.add_parser("run", help="run every variant on this (GPU) machine in rotating rounds")
    r.add_argument("archive")
    r.add_argument("--out", default=os.environ.get("OUT") or os.path.join(os.getcwd(), "gpu-out"))
    r.add_argument("--filter", required=True, help="--benchmark_filter for every variant")
    r.add_argument("--rounds", type=int, default=3)
    r.add_argument("--only", default="", help="comma-separated variant names to run (default: all, in the "
                                              "archive's order; the first one run is the baseline)")
    r.add_argument("--budget-s", type=float, default=240.0)
    r.add_argument("--threads", type=int, default=0, help="--kokkos-num-threads (default: every core)")
    r.add_argument("--counter", default=None, help="a user counter to show beside the time")
    r.add_argument("benchmark_args", nargs="*", help="more arguments for every run (after --)")
    t = sub.add_parser("table", help="print the table of a run's variants.json")
    t.add_argument("results")
    t.add_argument("--counter", default=None)
    args = parser.parse_args(argv)
    return {"build": build, "run": run, "table": table}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
