#!/usr/bin/env python3
"""Tests of tools/gpu/summarize.py on a results folder made here (the fixture a GPU run writes)."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pack  # noqa: E402
import run  # noqa: E402
import summarize  # noqa: E402


def gtest_report(cases):
    """A Google Test JSON report with one suite; cases: {name: 'passed' | 'failed' | 'skipped'}."""
    entries = []
    for name, outcome in cases.items():
        case = {"name": name, "status": "RUN", "result": "SKIPPED" if outcome == "skipped" else "COMPLETED"}
        if outcome == "failed":
            case["failures"] = [{"failure": "expected 1, got 2", "type": ""}]
        entries.append(case)
    return {"testsuites": [{"name": "Suite", "testsuite": entries}]}


def benchmark_entry(name, real_time, run_type="aggregate", aggregate="median", **counters):
    entry = {"name": f"{name}_{aggregate}", "run_name": name, "run_type": run_type, "aggregate_name": aggregate,
             "iterations": 3, "real_time": real_time, "cpu_time": real_time, "time_unit": "ns"}
    entry.update(counters)
    return entry


class Fixture:
    def __init__(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        os.makedirs(os.path.join(self.dir, "tests"))
        os.makedirs(os.path.join(self.dir, "benchmarks"))
        self.manifest = {"commit": "abc123", "tests": [], "benchmarks": []}
        self.write("device.json", {"name": "NVIDIA H200", "driver": "580.1", "memory": "143771 MiB", "host_threads": 16})

    def write(self, path, value):
        with open(os.path.join(self.dir, path), "w") as f:
            json.dump(value, f)

    def test(self, name, exit_code=0, report=None, timed_out=False):
        self.manifest["tests"].append({"name": name})
        self.write(f"tests/{name}.run.json", {"exit_code": exit_code, "seconds": 1.5, "timed_out": timed_out})
        if report is not None:
            self.write(f"tests/{name}.json", report)

    def benchmark(self, name, entries, exit_code=0, timed_out=False, env=None, not_run=False):
        self.manifest["benchmarks"].append({"name": name})
        self.write(f"benchmarks/{name}.run.json", {"exit_code": exit_code, "seconds": 9.0, "timed_out": timed_out,
                                                   "env": env or {}, "not_run": not_run})
        if entries is not None:
            self.write(f"benchmarks/{name}.json", {"context": {}, "benchmarks": entries})

    def summarize(self):
        self.write("manifest.json", self.manifest)
        return summarize.summarize(self.dir)


def by_name(entries):
    return {e["name"]: e for e in entries}


class TestSummaries(unittest.TestCase):
    def test_counts_each_executable_and_each_test(self):
        fx = Fixture()
        fx.test("TestPass", report=gtest_report({"a": "passed", "b": "passed", "c": "skipped"}))
        fx.test("TestFail", exit_code=1, report=gtest_report({"a": "passed", "b": "failed"}))
        fx.test("TestAllSkipped", report=gtest_report({"a": "skipped", "b": "skipped"}))
        s = fx.summarize()
        self.assertEqual(s["tests"]["executables"], {"passed": 1, "failed": 1, "skipped": 1})
        self.assertEqual(s["tests"]["cases"], {"passed": 3, "failed": 1, "skipped": 3})
        tests = by_name(s["tests"]["per_executable"])
        self.assertEqual(tests["TestFail"]["failed_cases"], ["Suite.b"])
        self.assertEqual(tests["TestAllSkipped"]["status"], "skipped")
        self.assertFalse(s["ok"])

    def test_a_binary_whose_every_test_skipped_is_never_passed(self):
        fx = Fixture()
        fx.test("TestOnlySkips", report=gtest_report({"x": "skipped"}))
        s = fx.summarize()
        self.assertEqual(s["tests"]["executables"]["passed"], 0)
        self.assertEqual(s["tests"]["executables"]["skipped"], 1)
        self.assertTrue(s["ok"])

    def test_a_crash_a_timeout_or_a_missing_report_fails(self):
        fx = Fixture()
        fx.test("TestCrashed", exit_code=-11, report=None)
        fx.test("TestHung", exit_code=None, timed_out=True, report=None)
        fx.test("TestNoReport", exit_code=0, report=None)
        fx.test("TestRanNothing", exit_code=0, report=gtest_report({}))
        tests = by_name(fx.summarize()["tests"]["per_executable"])
        self.assertEqual(tests["TestCrashed"]["reason"], "exit code -11")
        self.assertEqual(tests["TestHung"]["reason"], "timed out")
        self.assertEqual(tests["TestNoReport"]["reason"], "no Google Test report")
        self.assertEqual(tests["TestRanNothing"]["reason"], "ran no test")
        self.assertTrue(all(t["status"] == "failed" for t in tests.values()))

    def test_benchmark_medians_and_counters(self):
        fx = Fixture()
        fx.benchmark("PerfCudaFusion", [
            benchmark_entry("CudaFusion/AxpyChain/100000", 100.0, aggregate="mean", fused_over_unfused=9.0),
            benchmark_entry("CudaFusion/AxpyChain/100000", 120.0, fused_over_unfused=3.5),
            benchmark_entry("CudaFusion/AxpyChain/100000", 5.0, aggregate="stddev", fused_over_unfused=0.1),
        ])
        s = fx.summarize()
        self.assertTrue(s["ok"])
        (result,) = s["benchmarks"]["per_executable"][0]["results"]
        self.assertEqual(result["real_time"], 120.0)
        self.assertEqual(result["statistic"], "median")
        self.assertEqual(result["counters"], {"fused_over_unfused": 3.5})
        self.assertIn("| `CudaFusion/AxpyChain/100000` | 120 ns | fused_over_unfused=3.5 |", summarize.markdown(s))
        self.assertIn("NVIDIA H200", summarize.text(s))

    def test_a_run_under_another_setting_is_named_with_it(self):
        fx = Fixture()
        fx.benchmark("PerfCudaFusion.unbounded", [benchmark_entry("CudaFusion/X/iterations:1/real_time", 5.0)],
                     env={"KOKKOS_FUSION_CUDA_BOUNDED_REGISTERS": "0"})
        md = summarize.markdown(fx.summarize())
        self.assertIn("`PerfCudaFusion` with `KOKKOS_FUSION_CUDA_BOUNDED_REGISTERS=0`: passed", md)
        self.assertIn("| `CudaFusion/X` | 5 ns |", md)

    def test_a_failed_result_check_fails_the_run(self):
        fx = Fixture()
        fx.benchmark("PerfCudaFusion", [{"name": "CudaFusion/AxpyChain/100", "run_name": "CudaFusion/AxpyChain/100",
                                         "error_occurred": True, "error_message": "fused != unfused"}], exit_code=1)
        s = fx.summarize()
        bench = s["benchmarks"]["per_executable"][0]
        self.assertEqual(bench["status"], "failed")
        self.assertEqual(bench["errors"][0]["message"], "fused != unfused")
        self.assertFalse(s["ok"])
        self.assertIn("ERROR CudaFusion/AxpyChain/100: fused != unfused", summarize.text(s))

    def test_no_gpu_is_a_skip_and_an_error_is_a_failure(self):
        fx = Fixture()
        fx.benchmark("PerfCuda", [{"name": "Cuda/LaunchLatency", "error_occurred": True,
                                   "error_message": "no GPU visible: cudaGetDeviceCount failed"}])
        fx.benchmark("PerfOther", [{"name": "Other/X", "error_occurred": True, "error_message": "wrong value"}])
        fx.benchmark("PerfMissing", None)
        benches = by_name(fx.summarize()["benchmarks"]["per_executable"])
        self.assertEqual(benches["PerfCuda"]["status"], "skipped")
        self.assertEqual(benches["PerfOther"]["status"], "failed")
        self.assertEqual(benches["PerfMissing"]["reason"], "no Google Benchmark report")

    def test_a_benchmark_the_budget_left_out_fails_the_run(self):
        fx = Fixture()
        fx.benchmark("PerfCuda", [benchmark_entry("Launch", 5.0)])
        fx.benchmark("PerfCudaFusion", None, exit_code=None, not_run=True)
        summary = fx.summarize()
        benchmarks = by_name(summary["benchmarks"]["per_executable"])
        self.assertEqual(benchmarks["PerfCuda"]["status"], "passed")
        self.assertEqual(benchmarks["PerfCudaFusion"]["status"], "failed")
        self.assertEqual(benchmarks["PerfCudaFusion"]["reason"], "not run: the budget was spent")
        self.assertFalse(summary["ok"])

    def test_the_command_line_writes_json_and_text_and_its_status(self):
        fx = Fixture()
        fx.test("TestPass", report=gtest_report({"a": "passed"}))
        fx.summarize()
        out_json, out_text = os.path.join(fx.dir, "s.json"), os.path.join(fx.dir, "s.txt")
        self.assertEqual(summarize.main([fx.dir, "--json", out_json, "--text", out_text]), 0)
        with open(out_json) as f:
            self.assertEqual(json.load(f)["tests"]["cases"]["passed"], 1)
        with open(out_text) as f:
            self.assertIn("tests: 1 passed, 0 failed, 0 skipped", f.read())
        fx.test("TestFail", exit_code=1, report=gtest_report({"a": "failed"}))
        fx.summarize()
        self.assertEqual(summarize.main([fx.dir, "--json", out_json]), 1)


def task_dag_entries(fib30=9.6e6, wavefront=(0.036, 0.05), efficiency=None, measured=None, worker_memory=None,
                     cholesky=None, adaptive=None, sparse=None, solve=None):
    """PerfCudaTaskDag's medians: efficiency {work: value}, measured {dag: (speedup, blocks, warps)},
    worker_memory {dag: speedup}, cholesky {tile size: (GPU over host, [built on the GPU over host])},
    adaptive {(peaks, spawn depth): GPU over host},
    sparse {(grid side, dims, grain): (GPU over host, GPU tasks over the level kernels[, the same with team
    chains])}, solve {(grid side, dims, grain): (GPU over host, GPU tasks over the level kernels)}."""
    entries = [benchmark_entry("CudaTaskDag/Fib/30/iterations:1/real_time", 1e8, gpu_tasks_per_s=fib30)]
    for b, r in zip((16, 32), wavefront):
        entries.append(benchmark_entry(f"CudaTaskDag/Wavefront/{b}/iterations:1/real_time", 1e8, ratio_gpu_to_host=r))
    for b, ratios in (cholesky or {}).items():
        counters = {"ratio_gpu_to_host": ratios[0]}
        if len(ratios) > 1:
            counters["ratio_built_to_host"] = ratios[1]
        entries.append(benchmark_entry(f"CudaTaskDag/Cholesky/{b}/iterations:1/real_time", 1e8, **counters))
    for work, eff in (efficiency or {}).items():
        entries.append(benchmark_entry(f"CudaTaskDag/Granularity/{work}/iterations:1/real_time", 1e7,
                                       efficiency=eff, work=work))
    for dag, (speedup, blocks, warps) in (measured or {}).items():
        entries.append(benchmark_entry(f"CudaTaskDag/Measured/dag:{dag}/iterations:1/real_time", 1e7,
                                       speedup=speedup, kept_blocks=blocks, kept_warps=warps))
    for dag, speedup in (worker_memory or {}).items():
        entries.append(benchmark_entry(f"CudaTaskDag/WorkerMemory/dag:{dag}/iterations:1/real_time", 1e7,
                                       speedup=speedup))
    for (peaks, depth), ratio in (adaptive or {}).items():
        entries.append(benchmark_entry(f"CudaTaskDag/Adaptive/peaks:{peaks}/spawn_depth:{depth}/iterations:1/real_time",
                                       1e7, ratio_gpu_to_host=ratio))
    for (side, dims, grain), ratios in (sparse or {}).items():
        name = f"CudaTaskDag/Sparse/grid:{side}/dims:{dims}/grain:{grain}/iterations:1/real_time"
        counters = dict(zip(("ratio_gpu_to_host", "ratio_gpu_to_levels", "ratio_team_to_host", "ratio_team_to_levels"),
                            ratios))
        entries.append(benchmark_entry(name, 1e7, **counters))
    for (side, dims, grain), (host, levels) in (solve or {}).items():
        name = f"CudaTaskDag/SparseSolve/grid:{side}/dims:{dims}/grain:{grain}/iterations:1/real_time"
        entries.append(benchmark_entry(name, 1e7, ratio_gpu_to_host=host, ratio_gpu_to_levels=levels))
    return entries


class TestTaskDagGoals(unittest.TestCase):
    """summarize.task_dag_goals: the GPU task DAG's goals read from PerfCudaTaskDag's medians."""

    def goals(self, entries):
        fx = Fixture()
        fx.benchmark("PerfCudaTaskDag", entries)
        summary = fx.summarize()
        return summary, {g["goal"].split(" ")[0]: g for g in summary["task_dag_goals"]}

    def test_goals_not_met_say_so_with_their_values(self):
        summary, g = self.goals(task_dag_entries(efficiency={16: 0.0004, 4096: 0.01, 65536: 0.013},
                                                 measured={0: (1.0, 8, 1), 1: (0.7, 2, 4), 2: (2.5, 2, 1)}))
        self.assertEqual(g["Fibonacci(30)"]["status"], "not met")
        self.assertEqual(g["Fibonacci(30)"]["value"], "9.6 M tasks/s")
        self.assertEqual(g["TaskTeam"]["status"], "not met")
        self.assertEqual(g["TaskTeam"]["value"],
                         "wavefront 16x16 tiles 0.036x the host, wavefront 32x32 tiles 0.05x the host")
        self.assertEqual(g["minimum"]["status"], "not reached")
        self.assertEqual(g["minimum"]["value"], "above 65536 steps per leaf")
        self.assertEqual(g["measured"]["status"], "not met", "one DAG lost 30% to the default")
        self.assertIn("granularity 0.7x (kept 2x4)", g["measured"]["value"])
        self.assertIn("not met    Fibonacci(30) at >= 50 M tasks/s: 9.6 M tasks/s", summarize.text(summary))

    def test_goals_met(self):
        _, g = self.goals(task_dag_entries(fib30=61e6, wavefront=(0.8, 1.4), efficiency={16: 0.6, 64: 0.9},
                                           measured={0: (0.95, 8, 1), 1: (1.3, 2, 1), 2: (1.6, 2, 1)}))
        self.assertEqual(g["Fibonacci(30)"]["status"], "met")
        self.assertEqual(g["TaskTeam"]["status"], "met", "the 32x32 tiles beat the host")
        self.assertEqual(g["minimum"]["value"], "at most 16 steps per leaf")
        self.assertEqual(g["measured"]["status"], "met", "0.95x is a tie")

    def test_the_tiled_cholesky_counts_for_the_team_goal_beside_the_wavefront(self):
        _, g = self.goals(task_dag_entries(cholesky={64: (1.7,), 16: (0.2,), 32: (0.9,)}))
        self.assertEqual(g["TaskTeam"]["status"], "met", "the Cholesky of 64x64 tiles beats the host")
        self.assertEqual(g["TaskTeam"]["value"],
                         "wavefront 16x16 tiles 0.036x the host, wavefront 32x32 tiles 0.05x the host, "
                         "Cholesky 16x16 tiles 0.2x the host, Cholesky 32x32 tiles 0.9x the host, "
                         "Cholesky 64x64 tiles 1.7x the host")
        _, g = self.goals(task_dag_entries(cholesky={16: (0.2,), 32: (0.9,)}))
        self.assertEqual(g["TaskTeam"]["status"], "not met")

    def test_the_cholesky_built_on_the_gpu_is_a_dag_of_its_own(self):
        _, g = self.goals(task_dag_entries(cholesky={16: (0.2, 0.5), 32: (0.9, 1.3)}))
        self.assertEqual(g["TaskTeam"]["status"], "met", "the DAG built on the GPU beats the host at 32x32 tiles")
        self.assertTrue(g["TaskTeam"]["value"].endswith(
            "Cholesky 32x32 tiles 0.9x the host, Cholesky built on the GPU 16x16 tiles 0.5x the host, "
            "Cholesky built on the GPU 32x32 tiles 1.3x the host"), g["TaskTeam"]["value"])

    def test_device_memory_for_the_workers_is_reported_per_dag(self):
        summary, g = self.goals(task_dag_entries(worker_memory={0: 1.25, 1: 0.98, 2: 1.0}))
        self.assertEqual(g["device"]["status"], "reported")
        self.assertEqual(g["device"]["value"], "fibonacci 1.25x, granularity 0.98x, wavefront 1x")
        self.assertIn("reported   device memory for the workers' spawns", summarize.text(summary))
        _, g = self.goals(task_dag_entries())
        self.assertEqual(g["device"]["status"], "unmeasured")

    def test_the_adaptive_quadrature_is_reported_per_problem_and_grain(self):
        summary, g = self.goals(task_dag_entries(adaptive={(8, 24): 1.5, (1, 24): 0.25, (8, 6): 0.04}))
        self.assertEqual(g["adaptive"]["status"], "reported")
        self.assertEqual(g["adaptive"]["value"], "1 peak(s), tasks to depth 24: 0.25x the host, "
                         "8 peak(s), tasks to depth 6: 0.04x the host, 8 peak(s), tasks to depth 24: 1.5x the host")
        self.assertIn("reported   adaptive quadrature", summarize.text(summary))
        _, g = self.goals(task_dag_entries())
        self.assertEqual(g["adaptive"]["status"], "unmeasured")
        self.assertIsNone(g["adaptive"]["value"])

    def test_the_sparse_cholesky_is_reported_against_the_host_and_the_level_kernels(self):
        summary, g = self.goals(task_dag_entries(sparse={(200, 2, 64): (0.5, 3.0, 0.6, 3.5),
                                                         (16, 3, 16): (0.25, 1.5, 1.25, 7.5),
                                                         (200, 2, 4): (0.75, 2.0)}))
        self.assertEqual(g["sparse"]["status"], "reported")
        self.assertEqual(g["sparse"]["value"], "200^2 grid, grain 4: 0.75x the host, 2x the level kernels, "
                         "200^2 grid, grain 64: 0.5x the host, 3x the level kernels "
                         "(team chains: 0.6x the host, 3.5x the level kernels), "
                         "16^3 grid, grain 16: 0.25x the host, 1.5x the level kernels "
                         "(team chains: 1.25x the host, 7.5x the level kernels)")
        self.assertIn("reported   sparse Cholesky", summarize.text(summary))
        _, g = self.goals(task_dag_entries())
        self.assertEqual(g["sparse"]["status"], "unmeasured")
        self.assertIsNone(g["sparse"]["value"])

    def test_the_sparse_solves_are_reported_apart_from_the_factorisation(self):
        summary, g = self.goals(task_dag_entries(sparse={(100, 2, 4): (0.5, 2.0)},
                                                 solve={(12, 3, 64): (1.5, 0.25), (100, 2, 64): (0.2, 4.0)}))
        self.assertEqual(g["triangular"]["status"], "reported")
        self.assertEqual(g["triangular"]["value"], "100^2 grid, grain 64: 0.2x the host, 4x the level kernels, "
                         "12^3 grid, grain 64: 1.5x the host, 0.25x the level kernels")
        self.assertEqual(g["sparse"]["value"], "100^2 grid, grain 4: 0.5x the host, 2x the level kernels")
        self.assertIn("reported   triangular solves with the sparse factor", summarize.text(summary))
        _, g = self.goals(task_dag_entries(sparse={(100, 2, 4): (0.5, 2.0)}))
        self.assertEqual(g["triangular"]["status"], "unmeasured")
        self.assertIsNone(g["triangular"]["value"])

    def test_granularity_is_interpolated_between_the_works_around_half_efficiency(self):
        _, g = self.goals(task_dag_entries(efficiency={16: 0.1, 64: 0.3, 256: 0.7, 1024: 0.9}))
        self.assertEqual(g["minimum"]["status"], "reported")
        self.assertEqual(g["minimum"]["value"], "about 128 steps per leaf")  # halfway in log(work)

    def test_a_goal_without_its_benchmark_is_unmeasured(self):
        _, g = self.goals([benchmark_entry("CudaTaskDag/Fib/20/iterations:1/real_time", 1e6, gpu_tasks_per_s=4e6)])
        self.assertTrue(all(goal["status"] == "unmeasured" for goal in g.values()), g)
        self.assertTrue(all(goal["value"] is None for goal in g.values()))

    def test_no_task_dag_results_no_goals(self):
        fx = Fixture()
        fx.benchmark("PerfCudaTaskDag", [{"name": "CudaTaskDag/Fib/30", "error_occurred": True,
                                          "error_message": "no GPU visible: cudaGetDeviceCount failed"}])
        summary = fx.summarize()
        self.assertIsNone(summary["task_dag_goals"])
        self.assertNotIn("GPU task DAG goals", summarize.text(summary))


class TestRunPlan(unittest.TestCase):
    """pack.plan_benchmarks and run.benchmark_timeout: the most wanted benchmarks first, each with
    up to twice its expected time, one that no longer fits its expected time left out."""

    def test_the_pack_orders_benchmarks_most_wanted_first_and_unknown_ones_last(self):
        records = [{"name": n, "timeout": 600} for n in ("PerfCudaFusion", "PerfNew", "PerfCuda", "PerfCudaTaskDag")]
        planned = pack.plan_benchmarks(records)
        self.assertEqual([r["name"] for r in planned], ["PerfCuda", "PerfCudaTaskDag", "PerfCudaFusion", "PerfNew"])
        self.assertEqual(planned[-1]["expected_s"], pack.DEFAULT_EXPECTED_S)
        self.assertEqual(planned[1]["expected_s"], dict(pack.BENCHMARK_PLAN)["PerfCudaTaskDag"])

    def test_a_benchmark_gets_twice_its_expected_time_within_what_is_left(self):
        record = {"name": "PerfCudaTaskDag", "timeout": 600, "expected_s": 62}
        self.assertEqual(run.benchmark_timeout(record, 400.0), 124.0)
        self.assertEqual(run.benchmark_timeout(record, 80.0), 80.0)
        self.assertEqual(run.benchmark_timeout(dict(record, timeout=100), 400.0), 100)
        # Less left than it took last time: left out, so that a shorter one after it may still run.
        self.assertIsNone(run.benchmark_timeout(record, 61.0))
        self.assertEqual(run.benchmark_timeout({"name": "PerfCuda", "timeout": 600, "expected_s": 2}, 61.0), 32.0)
        self.assertIsNone(run.benchmark_timeout({"name": "PerfCuda", "timeout": 600, "expected_s": 2}, 4.0))
        self.assertEqual(run.benchmark_timeout({"name": "PerfNew", "timeout": 600}, 400.0), 120.0)


if __name__ == "__main__":
    unittest.main()
