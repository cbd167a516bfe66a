"""The 2017 rulings table (rules-17s2.md §3) and where its lenient parts show (``leniency``)."""

from __future__ import annotations

from decks17 import game, play

from reference.fcd17s2 import NO_WINNER, NOT_FINISHED, RULINGS, STRICT_IDS
from reference.fcd17s2.rulings import BY_ID, DECK_COUNTS, LENIENT_IDS, OBSERVATIONS, leniency
from reference.rulings import EVERY_OBSERVATION

# rules-17s2.md §3.11, copied by hand.
SUMMARY_STRICT = {f"B{i}" for i in (1, 2, 3, 5, 10, 11, 12, 13, 14, 15, 18, 19, 20, 21, 22, 23, 25, 26, 27, 28,
                                    30, 31, 33, 34, 35, 37, 38, 39, 40, 41, 42, 43, 44, 45, 47, 48, 49, 50,
                                    51, 52, 53, 54, 56, 57, 60)}
SUMMARY_LENIENT = {f"B{i}" for i in (4, 6, 7, 8, 9, 10, 16, 17, 19, 22, 24, 29, 32, 35, 36, 42, 44, 45, 46,
                                     52, 53, 54, 55, 56, 58, 59)}


def test_rulings_every_ruling_B1_to_B60_is_one_row_in_order() -> None:
    assert [r.id for r in RULINGS] == [f"B{i}" for i in range(1, 61)]
    assert set(BY_ID) == {r.id for r in RULINGS}


def test_rulings_strict_and_lenient_are_the_summary_of_section_3_11() -> None:
    assert set(STRICT_IDS) == SUMMARY_STRICT
    assert set(LENIENT_IDS) == SUMMARY_LENIENT
    assert {r.id for r in RULINGS if r.kind == "STRICT in part"} == SUMMARY_STRICT & SUMMARY_LENIENT
    assert BY_ID["B20"].kind == "STRICT" and BY_ID["B46"].kind == "LENIENT"


def test_rulings_a_lenient_ruling_lists_its_readings_the_reference_first() -> None:
    """Where every listed reading is accepted there are at least two; the engine takes the first (B44: 4 cards)."""
    assert all(len(r.readings) >= 2 for r in RULINGS if r.lenient)
    assert "4" in BY_ID["B44"].reference and "every count" in BY_ID["B42"].reference


def test_rulings_name_only_observations_of_the_2017_api() -> None:
    named = {n for r in RULINGS for n in (*r.affects, *r.unaffected)} - {EVERY_OBSERVATION}
    assert named <= set(OBSERVATIONS)
    assert BY_ID["B53"].touches("hand") and not BY_ID["B53"].touches("winner")
    assert BY_ID["B6"].touches("current_player") and not BY_ID["B6"].touches("num_cards")


# ---- leniency in hand-worked states ---------------------------------------------------
# Top 5RH.  Player 0: 5BD (matches), 7GS (does not), BRS, CRS.  Player 1: 2BD.

def start():
    return game("5BD 7GS BRS CRS", "2BD", top="5RH", draw="EYD*12")


def test_B46_at_the_very_start_only_a_call_out_is_open() -> None:
    """B46: on turn 0 before anything else, isValidMove of a SAY_* is lenient, and nothing else is."""
    lenient = leniency(start())
    assert lenient.fields == {"valid_say": ("B46",)}
    assert lenient.play_cards == {} and lenient.winner_accepts is None
    assert leniency(start(), strict=frozenset({"B46"})).fields == {}


def test_B16_after_a_draw_only_the_cards_that_matched_are_lenient() -> None:
    g = start()
    play(g, "draw")
    lenient = leniency(g)
    assert lenient.play_cards == {(5, 1, 1): ("B16",), (11, 0, 3): ("B16",), (12, 0, 3): ("B16",)}
    assert not lenient.play_is_lenient((7, 2, 3))  # 7GS never matched


def test_B17_B29_B32_what_follows_a_discard() -> None:
    """B17 after a plain discard (draw); B29 after a BACKWARDS (direction, and B17's draw); B32 after a C."""
    g = start()
    play(g, "5BD")
    assert leniency(g).fields == {"valid_draw": ("B17",)}
    g = start()
    play(g, "BRS")
    assert leniency(g).fields == {"valid_draw": ("B17",), "play_direction": ("B29",)}
    g = start()
    play(g, "CRS")
    assert leniency(g).fields == {"valid_draw": ("B32",)}


