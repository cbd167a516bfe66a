"""Marks for evidence: a test earns only where the submission was seen to follow its rule, and the
grader judges around a difference another test owns instead of excusing or charging it (issue 31).

Expected values are worked out from the rules: R2 deals card i to player i mod 4, R3 makes card 28 the
first discard and card 29 the top of the draw pile.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from grader.core import results
from grader.core.grade import grade
from grader.core.results import Verdict
from grader.games.fcd.deal_map import DISTINCT, places, probe_deck, rearranged, rearrangement
from grader.games.fcd.reference_trace import reference_trace
from grader.games.fcd18s2.edition import FCD18
from grader.games.fcd18s2.scenarios import load_scenarios

ROOT = Path(__file__).resolve().parents[3]
MUTANTS = ROOT / "fixtures" / "submissions" / "mutants"


def _block_dealt(obs: dict, size: int) -> dict:
    """The reference's first observation of the probe deck as a dealer of blocks would show it:
    cards 0-6 to player 0, 7-13 to player 1, ... (the first discard and the draw pile as R3 has them)."""
    cards = {tuple(c[:3]): c for hand in obs["hands"] for c in hand}
    keys = probe_deck(size).keys
    out = copy.deepcopy(obs)
    out["hands"] = [[cards[keys[i]] for i in range(7 * p, 7 * p + 7)] for p in range(4)]
    return out


def test_the_probe_deck_is_distinct_and_starts_plainly() -> None:
    keys = probe_deck(60).keys
    assert len(set(keys)) == 60
    assert keys[28][0] not in (0, 2, 10, 13)  # no ZERO, 2, A or D turned up first (R10)
    assert len(set(probe_deck(800).keys)) == DISTINCT


def test_a_block_deal_is_undone_by_the_rearranged_deck_R2() -> None:
    size = 40
    ref = reference_trace(probe_deck(size), [], edition=FCD18)[0].obs
    want, got = places(ref, size), places(_block_dealt(ref, size), size)
    order = rearrangement(want, got, size)
    assert order is not None
    # R2: player 0 holds cards 0, 4, ..., 24; the block dealer gives player 0 the cards at 0-6.
    assert [order[r] for r in range(0, 28, 4)] == list(range(7))
    assert [order[r] for r in range(3, 28, 4)] == list(range(21, 28))
    assert order[28:] == list(range(28, size))  # first discard and draw pile: dealt alike
    # The block dealer, given the rearranged deck, deals the hands R2 deals from the original deck.
    deck = probe_deck(size)
    again = rearranged(deck, order).keys
    assert [sorted(again[7 * p:7 * p + 7]) for p in range(4)] == [sorted(deck.keys[p:28:4]) for p in range(4)]


def test_the_rules_deal_needs_no_rearranging_and_an_unmatched_deal_gets_none() -> None:
    size = 36
    ref = reference_trace(probe_deck(size), [], edition=FCD18)[0].obs
    assert rearrangement(places(ref, size), places(ref, size), size) is None
    short = copy.deepcopy(ref)
    short["hands"][0] = short["hands"][0][:6]  # a card dealt nowhere
    assert rearrangement(places(ref, size), places(short, size), size) is None
    twice = copy.deepcopy(ref)
    twice["hands"][1].append(twice["hands"][0][0])  # a card seen in two hands
    assert places(twice, size) is None


def _by_id(tests: list[results.TestResult]) -> dict[str, results.TestResult]:
    return {t.id: t for t in tests}


@pytest.fixture(scope="module")
def block_dealer():
    return grade(MUTANTS / "deal_in_blocks", random_games=0, memory=False, own_tests=False)


def test_a_wrong_deal_is_charged_by_the_deal_tests_and_judged_around_everywhere_else(block_dealer) -> None:
    tests = _by_id(block_dealer.tests)
    assert tests["deal/dealt_one_card_at_a_time"].verdict is Verdict.WRONG
    # Tests of other rules are played on a rearranged deck: they see their rules and pass, with a note.
    for group in ("declare", "draw_two", "skip", "recycling", "matching"):
        scenarios = [s for s in load_scenarios() if s.group == group]
        assert all(tests[s.id].verdict is Verdict.PASSED for s in scenarios), group
    played = tests["draw_two/two_stacked_means_draw_four"]
    assert any("rearranged" in n for n in played.notes)
    dealt = str(next(s for s in load_scenarios() if s.id == played.id).deck)
    assert played.deck == dealt  # the reference's game (the replay shows it) ...
    assert played.dealt_as and played.dealt_as != dealt  # ... and the deck its newGame got (the repro deals it)
    marks = {g.group: g for g in block_dealer.groups}
    assert marks["declare"].marks == marks["declare"].max_marks and marks["deal"].marks < marks["deal"].max_marks


@pytest.fixture(scope="module")
def winner_at_start():
    return grade(MUTANTS / "winner_zero_at_start", random_games=0, memory=False, own_tests=False)


def test_a_winner_at_move_0_is_charged_to_the_end_tests_and_hides_only_move_0(winner_at_start) -> None:
    tests = _by_id(winner_at_start.tests)
    assert tests["end/win_by_putting_down_the_last_card"].verdict is Verdict.WRONG
    same_colour = tests["matching/same_colour"]
    # Its isValidMove says FALSE at move 0 (game over, in its own state: A29): move 0 is not shown; the
    # moves after it were judged and agreed, so the test earns that share, neither all nor nothing.
    assert same_colour.verdict is Verdict.NOT_SHOWN and 0 < same_colour.earned < 1
    assert "gameWinner() differed before" in same_colour.message
    assert same_colour.earns_marks == same_colour.earned


def test_a_test_not_shown_earns_the_share_it_saw_and_the_rest_is_counted_as_not_shown() -> None:
    """Group 'skip' (M marks), weights 8 in all: a passed test of weight 2, a test of weight 2 that saw its rule at
    half its steps (not shown, 0.5), failed tests of weight 4 and 0: M * (2 + 1 + 0) / 8 earned, M * 1 / 8 not
    shown."""
    from grader.core.config import MarkingConfig  # noqa: PLC0415
    from grader.core.grade import mark  # noqa: PLC0415

    def test(name: str, verdict: Verdict, weight: float, earned: float = 1.0) -> results.TestResult:
        return results.TestResult(f"skip/{name}", "skip", ("R8",), weight, verdict, earned=earned)

    tests = [test("a", Verdict.PASSED, 2), test("b", Verdict.NOT_SHOWN, 2, 0.5), test("c", Verdict.WRONG, 4),
             test("d", Verdict.WRONG, 0, 1.0)]
    config = MarkingConfig.load()
    [group] = mark(tests, config)
    assert (group.marks, group.passed, group.failed, group.not_shown) == (config.group_marks("skip") * 3 / 8, 1, 2, 1)
    result = results.SubmissionResult("s", "h", True, "", [], [], tests, groups=[group])
    assert result.marks_not_shown() == {"skip": round(config.group_marks("skip") * 1 / 8, 2)}
    assert tests[2].earns_marks == 0 and tests[1].earns_marks == 0.5


def _random_stage(mutant: str, total: int, charged: dict[str, str]) -> tuple[dict, list]:
    from grader.games.fcd.random_games import FAMILIES, generated_games, run_random_games  # noqa: PLC0415
    from grader.games.fcd18s2.session import Fcd18Session as FcdSession

    with FcdSession.open(MUTANTS / mutant) as session:
        tests = run_random_games(session, total, charged=charged)
    games = [g for f in FAMILIES for g in generated_games(f, max(1, total // len(FAMILIES)), FCD18)]
    return _by_id(tests), games


def test_a_family_a_scenario_charged_is_judged_around_step_by_step_in_the_random_games() -> None:
    """winner_zero_at_start says gameWinner() 0 right after newGame (the end tests are charged for that)
    and NOT_FINISHED from its first move on.  The random games judge gameWinner() around that known
    difference: in a game of m moves it is observed m + 1 times, hidden at the first, agreeing at the
    others, so random/end earns the mean of m / (m + 1) -- neither nothing (it was seen) nor all
    (the first observation showed nothing)."""
    tests, games = _random_stage("winner_zero_at_start", 16, {"winner": "end/win_by_player_1"})
    end = tests["random/end"]
    expected = sum(len(g.moves) / (len(g.moves) + 1) for g in games) / len(games)
    assert end.verdict is Verdict.NOT_SHOWN and end.charged_to == "end/win_by_player_1"
    assert end.earned == pytest.approx(expected, abs=1e-3)
    assert "not charged twice" in end.message
    # No other family is charged for the winner: it is judged around everywhere.
    assert all(t.verdict is Verdict.PASSED for i, t in tests.items() if i != "random/end"), tests


def test_random_games_a_charged_crash_stops_in_new_game_are_not_counted() -> None:
    """new_game_crashes_on_initial_a crashes in newGame when an A is turned up first (R3: card 28; its
    scenario of A13 is charged for it).  Those random games cannot start and show nothing: they are left
    out (a note counts them), and the other games show every family agreeing (full marks)."""
    tests, games = _random_stage("new_game_crashes_on_initial_a", 16,
                                 {"crashes": "initial/first_discard_a_skips_player_0"})
    initial_a = sum(1 for g in games if len(g.deck) > 28 and g.deck.keys[28][0] == 0xA)
    assert 0 < initial_a < len(games)
    for t in tests.values():
        assert t.verdict is Verdict.PASSED and t.earned == 1.0, (t.id, t.message)
        assert f"{initial_a} random game(s) could not start" in " ".join(t.notes), t.notes
