"""The memory stage marks for evidence, and charges each bug once (issue 31, items 4 and 7).

Each scenario is replayed as far as its scenario test played it, with the probes that test left out
left out; a crash or hang its test was already charged for is not charged again; only replays that
made a move count; a submission none of whose replays made a move earns no memory marks.  Memory
never written reads the same wrong bytes in every run (never zeros), and valgrind's reports of it
are memory errors.
"""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from grader.core import memcheck
from grader.core.config import MarkingConfig
from grader.core.grade import grade
from grader.core.memcheck import Plan, parse_report, plan_of
from grader.core.results import TestResult as Result
from grader.core.results import Verdict
from grader.games.fcd18s2.memcheck import run_memory_stage
from grader.games.fcd18s2.scenarios import load_scenarios
from grader.games.fcd18s2.session import Fcd18Session as FcdSession

ROOT = Path(__file__).resolve().parents[3]
SUBMISSIONS = ROOT / "fixtures" / "submissions"
SCENARIOS = {s.id: s for s in load_scenarios()}
# One CPU second a game (two a replay), and a wall limit far beyond it: a busy machine changes no verdict.
STEADY = {"cpu": 1, "wall": 30.0}
VALGRIND = {"cpu": 5, "wall": 30.0}  # valgrind starts slowly: ten CPU seconds a replay
UNINITIALISED = SUBMISSIONS / "mutants" / "new_game_malloc_uninitialised"
sys.path.insert(0, str(SUBMISSIONS))
from mutants import MUTANTS  # noqa: E402


def edit(folder: Path, find: str, replace: str) -> Path:
    path = folder / "Game.c"
    text = path.read_text()
    assert text.count(find) == 1, find
    path.write_text(text.replace(find, replace))
    return folder


# isValidMove(DRAW_CARD) looks at the card under the top discard without asking whether there is one:
# cardValue(NULL) crashes whenever the discard pile holds a single card -- right after newGame in every game.
NULL_UNDER_THE_TOP = (
    "    if (move.action == DRAW_CARD) {\n        if (game->playedThisTurn) {",
    "    if (move.action == DRAW_CARD) {\n"
    "        Card under = getDiscardPileCard(game, 1);  /* was the 2 on top played on another 2? */\n"
    "        if (cardValue(under) == DRAW_TWO && game->activeTwos == 0) {\n            return FALSE;\n        }\n"
    "        if (game->playedThisTurn) {",
)


def test_one_null_dereference_in_is_valid_move_draw_costs_no_memory_marks(model_copy: Path) -> None:
    """The issue's case: one NULL dereference in isValidMove(DRAW_CARD), charged in the scenarios that judge
    that answer (CRASHED), left out of the others (they pass).  Once every replay made the grader's calls
    regardless and crashed in it, so the memory marks were 0 ("0 of 139 replays ran").  Now the replays
    leave the probe out where their tests did, the crashed scenarios' replays are not charged again, and
    every other replay runs clean: all the memory marks (10 of 10 in the default grading)."""
    edit(model_copy, *NULL_UNDER_THE_TOP)
    scenarios = [s for s in SCENARIOS.values() if s.group in ("turns", "deal")]
    with FcdSession.open(model_copy, limits=STEADY) as session:
        played = [(s, session.run_scenario(s)) for s in scenarios]
        crashed = [s.id for s, t in played if t.verdict is Verdict.CRASHED]
        spared = [(s, t) for s, t in played if t.verdict is not Verdict.CRASHED]
        assert crashed and spared, [(t.id, t.verdict) for _s, t in played]
        assert all(t.verdict.family != "fail" for _s, t in spared), [(t.id, t.verdict, t.message) for _s, t in spared]
        assert all("valid_draw" in t.skipped_probes for s, t in spared if s.moves), \
            [t.skipped_probes for _s, t in spared]
        errors, leaks = run_memory_stage(session, played)
        # the same scenarios replayed as before this change (every call the grader can make, no plan): none runs
        before, _ = run_memory_stage(session, scenarios)
    counted = len([s for s, _t in spared if s.moves])  # a scenario of no moves shows nothing either way
    for t in (errors, leaks):
        assert t.verdict is Verdict.PASSED and t.earns_marks == 1.0, (t.id, t.message, t.notes)
        assert f"{counted} of {counted} scenario replays ran to the end" in t.notes[0], t.notes
        assert f"{len(crashed)} replay(s) not counted either way" in t.notes[1], t.notes
        assert f"{crashed[0]}: crashed, where its scenario test was already charged (crashed)" in t.notes[1]
    assert before.earns_marks == 0.0, before.message


def result(verdict: Verdict, played_moves: int | None = None, forced_at: int | None = None,
           skipped: tuple[str, ...] = ()) -> Result:
    t = Result("turns/x", "turns", ("R4",), 1.0, verdict, skipped_probes=list(skipped))
    t.played_moves, t.forced_at = played_moves, forced_at
    return t


