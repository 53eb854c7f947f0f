#!/usr/bin/env python3
"""Pack a CUDA build's GPU tests and benchmarks into one archive for a GPU machine.

Run on the machine that built the `cuda` preset (it needs no GPU).  The archive holds every
executable that ctest labels `cuda` (the unit tests that need a GPU and the PerfCuda*
benchmarks), stripped, the shared libraries they load from the build tree, and a manifest that
tools/gpu/run.py follows on the GPU machine:

    cmake --preset cuda && cmake --build --preset cuda
    python3 tools/gpu/pack.py                       # -> build/gpu-pack/kdag-gpu.tar.gz

or, building only what it packs (about a third of the suite's nvcc time):

    python3 tools/gpu/pack.py --build

The archive must fit what a device call carries (64 MiB with the working tree); pack.py prints
its size and fails above --max-mib.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Every benchmark runs with these: repetitions give medians, and the aggregates alone keep the
# output small.  The host thread count is set on the GPU machine (all of its cores).
BENCHMARK_ARGS = ["--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true"]

# The benchmarks' order in a run (most wanted first: run.py gives what is left of its budget to
# the next one, so a short budget cuts the last ones rather than every one) and the seconds each
# is expected to take on an H200 with 16 host threads (--benchmark_repetitions=3): as measured there,
# plus an estimate for benchmarks added since (PerfCudaTaskDag's Cholesky, Adaptive, Sparse and
# SparseSolve); a benchmark not listed runs after these and is expected to take DEFAULT_EXPECTED_S.
BENCHMARK_PLAN = [
    ("PerfCuda", 2), ("PerfCudaWorkGraph", 6), ("PerfCudaTaskDag", 175), ("PerfCudaMemoryPool", 105),
    ("PerfCudaFusion", 125), ("PerfCudaFusion.unbounded_registers", 88),
]
DEFAULT_EXPECTED_S = 60


def plan_benchmarks(records):
    """`records` in BENCHMARK_PLAN's order, each with its expected seconds."""
    rank = {name: i for i, (name, _) in enumerate(BENCHMARK_PLAN)}
    expected = dict(BENCHMARK_PLAN)
    ordered = sorted(records, key=lambda r: (rank.get(r["name"], len(rank)), r["name"]))
    return [dict(r, expected_s=expected.get(r["name"], DEFAULT_EXPECTED_S)) for r in ordered]


# Extra runs of a benchmark under another setting, compared with its default run in the summary:
# (benchmark, name of the run, environment, extra arguments).
BENCHMARK_VARIANTS = [
    ("PerfCudaFusion", "PerfCudaFusion.unbounded_registers", {"KOKKOS_FUSION_CUDA_BOUNDED_REGISTERS": "0"},
     ["--benchmark_filter=CudaFusion/(AxpyChain|BlackScholes|BlackScholesArrays|Stencil1D)/"]),
]


def ctest_tests(build_dir, label):
    out = subprocess.run(["ctest", "--test-dir", build_dir, "-L", label, "--show-only=json-v1"],
                         check=True, capture_output=True, text=True).stdout
    tests = []
    for test in json.loads(out)["tests"]:
        command = test.get("command") or [None]
        props = {p["name"]: p["value"] for p in test.get("properties", [])}
        tests.append({"name": test["name"], "exe": command[0], "args": command[1:],
                      "timeout": float(props.get("TIMEOUT", 600))})
    return tests


def build_labelled(build_dir, label, names):
    """Configures the cuda preset (when build_dir has no cache yet) and builds the executables
    ctest labels `label` (each test of this project is named after its executable)."""
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        subprocess.run(["cmake", "--preset", "cuda", "-B", build_dir], check=True, cwd=ROOT)
    wanted = {n for n in names.split(",") if n}
    targets = [t["name"] for t in ctest_tests(build_dir, label) if not wanted or t["name"] in wanted]
    if not targets:
        raise SystemExit(f"pack.py: no test labelled {label} in {build_dir}")
    subprocess.run(["cmake", "--build", build_dir, "--target", *targets], check=True)


# Libraries every Linux machine with a GPU driver has; the rest (Google Benchmark, oneTBB, hwloc,
# OpenMP runtimes) travel in the archive.
SYSTEM_LIBRARIES = ("libc.", "libm.", "libpthread.", "libdl.", "librt.", "ld-linux", "libstdc++.", "libgcc_s.",
                    "libcuda.", "libnvidia")


