#!/usr/bin/env python3
"""fuzz.py's journal: records survive an interruption, a run resumes from
them, and a journal made with another binary, seed or order is refused."""
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fuzz  # noqa: E402

HEADER = {"seed": 1, "order": 2, "ave_sha256": "aa", "mutate_sha256": "mm", "commit": "c"}


class JournalTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = pathlib.Path(self.dir.name) / "j.jsonl"

    def tearDown(self):
        self.dir.cleanup()

    def test_new_journal_starts_with_its_header(self):
        records, error = fuzz.Journal(self.path, HEADER).load()
        self.assertEqual((records, error), ([], None))
        self.assertEqual(json.loads(self.path.read_text().splitlines()[0]), HEADER)

    def test_records_come_back(self):
        j = fuzz.Journal(self.path, HEADER)
        j.load()
        j.append({"kernel": "k", "index": 3})
        j.append({"kernel": "k", "index": 5})
        records, error = fuzz.Journal(self.path, HEADER).load()
        self.assertIsNone(error)
        self.assertEqual([r["index"] for r in records], [3, 5])

    def test_a_cut_short_record_is_dropped_and_the_next_starts_a_line(self):
        j = fuzz.Journal(self.path, HEADER)
        j.load()
        j.append({"kernel": "k", "index": 3})
        with self.path.open("a") as f:
            f.write('{"kernel": "k", "ind')
        again = fuzz.Journal(self.path, HEADER)
        records, _ = again.load()
        self.assertEqual([r["index"] for r in records], [3])
        again.append({"kernel": "k", "index": 4})
        records, _ = fuzz.Journal(self.path, HEADER).load()
        self.assertEqual([r["index"] for r in records], [3, 4])

    def test_another_binary_seed_or_order_is_refused(self):
        fuzz.Journal(self.path, HEADER).load()
        for key, value in (("ave_sha256", "bb"), ("mutate_sha256", "nn"), ("seed", 2),
                           ("order", 1)):
            _, error = fuzz.Journal(self.path, dict(HEADER, **{key: value})).load()
            self.assertIn(f"{key}=", error or "", key)

    def test_a_journal_from_before_the_mutator_digest_is_accepted(self):
        old = {k: v for k, v in HEADER.items() if k != "mutate_sha256"}
        fuzz.Journal(self.path, old).load()
        _, error = fuzz.Journal(self.path, HEADER).load()
        self.assertIsNone(error)

    def test_the_commit_alone_does_not_matter(self):
        fuzz.Journal(self.path, HEADER).load()
        _, error = fuzz.Journal(self.path, dict(HEADER, commit="other")).load()
        self.assertIsNone(error)

    def test_a_rebuild_of_the_same_clean_commit_resumes(self):
        built = dict(HEADER, ave_commit="abc1234")
        fuzz.Journal(self.path, built).load()
        _, error = fuzz.Journal(self.path, dict(built, ave_sha256="bb")).load()
        self.assertIsNone(error)

    def test_another_or_a_dirty_build_commit_is_refused(self):
        for first, second in (("abc1234", "def5678"), ("abc1234-dirty", "abc1234-dirty"),
                              ("", "")):
            self.path.unlink(missing_ok=True)
            fuzz.Journal(self.path, dict(HEADER, ave_commit=first)).load()
            _, error = fuzz.Journal(self.path, dict(HEADER, ave_commit=second,
                                                    ave_sha256="bb")).load()
            self.assertIn("ave_sha256=", error or "", (first, second))


class RecheckTest(unittest.TestCase):
    """recheck.py: a journal's mutants through another build; one proven now
    that execution found wrong fails it, the same verdict passes."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.dir.name)

    def tearDown(self):
        self.dir.cleanup()

    def run_recheck(self, verdict, execution):
        # A stand-in for ave-rewrite whose every obligation has `verdict`.
        ave = self.root / "ave"
        report = {"kernels": [{"kernel": "vector_scale", "obligations": [
            {"kind": "in-bounds", "location": {"line": 7}, "status": verdict}]}]}
        ave.write_text("#!/bin/sh\necho '%s'\n" % json.dumps(report))
        ave.chmod(0o755)
        journal = self.root / "j.jsonl"
        shown = [] if verdict == "proven" else [f"in-bounds line 7: {verdict}"]
        records = [{"kernel": "vector_scale", "index": 0, "change": "c", "check": verdict,
                    "not_proven": shown, "execution": "correct"},
                   {"kernel": "vector_scale", "index": 0, "change": "c", "check": "unproven",
                    "not_proven": ["in-bounds line 7: unproven"], "execution": execution}]
        journal.write_text("\n".join(json.dumps(r) for r in [{"seed": 1, "order": 1}] + records))
        out = self.root / "out.json"
        run = subprocess.run([sys.executable, str(HERE / "recheck.py"), "--ave", str(ave),
                              "--journal", str(journal), "--work", str(self.root / "w"),
                              "--out", str(out)], capture_output=True, text=True)
        return run.returncode, json.loads(out.read_text())

    def test_a_wrong_mutant_proven_now_fails(self):
        status, summary = self.run_recheck("proven", "wrong")
        self.assertEqual(status, 1)
        # The journal's last record of a mutant is the one compared.
        self.assertEqual(summary["changed"][0]["journal"][0], "unproven")
        self.assertEqual(summary["check_x_execution"], {"proven": {"wrong": 1}})
        self.assertEqual(len(summary["proven_now_but_wrong"]), 1)

    def test_a_violated_correct_mutant_is_listed_to_reproduce(self):
        status, summary = self.run_recheck("violated", "correct")
        self.assertEqual(status, 0)
        self.assertEqual([r["index"] for r in summary["unconfirmed_violations"]], [0])
        self.assertTrue(summary["unconfirmed_violations"][0]["file"].endswith(
            "vector_scale/mutants/00000.hip"))


if __name__ == "__main__":
    unittest.main()
