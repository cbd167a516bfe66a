"""Fair marks: one bug costs the marks of its own rule, crashes are pinned on their call, no false passes.

Each test builds a small variant of the model (one realistic bug, one crash or
one hang, written into a scratch copy) and checks what the grader makes of it.
"""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from grader.core.cli import main as fcd_grade
from grader.core.memcheck import HANGS_BEFORE_GIVING_UP, MEMORY_CAP_MB, SHORT_RUN_SECONDS, Plan
from grader.core.results import Verdict
from grader.games.fcd.focus import focus_of
from grader.games.fcd.repro import c_program
from grader.games.fcd18s2.memcheck import run_memory_stage
from grader.games.fcd18s2.observations import TABLE
from grader.games.fcd18s2.repro import FCD18_REPRO
from grader.games.fcd18s2.scenarios import load_scenarios
from grader.games.fcd18s2.session import Fcd18Session as FcdSession

ROOT = Path(__file__).resolve().parents[3]
SUBMISSIONS = ROOT / "fixtures" / "submissions"
SCENARIOS = {s.id: s for s in load_scenarios()}
FAST = {"cpu": 1, "wall": 1.0}
# The memory tests: one CPU second a game (two a replay) and a wall limit far beyond it, so that a busy
# machine changes no verdict (the memory stage's own limits are CPU time).
STEADY = {"cpu": 1, "wall": 30.0}

# handCard(handCardCount()) hands back a pointer no card has: reading that card crashes (A27).
ONE_PAST_THE_END = (
    "    return fromBottom(&game->hands[game->player], card);",
    "    if (card == game->hands[game->player].size) {\n        return (Card)(unsigned long)8;\n    }\n"
    "    return fromBottom(&game->hands[game->player], card);",
)


def edit(folder: Path, find: str, replace: str, file: str = "Game.c") -> Path:
    path = folder / file
    text = path.read_text()
    assert text.count(find) == 1, find
    path.write_text(text.replace(find, replace))
    return folder


def test_a_crash_in_a_probe_is_charged_only_to_the_test_that_owns_it(model_copy: Path) -> None:
    edit(model_copy, *ONE_PAST_THE_END)
    owner = SCENARIOS["queries/hand_is_the_current_players"]  # its rules name A27: it owns handCard(count)
    other = SCENARIOS["skip/a_skips_player_1"]
    with FcdSession.open(model_copy) as session:
        charged = session.run_scenario(owner)
        spared = session.run_scenario(other)
    assert charged.verdict is Verdict.CRASHED
    assert "It happened in handCard(7) with 7 cards in hand right after newGame()" in charged.message
    assert spared.verdict is Verdict.PASSED, spared.message
    assert spared.skipped_probes == ["hand_end_null"]
    assert any("played again without it" in n and owner.id in n for n in spared.notes), spared.notes


@pytest.mark.parametrize("case", ["probe", "playMove", "freed"])
def test_the_repro_program_crashes_in_the_same_call(case: str, model_copy: Path, tmp_path: Path) -> None:
    """The message names the call in progress; the repro program makes the grader's calls in the same
    order, with the grader's malloc settings, so it crashes in that call and names it too."""
    if case == "probe":  # a crash in one of the grader's looks at the game (an observation call)
        folder, s, call = edit(model_copy, *ONE_PAST_THE_END), SCENARIOS["queries/hand_is_the_current_players"], \
            "handCard(7) with 7 cards in hand"
    elif case == "playMove":  # a crash inside a move: the hostile submission that dereferences NULL on a draw
        folder, s, call = SUBMISSIONS / "hostile" / "null_deref", SCENARIOS["turns/draw_then_end"], "playMove(draw)"
    else:  # recycling reads the top card from the array it has just freed: what it reads is the malloc's
        folder, s, call = SUBMISSIONS / "mutants" / "use_after_free_in_recycle", \
            SCENARIOS["recycling/recycled_pile_is_drawn_oldest_first"], "topDiscard()"
    with FcdSession.open(folder) as session:
        result = session.run_scenario(s)
    assert result.verdict is Verdict.CRASHED and f"It happened in {call}" in result.message, result.message
    work = tmp_path / "repro"
    work.mkdir()
    for name in ("Game.c", "Card.c"):
        (work / name).write_text((folder / name).read_text())
    for header in ("Game.h", "Card.h"):
        (work / header).write_text((ROOT / "grader" / "games" / "fcd18s2" / "include" / header).read_text())
    (work / "repro.c").write_text(c_program(s.id, s.says, s.rules, s.deck, s.moves, focus=focus_of(s.rules, TABLE),
                                            skipped=result.skipped_probes, fails_on=result.failed_on,
                                            dialect=FCD18_REPRO))
    subprocess.run(["gcc", "-std=gnu11", "-g", "-I.", "-o", "repro", "repro.c", "Game.c", "Card.c"], cwd=work,
                   check=True, capture_output=True)
    run = subprocess.run(["./repro"], cwd=work, capture_output=True, text=True, timeout=30, check=False)
    assert run.returncode != 0
    assert "CRASHED" in run.stdout and f"in {call}" in run.stdout, run.stdout