def test_each_replay_is_planned_from_its_scenario_test() -> None:
    """As far as the test played with the submission's agreement, the probes it left out, what it was charged."""
    s = SCENARIOS["turns/num_turns_is_current_turn_plus_one"]  # 10 moves
    assert len(s.moves) == 10
    assert plan_of((s, result(Verdict.PASSED))) == Plan(s, 10)
    assert plan_of((s, result(Verdict.PASSED, skipped=("valid_draw",)))) == Plan(s, 10, frozenset({"valid_draw"}))
    # refused at move 3 (index 2) and made anyway: undefined from there (A28), so the replay makes 2 moves
    assert plan_of((s, result(Verdict.WRONG, forced_at=2))) == Plan(s, 2, failed=True)
    assert plan_of((s, result(Verdict.WRONG, played_moves=5, forced_at=7))) == Plan(s, 5, failed=True)
    assert plan_of((s, result(Verdict.CRASHED, played_moves=3))) == Plan(s, 3, failed=True, charged="crashed")
    # a crash charged where it is not known how far the game got: replayed with no plan (it will crash again,
    # not counted); a hang so: not replayed at all (meeting it again costs a time limit)
    assert plan_of((s, result(Verdict.CRASHED))) == Plan(s, None, failed=True, charged="crashed")
    assert plan_of((s, result(Verdict.TIMED_OUT))).replayed is False
    assert plan_of((s, result(Verdict.TIMED_OUT, played_moves=4))) == Plan(s, 4, failed=True, charged="timed out")
    assert plan_of((s, result(Verdict.NOT_SHOWN))) == Plan(s, 10)
    assert plan_of(s) == Plan(s)


def test_a_replay_stops_where_its_scenario_test_stopped(model_copy: Path) -> None:
    """playMove crashes at the second END_TURN of a game (move 4 of "5RH end 5BH end ..."): the scenario test
    is charged the crash after 3 moves made.  Its replay makes those 3 moves and runs clean (evidence: the
    memory marks); replayed to its end, with no plan, the same scenario crashes and earns nothing."""
    edit(model_copy, "void playMove(Game game, playerMove move) {\n",
         "void playMove(Game game, playerMove move) {\n"
         "    if (move.action == END_TURN && game->turn == 1) {\n        *(volatile int *)0 = 1;\n    }\n")
    scenario = SCENARIOS["turns/num_turns_is_current_turn_plus_one"]  # 5RH end 5BH end 5YH end 5GH end draw end
    with FcdSession.open(model_copy, limits=STEADY) as session:
        result = session.run_scenario(scenario)
        assert result.verdict is Verdict.CRASHED and result.played_moves == 3, (result.verdict, result.message)
        errors, _ = run_memory_stage(session, [(scenario, result)])
        alone, _ = run_memory_stage(session, [scenario])
    assert errors.verdict is Verdict.PASSED and errors.earns_marks == 1.0, errors.message
    assert "1 of 1 scenario replays ran to the end" in errors.notes[0]
    assert alone.verdict is Verdict.WRONG and alone.earns_marks == 0.0
    assert f"{scenario.id}: crashed" in alone.message


def test_a_new_game_that_returns_null_earns_no_memory_marks(model_copy: Path) -> None:
    """No game, no evidence: newGame returns NULL for every deck, so no replay makes a move, and the memory
    group earns 0 of its 10 marks (both tests NOT_SHOWN, earning nothing)."""
    edit(model_copy, "    if (deckSize <= DEALT || values == NULL", "    if (deckSize > 0 || values == NULL")
    scenarios = [s for s in SCENARIOS.values() if s.group == "turns"]
    result = grade(model_copy, MarkingConfig.load(), scenarios=scenarios, random_games=0, own_tests=False)
    memory = {t.id: t for t in result.tests if t.kind == "memory"}
    assert set(memory) == {"memory/no_memory_errors", "memory/no_leaks"}
    for t in memory.values():
        assert t.verdict is Verdict.NOT_SHOWN and t.earns_marks == 0.0, (t.id, t.verdict, t.message)
        assert "No scenario replay made a move" in t.message
        assert "no game (newGame returned NULL)" in t.message
    group = next(g for g in result.groups if g.group == "memory")
    assert (group.marks, group.max_marks) == (0.0, 10.0)


def test_a_replay_is_limited_by_its_cpu_time_not_by_the_clock(model_copy: Path) -> None:
    """A replay that takes long in real time but little CPU (here it sleeps 3 s in destroyGame; on a busy
    machine it would be waiting for a core) is not cut: the limit is 2 CPU seconds, the wall clock only a
    far backstop (20 s).  Once the limit was 2 s of wall time, and this replay timed out."""
    edit(model_copy, "    free(game->discardTurns);\n    free(game);",
         "    if (game->discardPile.size > 1) {\n        usleep(3000000);\n    }\n"
         "    free(game->discardTurns);\n    free(game);")
    (model_copy / "Game.c").write_text("#include <unistd.h>\n" + (model_copy / "Game.c").read_text())
    with FcdSession.open(model_copy, limits=STEADY) as session:
        errors, _ = run_memory_stage(session, [SCENARIOS["turns/play_then_end"]])  # 5RH end: two discards
    assert errors.verdict is Verdict.PASSED and errors.earns_marks == 1.0, errors.message
    assert "1 of 1 scenario replays ran to the end" in errors.notes[0]
    assert "2 s of CPU time per replay" in errors.notes[0]
    assert memcheck.wall_backstop(2) == 20


