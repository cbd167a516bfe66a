"""Every STRICT clause judged under every reading (issue 31, item 6).

A grader may not mark down an accepted reading of a LENIENT ruling, and it may not let
the reading excuse a bug in a STRICT clause either.  Here rules.md's STRICT clauses are
listed with the scenarios that judge them (fixtures/submissions/planted.py holds the
list); then each mutant's bug is planted in each accepted reading
(fixtures/submissions/readings, ``combined`` included) and graded on the scenarios of
its STRICT clauses only: every clause on which the bug is charged in the model must be
charged under the reading too -- some scenario naming the clause FAILS (a scenario
"not shown" or passed does not count).

The default run takes, for each reading, the mutants whose clauses the reading's rulings
leave partly open and whose scenarios pass through a state where they do
(planted.DEFAULT_RULE: about 100 pairs, built and graded two at a time), and always
A21 under eager recycling, where the issue began.  The whole cross (every reading x
every mutant, and the baseline in the model) is ``-m slow`` here, or
``python bench/strict_under_readings.py``, which prints it as a table.
"""

from __future__ import annotations

import re
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from grader.core.results import Verdict
from grader.games.fcd18s2.scenarios import load_scenarios

ROOT = Path(__file__).resolve().parents[3]
SUBMISSIONS = ROOT / "fixtures" / "submissions"
RULES_MD = ROOT.parent / "shared" / "spec" / "rules.md"
sys.path.insert(0, str(SUBMISSIONS))
import planted  # noqa: E402

SCENARIOS = load_scenarios()
DEFAULT = planted.default_pairs()
JOBS = 2  # the CI machine's cores: each pair is its own build and sandboxed worker


def scenarios_of(clause: str) -> list[str]:
    return [s.id for s in SCENARIOS if clause in s.rules]


# ---- the clauses --------------------------------------------------------------------------------------

def test_every_strict_clause_has_scenarios_that_judge_it() -> None:
    """The list: each STRICT clause with the scenarios whose ``rules`` name it.  A clause no scenario
    names must be one whose items are other clauses (planted.JUDGED_THROUGH: R15, R18), each of
    which has scenarios."""
    table = {c: scenarios_of(c) for c in planted.STRICT_CLAUSES}
    print("\n".join(f"{c:>4}: {len(ids):2d} {', '.join(ids)}" for c, ids in table.items()))
    without = [c for c, ids in table.items() if not ids and c not in planted.JUDGED_THROUGH]
    assert without == [], f"STRICT clauses no scenario judges: {without}"
    through = {c: [i for i in items if not table.get(i)] for c, items in planted.JUDGED_THROUGH.items()}
    assert all(items == [] for items in through.values()), through
    assert all(not table[c] for c in planted.JUDGED_THROUGH), "a clause judged through others has scenarios now"


def test_the_clause_list_covers_rules_md() -> None:
    """R1-R18 and A1-A52, each either STRICT (wholly or in part) or left out with a reason; the
    scenarios name no other clause."""
    every = {f"R{i}" for i in range(1, 19)} | {f"A{i}" for i in range(1, 53)}
    strict, left = set(planted.STRICT_CLAUSES), set(planted.NOT_STRICT)
    assert strict & left == set()
    assert strict | left == every, sorted(every ^ (strict | left))
    named = {c for s in SCENARIOS for c in s.rules}
    assert named <= every, sorted(named - every)


def _rulings_md() -> dict[str, str]:
    """rules.md section 3: ruling id -> its paragraph."""
    text = RULES_MD.read_text()
    section = text[text.index("## 3."):text.index("## 4.")]
    out: dict[str, str] = {}
    for block in re.split(r"\n(?=\*\*A\d+ )", section):
        if m := re.match(r"\*\*(A\d+) ", block):
            out[m.group(1)] = block
    return out


