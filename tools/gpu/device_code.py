#!/usr/bin/env python3
"""Which GPU functions does each commit change?  Read from the compiler, no GPU needed.

A bisection on a lent GPU costs device minutes per step.  A step whose commit leaves the device
code of the benchmark's translation unit unchanged cannot have moved the GPU's time through that
code (only through what the host does around its kernels), so it can be left out or run last.
This compiles one source file of each variant's tree to PTX and to a cubin, as its build
compiles it, and prints, for each variant against the one before it, the functions whose PTX
differs, with what changed in them: instructions, atomics, loads and stores that may reach global
memory, fences, warp and block barriers, calls, and ptxas' registers, stack frame and spills.

    python3 tools/gpu/variants.py build --target PerfCudaTaskDag base=7e4a704 a=b7435e0 b=23fff33
    python3 tools/gpu/device_code.py --source perf_tests/PerfCudaTaskDag.cpp base a b

A variant is a name under --work (build/gpu-variants-trees, where `variants.py build` leaves its
worktrees) or a path to a source tree; either must hold build/<preset>/compile_commands.json
listing --source.  --against-first compares every variant with the first (patches on one
commit) instead of the one before it.  --match keeps the functions whose demangled name matches
a regular expression (all by default).  --json writes every function's numbers too.  Exit
status 1 where a variant cannot be compiled.
"""
import argparse
import collections
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# What each function is measured by, in the order the report prints them.  Atomics, loads and
# stores count those that may reach global memory (global or generic addresses); sc_fences, the
# fences that also order against every other such fence (fence.sc, and membar, its synonym:
# __threadfence()), the dearest kind.
PTX_COUNTS = ("instructions", "atomics", "global_loads", "global_stores", "fences", "sc_fences", "barriers", "calls")
PTXAS_NUMBERS = ("registers", "stack_frame", "spill_stores", "spill_loads")

# nvcc names a translation unit's unnamed namespace after a hash of its path and contents, so
# the same function gets another name in every worktree; the hashes and the number nvcc may
# append are replaced (with the lengths that prefix them in mangled names).
_UNIT_HASH = re.compile(r"(?:\d+)?_(?:INTERNAL|GLOBAL__N__)_?[0-9a-f]{8}_\d+_[A-Za-z0-9_]+?_[0-9a-f]{8}(?:_\d+)?")
_FUNCTION = re.compile(r"^(?:\.visible\s+|\.weak\s+)?\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z0-9_$]+)", re.M)
_PTXAS_FUNCTION = re.compile(r"(?:Compiling entry function|Function properties for) '?([A-Za-z0-9_$]+)'?")
_PTXAS_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_PTXAS_REGISTERS = re.compile(r"Used (\d+) registers")


def normalize(text):
    """PTX (or a symbol) with the translation unit's unnamed-namespace hash taken out."""
    return _UNIT_HASH.sub("_UNIT_", text)


def split_functions(ptx):
    """{symbol: (symbol as compiled, body)} of the kernels (.entry) and device functions (.func)
    a PTX file defines (declarations, which end before a body opens, are skipped); the keys and
    bodies normalized, so that the same function in two worktrees has the same key."""
    functions = {}
    for m in _FUNCTION.finditer(ptx):
        body_start = ptx.find("{", m.end())
        declaration_end = ptx.find(";", m.end())
        if body_start < 0 or 0 <= declaration_end < body_start:
            continue  # `.func (...) f(...);`: parameter lists hold neither ';' nor '{'
        end = ptx.find("\n}", body_start)
        body = ptx[m.start():end + 2 if end >= 0 else len(ptx)]
        functions[normalize(m.group(1))] = (m.group(1), normalize(body))
    return functions


def opcode(line):
    line = line.strip()
    if not line or line.startswith(("//", ".", "{", "}")) or line.endswith(":"):
        return None
    words = line.split()
    if words[0].startswith("@"):  # a predicated instruction
        words = words[1:]
    return words[0].rstrip(";") if words else None


def ptx_counts(body):
    """How many instructions of each kind a function's PTX holds (static counts)."""
    counts = collections.Counter()
    for line in body[body.find("{") + 1:].split("\n"):  # past the parameter list
        op = opcode(line)
        if op is None:
            continue
        counts["instructions"] += 1
        parts = op.split(".")
        base, spaces = parts[0], set(parts[1:])
        private = spaces & {"local", "param", "shared", "const"}
        if base in ("atom", "red"):
            counts["atomics"] += 0 if "shared" in spaces else 1
        elif base in ("ld", "ldu") and not private:
            counts["global_loads"] += 1
        elif base == "st" and not private:
            counts["global_stores"] += 1
        elif base in ("fence", "membar"):
            counts["fences"] += 1
            counts["sc_fences"] += 1 if base == "membar" or "sc" in spaces else 0
        elif base in ("bar", "barrier"):
            counts["barriers"] += 1
        elif base == "call":
            counts["calls"] += 1
    return {k: counts[k] for k in PTX_COUNTS}


