"""The 2017 memory stage (``grader.games.fcd17s2.memcheck``): the model is clean, the memory mutants are found.

The two mutants of fixtures/fcd17s2/submissions/mutants.py marked ``caught_by="memory"``
agree with the reference in every query; only the sanitized replays of the scenarios show them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.core.memcheck import Plan, driver_source
from grader.core.results import Verdict
from grader.games.fcd17s2.memcheck import FCD17, run_memory_stage17
from grader.games.fcd17s2.scenarios import load_scenarios
from grader.games.fcd17s2.session import Fcd17Session

SUBMISSIONS = Path(__file__).resolve().parents[3] / "fixtures" / "fcd17s2" / "submissions"
SCENARIOS = load_scenarios()
BY_ID = {s.id: s for s in SCENARIOS}


def memory_tests(folder: Path, scenarios: list | None = None, failed: tuple[str, ...] = ()) -> tuple:
    """The memory stage on ``scenarios`` (default: all), each replayed to its end; those named in ``failed``
    as if their tests had failed."""
    with Fcd17Session.open(folder) as session:
        assert session.build.ok, session.build.output
        errors, leaks = run_memory_stage17(session, [Plan(s, failed=s.id in failed) for s in scenarios or SCENARIOS])
    assert errors.id == "memory/no_memory_errors" and leaks.id == "memory/no_leaks"
    assert leaks.rules == ("B3", "destroyGame")
    return errors, leaks


def test_the_driver_speaks_2017() -> None:
    """2017's names: the three words are actions of their own, values 10..13 are ADVANCE ... DECLARE."""
    claims = BY_ID["claims/each_claim_fits_the_hand_size"]  # ... CYC trio CYH duo CBH uno end
    source = driver_source([claims, BY_ID["advance/advance_skips_the_next_player"]], FCD17)
    for word in ("uno", "duo", "trio"):
        assert f'{{SAY_{word.upper()}, ZERO, RED, HEARTS, RED, "{word}"}}' in source
    assert '{END_TURN, ZERO, RED, HEARTS, RED, "end"}' in source
    assert '{PLAY_CARD, ADVANCE, GREEN, CLUBS, RED, "AGC"}' in source
    assert "pastMove(game, t, i)" in source and "getDeckCard" not in source


def test_the_model_has_no_memory_finding() -> None:
    errors, leaks = memory_tests(SUBMISSIONS / "model")
    with_moves = len([s for s in SCENARIOS if s.moves])  # a scenario of no moves shows nothing either way
    for t in (errors, leaks):
        assert t.verdict is Verdict.PASSED and t.earned == 1.0 and t.message == ""
        assert f"{with_moves} of {with_moves} scenario replays ran to the end" in t.notes[0]


@pytest.mark.parametrize("name", ["destroy_leaks_cards", "drawn_card_copied"])
def test_the_memory_mutants_leak(name: str) -> None:
    errors, leaks = memory_tests(SUBMISSIONS / "mutants" / name)
    assert errors.verdict is Verdict.PASSED
    assert leaks.verdict is Verdict.WRONG
    assert "scenario(s) showed memory leaks" in leaks.message
    assert "in newCard (Card.c:" in leaks.message and "<- newGame (Game.c:" in leaks.message
    assert "destroyGame must free everything the game owns" in leaks.message


def test_destroy_leaks_every_card() -> None:
    """Every scenario leaks, every card of its deck (one allocation each)."""
    sc = BY_ID["advance/advance_skips_the_next_player"]
    _errors, leaks = memory_tests(SUBMISSIONS / "mutants" / "destroy_leaks_cards", [sc])
    assert f"{sc.id}: destroyGame after 2 moves: " in leaks.message
    assert f" bytes leaked in {len(sc.deck)} allocation(s) in newCard" in leaks.message


def test_a_copied_draw_leaks_the_drawn_cards() -> None:
    """Three draws, three originals lost; a game without a draw does not leak."""
    drawn = BY_ID["backwards/anticlockwise_order"]  # BGC end draw end draw end draw end
    no_draw = BY_ID["advance/advance_skips_the_next_player"]  # AGC end
    _errors, leaks = memory_tests(SUBMISSIONS / "mutants" / "drawn_card_copied", [drawn, no_draw])
    assert leaks.message.startswith("1 scenario(s) showed memory leaks.")
    assert f"{drawn.id}: destroyGame after 8 moves: " in leaks.message
    assert " bytes leaked in 3 allocation(s) in newCard" in leaks.message
    assert no_draw.id not in leaks.message


def test_a_leak_only_in_failed_scenarios_is_charged_there() -> None:
    sc = BY_ID["advance/advance_skips_the_next_player"]
    _errors, leaks = memory_tests(SUBMISSIONS / "mutants" / "destroy_leaks_cards", [sc], failed=(sc.id,))
    assert leaks.verdict is Verdict.PASSED
    assert any(n.startswith("Memory leaks showed only in scenarios that failed already") and sc.id in n
               for n in leaks.notes)
