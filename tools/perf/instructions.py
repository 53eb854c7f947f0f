#!/usr/bin/env python3
"""Instructions per unit of work of a benchmark, counted by callgrind: a measure of a hot path that
does not move with a shared machine's load, for finding the commit that made a path slower.

    python3 tools/perf/instructions.py --outer 'BM_KokkosFib<Kokkos::Serial>' --unit 'TaskNode<' -- \\
        build/release/perf_tests/PerfTaskDag --kokkos-num-threads=1 \\
        --benchmark_filter='^BM_KokkosFib<Kokkos::Serial>/20' --benchmark_min_time=0.5

runs the command under `valgrind --tool=callgrind` and prints the instructions executed inside the
functions whose names contain --outer (inclusive: what they call counts too) divided by the number
of calls to functions whose names contain --unit (the same function, or one called a known number
of times per unit of work, such as a task's body).  `--profile FILE` reads a callgrind output
instead of running anything.  Times on a busy or virtual machine vary by tens of percent from one
minute to the next; this count varies by well under one percent between runs of one binary, so two
builds of the same benchmark compare directly (run each with the same arguments).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

NAMED = re.compile(r"^(c?fn)=\((\d+)\)(?: (.*))?$")


def calls_into(profile_text, pattern):
    """(calls, inclusive instructions) of every call to a function whose name contains pattern."""
    lines = profile_text.split("\n")
    names, positions = {}, 1
    for line in lines:
        if line.startswith("positions:"):
            positions = len(line.split()) - 1
        m = NAMED.match(line)
        if m and m.group(3):
            names[m.group(2)] = m.group(3)
    wanted = {i for i, name in names.items() if pattern in name}
    calls = inclusive = 0
    callee = None
    for k, line in enumerate(lines):
        if line.startswith("cfn="):
            callee = NAMED.match(line).group(2)
        elif line.startswith("calls=") and callee in wanted:
            calls += int(line.split("=", 1)[1].split()[0])
            inclusive += int(lines[k + 1].split()[positions])
    return calls, inclusive


def per_unit(profile_text, outer, unit):
    """Instructions inside `outer` per call of `unit`; None when `unit` was never called."""
    _, instructions = calls_into(profile_text, outer)
    units, _ = calls_into(profile_text, unit)
    return (instructions / units if units else None), instructions, units


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--outer", required=True, help="part of the name of the function(s) whose work is counted")
    parser.add_argument("--unit", required=True, help="part of the name of the function counted as one unit")
    parser.add_argument("--profile", help="a callgrind output to read instead of running the command")
    parser.add_argument("command", nargs="*")
    args = parser.parse_args(argv)
    if args.profile:
        with open(args.profile) as f:
            text = f.read()
    else:
        if not args.command:
            parser.error("give a command to run (after --) or --profile")
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "callgrind.out")
            run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *args.command],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if run.returncode != 0:
                print(f"the command exited with {run.returncode} under callgrind", file=sys.stderr)
                return run.returncode
            with open(out) as f:
                text = f.read()
    value, instructions, units = per_unit(text, args.outer, args.unit)
    if value is None:
        print(f"no call of a function named like '{args.unit}'", file=sys.stderr)
        return 1
    print(f"{value:.1f} instructions per call of '{args.unit}' ({instructions} in '{args.outer}', {units} calls)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
