"""Palace's random family tests reproduce (principle 4): a failing ``random/<family>`` test carries its shortest game,
cut after the difference, as a scenario (``TestResult.repro``, ``repro.random_scenario``) and gets a C program
(``repro_random_<family>.c``) that, built with the submission it failed on, fails exactly where the grader failed --
``FAILED after move N`` with N the test's ``failed_after``, naming the C function of the difference -- and, built
with the model or with any accepted reading held to it, passes: a library taking another reading of a switch
(C9, C14, C15, C21) plays other random games, and is held to a program whose game the reference plays alike under
its switches' every reading (``_held_to``).

The random games are played as the stage plays them (``run_random_games`` on the submission's session, under the
reference's readings, no family charged by a scenario first, so each mutant shows the families its games catch).
In CI: a few mutants on their first games (the differences of a state value, of a battery answer, of a malformed
question and of a move the game refuses); every mutant on the grading profile's 40 games, with every reading, is
``-m slow``.
"""

from __future__ import annotations

import importlib.util
import itertools
import re
import tomllib
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest
from broken import edited
from reproducing import Outcome, compile_programs, link_with, run_program

from grader.core.results import TestResult as Judged  # a name pytest does not collect
from grader.core.results import Verdict
from grader.games.palace.random_games import run_random_games
from grader.games.palace.repro import write_repros
from grader.games.palace.sandbox.interface import INCLUDE_DIR
from grader.games.palace.sandbox.observe import Observer
from grader.games.palace.session import PalaceSession
from reference.palace import REFERENCE, SWITCHES, Game, GameError, Setup, parse_moves

ROOT = Path(__file__).resolve().parents[3]
SUBMISSIONS = ROOT / "fixtures" / "palace" / "submissions"
MODEL = SUBMISSIONS / "model"
READINGS = sorted(p for p in (SUBMISSIONS / "readings").iterdir() if (p / "Palace.c").is_file())
MUTANTS = sorted(p.name for p in (SUBMISSIONS / "mutants").iterdir() if (p / "Palace.c").is_file())