def _marks_itself_strict(ruling: str, block: str) -> bool:
    """Does the paragraph call its own ruling STRICT (wholly or in part)?  "(A6 is STRICT)" in A8's
    paragraph is about A6: a sentence naming another ruling before STRICT does not count."""
    for sentence in re.split(r"(?<=[.;])\s+", block.split("**", 2)[2]):
        before = sentence.split("STRICT", 1)[0]
        if "STRICT" in sentence and not set(re.findall(r"\bA\d+\b", before)) - {ruling}:
            return True
    return False


@pytest.mark.skipif(not RULES_MD.exists(), reason="rules.md is outside this repository (../shared/spec)")
def test_the_strict_rulings_are_those_rules_md_marks_strict() -> None:
    """A ruling of 18s2 is in the list exactly when rules.md marks it STRICT (wholly or in part)."""
    md = _rulings_md()
    assert len(md) == 52
    marked = {a for a, block in md.items() if "(17s2)" not in block.split("\n")[0] and _marks_itself_strict(a, block)}
    listed = {c for c in planted.STRICT_CLAUSES if c.startswith("A")}
    assert listed == marked, (f"listed, not marked STRICT: {sorted(listed - marked)}; "
                              f"marked, not listed: {sorted(marked - listed)}")


# ---- the plantings ------------------------------------------------------------------------------------

def test_every_pair_is_planted_or_explained() -> None:
    """Every reading x every scenario mutant with a STRICT clause has its planted Game.c (the mutant's
    edit, or one written by hand for that reading) or a reason it cannot exist; the hand-written ones
    and the reasons name real pairs, and a hand-written planting is not needed where the mutant's own
    edit applies unchanged and means the same."""
    pairs = planted.all_pairs()
    keys = {p.key for p in pairs}
    assert [p.name for p in pairs if p.status() == "unplanted"] == [], (
        "write the planting by hand (planted.HAND) or say why it cannot exist (planted.NOT_APPLICABLE)")
    assert set(planted.HAND) <= keys and set(planted.NOT_APPLICABLE) <= keys
    assert set(planted.HAND).isdisjoint(planted.NOT_APPLICABLE)
    for p in pairs:
        if p.status() == "planted":
            reading_text = planted.apply_edits((planted.MODEL / "Game.c").read_text(), p.reading.all_edits())
            assert p.source().split("\n", 2)[2] != reading_text, f"{p.name}: the planting changes nothing"


def test_the_committed_planted_folders_are_what_planted_py_makes(tmp_path: Path) -> None:
    """fixtures/submissions/planted/ holds the default run's pairs, as planted.py writes them."""
    committed = {d.name for d in planted.PLANTED.iterdir() if d.is_dir()} if planted.PLANTED.exists() else set()
    stale = "stale: run python fixtures/submissions/planted.py"
    assert committed == {p.name for p in DEFAULT}, stale
    for p in DEFAULT:
        made = planted.make_planted(p, tmp_path / p.name)
        for f in made.iterdir():
            assert f.read_text() == (planted.PLANTED / p.name / f.name).read_text(), f"{p.name}: {stale}"


# ---- the planted bugs are charged ---------------------------------------------------------------------

def _judge(args: tuple[str, str, str]) -> tuple[str, planted.Judged | None]:
    reading, mutant, root = args
    p = planted.MODEL_PAIR(mutant) if reading == "model" else planted.pair(reading, mutant)
    return p.name, planted.judge_pair(p, Path(root))


def judge_all(pairs: list[tuple[str, str]], root: Path) -> dict[str, planted.Judged | None]:
    with ProcessPoolExecutor(max_workers=JOBS) as pool:
        return dict(pool.map(_judge, [(r, m, str(root)) for r, m in pairs], chunksize=1))


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, planted.Judged | None]:
    """The default run's pairs, each planted, built and graded on its clauses' scenarios."""
    return judge_all([p.key for p in DEFAULT], tmp_path_factory.mktemp("planted"))


