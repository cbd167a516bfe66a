"""The code type-checks under the project's mypy configuration (pyproject.toml, [tool.mypy]).

``CHECKED`` is what is held to it: all of ``grader/`` (the core and the three games).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKED = ["grader"]  # the core and every game package


def test_mypy_finds_nothing(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy"), *CHECKED],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
