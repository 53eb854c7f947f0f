#!/usr/bin/env python3
"""ctest CudaAtomicFences: the fences Kokkos_Atomic.hpp emits on the device, per memory order.

Compiles AtomicFences.cu to PTX (nvcc, no GPU needed) and counts each kernel's fences with
tools/gpu/device_code.py.  The mapping is PTX's for C++ atomics on Volta and later: a seq_cst
access opens with fence.sc (membar.gl, __threadfence()), acquire / release / acq_rel use
fence.acq_rel, relaxed none.  A seq_cst store also ends with a fence.sc, and the lock of a type
too wide for a hardware atomic takes and drops with fence.sc.  The public functions are relaxed
(Kokkos 4's order): no fence.  For some kernels the order of fences and accesses is checked too.

    AtomicFences.py NVCC ARCH INCLUDE_DIR...
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "gpu"))
import device_code  # noqa: E402

# kernel: (fences, of which fence.sc)
EXPECTED = {
    "relaxed_add": (0, 0),
    "acq_rel_add": (2, 0),
    "seq_cst_add": (2, 1),
    "seq_cst_max": (2, 1),
    "seq_cst_float_cas_loop": (2, 1),
    "acquire_load": (1, 0),
    "relaxed_load": (0, 0),
    "seq_cst_load": (2, 1),
    "release_store": (1, 0),
    "seq_cst_store": (2, 2),
    "seq_cst_exchange": (2, 1),
    "seq_cst_compare_exchange": (2, 1),
    "weak_compare_exchange_acq_rel": (2, 0),
    "public_add": (0, 0),
    "public_fetch_add": (0, 0),
    "public_max": (0, 0),
    "public_float_cas_loop": (0, 0),
    "public_double_add": (0, 0),
    "public_load": (0, 0),
    "public_store": (0, 0),
    "public_exchange": (0, 0),
    "public_compare_exchange": (0, 0),
    "public_increment": (0, 0),
    "locked_add": (2, 2),  # the lock's: an access to a locked type is ordered as a seq_cst one
    "memory_fence": (1, 1),
    "load_fence": (1, 0),
    "store_fence": (1, 0),
}

# kernel: its memory accesses and fences in program order (SC fence.sc, AR fence.acq_rel, RMW an
# atomic, LD / ST a load / store that may reach global memory)
ORDER = {
    "acq_rel_add": "AR RMW AR",
    "seq_cst_add": "SC RMW AR",
    "acquire_load": "LD AR ST",
    "seq_cst_load": "SC LD AR ST",
    "release_store": "AR ST",
    "public_add": "RMW",
    "public_load": "LD ST",
    "public_store": "ST",
    "seq_cst_store": "SC ST SC",
    "weak_compare_exchange_acq_rel": "AR RMW AR ST",
}


def accesses(body):
    tokens = []
    for line in body[body.find("{") + 1:].split("\n"):
        op = device_code.opcode(line)
        if op is None:
            continue
        parts = op.split(".")
        private = set(parts[1:]) & {"local", "param", "shared", "const"}
        if parts[0] in ("fence", "membar"):
            tokens.append("SC" if parts[0] == "membar" or "sc" in parts else "AR")
        elif parts[0] in ("atom", "red") and not private:
            tokens.append("RMW")
        elif parts[0] == "ld" and not private:
            tokens.append("LD")
        elif parts[0] == "st" and not private:
            tokens.append("ST")
    return " ".join(tokens)


def main(argv):
    nvcc, arch, includes = argv[1], argv[2], argv[3:]
    if int(arch.rstrip("a")) < 70:
        print(f"CudaAtomicFences: sm_{arch} has no fence.acq_rel; every ordered access uses __threadfence()")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        ptx_path = os.path.join(tmp, "AtomicFences.ptx")
        command = [nvcc, "-std=c++20", "-O3", f"-arch=sm_{arch}", "--expt-relaxed-constexpr", "-ptx",
                   *[f"-I{d}" for d in includes], os.path.join(HERE, "AtomicFences.cu"), "-o", ptx_path]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            print(" ".join(command), done.stdout, done.stderr, sep="\n")
            return 1
        with open(ptx_path) as f:
            kernels = device_code.split_functions(f.read())
    failures = []
    for name, (fences, sc_fences) in EXPECTED.items():
        if name not in kernels:
            failures.append(f"{name}: no such kernel in the PTX")
            continue
        counts = device_code.ptx_counts(kernels[name][1])
        got = (counts["fences"], counts["sc_fences"])
        print(f"{name}: {got[0]} fences, {got[1]} of them fence.sc")
        if got != (fences, sc_fences):
            failures.append(f"{name}: {got[0]} fences ({got[1]} fence.sc), expected {fences} ({sc_fences} fence.sc)")
    for name, order in ORDER.items():
        if name in kernels and accesses(kernels[name][1]) != order:
            failures.append(f"{name}: {accesses(kernels[name][1])}, expected {order}")
    for failure in failures:
        print("FAILED", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
