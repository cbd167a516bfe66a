"""Four of a kind (P15, C20, C21), tens (P16, C22, C23), twos (P17, C24, C25), the optional seven (P19,
C26-C28) and mirror three (P18, C29, C30), and special starting cards (C31)."""

from __future__ import annotations

import pytest
from decks_palace import names, play, seated, valid

from reference.palace import Readings

MIRROR, SEVEN, BOTH = 1, 2, 3


def state(g) -> tuple[int, int, int, int]:  # noqa: ANN001
    return g.discard_pile_size(), g.burnt_count(), g.current_player(), g.current_turn()


# ---- four of a kind --------------------------------------------------------------------------------
def test_P15_C20_C10_a_set_of_four() -> None:
    """C20: one set of four bombs (a pick-up of the starting 7S gave seat 0 four sevens); C10: the seat draws
    before its free play (C23)."""
    g = seated("7H 7D 7C", "5H 9D JD", start="7S", draw="4H 4D 4C")
    play(g, "pickup 5H")
    assert names(g.hand(0)) == ["7C", "7D", "7H", "7S"] and g.discard_pile_size() == 1
    play(g, "7H,7D,7C,7S")
    assert state(g) == (0, 5, 0, 5) and names(g.hand(0)) == ["4D"]


def test_P15_C20_a_pair_on_a_pair() -> None:
    """C20: a pair on a pair bombs; the player of the fourth card moves again (P15, C23)."""
    g = seated("6H 6D 9C", "6C 6S 9D", start="5S", draw="4H 4D 4C 4S")
    play(g, "6H,6D")
    assert state(g) == (3, 0, 1, 3)
    play(g, "6C,6S")
    assert state(g) == (0, 5, 1, 4)


def test_P15_C20_four_singles_from_four_seats() -> None:
    """C20: four eights from four seats bomb on the fourth; the seat that laid it goes again."""
    g = seated("8H 9C 9D", "8D JC JD", "8C QC QD", "8S KC KD", start="4S", draw="4H 4D 4C 5H 5D 5C")
    play(g, "8H 8D 8C")
    assert state(g) == (4, 0, 3, 7) and g.run_on_top() == 3
    play(g, "8S")
    assert state(g) == (0, 5, 3, 8)


def test_P15_C20_a_run_longer_than_four_with_two_decks() -> None:
    """C20: three eights and then a pair of eights (twins of two decks) make a run of five: it bombs."""
    g = seated("8H 8D 8C", "8S 8H 9D", start="5S", draw="4H 4D 4C 4S")
    play(g, "8H,8D,8C")
    assert g.resolve("8H").cards[0].ident == 3  # seat 1's own 8H, not seat 0's twin on the pile
    play(g, "8S,8H")
    assert state(g) == (0, 6, 1, 4)


def test_P15_C20_only_the_run_on_top_counts() -> None:
    """C20: eights under a two do not join the eights laid on it."""
    g = seated("8H 8D 9C", "2D 8S 8C", start="5S", draw="8S 4D 4C 4S")
    play(g, "8H,8D 2D 8S")
    assert g.run_on_top() == 1
    play(g, "8S,8C")
    assert g.run_on_top() == 3 and g.burnt_count() == 0 and g.current_player() == 0


def test_P15_C20_C19_a_blind_card_completes_four_across_seats() -> None:
    """C20 'blind cards included': sixes from seat 1 (a pair) and seat 2, then seat 0's blind 6H bomb;
    C19: the blind card has the effect a hand card would have (free play for seat 0)."""
    g = seated("4H 4D 4C | 2H 2D 2C | 6H JD JC", "5S 6D 6C", "7S 6S 8S", start="3S")
    play(g, "4H,4D,4C 5S 7S 2H,2D,2C 6D,6C 6S")
    assert g.stage(0) == "face_down" and g.run_on_top() == 3 and g.discard_pile_size() == 12
    play(g, "blind:0")
    assert state(g) == (0, 13, 0, 10) and [str(c) for c in g.face_down(0)] == ["JD", "JC"]


@pytest.mark.parametrize(("reading", "after_three"), [("counts", (0, 4, 2)), ("not", (4, 0, 0))])
def test_C21_starting_card_in_a_run_switch(reading: str, after_three: tuple[int, int, int]) -> None:
    """C21 probe of §4.3: a starting eight, then three eights by three seats: burntCount 4 (a: counts) or 0
    (b: the turned card was not played); under (b) a fourth played eight bombs (five cards burnt)."""
    g = seated("8H 8D 6C", "8C 9C 9D", "8S 9H 9S", start="8S", readings=Readings(start_card_run=reading))
    play(g, "8H 8C 8S")
    assert state(g)[:3] == after_three
    if reading == "not":
        assert g.run_on_top() == 3 and g.start_card_in_run()
        play(g, "8D")
        assert state(g)[:3] == (0, 5, 0)


