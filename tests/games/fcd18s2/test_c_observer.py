"""The C observer sees exactly what the Python observer sees.

A game the C observer finds equal to the reference at every step is accepted
without the full comparison (``FcdSession._equal_in_c``), so its packed steps
must be the Python observer's observations, packed: the same calls in the same
order, the same values, the same card identities, the same stop on a refused
move or a missing card, and the same call in progress when the code crashes.
Checked on the model, every mutant and every accepted reading (their bugs make
the observations differ from the reference in every way the table knows), and
on hostile submissions that crash or hang inside the calls.
"""

from __future__ import annotations

import base64
import dataclasses
import sys
from pathlib import Path

import pytest

from grader.core.results import Verdict
from grader.games.fcd.packed import pack_step, pack_trace
from grader.games.fcd.random_games import FAMILIES, generated_games
from grader.games.fcd.reference_trace import cached_packed_trace
from grader.games.fcd.sandbox.frames import OUTCOMES, Event
from grader.games.fcd.session import DIFFERENT, EQUAL, judge_run, play
from grader.games.fcd18s2.edition import FCD18
from grader.games.fcd18s2.observations import TABLE
from grader.games.fcd18s2.scenarios import load_scenarios
from grader.games.fcd18s2.session import Fcd18Session as FcdSession

SUBMISSIONS = Path(__file__).resolve().parents[3] / "fixtures" / "submissions"
sys.path.insert(0, str(SUBMISSIONS))
from mutants import MUTANTS, READINGS  # noqa: E402

# Games that reach what the rules make rare: declared colours, runs of 2s, skips, recycling, the end.
SCENARIOS = load_scenarios()
GAMES = ([(s.deck, s.moves) for s in SCENARIOS][::4]  # every group, a quarter of its scenarios
         + [(g.deck, g.moves) for f in FAMILIES for g in generated_games(f, 4, FCD18)])
SHORT = {"cpu": 1, "wall": 2.0, "stall": 0.2}
# Card identities are pointers: a submission that frees cards during play and allocates new ones may get a
# freed card's address back on one path and not on the other (Python allocates in between).  For those,
# what must hold is what the grade depends on: each path equals the reference exactly when the other does.
REUSES_FREED_CARDS = {"mutants/cards_copied_on_draw"}


def both_ways(session: FcdSession, deck, moves):  # noqa: ANN001, ANN201
    """The same game on the submission through the Python observer, then through the C observer."""
    depths = cached_packed_trace(deck, moves, FCD18).depths
    args = ([list(k) for k in deck.keys], [str(m) for m in moves])
    slow = play(session.client, *args, depths=depths, limits=session.limits)
    fast = play(session.client, *args, depths=depths, limits=session.limits, observer=session.observer)
    return slow, fast


def expected_ending(slow) -> tuple[str, int]:  # noqa: ANN001
    """How the Python path's game ended, in the C observer's words."""
    for e in slow.events:
        if e["t"] in (Event.REFUSED.value, Event.NO_CARD.value):
            return e["t"], e["i"]
    return "done", len(slow.steps) - 1


def check_game(session: FcdSession, deck, moves, name: str = "") -> None:  # noqa: ANN001
    slow, fast = both_ways(session, deck, moves)
    trouble_slow, trouble_fast = judge_run(slow), judge_run(fast)
    ending = expected_ending(slow)
    if ending[0] == Event.REFUSED.value:  # the C observer stops at a refusal; the Python path makes it anyway
        slow = dataclasses.replace(slow, steps=slow.steps[:ending[1] + 1])
        if trouble_fast is None:
            trouble_slow = None  # whatever the moves made after the refusal did is not compared
    assert (trouble_slow and trouble_slow[0]) == (trouble_fast and trouble_fast[0]), (trouble_slow, trouble_fast)
    if trouble_slow is not None:  # crashed or hung: in the same call, at the same step
        assert slow.report.call == fast.report.call
        return
    [frame] = fast.events
    assert frame["t"] == Event.PACKED.value
    assert (frame["outcome"], frame["at"]) == expected_ending(slow)
    packed, expected = base64.b64decode(frame["data"]), pack_trace(slow.steps, TABLE)
    if name in REUSES_FREED_CARDS:
        reference = cached_packed_trace(deck, moves, FCD18).data
        assert (packed == reference) == (expected == reference)
    else:
        assert packed == expected, f"{deck} {moves}"
    assert fast.report.stdout == slow.report.stdout


@pytest.mark.parametrize("name", ["model", *(f"mutants/{m.name}" for m in MUTANTS),
                                  *(f"readings/{r.name}" for r in READINGS)])
def test_c_observer_packs_what_the_python_observer_sees(name: str) -> None:
    with FcdSession.open(SUBMISSIONS / name, limits=SHORT) as session:
        assert session.build.ok and session.observer
        for deck, moves in GAMES:
            check_game(session, deck, moves, name)


@pytest.mark.parametrize("name", ["null_deref", "divide_by_zero", "abort", "global_state", "exit_zero",
                                  "loop_in_is_valid_move", "hang_on_fifth_play_move", "whitespace_after_answer"])
def test_crashes_and_hangs_are_pinned_on_the_same_call(name: str) -> None:
    with FcdSession.open(SUBMISSIONS / "hostile" / name, limits=SHORT) as session:
        if not session.build.ok:
            pytest.skip("does not build: nothing to observe")
        for deck, moves in GAMES[:3] + GAMES[-2:]:
            check_game(session, deck, moves)


def test_packed_form_is_self_delimiting() -> None:
    """Equal arrays only from equal observations: moving a card from one list to the next changes them."""
    step = cached_packed_trace(*GAMES[0], FCD18)
    assert step.data  # the reference's steps pack
    obs = {"hand": [[1, 0, 0, 1]], "hands": [[], [[2, 0, 0, 2]], [], []]}
    moved = {"hand": [], "hands": [[[1, 0, 0, 1]], [[2, 0, 0, 2]], [], []]}
    assert pack_step(obs, TABLE) != pack_step(moved, TABLE)
    assert OUTCOMES[0] == "done"


def test_a_game_equal_in_c_passes_without_the_full_comparison_and_a_different_one_does_not() -> None:
    deck, moves = GAMES[-1]
    with FcdSession.open(SUBMISSIONS / "model") as session:
        result = session.run_game("random/x", "", (), deck, moves, kind="random")
        assert result.verdict is Verdict.PASSED and session._equal_in_c(deck, moves, result) == EQUAL
    with FcdSession.open(SUBMISSIONS / "mutants" / "skip_ignored") as session:
        probe = session.run_game("random/x", "", (), deck, moves, kind="random")
        assert session._equal_in_c(deck, moves, probe) == DIFFERENT and not probe.passed
