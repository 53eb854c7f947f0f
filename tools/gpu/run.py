#!/usr/bin/env python3
"""Run a packed GPU suite (tools/gpu/pack.py) on a machine with a GPU, within a time budget.

    python3 tools/gpu/run.py build/gpu-pack/kdag-gpu.tar.gz          # results in $OUT (or ./gpu-out)

It unpacks the archive, runs every test executable (several at once: they are short and mostly
wait on the GPU) and then every benchmark, one at a time so that nothing else shares the GPU or
the host cores while it measures, most wanted first (pack.py's BENCHMARK_PLAN), each within twice
the time it took on an H200.  Benchmarks use all the machine's cores as host threads, so that a
benchmark's host baseline is the machine's best.  It writes, under the output folder:
    summary.txt, summary.json   tools/gpu/summarize.py's summary (device, commit, counts, medians)
    tests.log                   each test executable's output (failures in full, passes' last lines)
    benchmarks.log              each benchmark executable's output
    results.tar.gz              the raw reports, for summarize.py
It exits non-zero when any test fails, any benchmark's result check fails, or the budget left a
benchmark out.
"""
import argparse
import concurrent.futures
import contextlib
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import summarize  # noqa: E402


def device_info():
    info = {"host_threads": os.cpu_count()}
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=60).stdout.strip().splitlines()
        if out:
            name, driver, memory = (s.strip() for s in out[0].split(",", 2))
            info.update(name=name, driver=driver, memory=memory, gpus=len(out))
    except (OSError, subprocess.SubprocessError, ValueError) as e:
        info["name"] = f"unknown ({e})"
    return info


@contextlib.contextmanager
def unpacked(archive, name):
    """Unpacks an archive of pack.write_archive into a new temporary folder and yields the path
    of its folder `name` and the manifest found there; the folder is removed on leaving, also
    after a failure (runs on a build machine are many: ctest's GpuPackRoundTrip runs one in every
    build, and each would leave its executables behind)."""
    work = tempfile.mkdtemp(prefix=name + "-")
    try:
        with tarfile.open(archive) as tar:
            tar.extractall(work)
        root = os.path.join(work, name)
        with open(os.path.join(root, "manifest.json")) as f:
            manifest = json.load(f)
        yield root, manifest
    finally:
        shutil.rmtree(work, ignore_errors=True)


def benchmark_timeout(record, left_s):
    """The time limit of a benchmark when `left_s` seconds of the budget are left, or None when
    less is left than it took on an H200 (`expected_s`): it would most likely be
    stopped half-way, and a shorter one after it may still fit.  The benchmarks come in the pack's
    order, most wanted first; each may take twice its expected time (at least 30 s more than it:
    starting CUDA alone varies by seconds), at most what is left."""
    expected = record.get("expected_s", 60.0)
    if left_s < max(5.0, expected):
        return None
    return min(record["timeout"], max(2.0 * expected, expected + 30.0), left_s)


def run_one(pack, record, report_args, folder, timeout, env):
    """Run one executable; write its output and <name>.run.json into folder."""
    command = [os.path.join(pack, record["exe"])] + record["args"] + report_args
    if record.get("env"):
        env = dict(env, **record["env"])
    log_path = os.path.join(folder, record["name"] + ".log")
    start = time.monotonic()
    timed_out = False
    with open(log_path, "w") as log:
        try:
            proc = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, timeout=timeout, env=env,
                                  cwd=folder)
            exit_code = proc.returncode
        except subprocess.TimeoutExpired:
            exit_code, timed_out = None, True
    run = {"exit_code": exit_code, "seconds": round(time.monotonic() - start, 2), "timed_out": timed_out,
           "command": command, "env": record.get("env", {})}
    with open(os.path.join(folder, record["name"] + ".run.json"), "w") as f:
        json.dump(run, f)
    return record["name"], run


