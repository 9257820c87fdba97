#!/usr/bin/env python3
"""scripts/bench_summary.py renders a bench.sh report: verdicts, figures with separators, and n/a
for whatever the report lacks (a skipped platform, a missing file)."""
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "bench_summary.py")
FIXTURE = os.path.join(HERE, "fixtures", "bench_report.json")


def render(path):
    return subprocess.run([sys.executable, SCRIPT, path], capture_output=True, text=True)


class BenchSummaryTest(unittest.TestCase):
    def setUp(self):
        result = render(FIXTURE)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.out = result.stdout
        self.lines = self.out.splitlines()

    def row(self, first_cell, tables=1, which=0):
        """The cells of the row starting with first_cell; `tables` say how many tables have one."""
        rows = [l for l in self.lines if l.startswith(f"| {first_cell} |")]
        self.assertEqual(len(rows), tables, f"rows for {first_cell!r} in:\n{self.out}")
        return [c.strip() for c in rows[which].strip("|").split("|")]

    def test_budgets_carry_their_verdicts(self):
        self.assertEqual(self.row("native scale"),
                         ["native scale", "2,000 ms wall", "1,744 ms wall", "**met**"])
        self.assertEqual(self.row("Node scale")[3], "**NOT met**")
        self.assertEqual(self.row("native rewind")[2], "2.40 ms wall")
        self.assertEqual(self.row("bundle")[2:], ["n/a", "not measured"])
        self.assertEqual(self.row("page frames 1000/10")[1:3], ["3 x", "1.27 x"])
        self.assertEqual(self.row("deployment 100000 over 10000")[1:],
                         ["12 x", "12.50 x", "**NOT met**"])

    def test_the_scale_run_lists_every_measured_and_warm_up_run(self):
        native = self.row("native", tables=2)
        self.assertEqual(native[1], "1,744 ms")
        self.assertEqual(native[2], "1,646 / 1,750 / 1,744")
        self.assertEqual(native[3], "1,979")
        self.assertIn("72,375 writes", native[6])
        self.assertEqual(native[7], "`e41a3eb31658e623`")

    def test_a_platform_the_report_skipped_is_not_available(self):
        for which in (0, 1):  # the scale table, then the rewinds
            node = self.row("wasm-node", tables=2, which=which)
            self.assertTrue(all(cell == "n/a" for cell in node[1:]), node)
        self.assertEqual(self.row("100")[5:], ["n/a", "n/a"])
        self.assertEqual(self.row("5,000")[5:], ["1,915.5 ms", "125 MB (wasm heap 58 MB)"])

    def test_rates_rewinds_and_bundle(self):
        self.assertEqual(self.row("queue: Add → Get → Done → Forget")[1:], ["745,123 /s", "694,000 /s"])
        self.assertEqual(self.row("queue: coalesced Adds (10 per key)")[2], "n/a")
        self.assertIn("Rewinds (a session of 10,104 steps):", self.out)
        self.assertEqual(self.row("native", tables=2, which=1)[1:3],
                         ["81.9 ms", "1.55 / 1.41 / 2.40 ms"])
        self.assertIn("**1,251,918 B** (index.html 1,500 B, rlab.wasm 1,250,418 B).", self.out)
        self.assertIn("loaded only when used: embed.js 1,636 B.", self.out)

    def test_a_report_without_a_baseline_has_no_comparison(self):
        self.assertNotIn("Against the baseline", self.out)
        self.assertIn("load 0.50 (1 min) when the report was written", self.out)

    def test_a_baseline_run_sets_each_median_beside_the_baselines(self):
        result = render(os.path.join(HERE, "fixtures", "bench_report_baseline.json"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.out, self.lines = result.stdout, result.stdout.splitlines()
        self.assertIn("Against the baseline 27b1f00, runs interleaved", self.out)
        self.assertEqual(self.row("rayclusters 1,000"),
                         ["rayclusters 1,000", "native", "1,744.0 ms (3)", "1,700.0 ms (3)",
                          "1.026x", "0.988x", "same"])
        self.assertEqual(self.row("deployment 5,000")[3:],
                         ["n/a (2)", "n/a", "n/a", "`bc003734f163f0ed` / `0000000000000000`"])
        self.assertIn("when the report at 27b1f00-dirty was written", self.out)

    def test_an_unreadable_report_is_an_error_not_a_table(self):
        result = render(os.path.join(HERE, "fixtures", "no_such_report.json"))
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stdout, "")
        self.assertIn("cannot read", result.stderr)


if __name__ == "__main__":
    unittest.main()