def test_a_grader_fault_is_an_error_with_exit_code_2(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import grader.games.fcd.session

    def broken(real):  # noqa: ANN001, ANN202 - the grader's expected traces, wrong for games of 3 moves
        def trace(deck, moves, *args):  # noqa: ANN001, ANN202
            if len(moves) == 3:
                raise RuntimeError("a bug in the grader")
            return real(deck, moves, *args)
        return trace

    for name in ("cached_reference_trace", "cached_packed_trace"):  # the full comparison's and the C observer's
        monkeypatch.setattr(grader.games.fcd.session, name, broken(getattr(grader.games.fcd.session, name)))
    out = tmp_path / "report"
    code = fcd_grade([str(SUBMISSIONS / "model"), "--out", str(out), "--random-games", "0", "--no-memory",
                      "--quiet"])
    assert code == 2
    junit = ET.parse(out / "junit.xml").getroot()
    errors = junit.findall(".//testcase/error")
    assert errors and not junit.findall(".//testcase/failure")
    assert "not in your code" in (errors[0].text or "") + (errors[0].get("message") or "")


def test_a_game_that_hangs_after_an_accepted_reading_is_followed_and_charged(tmp_path: Path) -> None:
    folder = tmp_path / "eager_then_hang"
    subprocess.run(["cp", "-r", str(SUBMISSIONS / "readings" / "a22_eager_recycling"), str(folder)], check=True)
    # Recycle eagerly (A22: accepted, and the reference follows that reading), then hang at the next END_TURN.
    edit(folder, "    if (game->drawPile.size == 0 && game->discardPile.size > 1) {\n        recycle(game);\n    }",
         "    if (game->drawPile.size == 0 && game->discardPile.size > 1) {\n        recycle(game);\n"
         "        fcdRecycled = 1;\n    }")
    edit(folder, "void playMove(Game game, playerMove move) {",
         "void playMove(Game game, playerMove move) {\n    while (fcdRecycled && move.action == END_TURN) {}")
    (folder / "Game.c").write_text("static volatile int fcdRecycled;\n" + (folder / "Game.c").read_text())
    with FcdSession.open(folder, limits=FAST) as session:
        results = [session.run_scenario(s) for s in SCENARIOS.values() if s.group == "recycling"]
        honest = FcdSession.open(SUBMISSIONS / "readings" / "a22_eager_recycling", limits=FAST)
        with honest:
            cut = [s for s in SCENARIOS.values() if s.group == "recycling"
                   and any("A22" in n for n in honest.run_scenario(s).notes)]
    assert cut, "no recycling scenario recycles eagerly in the reading"
    hung = [r for r in results if r.id in {s.id for s in cut}]
    assert hung and all(r.verdict is Verdict.TIMED_OUT for r in hung), [(r.id, r.verdict) for r in hung]
    assert any("playing that reading" in n for n in hung[0].notes)  # followed, not cut


def listed(test) -> list[str]:  # noqa: ANN001 - a memory TestResult
    """Every replay a memory test names as stopped (its message) or not counted (a note), "scenario: why"."""
    lines = [line.strip() for line in test.message.splitlines() if line.startswith("  ")]
    for note in test.notes:
        if "not counted either way" in note:
            lines += note.split("): ", 1)[1].split("; ")
    return lines


def test_a_crash_in_new_game_already_charged_everywhere_earns_no_memory_marks_and_costs_nothing_more() -> None:
    """Every scenario's test is charged the crash in newGame; every replay crashes there again, before any move:
    no replay shows anything about memory, so nothing is earned (NOT_SHOWN), and nothing is charged twice."""
    scenarios = [s for s in SCENARIOS.values() if s.group == "turns"][:4]
    with FcdSession.open(SUBMISSIONS / "hostile" / "crash_in_new_game", limits=STEADY) as session:
        played = [(s, session.run_scenario(s)) for s in scenarios]
        assert all(t.verdict is Verdict.CRASHED for _s, t in played), [(t.id, t.verdict) for _s, t in played]
        errors, leaks = run_memory_stage(session, played)
    for t in (errors, leaks):
        assert t.verdict is Verdict.NOT_SHOWN and t.earns_marks == 0.0, (t.id, t.verdict, t.message)
        assert "No scenario replay made a move" in t.message
        assert "0 of 0 scenario replays ran to the end" in t.notes[0]
        assert t.message.count("where its scenario test was already charged (crashed)") == 4, t.message


def test_a_hang_is_paid_once_the_memory_stage_starts_at_the_short_limit() -> None:
    """Scenarios given alone (no test result: each replay asks the game's own isValidMove before every move,
    and the grader's queries after newGame ask isValidMove(END_TURN), where this submission loops): each replay
    hangs at once, is cut at the short CPU limit, and after three the rest are not run."""
    scenarios = [s for s in SCENARIOS.values() if s.group == "turns"][:5]
    with FcdSession.open(SUBMISSIONS / "hostile" / "loop_in_is_valid_move", limits={"cpu": 1, "wall": 5.0}) as session:
        session.timeouts = 1  # a scenario test had already waited out a time limit
        errors, _ = run_memory_stage(session, scenarios)
    assert f"{SHORT_RUN_SECONDS:g} s of CPU time per replay (your code had already hung" in errors.notes[0]
    stopped = [line.split(": ", 1)[1] for line in errors.message.splitlines() if line.startswith("  ")]
    assert stopped == (["timed out, before any move"] * HANGS_BEFORE_GIVING_UP
                       + ["not replayed (too many replays hung)"] * (5 - HANGS_BEFORE_GIVING_UP)), errors.message
    assert errors.verdict is Verdict.NOT_SHOWN and errors.earns_marks == 0.0


# destroyGame crashes once a card has been played (the scenario tests leave destroyGame out when it crashes:
# the memory stage judges it).
CRASH_IN_DESTROY = ("void destroyGame(Game game) {\n    if (game == NULL) {\n        return;\n    }",
                    "void destroyGame(Game game) {\n    if (game == NULL) {\n        return;\n    }\n"
                    "    if (game->discardPile.size > 1) {\n        *(volatile int *)0 = 1;\n    }")


def test_memory_marks_follow_the_replays_that_ran(model_copy: Path) -> None:
    """Four scenarios, every test passed (destroyGame left out); two play a card, so their replays crash in
    destroyGame, which no scenario test charged: 2 of the 4 replays ran, so half the memory marks."""
    edit(model_copy, *CRASH_IN_DESTROY)
    ids = ["turns/play_then_end", "turns/draw_then_end", "turns/turn_passes_round_the_table",
           "turns/one_card_per_turn"]  # 5RH end | draw end | draws and ends only | 5RH
    with FcdSession.open(model_copy, limits=STEADY) as session:
        played = [(SCENARIOS[i], session.run_scenario(SCENARIOS[i])) for i in ids]
        assert all(t.passed and "destroy_game" in t.skipped_probes for _s, t in played), \
            [(t.id, t.verdict, t.skipped_probes, t.message) for _s, t in played]
        errors, leaks = run_memory_stage(session, played)
    assert errors.verdict is Verdict.PASSED and leaks.verdict is Verdict.PASSED  # a crash is not a memory error
    assert errors.earns_marks == pytest.approx(0.5) and leaks.earns_marks == pytest.approx(0.5)
    assert "2 of 4 scenario replays ran to the end" in errors.notes[0]
    assert listed(errors) == ["turns/play_then_end: crashed", "turns/one_card_per_turn: crashed"]


def test_a_replay_over_the_memory_cap_is_stopped_and_reported() -> None:
    """allocate_everything allocates 64 MiB chunks on a draw until malloc fails.  Given alone, each scenario is
    replayed to its end: two draw at once (stopped before any move: not counted), two after two moves (stopped
    at the cap: counted, none ran).  A cap is no hang: all four are replayed.  The limits are CPU time, so the
    cap is reached however busy the machine is."""
    scenarios = [SCENARIOS[i] for i in ("turns/draw_then_end", "turns/end_turn_first_is_invalid",
                                        "turns/one_draw_per_turn", "turns/draw_while_holding_a_playable_card")]
    assert len(scenarios) == HANGS_BEFORE_GIVING_UP + 1  # more than the hangs that stop the stage
    with FcdSession.open(SUBMISSIONS / "hostile" / "allocate_everything", limits=STEADY) as session:
        errors, _ = run_memory_stage(session, scenarios)
    assert errors.verdict is Verdict.WRONG and errors.earns_marks == 0.0, errors.message
    assert "0 of 2 scenario replays ran to the end" in errors.notes[0]
    cap = f"memory cap ({MEMORY_CAP_MB} MiB)"
    assert listed(errors) == [f"turns/end_turn_first_is_invalid: {cap}",
                              f"turns/draw_while_holding_a_playable_card: {cap}",
                              f"turns/draw_then_end: {cap}, before any move",
                              f"turns/one_draw_per_turn: {cap}, before any move"]


def test_a_submission_may_include_the_course_player_h(model_copy: Path) -> None:
    edit(model_copy, '#include "Game.h"', '#include "Game.h"\n#include "player.h"')
    with FcdSession.open(model_copy) as session:
        assert session.build.ok, session.build.output


def test_a_missing_header_is_named(model_copy: Path) -> None:
    edit(model_copy, '#include "Game.h"', '#include "Game.h"\n#include "myHelpers.h"')
    with FcdSession.open(model_copy) as session:
        assert not session.build.ok
        assert "myHelpers.h" in session.build.problem and "do not depend on files" in session.build.problem


def test_memory_errors_only_in_failed_scenarios_are_charged_there() -> None:
    # recycle_takes_the_top pops an empty pile because of its logic bug: a heap-buffer-overflow in
    # exactly the recycling scenarios it fails.  Those already cost their marks; the memory test
    # does not count them again.  The use-after-free of use_after_free_in_recycle also shows in
    # scenarios that pass: that one is a memory bug of its own.  (In grading, these two tests crash
    # after move 4, so their replays stop there and never meet the overflow; replayed to their end
    # here, as failed scenarios, they show it.)
    recycle = [s for s in SCENARIOS.values() if s.group == "recycling"][:2]
    with FcdSession.open(SUBMISSIONS / "mutants" / "recycle_takes_the_top", limits=STEADY) as session:
        assert all(not session.run_scenario(s).passed for s in recycle)
        errors, _ = run_memory_stage(session, [Plan(s, failed=True) for s in recycle])
        assert errors.verdict is Verdict.PASSED and errors.earns_marks == 1.0, errors.message
        assert any("not counted again" in n and "heap-buffer-overflow" in n for n in errors.notes), errors.notes
        # the same replays, the second as if its test had passed: the overflow there costs the memory marks
        errors, _ = run_memory_stage(session, [Plan(recycle[0], failed=True), Plan(recycle[1])])
        assert not errors.passed and "heap-buffer-overflow" in errors.message


def test_memory_read_before_it_is_written_is_the_same_in_every_run(model_copy: Path) -> None:
    """Same submission, same marks, and a bug that shows: numTurns here adds an int it never wrote, then
    leaves a 1 there for the next call.  The worker's malloc fills new memory with 0xa5 bytes (never zeros)
    and keeps no cache that would give the dirty block back as it was, so the value read is 0xa5a5a5a5
    (-1515870811) every time: numTurns() after newGame is 0 + 1 - 1515870811 in every run."""
    edit(model_copy, "int numTurns(Game game) {\n    return game->turn + 1;\n}",
         "int numTurns(Game game) {\n    int *scratch = malloc(64 * sizeof(int));\n    int stale = scratch[5];\n"
         "    scratch[5] = 1;\n    free(scratch);\n    return game->turn + 1 + stale;\n}")
    scenario = SCENARIOS["turns/num_turns_is_current_turn_plus_one"]  # judges numTurns after every move
    with FcdSession.open(model_copy, limits=STEADY) as session:
        results = [session.run_scenario(scenario) for _ in range(3)]
    assert all(r.verdict is Verdict.WRONG for r in results), [(r.verdict, r.message) for r in results]
    assert "got:      -1515870810" in results[0].message, results[0].message
    assert len({r.message for r in results}) == 1 and len({r.failed_after for r in results}) == 1


def test_after_a_first_hang_a_game_is_cut_when_it_stalls_not_at_its_full_limit() -> None:
    long_games = [s for s in SCENARIOS.values() if len(s.moves) >= 8][:3]
    limits = {"cpu": 10, "wall": 20.0}
    with FcdSession.open(SUBMISSIONS / "hostile" / "hang_on_fifth_play_move", limits=limits) as session:
        first = session.run_scenario(long_games[0])
        assert first.verdict is Verdict.TIMED_OUT and session.timeouts == 1
        assert session.limits.stall > 0 and session.limits.cpu == 1 and session.limits.wall == 20.0
        later = [session.run_scenario(s) for s in long_games[1:]]
        note = session.limits_note
    assert all(t.verdict is Verdict.TIMED_OUT for t in later)
    assert all(t.seconds < 5 for t in later), [t.seconds for t in later]  # a stall cut, not 20 s or 1 CPU second
    assert "a hang is paid in full once" in note


def test_a_game_that_keeps_moving_is_not_cut_by_the_stall_limit() -> None:
    game = max(SCENARIOS.values(), key=lambda s: len(s.moves))
    with FcdSession.open(SUBMISSIONS / "model", limits={"cpu": 10, "wall": 20.0}) as session:
        session.limits = session.limits.with_(stall=0.1)
        assert session.run_scenario(game).verdict is Verdict.PASSED
