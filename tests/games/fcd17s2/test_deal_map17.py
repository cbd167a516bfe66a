"""2017 edition: a wrong deal is charged by the deal tests and judged around everywhere else (issue 46).

2017's Game.h shows only the hand of the player to move, so the deal is learnt from a probe game in which the first
three players each draw and end their turn (S6): each hand is read as its turn begins, each drawn card one move later
(``grader.games.fcd.deal_map.places_by_turns``).  Expected places follow from the rules: S2 deals card i (i < 28) to
player i mod 4, S3 turns card 28 up and makes 29, 30, 31 the first three cards drawn.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.core import results
from grader.core.config import MarkingConfig
from grader.core.grade import grade
from grader.core.results import Verdict
from grader.games import get as get_game
from grader.games.fcd.deal_map import places_by_turns, rearrangement
from grader.games.fcd.reference_trace import reference_trace
from grader.games.fcd17s2.edition import DEAL_PROBE, FCD17

ROOT = Path(__file__).resolve().parents[3]
MUTANTS = ROOT / "fixtures" / "fcd17s2" / "submissions" / "mutants"
GAME = get_game("fcd17s2")


def _probe_steps(size: int) -> list[object]:
    moves = [FCD17.parse_move(m) for m in DEAL_PROBE.moves]
    return [s.obs for s in reference_trace(DEAL_PROBE.deck(size), moves, edition=FCD17)]


def test_the_probe_game_reads_the_rules_deal_hand_by_hand_S2_S3() -> None:
    size = 40
    keys = DEAL_PROBE.deck(size).keys
    assert len(set(keys)) == size and keys[28][0] not in (2, 10, 11, 12, 13)  # no 2, A, B, C or D first (B5)
    found = DEAL_PROBE.places(_probe_steps(size), size)
    want = {i: ("hand", i % 4) for i in range(28)} | {28: ("discard",), 29: ("draw", 0), 30: ("draw", 1),
                                                       31: ("draw", 2)}
    assert found == want


def test_a_block_deal_is_undone_by_the_rearranged_deck() -> None:
    """The places a dealer of blocks shows (cards 0-6 to player 0, 7-13 to player 1, ...) give the order that
    hands each of its players the cards S2 deals that player."""
    size = 40
    steps = _probe_steps(size)
    cards = {tuple(c[:3]): c for obs in steps for c in obs["hand"]}  # type: ignore[index]
    keys = DEAL_PROBE.deck(size).keys
    blocks = []
    for at, obs in enumerate(steps):
        me = obs["current_player"]  # type: ignore[index]
        hand = [cards[keys[i]] for i in range(7 * me, 7 * me + 7)]
        if at % 2:  # after the draw: the drawn card besides
            hand.append(cards[keys[29 + at // 2]])
        blocks.append({**obs, "hand": hand})  # type: ignore[dict-item]
    got = places_by_turns(blocks, size, DEAL_PROBE.plain_values)
    want = DEAL_PROBE.places(steps, size)
    assert got is not None and want is not None
    order = rearrangement(want, got, size)
    assert order is not None
    # S2's player p holds cards p, p+4, ...; the block dealer gives player p the cards at 7p..7p+6.
    for i in range(28):
        assert 7 * (i % 4) <= order[i] < 7 * (i % 4) + 7
    assert order[28:] == list(range(28, size))  # the first discard and the draw pile: dealt alike


def test_a_hand_seen_twice_is_no_reading() -> None:
    """A probe game whose turn never passes shows player 0's hand again: no places, so no rearranging."""
    steps = _probe_steps(40)
    stuck = [steps[0], steps[1]] * 3 + [steps[0]]
    assert places_by_turns(stuck, 40, DEAL_PROBE.plain_values) is None


def _by_id(tests: list[results.TestResult]) -> dict[str, results.TestResult]:
    return {t.id: t for t in tests}


@pytest.fixture(scope="module")
def block_dealer() -> results.SubmissionResult:
    return grade(MUTANTS / "deal_in_blocks", MarkingConfig.load(game=GAME), game=GAME, random_games=0,
                 memory=False, own_tests=False, players=False)


def test_a_block_dealer_loses_marks_in_the_deal_tests_and_where_no_deal_can_be_learnt(block_dealer) -> None:
    tests = _by_id(block_dealer.tests)
    scenarios = GAME.load_scenarios()
    assert tests["deal/hands_dealt_round_robin"].verdict is Verdict.WRONG
    played = tests["declare/next_discard_follows_the_declared_colour"]
    assert played.verdict is Verdict.PASSED and any("rearranged" in n for n in played.notes), played
    assert played.dealt_as and played.dealt_as != played.deck  # the deck its newGame got (the repro deals it)
    # Every test outside the deal group passes, but those whose deck is too small for the probe game
    # (fewer than 32 cards: three draws after the deal), which play the deck as given.
    small = {s.id for s in scenarios if len(s.deck) < DEAL_PROBE.smallest}
    failing = {t.id for t in block_dealer.tests if t.group != "deal" and t.verdict is not Verdict.PASSED}
    assert failing <= small, failing - small
    lost = {g.group for g in block_dealer.groups if g.marks < g.max_marks}
    assert lost <= {"deal"} | {t.split("/")[0] for t in small}, lost
