#!/usr/bin/env python3
"""Tests of tools/gpu/device_code.py: reading PTX and ptxas' report, the compile command it
derives, the report of what changed, and (where nvcc exists) two small source trees compiled
and compared end to end."""
import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import device_code  # noqa: E402

PTX = """
.version 8.8
.target sm_90
.extern .func  (.param .b32 func_retval0) vprintf
(
\t.param .b64 vprintf_param_0,
\t.param .b64 vprintf_param_1
)
;
.func  (.param .b64 func_retval0) _ZN44_INTERNAL_5e97240f_19_PerfCudaTaskDag_cpp_1bdc1868_157995helperEv
(
\t.param .b64 p
)
;
.visible .entry _Z6kernelPi(
\t.param .u64 _Z6kernelPi_param_0
)
.maxntid 32, 1, 1
{
\t.reg .b64 %rd<4>;
\tld.param.u64 \t%rd1, [_Z6kernelPi_param_0];
$L__BB0_1:
\t// a comment
\tatom.global.add.u32 \t%r1, [%rd1], 1;
\tatom.shared.add.u32 \t%r2, [%rd2], 1;
\tred.relaxed.gpu.global.add.u32 \t[%rd1], 1;
\tld.global.nc.u32 \t%r3, [%rd1];
\tld.shared.u32 \t%r4, [%rd2];
\tld.u64 \t%rd3, [%rd1+8];
\tld.local.u32 \t%r5, [%rd2];
\tst.global.u32 \t[%rd1], %r3;
\tst.local.u32 \t[%rd2], %r3;
\tst.u32 \t[%rd3], %r3;
\tfence.acq_rel.gpu;
\tfence.sc.gpu;
\tmembar.gl;
\tbar.warp.sync \t-1;
\tbarrier.sync \t0;
\t@%p1 bra \t$L__BB0_1;
\tcall.uni \t_ZN44_INTERNAL_5e97240f_19_PerfCudaTaskDag_cpp_1bdc1868_157995helperEv, (%rd1);
\tret;

}
.func  (.param .b64 func_retval0) _ZN44_INTERNAL_5e97240f_19_PerfCudaTaskDag_cpp_1bdc1868_157995helperEv(
\t.param .b64 p
)
{
\tret;

}
"""

PTXAS_LOG = """ptxas info    : 17790 bytes gmem
ptxas info    : Compiling entry function '_Z6kernelPi' for 'sm_90'
ptxas info    : Function properties for _Z6kernelPi
    160 bytes stack frame, 88 bytes spill stores, 156 bytes spill loads
ptxas info    : Used 72 registers, used 0 barriers, 728 bytes cumulative stack size, 1312 bytes smem
ptxas info    : Compile time = 2583.459 ms
ptxas info    : Function properties for _ZN44_INTERNAL_5e97240f_19_PerfCudaTaskDag_cpp_1bdc1868_157995helperEv
    64 bytes stack frame, 60 bytes spill stores, 60 bytes spill loads
"""


def find_nvcc():
    for candidate in (shutil.which("nvcc"), os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "nvcc")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


