#!/usr/bin/env python3
"""Tests of tools/perf/report.py on Google Benchmark reports made here (no benchmark runs)."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

SPEC = {
    "runs": {"PerfA": ["--benchmark_filter=x"], "PerfWorkGraph": []},
    "rows": [
        {"what": "launch", "baseline": "round trip", "unit": "round trips", "goal": "<= 3",
         "num": {"exe": "PerfA", "name": "For/real_time", "field": "us_per_launch", "scale": 1000},
         "den": {"exe": "PerfWorkGraph", "name": "BM_CoreToCore/manual_time", "field": "round_trip_ns"}},
        {"what": "tasks", "baseline": "tbb", "unit": "x time", "goal": "<= 1.0",
         "num": {"exe": "PerfA", "name": "Fib/real_time", "field": "real_time"},
         "den": {"exe": "PerfA", "name": "Tbb/real_time", "field": "real_time"}},
        {"what": "pool", "baseline": "malloc", "unit": "x rate", "goal": ">= 1.0",
         "num": {"exe": "PerfA", "name": "Pool/real_time", "field": "x_malloc"}},
    ],
}


def entry(name, aggregate, real_time, **counters):
    e = {"name": f"{name}_{aggregate}", "run_name": name, "run_type": "aggregate", "aggregate_name": aggregate,
         "real_time": real_time, "time_unit": "ns"}
    e.update(counters)
    return e


def reports():
    perf_a = {"context": {"num_cpus": 2, "date": "2026-11-28T10:48:00"}, "benchmarks": [
        entry("For/real_time", "mean", 900.0, us_per_launch=0.9),
        entry("For/real_time", "median", 600.0, us_per_launch=0.6),
        entry("Fib/real_time", "median", 1200.0),
        entry("Tbb/real_time", "median", 1000.0),
        entry("Pool/real_time", "median", 10.0, x_malloc=0.75),
    ]}
    graph = {"context": {"num_cpus": 2, "date": "2026-11-28T10:47:00"}, "benchmarks": [
        entry("BM_CoreToCore/manual_time", "median", 1.0, round_trip_ns=120.0)]}
    return {"PerfA": perf_a, "PerfWorkGraph": graph}


def write(folder, results, commands=None):
    for exe, r in results.items():
        with open(os.path.join(folder, exe + ".json"), "w") as f:
            json.dump(r, f)
    if commands is not None:
        with open(os.path.join(folder, "commands.json"), "w") as f:
            json.dump(commands, f)


class Report(unittest.TestCase):
    def test_values_are_ratios_of_medians_from_the_same_run(self):
        results = reports()
        self.assertAlmostEqual(report.row_value(results, SPEC["rows"][0])[0], 600.0 / 120.0)
        self.assertAlmostEqual(report.row_value(results, SPEC["rows"][1])[0], 1.2)
        self.assertAlmostEqual(report.row_value(results, SPEC["rows"][2])[0], 0.75)

    def test_a_single_run_is_its_own_median(self):
        r = {"benchmarks": [{"name": "X", "run_name": "X", "run_type": "iteration", "real_time": 5.0}]}
        self.assertEqual(report.medians(r)["X"]["real_time"], 5.0)

    def test_table_shows_goals_commands_and_machine(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, reports(), {"PerfA": "PerfA --kokkos-num-threads=2 --benchmark_filter=x"})
            results, commands = report.load_results(d, SPEC)
            lines, missing = report.table(results, commands, SPEC)
        self.assertEqual(missing, 0)
        self.assertEqual(len(lines), 4 + len(SPEC["rows"]))
        self.assertEqual(lines[0], "Measured 2026-11-28T10:47:00 to 2026-11-28T10:48:00.")
        self.assertIn("5.00 round trips (not met)", lines[4])
        self.assertIn("1.20 x time (not met)", lines[5])
        self.assertIn("0.75 x rate (not met)", lines[6])
        self.assertIn("`PerfA --kokkos-num-threads=2 --benchmark_filter=x`", lines[4])
        self.assertIn("2 cores, core-to-core round trip 120 ns", lines[4])

    def test_pipes_in_a_command_are_escaped_for_the_table(self):
        lines, _ = report.table(reports(), {"PerfA": "PerfA --benchmark_filter=^(a|b)/"}, SPEC)
        self.assertIn("`PerfA --benchmark_filter=^(a\\|b)/`", lines[4])

    def test_goals_met(self):
        self.assertTrue(report.meets(2.9, "<= 3"))
        self.assertFalse(report.meets(3.1, "<= 3"))
        self.assertTrue(report.meets(1.0, ">= 1.0"))
        self.assertIsNone(report.meets(1.0, None))

    def test_missing_benchmark_or_counter_is_named_and_fails(self):
        results = reports()
        del results["PerfWorkGraph"]
        results["PerfA"]["benchmarks"] = [b for b in results["PerfA"]["benchmarks"] if b["run_name"] != "Tbb/real_time"]
        lines, missing = report.table(results, {}, SPEC)
        self.assertEqual(missing, 2)
        self.assertIn("missing: no report of PerfWorkGraph", lines[4])
        self.assertIn("missing: no Tbb/real_time in PerfA", lines[5])
        self.assertIn("round trip not measured", lines[4])
        with tempfile.TemporaryDirectory() as d:
            write(d, results)
            self.assertEqual(report.main(["--spec", self._spec_file(d), "table", d]), 1)

    def test_update_replaces_only_the_marked_table(self):
        with tempfile.TemporaryDirectory() as d:
            readme = os.path.join(d, "README.md")
            with open(readme, "w") as f:
                f.write(f"# Report\nbefore\n{report.BEGIN}\nold table\n{report.END}\nafter\n")
            write(d, reports())
            self.assertEqual(report.main(["--spec", self._spec_file(d), "update", readme, d]), 0)
            with open(readme) as f:
                text = f.read()
        self.assertTrue(text.startswith("# Report\nbefore\n"))
        self.assertTrue(text.endswith(f"{report.END}\nafter\n"))
        self.assertNotIn("old table", text)
        self.assertIn("| launch | round trip | 5.00 round trips", text)

    def test_update_without_markers_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            readme = os.path.join(d, "README.md")
            with open(readme, "w") as f:
                f.write("no markers\n")
            with self.assertRaises(SystemExit):
                report.update(readme, ["| x |"])

    def test_the_committed_spec_names_what_it_runs(self):
        spec = report.load_spec()
        for row in spec["rows"]:
            for side in ("num", "den"):
                if side in row:
                    self.assertIn(row[side]["exe"], spec["runs"], row["what"])
        self.assertIn(spec.get("round_trip", report.CORE_TO_CORE)["exe"], spec["runs"])

    def test_the_machine_round_trip_may_come_from_another_benchmark(self):
        results = reports()
        results["PerfA"]["benchmarks"].append(entry("For/real_time", "median", 1.0, round_trip_ns=80.0))
        spec = dict(SPEC, round_trip={"exe": "PerfA", "name": "For/real_time", "field": "round_trip_ns"})
        self.assertEqual(report.machine(results, spec), "2 cores, core-to-core round trip 80 ns")
        self.assertEqual(report.machine(results, SPEC), "2 cores, core-to-core round trip 120 ns")

    @staticmethod
    def _spec_file(folder):
        path = os.path.join(folder, "spec.json")
        with open(path, "w") as f:
            json.dump(SPEC, f)
        return path


if __name__ == "__main__":
    unittest.main()