# ---- tens ---------------------------------------------------------------------------------------------------
def test_P16_C22_C23_a_ten_on_an_ace_burns_and_the_same_seat_leads() -> None:
    """P16: a ten goes on anything; C22 (a): it burns the pile and the same seat moves again (turn +1);
    C23: the free play may lead any card; C13 (a): the empty pile cannot be taken."""
    g = seated("TH 5C 5D", "6H 6D 6C", start="AS", draw="4H 4D")
    assert valid(g, "TH") and not valid(g, "5C")
    play(g, "TH")
    assert state(g) == (0, 2, 0, 3) and g.effective_top_rank() == 0 and g.top_discard() is None
    assert valid(g, "5C") and valid(g, "5C,5D") and valid(g, "4H") and not valid(g, "pickup")
    play(g, "5C")
    assert state(g) == (1, 2, 1, 4)


# ---- twos ---------------------------------------------------------------------------------------------------
def test_P17_C24_C25_a_two_passes_the_turn_and_anything_may_follow() -> None:
    """P17: a two goes on a king; C24 (a): the next seat moves (not skipped, not the same seat) and may play
    anything -- every card of its hand is TRUE (C25: every rank is at least TWO)."""
    g = seated("2H 9C 9D", "3C 4C 5C", "6C 7C 8C", start="KS", draw="4H 4D 4S")
    assert valid(g, "2H") and not valid(g, "9C")
    play(g, "2H")
    assert g.current_player() == 1 and g.effective_top_rank() == 2
    assert all(valid(g, t) for t in ("3C", "4C", "5C"))


def test_C25_four_twos_bomb() -> None:
    g = seated("2H 2D 9C", "2C 2S 9D", start="5S", draw="4H 4D 4C 4S")
    play(g, "2H,2D 2C,2S")
    assert state(g) == (0, 5, 1, 4)


# ---- the seven (RULE_SEVEN_LOWER) -----------------------------------------------------------------------------
def test_P19_C26_C28_after_a_seven_only_two_to_seven() -> None:
    """C26, C28: after a seven TWO..SEVEN are TRUE (a THREE without the mirror too), TEN and EIGHT..ACE FALSE;
    sevenRestriction TRUE; C27: a lower card ends it."""
    g = seated("7H 9C 9D", "8C TC 6C", start="5S", draw="4H 4D 4C", rules=SEVEN)
    play(g, "7H")
    assert g.seven_restriction() and g.effective_top_rank() == 7
    assert [g.can_play_rank(r) for r in range(2, 15)] == [True] * 6 + [False] * 7
    assert not valid(g, "8C") and not valid(g, "TC") and valid(g, "6C")
    play(g, "6C")
    assert not g.seven_restriction() and g.effective_top_rank() == 6 and valid(g, "9C")


def test_P19_C27_a_seven_renews_a_pick_up_ends() -> None:
    """C26: a seven may follow a seven; C27: it renews the bound; a pick-up empties the pile and ends it."""
    g = seated("7H 9C 9D", "7C 8C 8D", start="5S", draw="4H 4D 4C", rules=SEVEN)
    play(g, "7H")
    assert valid(g, "7C")
    play(g, "7C")
    assert g.seven_restriction() and not valid(g, "9C")
    play(g, "pickup")
    assert not g.seven_restriction() and g.effective_top_rank() == 0


def test_P19_C20_C27_four_sevens_bomb_and_end_the_bound() -> None:
    g = seated("7H 7D 9C", "7C 7S 9D", start="5S", draw="4H 4D 4C 4S", rules=SEVEN)
    play(g, "7H,7D 7C,7S")
    assert state(g) == (0, 5, 1, 4) and not g.seven_restriction()


def test_P20_without_the_option_a_seven_is_a_plain_rank() -> None:
    g = seated("7H 9C 9D", "8C TC 6C", start="5S", draw="4H 4D 4C")
    play(g, "7H")
    assert not g.seven_restriction() and valid(g, "8C") and valid(g, "TC") and not valid(g, "6C")


@pytest.mark.parametrize(("position", "fails"), [(0, True), (1, True), (2, False)])
def test_P19_C28_C18_a_blind_ten_or_eight_fails_on_a_seven(position: int, fails: bool) -> None:
    """C28: a blind TEN or EIGHT..ACE fails on a seven (C18: it and the pile go to the hand); a blind six fits."""
    g = seated("4H 4D 4C | 6D 6C 6S | TH 8H 6H", "5S 7S KS", start="2S", rules=SEVEN)
    play(g, "4H,4D,4C 5S 6D,6C,6S 7S")
    assert g.seven_restriction() and g.stage(0) == "face_down"
    turned = g.get_face_down_card(0, position)
    play(g, f"blind:{position}")
    if fails:
        assert g.player_card_count(0) == 10 and turned in g.hand(0) and g.discard_pile_size() == 0
    else:
        assert g.top_discard() == turned and not g.seven_restriction() and g.player_card_count(0) == 0
    assert g.current_player() == 1


