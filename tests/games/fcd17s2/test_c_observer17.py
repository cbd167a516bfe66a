"""2017 edition: the C observer sees exactly what the Python observer sees (as tests/games/fcd18s2/test_c_observer.py).

A 2017 game the C observer (``grader.games.fcd17s2.c_observer``) finds equal to the reference at every step
is accepted without the full comparison (``FcdSession._equal_in_c``), and a random game a batch proves
equal passes (``grader.core.batched_games``), so its packed steps must be the Python observer's
observations, packed: the same calls in the same order (the history read through pastMove, the first card
of each other hand as last seen), the same values, the same card identities, the same stop on a refused
move or a missing card, and the same call in progress when the code crashes.  Checked on the model over
every scenario and random games of every deck family; on every mutant and accepted reading, and on hostile
submissions that crash or hang inside the calls, under ``-m slow``.
"""

from __future__ import annotations

import base64
import dataclasses
import importlib.util
from pathlib import Path
from typing import Any

import pytest

from grader.core.results import Verdict
from grader.games.fcd.packed import WORD, pack_step, pack_trace, word_code
from grader.games.fcd.random_games import FAMILIES, generated_games
from grader.games.fcd.reference_trace import cached_packed_trace
from grader.games.fcd.sandbox.frames import Event
from grader.games.fcd.session import DIFFERENT, EQUAL, judge_run, play
from grader.games.fcd17s2.edition import FCD17
from grader.games.fcd17s2.observations import TABLE
from grader.games.fcd17s2.scenarios import load_scenarios
from grader.games.fcd17s2.session import Fcd17Session

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
SUBMISSIONS = FIXTURES / "fcd17s2" / "submissions"


def _load(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_tables = _load("fcd17s2_make_mutants", SUBMISSIONS / "make_mutants.py")
MUTANTS = _tables.load_mutants()
READINGS = _tables.load("readings", "READINGS")

# Every scenario (declared colours, runs of 2s, words said and called out, the end), and random games.
SCENARIOS = [(s.deck, s.moves) for s in load_scenarios()]
RANDOM = [(g.deck, g.moves) for f in FAMILIES for g in generated_games(f, 4, FCD17)]
GAMES = SCENARIOS + RANDOM
SHORT = {"cpu": 1, "wall": 2.0, "stall": 0.2}


def both_ways(session: Fcd17Session, deck: Any, moves: Any) -> tuple[Any, Any]:
    """The same game on the submission through the Python observer, then through the C observer."""
    depths = cached_packed_trace(deck, moves, FCD17).depths
    args = ([list(k) for k in deck.keys], [str(m) for m in moves])
    slow = play(session.client, *args, depths=depths, limits=session.limits)
    fast = play(session.client, *args, depths=depths, limits=session.limits, observer=session.observer)
    return slow, fast


def expected_ending(slow: Any) -> tuple[str, int]:
    """How the Python path's game ended, in the C observer's words."""
    for e in slow.events:
        if e["t"] in (Event.REFUSED.value, Event.NO_CARD.value):
            return e["t"], e["i"]
    return "done", len(slow.steps) - 1


def check_game(session: Fcd17Session, deck: Any, moves: Any) -> None:
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
    assert base64.b64decode(frame["data"]) == pack_trace(slow.steps, TABLE), f"{deck} {moves}"
    assert fast.report.stdout == slow.report.stdout


def test_c_observer_packs_what_the_python_observer_sees_on_the_model() -> None:
    with Fcd17Session.open(SUBMISSIONS / "model", limits=SHORT) as session:
        assert session.build.ok and session.observer
        for deck, moves in GAMES:
            check_game(session, deck, moves)


@pytest.mark.slow
@pytest.mark.parametrize("name", [*(f"mutants/{m.name}" for m in MUTANTS), *(f"readings/{r.name}" for r in READINGS)])
def test_c_observer_packs_what_the_python_observer_sees(name: str) -> None:
    with Fcd17Session.open(SUBMISSIONS / name, limits=SHORT) as session:
        assert session.build.ok and session.observer
        for deck, moves in GAMES:
            check_game(session, deck, moves)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["null_deref", "divide_by_zero", "abort", "global_state", "exit_zero",
                                  "loop_in_is_valid_move", "hang_on_fifth_play_move", "whitespace_after_answer"])
def test_crashes_and_hangs_are_pinned_on_the_same_call(name: str, tmp_path: Path) -> None:
    import sys  # noqa: PLC0415 - the 2018 fixtures' generator, only here

    sys.path.insert(0, str(FIXTURES / "submissions"))
    from variants import HOSTILE, make_hostile  # noqa: PLC0415

    [variant] = [v for v in HOSTILE if v.name == name]
    make_hostile(variant, tmp_path / name, SUBMISSIONS / "model")
    with Fcd17Session.open(tmp_path / name, limits=SHORT) as session:
        if not session.build.ok:
            pytest.skip("does not build: nothing to observe")
        for deck, moves in RANDOM[:3] + SCENARIOS[:3]:
            check_game(session, deck, moves)


def test_the_packed_history_and_words_are_self_delimiting() -> None:
    """Equal arrays only from equal observations: a move moved from one turn to the next, or a word's answer
    told from a card's, changes them."""
    assert pack_step({"past_moves": [["5RH", "draw"], []]}, TABLE) != pack_step({"past_moves": [["5RH"], ["draw"]]},
                                                                                TABLE)
    assert pack_step({"past_moves": [["uno"], []]}, TABLE) != pack_step({"past_moves": [["duo"], []]}, TABLE)
    assert pack_step({"valid_say": {"uno": True}}, TABLE) == [1, WORD, word_code("uno"), 0, -1, 1]
    assert len({word_code(w) for w in ("uno", "duo", "trio", "draw", "end")}) == 5


def test_a_game_equal_in_c_passes_without_the_full_comparison_and_a_different_one_does_not() -> None:
    deck, moves = RANDOM[-1]
    with Fcd17Session.open(SUBMISSIONS / "model") as session:
        result = session.run_game("random/x", "", (), deck, moves, kind="random")
        assert result.verdict is Verdict.PASSED and session._equal_in_c(deck, moves, result) == EQUAL
    with Fcd17Session.open(SUBMISSIONS / "mutants" / "backwards_ignored") as session:
        differing = next((d, m) for d, m in RANDOM if any(str(x)[0] == "B" for x in m))
        probe = session.run_game("random/x", "", (), *differing, kind="random")
        assert session._equal_in_c(*differing, probe) == DIFFERENT and not probe.passed
