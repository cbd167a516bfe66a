"""The grading profile's random games are the same on every machine, whatever the process did before
(principle 5: same submission, same marks).  Hypothesis's derandomized generation of full-deck games
depended on the state of the process that made them: made after a grading, they were other games than in
a fresh interpreter, so a cold cache could give a submission other marks.  They are now made by a fresh
interpreter (``random_generation.in_fresh_process``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from grader.core.grade import grade
from grader.games.fcd.random_games import FAMILIES, generated_games
from grader.games.fcd18s2.edition import FCD18

ROOT = Path(__file__).resolve().parents[3]
FRESH = ("import json, sys\n"
         "from grader.games.fcd.random_games import FAMILIES\n"
         "from grader.games.fcd.random_generation import generate\n"
         "from grader.games.fcd18s2.edition import FCD18\n"
         "family = next(f for f in FAMILIES if f.name == sys.argv[1])\n"
         "print(json.dumps([[str(g.deck), [str(m) for m in g.moves]] for g in generate(family, 6, FCD18)]))\n")


def test_the_grading_profile_makes_the_same_full_deck_games_after_a_grading(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FCD_CACHE_DIR", "off")
    family = next(f for f in FAMILIES if f.name == "full_deck")
    fresh = subprocess.run([sys.executable, "-c", FRESH, family.name], cwd=ROOT, capture_output=True, text=True,
                           check=True, timeout=600)
    expected = json.loads(fresh.stdout)
    grade(ROOT / "fixtures" / "submissions" / "model", random_games=0, memory=False, own_tests=False)
    made = [[str(g.deck), [str(m) for m in g.moves]] for g in generated_games(family, 6, FCD18)]
    assert len(made) == 6 and made == expected