def mutant_grade(folder: str) -> tuple[float, dict[str, float], list[tuple[str, str, str]]]:
    result = grade(Path(folder), MarkingConfig.load())
    return (result.score, {g.group: round(g.marks, 4) for g in result.groups},
            [(t.id, t.verdict.value, t.message) for t in result.tests if t.verdict is not Verdict.PASSED])


def test_the_uninitialised_mutant_loses_marks_the_same_way_every_run() -> None:
    """newGame mallocs its game and never zeroes the suit, colour and value totals.  With the worker's malloc
    filling new memory with 0xa5 bytes, each total starts at 0xa5a5a5a5 (-1515870811): numOfSuit of a suit
    with 7 cards is -1515870804 in every run.  Under the default grading (every stage) it loses marks in the
    group that owns the counts (deal, A37), the same in two runs; with zero-filled memory it got 100/100."""
    mutant = next(m for m in MUTANTS if m.name == "new_game_malloc_uninitialised")
    assert mutant.rules == ("A37",) and mutant.caught_by == "scenarios"
    with ProcessPoolExecutor(max_workers=2) as pool:
        first, second = pool.map(mutant_grade, [str(UNINITIALISED)] * 2)
    assert first == second
    score, groups, not_passed = first
    assert score < 100 and groups["deal"] < 6, (score, groups)
    assert groups["memory"] == 10  # AddressSanitizer does not see uninitialised reads: charged once, in deal
    wrong = [m for _id, verdict, m in not_passed if verdict == "wrong result" and _id.startswith("deal/")]
    assert wrong and all("got:      -1515870804" in m for m in wrong if "numOfSuit" in m), wrong


VALGRIND_UNINITIALISED = """@@ newGame
@@ the queries after newGame
==12== Conditional jump or move depends on uninitialised value(s)
==12==    at 0x10A2B3: touch (memdriver.c:431)
==12==    by 0x10A4C1: replay (memdriver.c:470)
@@ move 1: playMove(5RH)
@@ end
"""
VALGRIND_USE = """@@ newGame
@@ the queries after newGame
@@ move 1: playMove(5RH)
==12== Use of uninitialised value of size 8
==12==    at 0x48A1B2: numTurns (Game.c:160)
==12==    by 0x10A2B3: see (memdriver.c:180)
@@ end
"""
VALGRIND_SEGV = """@@ newGame
@@ the queries after newGame
==12== Invalid read of size 4
==12==    at 0x48A1B2: cardValue (Card.c:20)
==12== Process terminating with default action of signal 11 (SIGSEGV)
"""


def test_valgrind_reports_of_uninitialised_values_are_memory_errors() -> None:
    (jump,) = parse_report("s/a", VALGRIND_UNINITIALISED, "valgrind")
    assert (jump.kind, jump.call) == ("error", "the queries after newGame")
    assert jump.what == "use of an uninitialised value (memory read before it was ever written)"
    (use,) = parse_report("s/b", VALGRIND_USE, "valgrind")
    assert (use.call, use.frames) == ("move 1: playMove(5RH)", ["numTurns (Game.c:160)"])
    assert parse_report("s/c", VALGRIND_SEGV, "valgrind") == []  # a plain crash: the replay did not run


def test_under_valgrind_an_answer_read_from_memory_never_written_is_a_memory_error(
        model_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the compiler has no sanitizers the stage runs valgrind: numTurns here returns an int read from a
    fresh malloc (valgrind's malloc leaves it undefined); the replay's check of what the queries answered
    makes valgrind report it, in the queries after newGame, in a scenario whose test passed: a memory error.
    The model under valgrind has none."""
    monkeypatch.setattr(memcheck, "_sanitizers_work", lambda _work: False)
    scenario = SCENARIOS["turns/play_then_end"]
    with FcdSession.open(SUBMISSIONS / "model", limits=VALGRIND) as session:
        clean, _ = run_memory_stage(session, [scenario])
    assert clean.verdict is Verdict.PASSED and "backend: valgrind; 1 of 1" in clean.notes[0], clean.message
    edit(model_copy, "int numTurns(Game game) {\n    return game->turn + 1;\n}",
         "int numTurns(Game game) {\n    int *scratch = malloc(64 * sizeof(int));\n    int stale = scratch[5];\n"
         "    free(scratch);\n    return game->turn + 1 + stale;\n}")
    with FcdSession.open(model_copy, limits=VALGRIND) as session:
        errors, leaks = run_memory_stage(session, [Plan(scenario)])
    assert errors.verdict is Verdict.WRONG, (errors.message, errors.notes)
    assert (f"{scenario.id}: the queries after newGame: use of an uninitialised value (memory read before it was "
            "ever written)") in errors.message
    assert leaks.verdict is Verdict.PASSED
