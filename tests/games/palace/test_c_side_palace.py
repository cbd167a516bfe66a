"""The Palace C fixtures stay what they claim: the model passes its hand-worked self-test under the
sanitizers, every accepted reading plays random games soundly, the student-style testPalace.c passes on
the model, the mutant and reading folders are what their tables generate, and every mutant is caught
(fixtures/palace/submissions/selftest/run_selftest.py does the work; here it must exit 0)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).resolve().parents[3] / "fixtures" / "palace" / "submissions" / "selftest" / "run_selftest.py"


@pytest.mark.slow  # (CI's budget: about 40 s, every fixture compiled and run under the sanitizers)
def test_the_model_readings_and_mutants_hold_what_their_tables_say() -> None:
    proc = subprocess.run([sys.executable, str(RUNNER), "-j", "2"], capture_output=True, text=True, timeout=600,
                          check=False)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "run_selftest: PASS" in proc.stdout