class Reading(unittest.TestCase):
    def test_unit_hash_is_normalized_away(self):
        a = "_ZN44_INTERNAL_5e97240f_19_PerfCudaTaskDag_cpp_1bdc1868_157995helperEv"
        b = "_ZN44_INTERNAL_ac941ee2_19_PerfCudaTaskDag_cpp_4b54b696_159095helperEv"
        c = "_ZN44_INTERNAL_ac941ee2_19_PerfCudaTaskDag_cpp_4b54b696_159095otherEv"
        self.assertEqual(device_code.normalize(a), device_code.normalize(b))
        self.assertNotEqual(device_code.normalize(b), device_code.normalize(c))
        g = "N58_GLOBAL__N__5e97240f_19_PerfCudaTaskDag_cpp_1bdc1868_1579913WavefrontTileE"
        h = "N58_GLOBAL__N__ac941ee2_19_PerfCudaTaskDag_cpp_4b54b696_1590913WavefrontTileE"
        self.assertEqual(device_code.normalize(g), device_code.normalize(h))
        self.assertEqual(device_code.normalize("_Z6kernelPi"), "_Z6kernelPi")

    def test_definitions_are_split_and_declarations_skipped(self):
        functions = device_code.split_functions(PTX)
        helper = device_code.normalize("_ZN44_INTERNAL_5e97240f_19_PerfCudaTaskDag_cpp_1bdc1868_157995helperEv")
        self.assertEqual(sorted(functions), sorted(["_Z6kernelPi", helper]))
        compiled, body = functions["_Z6kernelPi"]
        self.assertEqual(compiled, "_Z6kernelPi")
        self.assertIn("atom.global.add.u32", body)
        self.assertNotIn("5e97240f", body)  # the call's target normalized inside the body too
        self.assertTrue(functions[helper][0].startswith("_ZN44_INTERNAL_5e97240f"))
        self.assertNotIn("vprintf", functions)

    def test_counts(self):
        _, body = device_code.split_functions(PTX)["_Z6kernelPi"]
        counts = device_code.ptx_counts(body)
        self.assertEqual(counts, {"instructions": 19, "atomics": 2, "global_loads": 2, "global_stores": 2,
                                  "fences": 3, "sc_fences": 2, "barriers": 2, "calls": 1})

    def test_ptxas_report(self):
        numbers = device_code.parse_ptxas(PTXAS_LOG)
        self.assertEqual(numbers["_Z6kernelPi"], {"stack_frame": 160, "spill_stores": 88, "spill_loads": 156, "registers": 72})
        helper = device_code.normalize("_ZN44_INTERNAL_5e97240f_19_PerfCudaTaskDag_cpp_1bdc1868_157995helperEv")
        self.assertEqual(numbers[helper], {"stack_frame": 64, "spill_stores": 60, "spill_loads": 60})
        self.assertEqual(device_code.parse_ptxas("nothing here\n"), {})

    def test_short_name(self):
        name = ("Kokkos::Impl::DeviceTaskNode<Kokkos::Test::TaskFibonacci<Kokkos::BasicTaskScheduler<Kokkos::Cuda, "
                "Kokkos::Impl::TaskSchedulerKind<0> > >, long>::apply(Kokkos::Impl::TaskBase*)")
        self.assertEqual(device_code.short_name(name), "DeviceTaskNode<Test::TaskFibonacci<...>, long>::apply(TaskBase*)")
        self.assertEqual(device_code.short_name("f(int)"), "f(int)")
        self.assertEqual(len(device_code.short_name("x" * 300)), 140)


class Command(unittest.TestCase):
    def test_device_command_from_a_compile_command(self):
        entry = {"directory": "/b", "file": "/s/a.cpp",
                 "command": "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DX=1 -I/s/inc -O3 "
                            "--generate-code=arch=compute_90,code=[compute_90,sm_90] -MD -MT a.o -MF a.o.d "
                            "-x cu -c /s/a.cpp -o a.o"}
        command = device_code.device_command(entry, "/tmp/keep", "/tmp/keep/u.cubin")
        self.assertEqual(command[:6], ["/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler", "-DX=1",
                                       "-I/s/inc", "-O3", "-x"])
        self.assertIn("/s/a.cpp", command)
        for gone in ("-c", "a.o", "-MD", "a.o.d", "-MF", "-MT"):
            self.assertNotIn(gone, command)
        self.assertIn("-arch=sm_90", command)
        self.assertEqual(command[-8:], ["-arch=sm_90", "-cubin", "--keep", "--keep-dir=/tmp/keep", "-Xptxas", "-v",
                                        "-o", "/tmp/keep/u.cubin"])

    def test_only_nvcc_commands(self):
        with self.assertRaises(ValueError):
            device_code.device_command({"directory": "/", "file": "a.cpp", "arguments": ["/usr/bin/c++", "-c", "a.cpp"]},
                                       "/tmp", "/tmp/u.cubin")


def analysis(**functions):
    """An analysis as analyse() returns it: symbol -> numbers (hash first)."""
    out = {}
    for symbol, (digest, counts) in functions.items():
        numbers = {"compiled": symbol, "hash": digest}
        numbers.update({k: 0 for k in device_code.PTX_COUNTS})
        numbers.update(counts)
        out[symbol] = numbers
    return out


