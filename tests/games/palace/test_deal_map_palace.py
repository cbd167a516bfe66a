"""Palace judges around a wrong deal (issue #35): a deal bug costs the deal tests once, and every other test is
given the deck rearranged so that the submission's own deal puts each card where C2 puts it.

C2 (rules-palace.md): card i < 6N goes to the hand of seat i mod N, card 6N + jN + s is face-down position j of seat
s, card 9N starts the pile and the rest is the draw pile, next drawn first.  The fixture mutants deal otherwise:
``deal_in_blocks`` gives seat s the six cards 6s..6s+5, ``draw_pile_upside_down`` builds the draw pile from the
bottom of the deck.  The expected hands below are worked out from those two deals by hand, not by the grader.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from reproducing import compile_programs, link_with, run_program

from grader.core.deal_map import rearranged, rearrangement
from grader.core.grade import grade
from grader.core.results import SubmissionResult, Verdict
from grader.games import get
from grader.games.palace.deal_map import PARTIAL, learnt, places, probe_setups, same_deal
from grader.games.palace.repro import c_program
from grader.games.palace.sandbox.interface import INCLUDE_DIR
from grader.games.palace.session import PalaceSession, reference_frames
from reference.palace import DEALT_PER_SEAT, HAND_DEAL, MAX_PLAYERS, MAX_SET, MIN_PLAYERS, REFERENCE, Rank, Setup

ROOT = Path(__file__).resolve().parents[3]
SUBMISSIONS = ROOT / "fixtures" / "palace" / "submissions"
MODEL = SUBMISSIONS / "model"
BLOCKS = SUBMISSIONS / "mutants" / "deal_in_blocks"
UPSIDE_DOWN = SUBMISSIONS / "mutants" / "draw_pile_upside_down"
GAME = get("palace")
SCENARIOS = {f"{s.group}/{s.id}": s for s in GAME.load_scenarios()}
PLAIN = "beating/equal_rank_is_enough"  # a scenario of C8: its moves need C2's hands
DEAL = "deal/hands_dealt_in_turn_two_players"  # a scenario of P2, C2: the deal is its own rule
DRAWING = "drawing/one_card_drawn_after_a_play"  # a scenario of P8: it draws the draw pile's top card


def _after_new_game(setup: Setup) -> object:
    """The reference's observation right after newGame (C2's deal), as a frame carries it."""
    return reference_frames({"setup": str(setup), "moves": [], "destroy": False, "battery": False}, REFERENCE)[0]["obs"]


def _in_blocks(obs: object) -> dict[str, object]:
    """``obs`` as a library dealing in blocks would show it: the same 6N hand cards, seat s getting cards 6s..6s+5."""
    assert isinstance(obs, dict)
    hands = obs["hands"]
    n = len(hands)
    dealt = [hands[i % n][i // n] for i in range(HAND_DEAL * n)]  # back to deck order (C2: card i to seat i mod N)
    return {**obs, "hands": [dealt[HAND_DEAL * s:HAND_DEAL * (s + 1)] for s in range(n)]}


# ---- the probe decks -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_probe_decks_tell_every_position_apart_within_the_rules_of_a_deck(n: int) -> None:
    for size in range(DEALT_PER_SEAT * n + 1, 105):
        probes = probe_setups(n, size)
        told: set[int] = set()
        for probe in probes:  # (Setup checks C7: no rank more than MAX_SET times)
            assert probe.n_players == n and probe.n_cards == size
            assert probe.deck[DEALT_PER_SEAT * n][0] != Rank.TEN  # C31: never a TEN to start the pile
            assert max(Counter(r for r, _s in probe.deck).values()) <= MAX_SET
            count = Counter(probe.deck)
            told |= {i for i, card in enumerate(probe.deck) if count[card] == 1}
        assert told == set(range(size)), (n, size)
        assert len(probes) == (1 if size <= 52 else -(-size // 26))


# ---- from two deals to the rearranged deck ---------------------------------------------------------------------
def test_a_deal_in_blocks_is_rearranged_into_the_rules_hands() -> None:
    probe = probe_setups(2, 19)[0]
    want = _after_new_game(probe)
    found = learnt([(places(want, probe.deck), places(_in_blocks(want), probe.deck))])
    assert found is not None
    order = rearrangement(*found, 19, partial=PARTIAL)
    assert order is not None
    deck = SCENARIOS[PLAIN].setup
    given = rearranged(list(deck.deck), order)
    # a library dealing in blocks gets seat s the cards 6s..6s+5 of what it is given: C2's hands of the deck
    c2_hands = [sorted(deck.deck[i] for i in range(HAND_DEAL * 2) if i % 2 == s) for s in range(2)]
    assert [sorted(given[HAND_DEAL * s:HAND_DEAL * (s + 1)]) for s in range(2)] == c2_hands
    assert given[HAND_DEAL * 2:] == list(deck.deck[HAND_DEAL * 2:])  # the face-down rows, the pile, the draw pile


def test_the_same_deal_needs_no_rearrangement_and_a_missing_zone_shows_nothing() -> None:
    probe = probe_setups(3, 40)[0]
    want = _after_new_game(probe)
    assert rearrangement(places(want, probe.deck), places(want, probe.deck), 40, partial=PARTIAL) is None
    assert same_deal(want, want) and not same_deal(want, _in_blocks(want))
    assert isinstance(want, dict)
    assert same_deal(want, {**_in_blocks(want), "hands": "missing"})  # getHandCard missing: no hand to compare
    assert places({**want, "hands": [[[-1, -1, 0]], [], []]}, probe.deck) is None  # a NULL where a card should be


# ---- on the fixture mutants --------------------------------------------------------------------------------------
def test_a_deal_in_blocks_fails_the_deal_test_and_passes_the_others_on_a_rearranged_deck() -> None:
    with PalaceSession.open(BLOCKS) as session:
        deal = session.run_scenario(SCENARIOS[DEAL])
        plain = session.run_scenario(SCENARIOS[PLAIN])
    assert deal.verdict is Verdict.WRONG and not deal.dealt_as
    assert plain.verdict is Verdict.PASSED, plain.message
    given = Setup.parse(plain.dealt_as)
    original = SCENARIOS[PLAIN].setup
    assert given != original and sorted(given.deck) == sorted(original.deck)
    # the mutant deals seat s the cards 6s..6s+5 of its deck: those must be C2's hand of seat s in the original
    assert [sorted(given.deck[6 * s:6 * s + 6]) for s in range(2)] == [
        sorted(original.deck[i] for i in range(12) if i % 2 == s) for s in range(2)]
    assert any("deals the cards in another order" in n for n in plain.notes)


def test_the_model_plays_every_deck_as_given() -> None:
    with PalaceSession.open(MODEL) as session:
        results = [session.run_scenario(SCENARIOS[t]) for t in (DEAL, PLAIN, DRAWING)]
        assert not session.deals_wrong
    assert all(t.verdict is Verdict.PASSED and not t.dealt_as for t in results)


def test_a_draw_pile_upside_down_draws_the_rules_card_on_a_rearranged_deck() -> None:
    with PalaceSession.open(UPSIDE_DOWN) as session:
        deal = session.run_scenario(SCENARIOS["deal/starting_card_and_draw_pile"])
        drawing = session.run_scenario(SCENARIOS[DRAWING])
    assert deal.verdict is Verdict.WRONG, deal.message
    assert drawing.verdict is Verdict.PASSED and drawing.dealt_as, drawing.message
    original, given = SCENARIOS[DRAWING].setup, Setup.parse(drawing.dealt_as)
    n = original.n_players
    # the mutant's draw pile is its deck's last card first: C2's draw pile, next card first, is the original's
    assert list(reversed(given.deck[DEALT_PER_SEAT * n + 1:])) == list(original.deck[DEALT_PER_SEAT * n + 1:])


@pytest.fixture(scope="module")
def in_blocks() -> SubmissionResult:
    return grade(BLOCKS, game=GAME, random_games=3, memory=False, own_tests=False)


def test_a_deal_bug_costs_the_deal_tests_alone(in_blocks: SubmissionResult) -> None:
    lost = {t.id for t in in_blocks.tests if t.earns_marks < 1}
    assert lost and all(t.startswith("deal/") for t in lost), lost
    deal = next(g for g in in_blocks.groups if g.group == "deal")
    assert in_blocks.score == pytest.approx(in_blocks.max_score - (deal.max_marks - deal.marks), abs=0.01)
    rearranged_random = [t for t in in_blocks.tests if t.kind == "random" and any(
        "random games gave your game the deck rearranged" in n for n in t.notes)]
    assert len(rearranged_random) == len([t for t in in_blocks.tests if t.kind == "random"])


def test_a_repro_gives_newgame_the_rearranged_deck(in_blocks: SubmissionResult, tmp_path: Path) -> None:
    """The program of a test played on a rearranged deck passes with the mutant, as the test did; the same program
    on the deck as given fails (the mutant deals other hands), so the deck it gives matters."""
    plain = next(t for t in in_blocks.tests if t.id == PLAIN)
    assert plain.verdict is Verdict.PASSED and plain.dealt_as
    scenario = SCENARIOS[PLAIN]
    programs = [tmp_path / "given.c", tmp_path / "as_is.c"]
    programs[0].write_text(c_program(scenario, "", plain))
    programs[1].write_text(c_program(scenario, "", None))
    exe = link_with(compile_programs(programs, INCLUDE_DIR, tmp_path / "objects"),
                    [BLOCKS / "Palace.c", INCLUDE_DIR / "PalaceCard.c"], INCLUDE_DIR, tmp_path / "all")
    given, as_is = run_program(exe, 0), run_program(exe, 1)
    assert given.passed, given.text
    assert not as_is.passed and as_is.failed_after == 0, as_is.text