def _reading_rules() -> dict[str, tuple[str, ...]]:
    """Each reading's rulings (fixtures/palace/submissions/readings.py)."""
    spec = importlib.util.spec_from_file_location("palace_readings_random_repro", SUBMISSIONS / "readings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {r.name: tuple(r.rules) for r in module.READINGS}


READING_RULES = _reading_rules()
FOUND = {ruling: frozenset({REFERENCE.of(ruling)}) for ruling in SWITCHES}  # the reference's readings only
# mutant -> random games played in CI: each fails a family within them (its kind of difference in the comment)
FAST = {"strict_greater": 4,  # a battery answer (isValidMove(play:6H#..) FALSE, expected TRUE)
        "seven_lasts_two_plays": 9,  # a move its isValidMove refuses, and sevenRestriction()
        "draw_pile_upside_down": 2,  # the draw pile's cards (getDeckCard)
        "choose_any_count": 11}  # a malformed choice of four cards answered TRUE


def _failures(name: str, games: int) -> list[Judged]:
    """The failing random family tests of one mutant, its first ``games`` games played as the stage plays them."""
    with PalaceSession.open(SUBMISSIONS / "mutants" / name) as session:
        return [t for t in run_random_games(session, games, FOUND, {}) if t.verdict.family == "fail"]


def _held_to(t: Judged, folder: Path) -> bool:
    """Is a reading's library held to this test's program?  Its game was played under the reference's readings
    (the readings found in the mutant); a library taking another reading of a switch (C9, C14, C15, C21) is held to
    it where the reference plays that game alike under every reading of its switches: every move valid, the same
    state after each, and the same observation (isValidMove's answers too) where the program checks it."""
    rulings = sorted(set(READING_RULES[folder.name]) & set(SWITCHES))
    if not rulings:
        return True
    raw = tomllib.loads(t.repro or "")["scenario"][0]
    setup, moves = Setup.parse(raw["setup"]), parse_moves(raw["moves"])
    seen = set()
    for combo in itertools.product(*([(r, x) for x in SWITCHES[r][1]] for r in rulings)):
        game = Game(setup, REFERENCE.with_(**dict(combo)))
        observer = Observer(game, setup.n_players, setup.n_cards)
        shots = [observer.observe()]
        for spec in moves:
            try:
                move = game.resolve(spec)
            except GameError:  # its card is not where the move takes it from, under this reading
                return False
            if not game.is_valid_move(move):
                return False
            game.play_move(move)
            shots.append(game.snapshot())
        shots.append(observer.observe())
        seen.add(repr(shots))
    return len(seen) == 1


def _sources(folder: Path) -> list[Path]:
    card = folder / "PalaceCard.c"
    return [folder / "Palace.c", card if card.is_file() else INCLUDE_DIR / "PalaceCard.c"]


def _shown(t: Judged, outcome: Outcome) -> str:
    """'' when the program's run shows the test's failure; else what it should have shown."""
    if t.verdict is Verdict.CRASHED:
        return "" if outcome.crashed else "CRASHED"
    if t.verdict is Verdict.TIMED_OUT:
        return "" if outcome.hung else "DID NOT RETURN"
    what = str(t.difference["what"]) if t.difference is not None else ""
    call = re.search(r"(\w+)\(", what)  # the C function the difference names
    if outcome.failed_after == t.failed_after and call is not None and f"{call.group(1)}(" in outcome.text:
        return ""
    return f"FAILED after move {t.failed_after}: {what}"


def check_random_repros(games: dict[str, int], tmp_path: Path, readings: list[Path]) -> dict[str, int]:
    """Each mutant's failing random family tests, their programs written; each program run on its mutant (failing
    where the grader failed), on the model and on each of ``readings`` (passing).  Some numbers back."""
    with ProcessPoolExecutor(max_workers=2) as pool:
        judged = dict(zip(games, pool.map(_failures, games, games.values())))
    programs: list[tuple[str, Judged, Path]] = []  # (mutant, test, program)
    for name, failing in judged.items():
        folder = tmp_path / "repro" / name
        files = write_repros(SimpleNamespace(tests=failing), folder)
        with_program = [t for t in failing if t.repro]
        assert sorted(files) == sorted(t.id for t in with_program), name  # a program for each scenario written
        for t in with_program:
            scenario = tomllib.loads(t.repro or "")["scenario"][0]
            assert scenario["id"] == "random_" + t.id.split("/")[1]
            assert len(scenario["moves"].split()) >= (t.failed_after or 0)  # the game, up to its difference
            programs.append((name, t, folder / files[t.id]))
    assert programs, "no random family failed on these mutants"
    objects = compile_programs([p for _n, _t, p in programs], INCLUDE_DIR, tmp_path / "objects")
    *each, dispatch = objects

    def exe(folder: Path, chosen: list[int]) -> Path:
        out = tmp_path / "exe" / f"{folder.parent.name}_{folder.name}"
        out.parent.mkdir(parents=True, exist_ok=True)
        return link_with([each[i] for i in chosen] + [dispatch], _sources(folder), INCLUDE_DIR, out)

    # the mutant's own programs fail where its tests failed; the model and the readings pass every program
    # that gives newGame the deck itself (a program around a wrong deal is its submission's alone)
    runs: list[tuple[Path, int, Judged | None]] = []
    for name in judged:
        runs += [(SUBMISSIONS / "mutants" / name, i, t) for i, (n, t, _p) in enumerate(programs) if n == name]
    shared = [i for i, (_n, t, _p) in enumerate(programs) if not t.dealt_as]
    runs += [(MODEL, i, None) for i in shared]
    runs += [(folder, i, None) for folder in readings for i in shared if _held_to(programs[i][1], folder)]
    folders = list(dict.fromkeys(folder for folder, _i, _t in runs))
    with ThreadPoolExecutor(2) as pool:
        exes = dict(zip(folders, pool.map(lambda f: exe(f, sorted({i for g, i, _t in runs if g == f})), folders)))
    with ThreadPoolExecutor(2) as pool:
        outcomes = list(pool.map(lambda run: run_program(exes[run[0]], run[1]), runs))
    wrong = []
    for (folder, i, t), outcome in zip(runs, outcomes):
        want = _shown(t, outcome) if t is not None else ("" if outcome.passed else "passed")
        if want:
            wrong.append(f"{folder.name} {programs[i][1].id} (of {programs[i][0]}): expected {want}, the program "
                         f"said:\n{outcome.text}")
    assert not wrong, f"{len(wrong)} of {len(runs)} runs do not show what the grader showed:\n" + "\n".join(wrong[:40])
    failing = sum(len(f) for f in judged.values())
    return {"failing tests": failing, "programs": len(programs), "runs": len(runs)}


def test_a_failing_random_family_reproduces_where_the_grader_failed(tmp_path: Path) -> None:
    """A few mutants: every failing random family test whose difference a scenario states gets a program that fails
    where the test failed, naming its C function, and passes on the model."""
    numbers = check_random_repros(FAST, tmp_path, [])
    assert numbers == {"failing tests": 6, "programs": 6, "runs": 12}, numbers


@pytest.mark.slow
def test_every_mutant_s_random_failures_reproduce_and_pass_on_every_reading(tmp_path: Path) -> None:
    """Every mutant on the grading profile's 40 games; every program passes on the model and on every reading."""
    numbers = check_random_repros({name: 40 for name in MUTANTS}, tmp_path, READINGS)
    assert numbers["programs"] >= 40, numbers


# ---- a crash, built from the model ------------------------------------------------------------------------------
def test_a_crash_in_a_random_game_stops_the_program_and_names_the_call(tmp_path: Path) -> None:
    """A library that crashes in currentTurn() once two moves were made fails the random games' crash family, and
    that test's program crashes there too, naming currentTurn(); built with the model, it plays the game through."""
    crash = edited(MODEL, tmp_path / "crash", [
        ('#include "Palace.h"\n', "static int fcdMoves;\n"),
        ("void playMove(Game game, playerMove move) {\n", "    fcdMoves++;\n"),
        ("int currentTurn(Game game) {\n", "    if (fcdMoves >= 2) { volatile int *p = 0; *p = 1; }\n")], "Palace.c")
    with PalaceSession.open(crash, limits={"cpu": 1, "wall": 2.0}) as session:
        failing = [t for t in run_random_games(session, 1, FOUND, {}) if t.verdict.family == "fail"]
    assert [(t.id, t.verdict) for t in failing] == [("random/crashes", Verdict.CRASHED)]
    files = write_repros(SimpleNamespace(tests=failing), tmp_path / "repro")
    objects = compile_programs([tmp_path / "repro" / files["random/crashes"]], INCLUDE_DIR, tmp_path / "objects")
    outcome = run_program(link_with(objects, _sources(crash), INCLUDE_DIR, tmp_path / "crashing"), 0)
    assert outcome.crashed and outcome.code == 2, outcome
    assert "CRASHED (signal 11) in currentTurn(), after move 2" in outcome.text, outcome
    outcome = run_program(link_with(objects, _sources(MODEL), INCLUDE_DIR, tmp_path / "model"), 0)
    assert outcome.passed, outcome