# ---- the mirror three (RULE_MIRROR_THREE) ------------------------------------------------------------------
def test_P18_C29_a_three_on_an_eight_counts_as_an_eight() -> None:
    """C29: effectiveTopRank EIGHT after a three on an eight; a seven is then FALSE, eight and nine TRUE."""
    g = seated("8H 7D 9C", "3C 7C 9H", start="5S", draw="8D 4D 4C", rules=MIRROR)
    play(g, "8H")
    assert valid(g, "3C")
    play(g, "3C")
    assert g.effective_top_rank() == 8 and str(g.top_discard()) == "3C"
    assert not valid(g, "7D") and valid(g, "9C") and valid(g, "8D")


def test_P20_without_the_option_a_three_is_a_plain_rank() -> None:
    g = seated("8H 7D 9C", "3C 7C 9H", start="5S", draw="8D 4D 4C")
    play(g, "8H")
    assert not valid(g, "3C")


def test_P18_C29_a_three_on_a_two_on_an_empty_pile_and_on_a_seven() -> None:
    """C29: a three on a two counts as a two (anything follows); on an empty pile it is a plain THREE
    (reference value); on a seven with both options it counts as a seven and keeps the restriction."""
    g = seated("2H 9C 9D", "3C 4C 5C", start="KS", draw="4H 4D 4S", rules=MIRROR)
    play(g, "2H 3C")
    assert g.effective_top_rank() == 2 and g.current_player() == 0
    assert valid(g, "9C") and all(g.can_play_rank(r) for r in range(2, 15))
    g = seated("TH 3D 9C", "6H 6D 6C", start="5S", draw="4H", rules=MIRROR)
    play(g, "TH 3D")
    assert g.effective_top_rank() == 3 and g.discard_pile_size() == 1
    g = seated("7H 8D 5D", "3C 9C 9D", start="5S", draw="4H 4D 4C", rules=BOTH)
    play(g, "7H 3C")
    assert g.effective_top_rank() == 7 and g.seven_restriction()
    assert not valid(g, "8D") and valid(g, "5D")


def test_P18_C30_three_eights_then_a_three_bomb() -> None:
    """C30, the seed's example: three eights followed by a three make a bomb."""
    g = seated("8H 8D 8C", "3C 9D 9C", start="5S", draw="4H 4D 4C 4S", rules=MIRROR)
    play(g, "8H,8D,8C 3C")
    assert state(g) == (0, 5, 1, 4)


def test_P18_C30_an_eight_then_three_threes_bomb() -> None:
    g = seated("8H 9D 9C", "3C 3D 3H", start="5S", draw="4H 4D 4C 4S", rules=MIRROR)
    play(g, "8H 3C,3D,3H")
    assert state(g) == (0, 5, 1, 4)


def test_P18_C30_four_threes_on_an_empty_pile_bomb() -> None:
    """C30: threes on an empty pile are real threes, and four of them bomb."""
    g = seated("TH 3D 3C", "3H 3S 9D", start="5S", draw="4H 4D 4C 4S", rules=MIRROR)
    play(g, "TH 3D,3C")
    assert g.effective_top_rank() == 3 and g.current_player() == 1
    play(g, "3H,3S")
    assert state(g) == (0, 6, 1, 5)


# ---- special starting cards ---------------------------------------------------------------------------------
def test_C31_a_turned_ten_is_just_a_rank() -> None:
    """C31 (a): a turned ten stays on the pile and must be matched or beaten, or answered by a two or a ten;
    a ten on it burns both (C22)."""
    g = seated("9C JC 2C", "TC 6D 6C", start="TS", draw="4H 4D")
    assert (g.discard_pile_size(), g.burnt_count(), g.effective_top_rank()) == (1, 0, 10)
    assert not valid(g, "9C") and valid(g, "JC") and valid(g, "2C")
    play(g, "JC pickup")  # seat 1 takes TS and JC: nothing was burnt
    assert names(g.hand(1)) == ["6C", "6D", "JC", "TC", "TS"] and g.burnt_count() == 0


def test_C31_C22_a_ten_on_the_turned_ten_burns_both() -> None:
    g = seated("TC 6D 6C", "9C JC 2C", start="TS", draw="4H 4D")
    play(g, "TC")
    assert state(g) == (0, 2, 0, 3)


def test_C31_C39_a_turned_seven_imposes_nothing() -> None:
    """C31 (a), C39: with RULE_SEVEN_LOWER a turned seven imposes nothing: sevenRestriction FALSE, an eight fits."""
    g = seated("8C 9C 9D", "6H 6D 6C", start="7S", rules=SEVEN)
    assert g.effective_top_rank() == 7 and not g.seven_restriction() and valid(g, "8C")