def parse_ptxas(log):
    """{symbol: {registers, stack_frame, spill_stores, spill_loads}} from `ptxas -v` output
    (a device function has no register line: its registers are its callers')."""
    numbers = {}
    current = None
    for line in normalize(log).split("\n"):
        m = _PTXAS_FUNCTION.search(line)
        if m:
            current = numbers.setdefault(m.group(1), {})
            continue
        if current is None:
            continue
        m = _PTXAS_FRAME.search(line)
        if m:
            current.update(stack_frame=int(m.group(1)), spill_stores=int(m.group(2)), spill_loads=int(m.group(3)))
        m = _PTXAS_REGISTERS.search(line)
        if m:
            current["registers"] = int(m.group(1))
    return numbers


def demangle(symbols):
    """{symbol: demangled name}, by c++filt where it exists."""
    symbols = list(symbols)
    try:
        out = subprocess.run(["c++filt"], input="\n".join(symbols), capture_output=True, text=True, check=True).stdout
        names = out.split("\n")[:len(symbols)]
        if len(names) == len(symbols):
            return dict(zip(symbols, names))
    except (OSError, subprocess.CalledProcessError):
        pass
    return {s: s for s in symbols}


def short_name(name, width=140):
    """A demangled name with the template arguments of its template arguments elided, for a
    table, the namespaces Kokkos, Kokkos::Impl and unnamed ones left out:
    `DeviceTaskNode<Test::TaskFibonacci<...>, long>::apply(TaskBase*)`."""
    out, depth = [], 0
    for ch in name:
        if ch == "<":
            depth += 1
            if depth == 2:
                out.append("<...>")
        elif ch == ">" and depth > 0:
            depth -= 1
            if depth == 0:
                out.append(">")
        elif depth < 2:
            out.append(ch)
        if ch == "<" and depth == 1:
            out.append("<")
    text = "".join(out)
    for prefix in ("(anonymous namespace)::", "Kokkos::Impl::", "Kokkos::"):
        text = text.replace(prefix, "")
    return text if len(text) <= width else text[:width - 3] + "..."


def device_command(entry, ptx_dir, cubin):
    """The compile command of a compile_commands.json entry, changed to keep the PTX in ptx_dir
    and write a cubin for the first real architecture it generates, with ptxas' report."""
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    out, arch, skip = [], None, False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-c", "-MD", "-MMD"):
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        m = re.match(r"--generate-code=arch=compute_(\d+a?),code=\[?([^\]]*)\]?", a) or \
            re.match(r"-gencode=?arch=compute_(\d+a?),code=\[?([^\]]*)\]?", a)
        if m:
            reals = [c for c in m.group(2).split(",") if c.startswith("sm_")]
            arch = arch or (reals[0] if reals else "sm_" + m.group(1))
            continue
        m = re.match(r"-arch(?:=|$)(sm_\d+a?)?", a)
        if m:
            arch = arch or m.group(1)
            continue
        out.append(a)
    if not out or not os.path.basename(out[0]).startswith("nvcc"):
        raise ValueError(f"not an nvcc command: {' '.join(args[:3])} ...")
    return out + [f"-arch={arch or 'sm_90'}", "-cubin", "--keep", f"--keep-dir={ptx_dir}", "-Xptxas", "-v", "-o", cubin]


def compile_commands_entry(tree, preset, source):
    db_path = os.path.join(tree, "build", preset, "compile_commands.json")
    if not os.path.exists(db_path):
        raise FileNotFoundError(f"{db_path} does not exist (configure the {preset} preset in {tree} first)")
    with open(db_path) as f:
        db = json.load(f)
    wanted = os.path.realpath(os.path.join(tree, source))
    for entry in db:
        path = entry["file"] if os.path.isabs(entry["file"]) else os.path.join(entry["directory"], entry["file"])
        if os.path.realpath(path) == wanted:
            return entry
    raise LookupError(f"{db_path} does not compile {source}")


