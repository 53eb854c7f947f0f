#!/usr/bin/env python3
"""Tests of tools/gpu/variants.py: a packed archive of stand-in benchmarks run in rotating
rounds, the table it gives, and the reading of Google Benchmark's JSON."""
import io
import json
import os
import stat
import sys
import tarfile
import tempfile
import unittest
from contextlib import redirect_stdout
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import variants  # noqa: E402

# A stand-in for a benchmark executable: writes a report whose time is its argument (ms), logs
# its name to ORDER_LOG, and fails when told to.
FAKE_BENCHMARK = """#!/usr/bin/env python3
import json, os, sys
name, ms, fail = {name!r}, {ms!r}, {fail!r}
with open(os.environ["ORDER_LOG"], "a") as log:
    log.write(name + "\\n")
args = dict(a.split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
assert args["--benchmark_filter"] == "^Fib/", args
if "EXPECT_ARG" in os.environ:
    assert os.environ["EXPECT_ARG"] in sys.argv, sys.argv
if fail == "sleep":
    import time
    time.sleep(1.5)
if fail == "no match":  # what Google Benchmark leaves when the filter matches nothing
    open(args["--benchmark_out"], "w").close()
    sys.exit(0)
if fail == "no gpu":
    with open(args["--benchmark_out"], "w") as f:
        json.dump({{"benchmarks": [{{"name": "Fib/30", "run_name": "Fib/30", "run_type": "iteration",
                                   "error_occurred": True, "error_message": "PerfCudaTaskDag: no CUDA device"}}]}}, f)
    sys.exit(0)
if fail is True:
    print("Kokkos::abort: something went wrong", file=sys.stderr)
    sys.exit(3)
report = {{"context": {{}}, "benchmarks": [
    {{"name": "Fib/30", "run_name": "Fib/30", "run_type": "iteration", "iterations": 1,
      "real_time": ms, "cpu_time": ms, "time_unit": "ms", "Mtasks/s": 100.0 / ms}},
    {{"name": "Fib/20", "run_name": "Fib/20", "run_type": "iteration", "iterations": 1,
      "real_time": ms * 1000, "cpu_time": ms, "time_unit": "us", "Mtasks/s": 1.0}}]}}
with open(args["--benchmark_out"], "w") as f:
    json.dump(report, f)
"""


def make_archive(folder, specs):
    """specs: [(name, ms, fail)] -> path of a kdag-variants archive."""
    stage = os.path.join(tempfile.mkdtemp(dir=folder), "kdag-variants")
    os.makedirs(os.path.join(stage, "lib"))
    manifest = {"target": "PerfCudaTaskDag", "variants": []}
    for i, (name, ms, fail) in enumerate(specs):
        os.makedirs(os.path.join(stage, "bin", name))
        exe = os.path.join(stage, "bin", name, "PerfCudaTaskDag")
        with open(exe, "w") as f:
            f.write(FAKE_BENCHMARK.format(name=name, ms=ms, fail=fail))
        os.chmod(exe, os.stat(exe).st_mode | stat.S_IXUSR)
        manifest["variants"].append({"name": name, "commit": str(i) * 40, "subject": f"commit {i}",
                                     "patch": "fix.patch" if name == "fix" else None,
                                     "exe": f"bin/{name}/PerfCudaTaskDag"})
    with open(os.path.join(stage, "manifest.json"), "w") as f:
        json.dump(manifest, f)
    archive = os.path.join(folder, "kdag-variants.tar.gz")
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(stage, arcname="kdag-variants")
    return archive