def collect_logs(entries, folder, path, tail_lines_of_passes):
    with open(path, "w") as out:
        for entry in entries:
            try:
                with open(os.path.join(folder, entry["name"] + ".log"), errors="replace") as f:
                    lines = f.readlines()
            except OSError:
                lines = ["(no output)\n"]
            if entry["status"] != "failed" and tail_lines_of_passes is not None:
                lines = lines[-tail_lines_of_passes:]
            out.write(f"===== {entry['name']}: {entry['status']} =====\n")
            out.writelines(lines)
            out.write("\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive", nargs="?", default="build/gpu-pack/kdag-gpu.tar.gz")
    parser.add_argument("--out", default=os.environ.get("OUT") or os.path.join(os.getcwd(), "gpu-out"))
    parser.add_argument("--budget-s", type=float, default=480.0, help="the whole run's time limit")
    parser.add_argument("--test-jobs", type=int, default=4, help="test executables run at once")
    parser.add_argument("--only", default="",
                        help="comma-separated executable names or shell patterns to run, e.g. 'Test*,PerfCuda' (default: all)")
    args = parser.parse_args()

    deadline = time.monotonic() + args.budget_s
    os.makedirs(args.out, exist_ok=True)
    with unpacked(args.archive, "kdag-gpu") as (pack, manifest):
        return run_unpacked(args, deadline, pack, manifest)


def run_unpacked(args, deadline, pack, manifest):
    results = os.path.join(os.path.dirname(pack), "results")
    for sub in ("tests", "benchmarks"):
        os.makedirs(os.path.join(results, sub))
    only = [n for n in args.only.split(",") if n]
    if only:
        def wanted(record):
            return any(fnmatch.fnmatchcase(record["name"], pattern) for pattern in only)
        manifest["tests"] = [t for t in manifest["tests"] if wanted(t)]
        manifest["benchmarks"] = [b for b in manifest["benchmarks"] if wanted(b)]
    shutil.copy(os.path.join(pack, "manifest.json"), os.path.join(results, "manifest.json"))
    with open(os.path.join(results, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    device = device_info()
    with open(os.path.join(results, "device.json"), "w") as f:
        json.dump(device, f)
    print(f"device: {device}; commit {manifest['commit']}; {len(manifest['tests'])} test executables, "
          f"{len(manifest['benchmarks'])} benchmarks; budget {args.budget_s:.0f} s", flush=True)

    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.path.join(pack, "lib") + os.pathsep + env.get("LD_LIBRARY_PATH", "")

    # Tests get up to half of the budget, benchmarks the rest.
    tests_deadline = time.monotonic() + 0.5 * max(0.0, deadline - time.monotonic())
    test_dir = os.path.join(results, "tests")
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.test_jobs) as pool:
        futures = []
        for record in manifest["tests"]:
            report = ["--gtest_output=json:" + os.path.join(test_dir, record["name"] + ".json")]
            timeout = max(5.0, min(record["timeout"], tests_deadline - time.monotonic()))
            futures.append(pool.submit(run_one, pack, record, report, test_dir, timeout, env))
        for fut in concurrent.futures.as_completed(futures):
            name, run = fut.result()
            print(f"test {name}: exit {run['exit_code']}{' (timed out)' if run['timed_out'] else ''} "
                  f"in {run['seconds']} s", flush=True)

    bench_dir = os.path.join(results, "benchmarks")
    threads = f"--kokkos-num-threads={device['host_threads']}"
    for record in manifest["benchmarks"]:
        report = [threads, "--benchmark_out_format=json",
                  "--benchmark_out=" + os.path.join(bench_dir, record["name"] + ".json")]
        timeout = benchmark_timeout(record, deadline - time.monotonic())
        if timeout is None:
            with open(os.path.join(bench_dir, record["name"] + ".run.json"), "w") as f:
                json.dump({"exit_code": None, "seconds": 0.0, "timed_out": False, "not_run": True}, f)
            print(f"benchmark {record['name']}: not run, the budget is spent", flush=True)
            continue
        name, run = run_one(pack, record, report, bench_dir, timeout, env)
        print(f"benchmark {name}: exit {run['exit_code']}{' (timed out)' if run['timed_out'] else ''} "
              f"in {run['seconds']} s", flush=True)

    summary = summarize.summarize(results)
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    body = summarize.text(summary)
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write(body)
    collect_logs(summary["tests"]["per_executable"], test_dir, os.path.join(args.out, "tests.log"), 5)
    collect_logs(summary["benchmarks"]["per_executable"], bench_dir, os.path.join(args.out, "benchmarks.log"), None)
    with tarfile.open(os.path.join(args.out, "results.tar.gz"), "w:gz") as tar:
        tar.add(results, arcname="results")
    sys.stdout.write(body)
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
