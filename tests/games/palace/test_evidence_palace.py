"""Palace marks by evidence, as Final Card-Down 2018 marks (issue #35): a mark is earned where the rule was seen
to hold, and a bug costs once.

- Random games: one test per rule family (``random/<family>``, grader.games.palace.families); a bug only the
  random games see costs its family's share of the random_games marks (15 / 13), not all 15, and two such bugs
  of two families cost the sum (the second bug alone is ``slow``).  The bugs are edits of the model made here
  (no fixture mutant is missed by every scenario): sets of more than four cards refused (P7, beating), and a
  turn counter kept in one byte (C6, turn order: it wraps after 255 moves, which only a long random game
  reaches).
- A stub (fixtures/palace/submissions/stubs/returns_zero: newGame gives an empty game, every other function
  returns 0 or NULL) earns the build's marks and nothing else, though its zeros match some expected values.
- Scenarios another test's difference hid earn the share of their checks seen to hold before it (``by_evidence``).
- ``slow``: every accepted reading still gets 100, and every mutant of the fixtures is graded with per-family
  random games without a grader error.

The default run grades the model and two edits of it with three random games and no memory stage (every family
is judged by the first games already), and the stub with one random game and the memory stage.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from grader.core.grade import grade
from grader.core.results import SubmissionResult, Verdict
from grader.core.results import TestResult as Result  # not collected as a test class
from grader.core.run_report import RunReport
from grader.core.sandbox.limits import Limits
from grader.games import get
from grader.games.palace import explain
from grader.games.palace.families import FAMILIES, family_of, words
from grader.games.palace.random_games import GameShown, RandomGame, judge_game, random_game
from grader.games.palace.session import GameRun
from grader.games.palace.stages import by_evidence
from reference.palace import REFERENCE

ROOT = Path(__file__).resolve().parents[3]
SUBMISSIONS = ROOT / "fixtures" / "palace" / "submissions"
MODEL = SUBMISSIONS / "model"
STUB = SUBMISSIONS / "stubs" / "returns_zero"
GAME = get("palace")
RANDOM_MARKS = 15.0  # marking.toml: random_games
FAMILY_SHARE = RANDOM_MARKS / len(FAMILIES)  # each family's test weighs 1
GAMES = 3  # random games per grade here: game 3 holds a set of five, game 2 runs past 255 moves
# Bugs only random games see, as (find, replace) edits of the model's Palace.c, and the family each costs
SETS_OF_FIVE = ("    if (move->numCards < 1 || move->numCards > MAX_SET) {\n        return FALSE;\n    }\n"
                "    Zone *zone = playZone(game, game->seat);",
                "    if (move->numCards < 1 || move->numCards > 4) {\n        return FALSE;\n    }\n"
                "    Zone *zone = playZone(game, game->seat);")
BYTE_TURN = ("    int turn;     /* moves accepted so far (C6) */", "    unsigned char turn;")
FAMILY_OF_BUG = {SETS_OF_FIVE: "beating", BYTE_TURN: "turn_order"}


def mutant(folder: Path, *edits: tuple[str, str]) -> Path:
    """The model with ``edits`` made to its Palace.c."""
    shutil.copytree(MODEL, folder)
    source = (folder / "Palace.c").read_text()
    for find, replace in edits:
        assert source.count(find) == 1, find
        source = source.replace(find, replace)
    (folder / "Palace.c").write_text(source)
    return folder


def graded(folder: Path, random_games: int = GAMES, memory: bool = False) -> SubmissionResult:
    return grade(folder, game=GAME, random_games=random_games, memory=memory, own_tests=False)


def random_tests(result: SubmissionResult) -> dict[str, Result]:
    return {t.id: t for t in result.tests if t.kind == "random"}


def failures(result: SubmissionResult) -> list[str]:
    return [f"{t.id} [{t.verdict.value}, earns {t.earns_marks}]: {t.message[:300]}" for t in result.tests
            if t.earns_marks < 1]


@pytest.fixture(scope="module")
def model() -> SubmissionResult:
    return graded(MODEL)


@pytest.fixture(scope="module")
def random_only(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SubmissionResult]:
    """A bug only random games see, and it with a second one of another family."""
    root = tmp_path_factory.mktemp("random_only")
    return {"sets": graded(mutant(root / "sets", SETS_OF_FIVE)),
            "both": graded(mutant(root / "both", SETS_OF_FIVE, BYTE_TURN))}


def charged(result: SubmissionResult) -> dict[str, Result]:
    return {t.id: t for t in result.tests if t.earns_marks < 1}


# ---- random games: one test, and one deduction, per family -------------------------------------------------------
def test_the_model_passes_every_random_family(model: SubmissionResult) -> None:
    tests = random_tests(model)
    assert sorted(tests) == sorted(f"random/{f}" for f in FAMILIES)
    assert all(t.verdict is Verdict.PASSED and t.group == "random" for t in tests.values()), failures(model)
    assert (model.score, model.max_score) == (90.0, 90.0), failures(model)  # no memory stage here


def _costs_its_family_share(result: SubmissionResult, family: str) -> None:
    lost = charged(result)
    assert list(lost) == [f"random/{family}"], failures(result)
    failed = lost[f"random/{family}"]
    assert failed.verdict is Verdict.WRONG and failed.rule_family == family and failed.difference is not None
    head = rf"[1-{GAMES}] of {GAMES} random games differ from the reference in {re.escape(words(family))}\. "
    assert re.match(head + r"The shortest: game [1-3] \(", failed.message), failed.message
    assert "C9 = one" in failed.message  # the readings the games were played under
    assert result.score == pytest.approx(90 - FAMILY_SHARE, abs=0.01)


def test_a_bug_only_random_games_see_costs_its_family_share(random_only: dict[str, SubmissionResult]) -> None:
    _costs_its_family_share(random_only["sets"], "beating")


@pytest.mark.slow
def test_the_other_bug_alone_costs_its_family_share(tmp_path: Path) -> None:
    _costs_its_family_share(graded(mutant(tmp_path / "turn", BYTE_TURN)), "turn_order")


def test_two_bugs_of_two_families_cost_the_sum(random_only: dict[str, SubmissionResult]) -> None:
    """The second bug alone costs its family's share too (``slow`` above): the pair loses both shares."""
    both = random_only["both"]
    assert set(charged(both)) == {"random/beating", "random/turn_order"}, failures(both)
    assert round(90 - both.score, 2) == pytest.approx(2 * FAMILY_SHARE, abs=0.01)
    assert round(90 - both.score, 2) == pytest.approx(2 * round(90 - random_only["sets"].score, 2), abs=0.02)