def test_B6_a_turned_up_advance_leaves_everything_but_the_deck_counts_open() -> None:
    g = game(top="ARH", draw="EYD*4")
    lenient = leniency(g)
    assert lenient.field_is_lenient("current_player") and lenient.field_is_lenient("valid_play")
    assert not any(lenient.field_is_lenient(n) for n in DECK_COUNTS)
    assert not leniency(g, strict=frozenset({"B6"})).field_is_lenient("current_player")


def test_B35_B36_after_a_declare() -> None:
    """B35: with DRS declaring green, 7RC (printed red), 8BS (spades) and DBD (value D) are lenient, 7GC
    (declared green) is not; B36: once a draw-only turn has passed, 7GC and 7RC are lenient too."""
    g = game("DRS", "7GC 7RC 8BS DBD", "7GC 7RC 8BS DBD", top="5RH", draw="EYD*4")
    play(g, "DRS/G end")
    lenient = leniency(g)
    assert set(lenient.play_cards) == {(7, 0, 2), (8, 1, 3), (13, 1, 1)}
    assert not lenient.play_is_lenient((7, 2, 2))
    play(g, "draw end")
    lenient = leniency(g)
    assert lenient.play_cards[(7, 2, 2)] == ("B36",)
    assert lenient.play_cards[(7, 0, 2)] == ("B35", "B36")


def test_B22_B24_a_two_on_a_paid_two_and_paying_part() -> None:
    """B22: player 2's 2 on the paid 2 leaves player 3 with draw/end lenient; B24: once player 3 has drawn
    one card, a 2 in hand is lenient."""
    g = game("2RH", "", "2RD", "2RS", top="5RH", draw="EYD*8")
    play(g, "2RH end draw draw end 2RD end")
    assert leniency(g).fields == {"valid_draw": ("B22",), "valid_end": ("B22",)}
    play(g, "draw")
    assert leniency(g).play_cards == {(2, 0, 3): ("B24",)}


def test_B44_B45_after_a_wrong_call_out_hands_and_claims_are_open_the_turns_and_counts_are_not() -> None:
    """The penalty's size (4 or 2 cards) shifts the piles: hands and claims differ from then on; whose turn
    it is, the history, the top card, drawing and ending do not, nor the counts but the caller's, which may be
    2 cards short (B44's strict part: the previous player's hand is unchanged)."""
    g = start()
    play(g, "draw end uno")
    lenient = leniency(g)
    assert lenient.fields[EVERY_OBSERVATION] == ("B44",)
    assert lenient.fields["valid_end"] == ("B45",)
    assert lenient.field_is_lenient("hand") and lenient.field_is_lenient("valid_say")
    assert not any(lenient.field_is_lenient(n) for n in ("num_of_value", "current_player", "past_moves",
                                                          "top_discard", "valid_draw", "card_counts"))
    assert lenient.offsets == {"card_counts": {1: (0, -2)}}


def test_B53_after_a_win_isValidMove_and_gameWinner_stay_strict() -> None:
    g = game("CRH CBH CGH CYH CRD CBD 5BD", top="5RH", draw="EYD*4")
    play(g, "CRH CBH CGH CYH CRD CBD 5BD")
    lenient = leniency(g)
    assert lenient.field_is_lenient("hand") and lenient.field_is_lenient("current_player")
    assert not any(lenient.field_is_lenient(n) for n in ("winner", "valid_play", "valid_draw", "valid_end"))


def test_B55_with_nothing_to_draw_the_winner_may_be_either() -> None:
    g = game(top="5RH")  # 29 cards: nothing to draw from the start
    lenient = leniency(g)
    assert lenient.winner_accepts == frozenset({NOT_FINISHED, NO_WINNER})
    assert lenient.fields["valid_draw"] == ("B55",)


def test_B55_S21_once_a_draw_finds_nothing_every_reading_has_ended_the_game() -> None:
    """Reading (a) ends the game at this draw, (b) ended it already; (c) is about penalty cards, no move:
    so NO_WINNER and no valid move are required from here on."""
    g = game(top="5RH")
    play(g, "draw")
    assert g.game_winner() == NO_WINNER
    lenient = leniency(g)
    assert lenient.winner_accepts is None
    assert not any(lenient.field_is_lenient(n) for n in ("winner", "valid_play", "valid_draw", "valid_end"))