class Report(unittest.TestCase):
    def test_changes_between_variants(self):
        a = analysis(_Z4keepv=("h1", {}), _Z4morev=("h2", {"atomics": 3}), _Z4samev=("h3", {}), _Z4gonev=("h4", {}))
        b = analysis(_Z4keepv=("h1", {}), _Z4morev=("h5", {"atomics": 4}), _Z4samev=("h6", {}), _Z3newv=("h7", {"calls": 1}))
        found = {(kind, symbol): moved for kind, symbol, moved in device_code.changes(a, b)}
        self.assertEqual(set(found), {("changed", "_Z4morev"), ("changed", "_Z4samev"), ("gone", "_Z4gonev"),
                                      ("new", "_Z3newv")})
        self.assertEqual(found[("changed", "_Z4morev")], {"atomics": (3, 4)})
        self.assertEqual(found[("changed", "_Z4samev")], {})
        self.assertEqual(found[("new", "_Z3newv")]["calls"], (None, 1))

        text = device_code.report(["base", "next", "again"], [a, b, b])
        self.assertIn("- **base**: 4 functions (the base)", text)
        self.assertIn("- **next**: 4 functions differ", text)
        self.assertIn("changed `more()`: atomics 3->4", text)
        self.assertIn("changed `same()`: same counts", text)
        self.assertIn("gone `gone()`", text)
        self.assertIn("new `new()`", text)
        self.assertIn("- **again**: unchanged", text)
        self.assertNotIn("keep()", text)

        first = device_code.report(["base", "next", "again"], [a, b, b], against_first=True)
        self.assertIn("against the first", first)
        self.assertEqual(first.count("changed `more()`: atomics 3->4"), 2)

        matched = device_code.report(["base", "next"], [a, b], match="^more")
        self.assertIn("- **next**: 1 function differs", matched)
        self.assertNotIn("same()", matched)


@unittest.skipUnless(find_nvcc(), "no nvcc here")
class EndToEnd(unittest.TestCase):
    SOURCE = """
namespace {
__device__ int helper(int* p) { return p[1] + %(helper)s; }
__global__ void steady(int* p) { p[0] = helper(p); }
}
__global__ void moving(int* p) { %(moving)s }
void launch(int* p) { steady<<<1, 1>>>(p); moving<<<1, 1>>>(p); }
"""

    def make_tree(self, root, name, moving, helper="1"):
        tree = os.path.join(root, name)
        os.makedirs(os.path.join(tree, "src"))
        os.makedirs(os.path.join(tree, "build", "cuda"))
        with open(os.path.join(tree, "src", "unit.cu"), "w") as f:
            f.write(self.SOURCE % {"moving": moving, "helper": helper})
        entry = {"directory": os.path.join(tree, "build", "cuda"), "file": os.path.join(tree, "src", "unit.cu"),
                 "command": f"{find_nvcc()} -O3 --generate-code=arch=compute_90,code=[compute_90,sm_90] "
                            f"-x cu -c {os.path.join(tree, 'src', 'unit.cu')} -o unit.o"}
        with open(os.path.join(tree, "build", "cuda", "compile_commands.json"), "w") as f:
            json.dump([entry], f)

    def test_two_trees_compared(self):
        with tempfile.TemporaryDirectory() as root:
            self.make_tree(root, "before", "p[0] = 1;")
            self.make_tree(root, "after", "atomicAdd(p, 1);")
            self.make_tree(root, "helper", "atomicAdd(p, 1);", helper="2")
            os.makedirs(os.path.join(root, "broken"))
            out, err = io.StringIO(), io.StringIO()
            json_path = os.path.join(root, "numbers.json")
            with redirect_stdout(out), redirect_stderr(err):
                status = device_code.main(["--source", "src/unit.cu", "--work", root, "--json", json_path,
                                           "before", "after", "helper", "broken"])
            text = out.getvalue()
            self.assertEqual(status, 1, text + err.getvalue())  # "broken" has no compile database
            self.assertIn("broken", err.getvalue())
            # The unnamed namespace's functions have another hash in each tree, yet compare equal.
            self.assertIn("- **after**: 1 function differs", text)
            self.assertRegex(text, r"changed `moving\(int\*\)`: .*atomics 0->1")
            self.assertNotIn("steady", text.split("- **after**")[1].split("- **helper**")[0])
            # helper() is inlined: its other constant changes steady(), not its counts.
            self.assertIn("- **helper**: 1 function differs\n  - changed `steady(int*)`: same counts", text)
            with open(json_path) as f:
                numbers = json.load(f)
            self.assertEqual(sorted(numbers["variants"]), ["after", "before", "helper"])
            moving = [v for s, v in numbers["variants"]["after"].items() if "moving" in s]
            self.assertEqual(len(moving), 1)
            self.assertGreater(moving[0]["registers"], 0)


if __name__ == "__main__":
    unittest.main()