# ---- no marks without evidence -----------------------------------------------------------------------------------
def test_a_stub_earns_the_build_and_nothing_else() -> None:
    """Its zeros match what a scenario expects in places (seat 0, turn 0, SETUP_PHASE): no game is there to
    see a rule in, so nothing is earned (it earned 86.8 of 100 before marks were earned by evidence)."""
    result = graded(STUB, random_games=1, memory=True)
    assert result.build_ok and result.score == 5.0, failures(result)
    assert {g.group: g.marks for g in result.groups if g.marks} == {"build": 5.0}
    assert all(t.earns_marks == 0 for t in result.tests if t.group != "build")
    assert len(random_tests(result)) == len(FAMILIES)


def _played(checks: tuple[int, ...], verdict: Verdict, failed_after: int, message: str = "",
            charged_to: str = "") -> tuple[Any, Result]:
    scenario = SimpleNamespace(probe=None, expects=[SimpleNamespace(after=a) for a in checks])
    test = Result("group/test", "group", ("P6",), 1.0, verdict, message=message, failed_after=failed_after,
                      charged_to=charged_to)
    return scenario, test


@pytest.mark.parametrize(("checks", "verdict", "failed_after", "message", "charged_to", "earned"), [
    ((1, 3), Verdict.NOT_SHOWN, 2, explain.WENT_ANOTHER_WAY, "", 0.5),  # the check before the departure held
    ((2, 3), Verdict.NOT_SHOWN, 2, explain.WENT_ANOTHER_WAY, "", 0.0),  # at its step the game was not its game
    ((0, 4), Verdict.NOT_SHOWN, 0, explain.WENT_ANOTHER_WAY, "", 0.0),  # a wrong deal: nothing seen
    ((3, 5), Verdict.NOT_SHOWN, 3, "its wrong answers were other rules' business", "", 0.5),  # its own values held
    ((2, 6), Verdict.WRONG, 6, "", "group2/owner", 0.5),  # failed on what another group is charged for
    ((6,), Verdict.WRONG, 6, "", "", 0.0),  # its own failure: charged, nothing earned
])
def test_a_hidden_scenario_earns_the_checks_seen_before_it(checks: tuple[int, ...], verdict: Verdict,
                                                           failed_after: int, message: str, charged_to: str,
                                                           earned: float) -> None:
    scenario, test = _played(checks, verdict, failed_after, message, charged_to)
    by_evidence([(scenario, test)])
    assert test.earns_marks == earned
    assert test.verdict is (Verdict.WRONG if earned == 0 and not charged_to and verdict is Verdict.WRONG
                            else Verdict.NOT_SHOWN)


# ---- one game, judged family by family (the reference playing itself, one value changed) -----------------------
def _run(game: RandomGame, steps: list[object]) -> GameRun:
    report = RunReport(limits=Limits(cpu=5, wall=10.0, memory_mb=512, output_kb=4096, nproc=256), exit_code=0,
                       signal=None, enforced=None, protocol_problem=None, finished=True, call=None, cpu=0.0,
                       maxrss_kb=0, wall=0.0, stdout="", stderr="", frames=(), error=None)
    frames = [{"t": "obs", "i": k, "obs": obs} for k, obs in enumerate(steps)] + [{"t": "done"}]
    return GameRun(report, frames)


