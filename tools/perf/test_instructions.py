#!/usr/bin/env python3
"""Tests of tools/perf/instructions.py on callgrind outputs written here (nothing runs valgrind)."""
import os
import re
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import instructions  # noqa: E402

# main calls bench once (1000 instructions inside, 10 of them its own); bench calls task 3 times
# from two call sites (600 + 300 inside) and helper once; the names appear once, then by id.
PROFILE = """# callgrind format
version: 1
positions: line
events: Ir
summary: 1100

fn=(1) main
0 100
cfn=(2) bench
calls=1 0
0 1000

fn=(2)
0 10
cfn=(3) task<int>
calls=2 0
0 600
cfn=(4) helper
calls=1 0
0 90
cfn=(3)
calls=1 0
0 300

fn=(3)
0 900

fn=(4)
0 90
"""

# The same with --dump-instr=yes: two position columns (address, line) before each cost.
PROFILE_INSTR = re.sub(r"(?m)^calls=(\d+) 0$", r"calls=\1 0x10 0",
                       re.sub(r"(?m)^0 (\d+)$", r"0x10 0 \1", PROFILE.replace("positions: line", "positions: instr line")))


class Instructions(unittest.TestCase):
    def test_calls_and_inclusive_cost_sum_over_call_sites(self):
        self.assertEqual(instructions.calls_into(PROFILE, "task<"), (3, 900))
        self.assertEqual(instructions.calls_into(PROFILE, "bench"), (1, 1000))
        self.assertEqual(instructions.calls_into(PROFILE, "absent"), (0, 0))

    def test_per_unit_divides_the_outer_work_by_the_unit_calls(self):
        value, total, units = instructions.per_unit(PROFILE, "bench", "task<")
        self.assertAlmostEqual(value, 1000 / 3)
        self.assertEqual((total, units), (1000, 3))
        self.assertIsNone(instructions.per_unit(PROFILE, "bench", "absent")[0])

    def test_instruction_positions_are_skipped(self):
        self.assertEqual(instructions.calls_into(PROFILE_INSTR, "task<"), (3, 900))

    def test_main_reads_a_profile(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "cg.out")
            with open(path, "w") as f:
                f.write(PROFILE)
            self.assertEqual(instructions.main(["--outer", "bench", "--unit", "task<", "--profile", path]), 0)
            self.assertEqual(instructions.main(["--outer", "bench", "--unit", "nothing", "--profile", path]), 1)


if __name__ == "__main__":
    unittest.main()