def explain(j: planted.Judged, clauses: set[str]) -> str:
    lines = []
    for c in sorted(clauses):
        lines.append(f"  {c}: " + ", ".join(f"{s.split('/', 1)[1]} {j.verdicts[s]}" for s in j.clauses[c]))
    return "\n".join(lines)


def assert_charged(name: str, j: planted.Judged | None, mutant_name: str) -> None:
    assert j is not None, f"{name}: not planted"
    assert j.built, f"{name}: the planted folder does not build"
    required = planted.required_clauses(mutant_name)
    missing = required - j.charged()
    assert not missing, (f"{name}: the bug is not charged on {sorted(missing)} (no scenario naming it failed):\n"
                         + explain(j, missing))


def test_a21_is_judged_under_eager_recycling(judged) -> None:  # noqa: ANN001
    """Where the issue began: a submission that recycles as soon as its draw pile runs out (A22,
    accepted) and then draws the newest card first (A21's STRICT part broken) is charged by A21's own
    scenarios, the one the issue quotes among them -- not excused by the reading."""
    reading, mutant = planted.FIRST
    j = judged[f"{reading}+{mutant}"]
    assert_charged(f"{reading}+{mutant}", j, mutant)
    quoted = "recycling/recycled_pile_is_drawn_oldest_first"
    assert Verdict(j.verdicts[quoted]).family == "fail", f"{quoted}: {j.verdicts[quoted]}"


@pytest.mark.parametrize("pair", [p.name for p in DEFAULT], ids=str)
def test_the_planted_bug_is_charged_under_the_reading(pair: str, judged) -> None:  # noqa: ANN001
    """The bug, planted in the reading, is charged on every STRICT clause it is charged on in the
    model (planted.required_clauses)."""
    assert_charged(pair, judged[pair], pair.split("+", 1)[1])


def test_the_default_run_follows_its_rule() -> None:
    """OPEN_PARTS has every LENIENT ruling of reference/rulings.py that leaves an observation open, and
    names STRICT clauses only; every reading with such a ruling is in the default run (but A29's, whose
    reading leaves open nothing a mutant's clauses govern); the first pair is in it."""
    from reference.rulings import RULINGS  # noqa: PLC0415

    assert {r.id for r in RULINGS if r.affects} == set(planted.OPEN_PARTS)
    assert {c for cs in planted.OPEN_PARTS.values() for c in cs} <= set(planted.STRICT_CLAUSES)
    readings = {p.reading.name for p in DEFAULT}
    with_open_parts = {r.name for r in planted.mutants_and_readings()[1] if set(r.rules) & set(planted.OPEN_PARTS)}
    assert planted.FIRST in {p.key for p in DEFAULT}
    assert with_open_parts - readings <= {"a29_is_valid_move_ignores_the_end"}, with_open_parts - readings


# ---- the whole cross (-m slow) ------------------------------------------------------------------------

@pytest.mark.slow
def test_the_whole_cross(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """Every reading x every mutant, and the baseline: in the model each mutant is charged on exactly
    its required clauses.  10-13 minutes on 2 cores; bench/strict_under_readings.py prints it."""
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the whole cross: run with -m slow, or python bench/strict_under_readings.py")
    mutants = [m.name for m in planted.scenario_mutants()]
    keys = [("model", m) for m in mutants] + [p.key for p in planted.all_pairs() if p.status() == "planted"]
    results = judge_all(keys, tmp_path)
    wrong_baseline = {m: sorted(results[f"model+{m}"].charged()) for m in mutants
                      if results[f"model+{m}"].charged() != planted.required_clauses(m)}
    assert wrong_baseline == {}, "planted.MODEL_MISSES is out of date"
    escapes = {name: sorted(planted.required_clauses(name.split("+", 1)[1]) - j.charged())
               for name, j in results.items() if j is not None and not name.startswith("model+")}
    assert {n: c for n, c in escapes.items() if c} == {}