class RunAndTable(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.order_log = os.path.join(self.dir, "order.log")
        os.environ["ORDER_LOG"] = self.order_log

    def tearDown(self):
        self.tmp.cleanup()

    def run_variants(self, specs, rounds=3, more=()):
        return self.run_archive(specs, "--rounds", str(rounds), "--budget-s", "120", "--counter", "Mtasks/s", *more)

    def run_archive(self, specs, *args):
        """Packs stand-ins for `specs`, runs them with `args` after the filter; (exit code, variants.json, table)."""
        archive = make_archive(self.dir, specs)
        out = os.path.join(self.dir, "out")
        with redirect_stdout(io.StringIO()):
            code = variants.main(["run", archive, "--out", out, "--filter", "^Fib/", *args])
        with open(os.path.join(out, "variants.json")) as f:
            results = json.load(f)
        with open(os.path.join(out, "variants.md")) as f:
            table = f.read()
        return code, results, table

    def test_every_variant_runs_every_round_each_round_in_another_order(self):
        os.environ["EXPECT_ARG"] = "--extra=1"
        try:
            code, results, table = self.run_variants(
                [("base", 10.0, False), ("slow", 40.0, False), ("fix", 12.0, False)], more=["--benchmark-arg=--extra=1"])
        finally:
            del os.environ["EXPECT_ARG"]
        self.assertEqual(code, 0)
        with open(self.order_log) as f:
            order = f.read().split()
        self.assertEqual(order, ["base", "slow", "fix", "base", "fix", "slow", "fix", "base", "slow"])
        for v in results["variants"]:
            self.assertEqual(len(v["samples"]), 3)
            self.assertEqual(v["failures"], [])
        self.assertIn("| slow | 1111111111 | 40.000 | 4.00 | 2.5 | 0.25 | 3 |", table)
        self.assertIn("| fix | 2222222222 + fix.patch | 12.000 | 1.20 | 8.333 | 0.83 | 3 |", table)
        self.assertIn("| base | 0000000000 | 10.000 | 1.00 | 10 | 1.00 | 3 |", table)
        # Times in other units are converted: Fib/20 reports microseconds.
        self.assertIn("| base | 0000000000 | 10.000 | 1.00 | 1 | 1.00 | 3 |", table.split("### Fib/20")[1])

    def test_a_failing_variant_is_reported_and_fails_the_run(self):
        code, results, table = self.run_variants([("base", 10.0, False), ("broken", 10.0, True)], rounds=2)
        self.assertEqual(code, 1)
        broken = results["variants"][1]
        self.assertEqual(broken["samples"], [])
        self.assertEqual(len(broken["failures"]), 2)
        self.assertIn("exit 3", broken["failures"][0])
        self.assertIn("something went wrong", broken["failures"][0])
        with open(os.path.join(self.dir, "out", "broken.round1.log")) as f:
            self.assertEqual(f.read(), "Kokkos::abort: something went wrong\n")
        self.assertIn("| broken | 1111111111 | - | - | - | - | 0 |", table)
        self.assertIn("- broken: round 0: exit 3", table)

    def test_the_unpacked_archive_is_removed_after_the_run_even_a_failed_one(self):
        unpacked = os.path.join(self.dir, "unpacked")
        os.makedirs(unpacked)
        with mock.patch.object(tempfile, "tempdir", unpacked):
            code, _, _ = self.run_variants([("base", 10.0, False), ("broken", 10.0, True)], rounds=1)
            self.assertEqual(code, 1)
            with self.assertRaises(SystemExit), redirect_stdout(io.StringIO()):
                variants.main(["run", os.path.join(self.dir, "kdag-variants.tar.gz"), "--out",
                               os.path.join(self.dir, "out2"), "--filter", "^Fib/", "--only", "nothing"])
        self.assertEqual(os.listdir(unpacked), [])

    def test_only_the_named_variants_run_the_first_named_being_the_baseline(self):
        code, _, table = self.run_archive([("base", 10.0, False), ("slow", 40.0, False), ("fix", 20.0, False)],
                                          "--rounds", "1", "--only", "fix,slow")
        self.assertEqual(code, 0)
        with open(self.order_log) as f:
            self.assertEqual(f.read().split(), ["fix", "slow"])
        self.assertIn("| fix | 2222222222 + fix.patch | 20.000 | 1.00 | 1 |", table)
        self.assertIn("| slow | 1111111111 | 40.000 | 2.00 | 1 |", table)
        with self.assertRaises(SystemExit):
            self.run_archive([("base", 10.0, False)], "--only", "base,nothere")

    def test_a_benchmark_that_reports_an_error_fails_the_run_with_its_message(self):
        code, results, table = self.run_variants([("base", 10.0, "no gpu")], rounds=1)
        self.assertEqual(code, 1)
        self.assertEqual(results["variants"][0]["samples"], [])
        self.assertIn("- base: round 0: Fib/30: PerfCudaTaskDag: no CUDA device", table)

    def test_a_filter_that_matches_nothing_fails_the_variant(self):
        code, results, table = self.run_variants([("base", 10.0, "no match")], rounds=1)
        self.assertEqual(code, 1)
        self.assertIn("- base: round 0: no Google Benchmark report (did the filter match a benchmark?)", table)

    def test_a_run_starts_only_while_one_as_long_as_the_longest_still_fits(self):
        code, results, _ = self.run_archive([("base", 10.0, "sleep")], "--rounds", "3", "--budget-s", "2.5")
        self.assertEqual(code, 1)
        with open(self.order_log) as f:
            self.assertEqual(f.read().split(), ["base"])
        base = results["variants"][0]
        self.assertEqual(len(base["samples"]), 1)
        self.assertEqual(base["failures"], ["round 1: not run, the budget is spent",
                                            "round 2: not run, the budget is spent"])

    def test_the_table_command_reprints_a_run(self):
        _, _, table = self.run_variants([("base", 10.0, False), ("slow", 20.0, False)], rounds=1)
        buffer = io.StringIO()
        with redirect_stdout(buffer):
            variants.main(["table", os.path.join(self.dir, "out", "variants.json"), "--counter", "Mtasks/s"])
        self.assertEqual(buffer.getvalue(), table)


class RoundOrder(unittest.TestCase):
    def test_each_round_is_a_permutation_and_positions_move(self):
        for count in (1, 2, 5, 12):
            for rounds in (1, 2, 3):
                orders = [variants.round_order(count, r, rounds) for r in range(rounds)]
                for order in orders:
                    self.assertEqual(sorted(order), list(range(count)))
                if count > 2 and rounds > 1:
                    # Every variant's position changes between the first two rounds but one at most.
                    moved = sum(orders[0].index(i) != orders[1].index(i) for i in range(count))
                    self.assertGreaterEqual(moved, count - 1)


class ReadSamples(unittest.TestCase):
    def test_repetitions_give_their_median_and_errors_are_skipped(self):
        entries = [
            {"name": "A", "run_name": "A", "run_type": "iteration", "repetitions": 3, "real_time": 1.0,
             "time_unit": "ms", "x": 1},
            {"name": "A_mean", "run_name": "A", "run_type": "aggregate", "aggregate_name": "mean",
             "real_time": 2.0, "time_unit": "ms", "x": 2},
            {"name": "A_median", "run_name": "A", "run_type": "aggregate", "aggregate_name": "median",
             "real_time": 3.0, "time_unit": "ms", "x": 3},
            {"name": "B", "run_name": "B", "run_type": "iteration", "real_time": 5.0, "time_unit": "s",
             "error_occurred": True, "error_message": "error"},
            {"name": "C", "run_name": "C", "run_type": "iteration", "real_time": 7.0, "time_unit": "us",
             "threads": 4, "flag": True},
        ]
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"benchmarks": entries}, f)
        try:
            samples = variants.read_samples(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(samples, ({"A": {"real_time": 3e6, "x": 3}, "C": {"real_time": 7e3}}, ["B: error"]))


class Specs(unittest.TestCase):
    def test_names_revisions_and_patches(self):
        self.assertEqual(variants.parse_variant("base=7e4a704"), ("base", "7e4a704", None))
        name, rev, patch = variants.parse_variant("fix=HEAD~2+fix.patch")
        self.assertEqual((name, rev), ("fix", "HEAD~2"))
        self.assertEqual(patch, os.path.abspath("fix.patch"))

    def test_bad_specs_are_refused(self):
        for spec in ("7e4a704", "=HEAD", "base=", "a/b=HEAD", "..=HEAD"):
            with self.assertRaises(SystemExit, msg=spec):
                variants.parse_variant(spec)

    def test_two_variants_with_one_name_are_refused(self):
        with self.assertRaises(SystemExit):
            variants.main(["build", "a=HEAD", "a=HEAD~1", "--work", tempfile.gettempdir()])


class BuildCommands(unittest.TestCase):
    """build_variant's git and cmake steps, recorded instead of run."""

    def record(self, preset=None, configured=False):
        calls = []

        def fake_git(*args, cwd=None):
            calls.append(("git",) + args)
            return "c0ffee" if args[0] in ("rev-parse", "log") else ""

        def fake_run(command, cwd=None, env=None, stdout=None, stderr=None):
            calls.append(tuple(command))
            return mock.Mock(returncode=0)

        with tempfile.TemporaryDirectory() as work, mock.patch.object(variants, "git", fake_git), \
                mock.patch.object(variants.subprocess, "run", fake_run), redirect_stdout(io.StringIO()):
            tree = os.path.join(work, "base")
            os.makedirs(tree)  # as if the worktree existed
            build_dir = os.path.join(tree, "build", preset or "cuda")
            os.makedirs(os.path.join(build_dir, "perf_tests"))
            open(os.path.join(build_dir, "perf_tests", "PerfX"), "w").close()
            if configured:
                open(os.path.join(build_dir, "CMakeCache.txt"), "w").close()
            extra = () if preset is None else (preset,)
            exe, _, _ = variants.build_variant("base", "HEAD", None, "PerfX", work, *extra)
            self.assertEqual(exe, os.path.join(build_dir, "perf_tests", "PerfX"))
            return [c for c in calls if c[0] == "cmake"], build_dir

    def test_the_cuda_preset_is_the_default(self):
        cmake, build_dir = self.record()
        self.assertEqual(cmake, [("cmake", "--preset", "cuda", "-B", build_dir),
                                 ("cmake", "--build", build_dir, "--target", "PerfX")])

    def test_a_host_preset_configures_and_builds_its_own_folder(self):
        cmake, build_dir = self.record("release")
        self.assertTrue(build_dir.endswith(os.path.join("build", "release")))
        self.assertEqual(cmake, [("cmake", "--preset", "release", "-B", build_dir),
                                 ("cmake", "--build", build_dir, "--target", "PerfX")])

    def test_a_configured_folder_is_only_built(self):
        cmake, build_dir = self.record("release", configured=True)
        self.assertEqual(cmake, [("cmake", "--build", build_dir, "--target", "PerfX")])


if __name__ == "__main__":
    unittest.main()