def _with(obs: object, **values: object) -> dict[str, object]:
    assert isinstance(obs, dict)
    return obs | values


def test_a_game_charges_the_family_of_its_first_difference_and_judges_nothing_after_the_state_differs() -> None:
    game = random_game(0, (REFERENCE,))
    k = 12
    assert k < len(game.moves)
    steps = [s.obs for s in game.steps]
    steps[k] = _with(steps[k], draw_pile_size=99)
    around: set[str] = set()
    shown = judge_game(game, _run(game, steps), around)
    assert len(shown.charged) == 1 and next(iter(shown.charged.values())).step == k
    assert around == set(shown.charged)
    judged_before = {f for s in game.steps[1:k] for f in s.judges}
    assert set(shown.agreed) == judged_before and not shown.hidden
    assert all(n <= k - 1 for n in shown.agreed.values())  # nothing from step k on


def test_a_counter_off_by_a_constant_is_charged_once_and_every_later_step_judged() -> None:
    """currentTurn one short from move 12 on: no rule reads it, so it is judged by what each move changed."""
    game = random_game(0, (REFERENCE,))
    k = 12
    steps = [s.obs for s in game.steps]
    steps[k:] = [_with(obs, current_turn=cast("int", obs["current_turn"]) - 1) for obs in steps[k:]]
    around: set[str] = set()
    shown = judge_game(game, _run(game, steps), around)
    assert list(shown.charged) == ["turn_order"] and shown.charged["turn_order"].step == k
    assert not shown.hidden and not shown.again  # one difference: every later change agrees
    expected: Counter[str] = Counter()  # a family charged in a game earns nothing more from it
    for i, s in enumerate(game.steps[1:], start=1):
        expected.update(s.judges - ({"turn_order"} if i >= k else set()))
    assert shown.agreed == expected


def test_a_family_judged_around_hides_its_steps_and_charges_nothing() -> None:
    game = random_game(0, (REFERENCE,))
    steps = [s.obs for s in game.steps]
    k = 5
    assert isinstance(steps[k], dict) and isinstance(steps[k]["out_of_range"], dict)
    steps[k] = _with(steps[k], out_of_range={name: [False, True, True] for name in steps[k]["out_of_range"]})
    shown: GameShown = judge_game(game, _run(game, steps), {"queries"})
    assert not shown.charged and shown.hidden["queries"] == 1 and "queries" in shown.again
    assert shown.share("queries") == pytest.approx((len(game.steps) - 2) / (len(game.steps) - 1))
    assert shown.share("end") == 1.0  # a view differing (C43) leaves the game state alone: judged on to the end


def test_the_families_of_what_moves_do() -> None:
    """A ten burning the pile and its free play are the bombs' business; the turn after a two, the two's; what
    a pick-up puts in a hand, taking the pile's; a draw, drawing's; the end of a blind last card, the end's."""
    assert family_of({"P16", "C22", "C47"}) == family_of({"C23", "P16", "C22"}) == "bombs"
    assert family_of({"P17", "C24", "C25", "P5", "C1", "C35"}) == "twos"
    assert family_of({"P9", "C12", "C10"}) == "pile"
    assert family_of({"P7", "C16", "P8", "C9", "C10", "C11"}) == "drawing"
    assert family_of({"P12", "P14", "C17", "C19", "C32", "C33", "C38", "C42"}) == "end"
    assert family_of({"P5", "C1", "C35", "C24"}) == "turn_order"
    assert family_of(set()) == "queries" and family_of(set(), fallback="crashes") == "crashes"


# ---- the sweeps (slow) -----------------------------------------------------------------------------------------
READINGS = sorted(p.name for p in (SUBMISSIONS / "readings").iterdir() if (p / "Palace.c").is_file())
MEMORY_ONLY = {"destroy_leaks_burnt", "use_after_free"}  # mutants.py: caught_by="memory" (no memory stage here)
MUTANTS = sorted(p.name for p in (SUBMISSIONS / "mutants").iterdir()
                 if (p / "Palace.c").is_file() and p.name not in MEMORY_ONLY)


@pytest.mark.slow
@pytest.mark.parametrize("name", READINGS)
def test_every_accepted_reading_gets_full_marks_with_every_stage(name: str) -> None:
    result = grade(SUBMISSIONS / "readings" / name, game=GAME, own_tests=False)  # 40 games, the memory stage
    assert (result.score, result.max_score) == (100.0, 100.0), failures(result)


@pytest.mark.slow
@pytest.mark.parametrize("name", MUTANTS)
def test_every_mutant_is_graded_by_family_without_a_grader_error(name: str) -> None:
    result = graded(SUBMISSIONS / "mutants" / name, random_games=10)
    assert result.score < 90 and not [t for t in result.tests if t.verdict is Verdict.ERROR], failures(result)
    assert len(random_tests(result)) == len(FAMILIES)
    charged = [t for t in random_tests(result).values() if t.verdict.family == "fail"]
    assert all(t.rule_family == t.id.split("/")[1] and not t.charged_to for t in charged)
