"""Palace graded end to end: ``grade(folder, game=get("palace"))`` and ``fcd-grade --game palace``.

The model (fixtures/palace/submissions/model) gets 100/100; so does every accepted reading
(fixtures/palace/submissions/readings: the probes find the LENIENT (switch) reading it follows and the
random games hold it to that one, the other LENIENT rulings are accepted as they come), every random game
family (``random/<family>``) passing.  Every mutant (fixtures/palace/submissions/mutants, one realistic bug
each; those only the memory stage can see are left out) loses marks, and is charged at most 2 of them outside
the groups whose scenarios name one of its rules (collateral: one bug, one deduction; the random games count as
outside).  Marks not shown -- a test another test's difference hid earns only what it saw -- are neither
charged nor paid, and are not collateral.  A submission that does not compile fails its build and nothing
else runs; one that crashes in playMove gets a crash pinned on it.

Every folder is graded once, two at a time, with few random games (the grading profile plays 40).
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from grader.core.grade import grade
from grader.core.results import Verdict
from grader.games import get
from grader.games.palace.families import FAMILIES

ROOT = Path(__file__).resolve().parents[3]
SUBMISSIONS = ROOT / "fixtures" / "palace" / "submissions"
MODEL = SUBMISSIONS / "model"
GAME = get("palace")
RANDOM_GAMES = {"model": 4, "readings": 3, "mutants": 1}  # random games per submission here


def _load_table(name: str) -> tuple[Any, ...]:
    """The mutants' or the readings' table (fixtures/palace/submissions/<name>.py)."""
    path = SUBMISSIONS / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"palace_{name}_table", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return tuple(getattr(module, name.upper()))


ALL_MUTANTS = {m.name: m for m in _load_table("mutants")}
MUTANTS = {name: m for name, m in ALL_MUTANTS.items() if m.caught_by != "memory"}
MEMORY_MUTANTS = sorted(name for name, m in ALL_MUTANTS.items() if m.caught_by == "memory")
READINGS = sorted(r.name for r in _load_table("readings"))
SCENARIOS = GAME.load_scenarios()


def _summary(folder: str, random_games: int, memory: bool) -> dict[str, Any]:
    """What the tests below need of one grading (plain data: it crosses a process boundary)."""
    result = grade(Path(folder), game=GAME, random_games=random_games, memory=memory, own_tests=False)
    return {"score": result.score, "max": result.max_score, "status": result.status,
            "groups": {g.group: (g.marks, g.max_marks) for g in result.groups},
            "not_shown": result.marks_not_shown(),
            "tests": [{"id": t.id, "group": t.group, "verdict": t.verdict.value, "charged_to": t.charged_to,
                       "message": t.message, "kind": t.kind} for t in result.tests]}


@pytest.fixture(scope="module")
def graded() -> dict[str, dict[str, Any]]:
    """Every folder of the fixtures, graded once: "model", "readings/<name>", "mutants/<name>"."""
    jobs = [("model", str(MODEL), RANDOM_GAMES["model"], True)]  # the memory stage where it can cost marks
    jobs += [(f"readings/{n}", str(SUBMISSIONS / "readings" / n), RANDOM_GAMES["readings"], True) for n in READINGS]
    jobs += [(f"mutants/{n}", str(SUBMISSIONS / "mutants" / n), RANDOM_GAMES["mutants"], n in MEMORY_MUTANTS)
             for n in ALL_MUTANTS]
    with ProcessPoolExecutor(max_workers=2) as pool:
        found = list(pool.map(_summary, *zip(*[j[1:] for j in jobs])))
    return {job[0]: summary for job, summary in zip(jobs, found)}


def _failures(summary: dict[str, Any]) -> list[str]:
    return [f"{t['id']} [{t['verdict']}]: {t['message'][-600:]}" for t in summary["tests"]
            if t["verdict"] != "passed"]


def test_the_model_gets_full_marks(graded: dict[str, dict[str, Any]]) -> None:
    model = graded["model"]
    assert (model["score"], model["max"], model["status"]) == (100.0, 100.0, "passed"), _failures(model)
    assert len([t for t in model["tests"] if t["kind"] == "scenario"]) == len(SCENARIOS)
    random = {t["id"]: t["verdict"] for t in model["tests"] if t["kind"] == "random"}
    assert random == {f"random/{family}": "passed" for family in FAMILIES}


@pytest.mark.parametrize("name", READINGS)
def test_every_accepted_reading_gets_full_marks(name: str, graded: dict[str, dict[str, Any]]) -> None:
    summary = graded[f"readings/{name}"]
    assert (summary["score"], summary["max"]) == (100.0, 100.0), _failures(summary)


def _own_groups(rules: tuple[str, ...]) -> set[str]:
    """The groups with a scenario that names one of these rules."""
    return {s.group for s in SCENARIOS if set(rules) & set(s.rules)}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_every_mutant_loses_marks_and_at_most_2_outside_its_rules(name: str,
                                                                  graded: dict[str, dict[str, Any]]) -> None:
    summary = graded[f"mutants/{name}"]
    own = _own_groups(MUTANTS[name].rules)
    lost = {g: mx - mk for g, (mk, mx) in summary["groups"].items() if mx - mk > 1e-9}
    charged = {g: v - summary["not_shown"].get(g, 0.0) for g, v in lost.items()}
    collateral = {g: round(v, 2) for g, v in charged.items() if g not in own and v > 0.01}
    assert lost, f"{name} ({', '.join(MUTANTS[name].rules)}) lost no marks"
    assert set(lost) & own, f"{name}: lost {lost}, none in its own groups {sorted(own)}"
    assert sum(collateral.values()) <= 2 + 1e-9, f"{name}: collateral {collateral} (own groups {sorted(own)})"
    assert not [t for t in summary["tests"] if t["verdict"] == "grader error"], _failures(summary)


def test_handing_out_copies_of_hand_cards_fails_the_one_card_test_only(graded: dict[str, dict[str, Any]]) -> None:
    """hand_card_copies (handCard gives a new Card each call, C4): the grader takes a move's cards from the hand as
    the game runner reads it (getHandCard(currentPlayer(), n)), so every scenario is still played; the one scenario
    failed is C4's own (its handCard(n) against getHandCard), and the random games' queries family (C4's) is
    judged around it.  Before, every move found no card of its own: 8/100."""
    summary = graded["mutants/hand_card_copies"]
    failed = {t["id"] for t in summary["tests"] if t["kind"] == "scenario" and t["verdict"] != "passed"}
    assert failed == {"queries/a_card_is_one_card_wherever_it_is_read"}, _failures(summary)
    lost = {g for g, (mk, mx) in summary["groups"].items() if mx - mk > 1e-9}
    assert lost == {"queries", "random_games"}, lost
    random = {t["id"]: t["verdict"] for t in summary["tests"] if t["kind"] == "random" and t["verdict"] != "passed"}
    assert random == {"random/queries": "not shown"}, random


@pytest.mark.parametrize("name", MEMORY_MUTANTS)
def test_a_memory_bug_costs_the_memory_marks(name: str, graded: dict[str, dict[str, Any]]) -> None:
    """destroyGame leaking the burnt cards, or a use after free: caught by the sanitizers (I11)."""
    summary = graded[f"mutants/{name}"]
    marks, most = summary["groups"]["memory"]
    assert most == 10 and marks <= 5, _failures(summary)
    failed = {t["id"] for t in summary["tests"] if t["group"] == "memory" and t["verdict"] != "passed"}
    assert failed == {"memory/no_leaks" if name == "destroy_leaks_burnt" else "memory/no_memory_errors"}


def test_fcd_grade_game_palace_grades_and_reports(tmp_path: Path) -> None:
    """``fcd-grade --game palace DIR --out OUT``: the model, its reports, exit code 0."""
    from grader.core.cli import main  # noqa: PLC0415

    out = tmp_path / "report"
    code = main(["--game", "palace", str(MODEL), "--out", str(out), "--random-games", "1", "--no-memory",
                 "--no-tests", "--quiet"])
    assert code == 0
    result = json.loads((out / "result.json").read_text())
    assert (result["score"], result["max_score"], result["game"]) == (90.0, 90.0, "Palace")  # no memory stage
    assert (out / "report.html").is_file() and (out / "junit.xml").is_file() and (out / "results.json").is_file()


def test_a_submission_that_does_not_compile_fails_its_build_and_runs_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "Palace.c").write_text('#include "Palace.h"\nint numPlayers(Game game) { return 2 }\n')
    result = grade(folder, game=GAME, random_games=1, memory=False, own_tests=False)
    by_id = {t.id: t for t in result.tests}
    assert not result.build_ok and result.status == "build failed"
    assert by_id["build/compiles"].verdict is Verdict.WRONG
    later = [t for t in result.tests if t.id != "build/compiles"]
    assert later and all(t.verdict is Verdict.NOT_RUN for t in later), [(t.id, t.verdict) for t in later]
    assert result.score == 0.0


def test_a_crash_in_play_move_is_a_crash_pinned_on_play_move(tmp_path: Path) -> None:
    folder = tmp_path / "hostile"
    folder.mkdir()
    shutil.copy(MODEL / "PalaceCard.c", folder / "PalaceCard.c")
    source = (MODEL / "Palace.c").read_text()
    head = "void playMove(Game game, playerMove move) {\n"
    assert source.count(head) == 1
    (folder / "Palace.c").write_text(source.replace(head, head + "    *(volatile int *)0 = 1;  /* a segfault */\n"))
    result = grade(folder, game=GAME, random_games=1, memory=False, own_tests=False)
    crashed = [t for t in result.tests if t.verdict is Verdict.CRASHED]
    assert result.build_ok and crashed
    assert all("playMove" in t.message and "segmentation fault" in t.message for t in crashed), crashed[0].message
    playing = {f"{s.group}/{s.id}" for s in SCENARIOS if s.moves}  # every scenario that makes a move
    assert all(t.verdict is Verdict.CRASHED for t in result.tests if t.id in playing)
    assert result.score < 20


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))


def _reference_observations(probe: Any, readings: Any) -> tuple[list[Any], dict[int, list[Any]]]:
    """What a library following ``readings`` would send for a stage probe: the reference, observed as the worker
    observes a library, and its answers to the probe's questions."""
    import orjson  # noqa: PLC0415

    from grader.games.palace.sandbox.observe import Observer  # noqa: PLC0415
    from reference.palace import Game  # noqa: PLC0415

    game = Game(probe.setup, readings)
    observer = Observer(game, probe.setup.n_players, probe.setup.n_cards)
    steps, answers = [], {}
    for k in range(len(probe.moves) + 1):
        steps.append(orjson.loads(orjson.dumps(observer.observe())))
        asked = [game.is_valid_move(game.resolve(spec)) for step, spec in probe.asks if step == k]
        if asked:
            answers[k] = asked
        if k < len(probe.moves):
            game.play_move(game.resolve(probe.moves[k]))
    return steps, answers


def test_the_stage_probes_tell_every_reading_apart() -> None:
    """§4.3: each of the stage's own probes finds exactly the reading of its switch, whatever the others are."""
    from grader.games.palace.stages import CODE_PROBES, detect  # noqa: PLC0415
    from reference.palace import Readings  # noqa: PLC0415

    assert sorted(p.ruling for p in CODE_PROBES) == ["C14", "C15", "C21", "C9"]
    for probe in CODE_PROBES:
        for readings in Readings.every():
            steps, answers = _reference_observations(probe, readings)
            assert detect(probe, steps, answers) == {readings.of(probe.ruling)}, (probe.name, str(readings))


def test_a_failed_scenario_gets_a_c_repro_that_fails_on_the_mutant_and_passes_on_the_model(tmp_path: Path) -> None:
    """``write_repros``: a C program that replays the scenario with newGame and playMove and checks what it
    expects; the README's one command builds it with a student's folder (the course headers over theirs)."""
    import subprocess  # noqa: PLC0415
    from types import SimpleNamespace  # noqa: PLC0415

    from grader.core.results import TestResult  # noqa: PLC0415

    scenario = next(s for s in SCENARIOS if s.group == "tens" and s.probe is None)
    failed = TestResult(f"{scenario.group}/{scenario.id}", scenario.group, scenario.rules, 1.0, Verdict.WRONG)
    files = GAME.write_repros(SimpleNamespace(tests=[failed]), tmp_path)
    assert list(files) == [failed.id] and (tmp_path / "Palace.h").is_file()
    exits = {}
    for name, folder in (("model", MODEL), ("mutant", SUBMISSIONS / "mutants" / "ten_passes_turn")):
        if not (folder / "Palace.c").is_file():
            continue
        run = subprocess.run(["sh", "build.sh", str(folder), files[failed.id]], cwd=tmp_path, capture_output=True,
                             text=True, timeout=120)
        assert "error" not in run.stderr, run.stderr  # it built: what it printed is the repro's
        exits[name] = run.returncode
    assert exits["model"] == 0 and exits.get("mutant", 1) != 0, exits