def analyse(tree, preset, source):
    """{symbol: {"compiled" (the symbol as compiled), "hash", PTX counts..., ptxas numbers...}}
    of the device code that `source` compiles to in `tree`."""
    entry = compile_commands_entry(tree, preset, source)
    with tempfile.TemporaryDirectory(prefix="kdag-device-code-") as tmp:
        command = device_command(entry, tmp, os.path.join(tmp, "unit.cubin"))
        done = subprocess.run(command, cwd=entry["directory"], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"nvcc failed in {tree}:\n{(done.stdout + done.stderr)[-3000:]}")
        ptx = ""
        for name in sorted(os.listdir(tmp)):
            if name.endswith(".ptx"):
                with open(os.path.join(tmp, name)) as f:
                    ptx += f.read()
    resources = parse_ptxas(done.stdout + done.stderr)
    result = {}
    for symbol, (compiled, body) in split_functions(ptx).items():
        numbers = {"compiled": compiled, "hash": hashlib.sha1(body.encode()).hexdigest()[:12], **ptx_counts(body)}
        numbers.update(resources.get(symbol, {}))
        result[symbol] = numbers
    return result


def changes(before, after):
    """[(kind, symbol, {measure: (before, after)})] between two analyses: kind is "changed",
    "new" or "gone"; a changed function lists the measures that moved (none: same counts,
    other code, such as another constant or register)."""
    out = []
    for symbol in sorted(set(before) | set(after)):
        a, b = before.get(symbol), after.get(symbol)
        if a is None:
            out.append(("new", symbol, {k: (None, b[k]) for k in PTX_COUNTS + PTXAS_NUMBERS if k in b}))
        elif b is None:
            out.append(("gone", symbol, {}))
        elif a["hash"] != b["hash"]:
            moved = {k: (a.get(k), b.get(k)) for k in PTX_COUNTS + PTXAS_NUMBERS if a.get(k) != b.get(k)}
            out.append(("changed", symbol, moved))
    return out


def report(names, analyses, match=None, against_first=False):
    """The markdown report: each variant's changed functions against the previous variant (or,
    `against_first`, against the first)."""
    compiled = {}
    for analysis in analyses:
        for symbol, numbers in analysis.items():
            compiled.setdefault(symbol, numbers.get("compiled", symbol))
    demangled = demangle(set(compiled.values()))
    names_of = {symbol: demangled[c] for symbol, c in compiled.items()}
    keep = (lambda s: re.search(match, names_of[s]) is not None) if match else (lambda s: True)
    against = "the first" if against_first else "the one before it"
    lines = [f"Device code of each variant against {against} ({len(names)} variants).", ""]
    first = {s: v for s, v in analyses[0].items() if keep(s)}
    lines.append(f"- **{names[0]}**: {len(first)} functions (the base)")
    bases = [analyses[0]] * (len(analyses) - 1) if against_first else analyses
    for name, before, after in zip(names[1:], bases, analyses[1:]):
        found = [c for c in changes(before, after) if keep(c[1])]
        if not found:
            lines.append(f"- **{name}**: unchanged")
            continue
        lines.append(f"- **{name}**: {len(found)} {'functions differ' if len(found) != 1 else 'function differs'}")
        for kind, symbol, moved in found:
            detail = ", ".join(f"{k} {a}->{b}" if a is not None else f"{k} {b}" for k, (a, b) in moved.items())
            if kind == "changed" and not detail:
                detail = "same counts (other constants, offsets or registers)"
            lines.append(f"  - {kind} `{short_name(names_of[symbol])}`{': ' + detail if detail else ''}")
    return "\n".join(lines) + "\n"


def resolve_tree(variant, work):
    if os.path.isdir(variant) and (os.sep in variant or variant.startswith(".")):
        return os.path.abspath(variant)
    return os.path.join(work, variant)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", required=True, help="the source file, relative to each tree")
    parser.add_argument("--work", default=os.path.join(ROOT, "build", "gpu-variants-trees"))
    parser.add_argument("--preset", default="cuda")
    parser.add_argument("--match", help="keep functions whose demangled name matches this regular expression")
    parser.add_argument("--against-first", action="store_true",
                        help="compare each variant with the first (patches on one commit), not the one before it")
    parser.add_argument("--json", help="write every variant's functions and numbers here")
    parser.add_argument("variants", nargs="+", help="names under --work, or paths to source trees")
    args = parser.parse_args(argv)
    if args.match:
        re.compile(args.match)
    names, analyses, failed = [], [], []
    for variant in args.variants:
        tree = resolve_tree(variant, os.path.abspath(args.work))
        try:
            analyses.append(analyse(tree, args.preset, args.source))
            names.append(variant)
        except (OSError, ValueError, LookupError, RuntimeError) as e:
            failed.append(variant)
            print(f"device_code.py: {variant}: {e}", file=sys.stderr)
    if analyses:
        sys.stdout.write(report(names, analyses, args.match, args.against_first))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"source": args.source, "variants": dict(zip(names, analyses))}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