def build_tree_libraries(exe, build_dir):
    """The shared libraries `exe` loads that a GPU machine may lack: the build tree's and those
    outside the C and C++ runtimes and the driver."""
    out = subprocess.run(["ldd", exe], capture_output=True, text=True).stdout
    libs = []
    for line in out.splitlines():
        parts = line.split("=>")
        if len(parts) == 2:
            path = parts[1].split("(")[0].strip()
            base = os.path.basename(path)
            if path.startswith(os.path.abspath(build_dir)) or (path.startswith("/") and not base.startswith(SYSTEM_LIBRARIES)):
                libs.append(path)
    return libs


def source_dir(build_dir):
    """The source tree the build was configured from (its CMakeCache.txt names it)."""
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_HOME_DIRECTORY:"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return ROOT


def git_commit(source):
    try:
        commit = subprocess.run(["git", "-C", source, "rev-parse", "HEAD"], check=True, capture_output=True,
                                text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", source, "status", "--porcelain", "--untracked-files=no"],
                               check=True, capture_output=True, text=True).stdout.strip()
        return commit + ("+dirty" if dirty else "")
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "unknown"


def copy_stripped(exe, target):
    """Copies the executable `exe` to `target`, stripped of what running it does not need."""
    shutil.copy2(exe, target)
    strip = shutil.which("strip")
    if strip:
        subprocess.run([strip, "--strip-unneeded", target], check=True)


def write_archive(stage, manifest, output):
    """Writes `manifest` into the folder `stage` and packs the folder, under its own name, into the
    archive `output`; returns the archive's size in MiB."""
    with open(os.path.join(stage, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    with tarfile.open(output, "w:gz", compresslevel=6) as tar:
        tar.add(stage, arcname=os.path.basename(stage))
    return os.path.getsize(output) / 2**20


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build", "cuda"))
    parser.add_argument("--output", default=os.path.join(ROOT, "build", "gpu-pack", "kdag-gpu.tar.gz"))
    parser.add_argument("--label", default="cuda", help="the ctest label of what to pack")
    parser.add_argument("--names", default="", help="comma-separated test names to keep (default: every one)")
    parser.add_argument("--max-mib", type=float, default=60.0)
    parser.add_argument("--build", action="store_true",
                        help="configure the cuda preset if needed and build only the executables to pack")
    args = parser.parse_args()

    if args.build:
        build_labelled(args.build_dir, args.label, args.names)

    entries = ctest_tests(args.build_dir, args.label)
    names = {n for n in args.names.split(",") if n}
    if names:
        entries = [e for e in entries if e["name"] in names]
    for entry in entries:
        if entry["exe"] is None:
            raise SystemExit(f"pack.py: {entry['name']} is not built in {args.build_dir} (build it first)")
    if not entries:
        raise SystemExit(f"pack.py: no test labelled {args.label} in {args.build_dir}")
    manifest = {"commit": git_commit(source_dir(args.build_dir)), "label": args.label, "tests": [], "benchmarks": []}
    with tempfile.TemporaryDirectory() as tmp:
        stage = os.path.join(tmp, "kdag-gpu")
        os.makedirs(os.path.join(stage, "bin"))
        os.makedirs(os.path.join(stage, "lib"))
        libraries = set()
        for entry in entries:
            target = os.path.join(stage, "bin", entry["name"])
            copy_stripped(entry["exe"], target)
            libraries.update(build_tree_libraries(entry["exe"], args.build_dir))
            is_benchmark = os.path.basename(entry["exe"]).startswith("Perf")
            # ctest's arguments minus the smoke test's --benchmark_min_time: a packed run measures (BENCHMARK_ARGS).
            run_args = [a for a in entry["args"] if not a.startswith("--benchmark_min_time")]
            record = {"name": entry["name"], "exe": "bin/" + entry["name"], "args": run_args,
                      "timeout": entry["timeout"]}
            if is_benchmark:
                record["args"] = [a for a in run_args if not a.startswith("--kokkos-num-threads")] + BENCHMARK_ARGS
                manifest["benchmarks"].append(record)
                for base, name, env, extra in BENCHMARK_VARIANTS:
                    if base == entry["name"]:
                        manifest["benchmarks"].append(dict(record, name=name, env=env, args=record["args"] + extra))
            else:
                manifest["tests"].append(record)
        for lib in sorted(libraries):
            shutil.copy2(lib, os.path.join(stage, "lib", os.path.basename(lib)))
        manifest["benchmarks"] = plan_benchmarks(manifest["benchmarks"])
        size_mib = write_archive(stage, manifest, args.output)
    print(f"{args.output}: {len(manifest['tests'])} test executables, {len(manifest['benchmarks'])} benchmarks, "
          f"{len(libraries)} libraries, {size_mib:.1f} MiB, commit {manifest['commit']}")
    if size_mib > args.max_mib:
        print(f"pack.py: the archive is over {args.max_mib} MiB", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
