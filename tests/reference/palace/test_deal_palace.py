"""The deal (P2, P4, C2), seats and order (C1), the face-up choice (P3, C5) and turn counting (C6).

The decks are the 52 cards in the order 2H 3H ... AH 2D ... AD 2C ... AC 2S ... AS, so card i is
rank letter i mod 13 of suit i div 13 and every expected position is read off that list by hand.
"""

from __future__ import annotations

import pytest
from decks_palace import names, play, seated

from reference.palace import NOT_FINISHED, Action, Game, Phase, PlayerMove, Setup, standard_deck

DECK = tuple(standard_deck())


def ids(cards) -> list[int]:  # noqa: ANN001
    return [c.ident for c in cards]


def game(n: int) -> Game:
    return Game(Setup(n, 0, DECK))


def test_P2_C2_deal_two_players_exact_positions() -> None:
    """C2, N=2: hands are cards 0,2,..,10 and 1,3,..,11; face-down position j of seat s is card 12+2j+s;
    card 18 (7D) starts the pile; card 19 (8D) is drawn first."""
    g = game(2)
    assert [repr(g.get_hand_card(0, k)) for k in range(6)] == ["2H@0", "4H@2", "6H@4", "8H@6", "TH@8", "QH@10"]
    assert [repr(g.get_hand_card(1, k)) for k in range(6)] == ["3H@1", "5H@3", "7H@5", "9H@7", "JH@9", "KH@11"]
    assert [repr(g.get_face_down_card(0, j)) for j in range(3)] == ["AH@12", "3D@14", "5D@16"]
    assert [repr(g.get_face_down_card(1, j)) for j in range(3)] == ["2D@13", "4D@15", "6D@17"]
    assert repr(g.top_discard()) == "7D@18" and g.discard_pile_size() == 1
    assert repr(g.get_deck_card(0)) == "8D@19" and repr(g.get_deck_card(32)) == "AS@51"
    assert g.draw_pile_size() == 52 - 19 == 33


def test_P2_C2_deal_three_players_exact_positions() -> None:
    """C2, N=3: seat s holds cards s, s+3, ..., s+15; face down 18+3j+s; start card 27; draw 28.. (24 cards)."""
    g = game(3)
    assert ids(g.hand(0)) == [0, 3, 6, 9, 12, 15]
    assert ids(g.hand(1)) == [1, 4, 7, 10, 13, 16]
    assert ids(g.hand(2)) == [2, 5, 8, 11, 14, 17]
    assert ids(g.face_down(0)) == [18, 21, 24] and ids(g.face_down(1)) == [19, 22, 25]
    assert ids(g.face_down(2)) == [20, 23, 26]
    assert [str(c) for c in g.face_down(2)] == ["9D", "QD", "2C"]
    assert repr(g.top_discard()) == "3C@27" and repr(g.get_deck_card(0)) == "4C@28"
    assert g.draw_pile_size() == 24 and g.get_deck_card(24) is None


def test_P2_C2_deal_five_players_exact_positions() -> None:
    """C2, N=5: seat s holds s+5k (k<6); face down 30+5j+s; card 45 (8S) starts; draw 46..51 (6 cards).

    Seat 4: hand 4 (6H), 9 (JH), 14 (3D), 19 (8D), 24 (KD), 29 (5C); face down 34 (TC), 39 (2S), 44 (7S)."""
    g = game(5)
    for s in range(5):
        assert ids(g.hand(s)) == [s + 5 * k for k in range(6)]
        assert ids(g.face_down(s)) == [30 + 5 * j + s for j in range(3)]
        assert (g.player_card_count(s), g.face_down_count(s), g.face_up_count(s)) == (6, 3, 0)
    assert [str(c) for c in g.hand(4)] == ["6H", "JH", "3D", "8D", "KD", "5C"]
    assert [repr(g.get_face_down_card(4, j)) for j in range(3)] == ["TC@34", "2S@39", "7S@44"]
    assert repr(g.top_discard()) == "8S@45"
    assert [repr(g.get_deck_card(k)) for k in range(6)] == ["9S@46", "TS@47", "JS@48", "QS@49", "KS@50", "AS@51"]
    assert g.draw_pile_size() == 6 and g.get_deck_card(6) is None


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_P4_C2_start_state_any_player_count(n: int) -> None:
    """§1.3 after newGame: SETUP_PHASE, seat 0, turn 0, NOT_FINISHED; pile = card 9N; draw = cards 9N+1.."""
    g = game(n)
    assert (g.current_phase(), g.current_player(), g.current_turn(), g.game_winner()) == (
        Phase.SETUP_PHASE, 0, 0, NOT_FINISHED)
    assert (g.num_players(), g.num_cards(), g.game_rules()) == (n, 52, 0)
    assert ids(g.pile()) == [9 * n] and g.get_discard_pile_card(0) is g.top_discard()
    assert ids(g.draw_pile()) == list(range(9 * n + 1, 52)) == [g.get_deck_card(k).ident for k in range(52 - 9 * n - 1)]
    assert g.burnt_count() == 0 and g.effective_top_rank() == DECK[9 * n][0]
    assert g.outcome() is None


def test_P3_C5_C6_C1_face_up_choices_seat_by_seat() -> None:
    """C5: seats 0..N-1 each lay three hand cards face up; C1 the seat advances; C6 the turn counts them;
    after seat N-1 the phase is PLAY_PHASE, seat 0 to move, turn N."""
    g = game(3)
    for s in range(3):
        assert (g.current_phase(), g.current_player(), g.current_turn()) == (Phase.SETUP_PHASE, s, s)
        hand = g.hand(s)
        chosen = (hand[5], hand[0], hand[2])
        assert g.is_valid_move(PlayerMove.choose(*chosen))
        g.play_move(PlayerMove.choose(*chosen))
        assert g.face_up(s) == chosen and g.face_up_count(s) == 3
        assert [g.face_up_card(s, k) for k in range(3)] == list(chosen)
        assert g.hand(s) == (hand[1], hand[3], hand[4]) and g.player_card_count(s) == 3
        for later in range(s + 1, 3):
            assert g.face_up_count(later) == 0  # 0 until the seat has chosen
    assert (g.current_phase(), g.current_player(), g.current_turn()) == (Phase.PLAY_PHASE, 0, 3)


def test_C5_any_three_may_be_chosen_and_the_choice_is_written() -> None:
    """C5: any three of the six, the best kept in hand included; P3: three stay in the hand."""
    g = game(2)
    assert len(g.legal_moves()) == 20  # C(6,3)
    assert all(m.action == Action.CHOOSE_FACE_UP for m in g.legal_moves())
    play(g, "up:2H,4H,6H up:9H,JH,KH")
    assert names(g.face_up(0)) == ["2H", "4H", "6H"] and names(g.hand(0)) == ["8H", "QH", "TH"]
    assert names(g.face_up(1)) == ["9H", "JH", "KH"] and names(g.hand(1)) == ["3H", "5H", "7H"]


def test_C5_C40_choices_that_are_not_three_different_own_hand_cards() -> None:
    """C40: numCards ≠ 3, NULL, repeated, another seat's card, a face-down card, the pile card: FALSE."""
    g = game(2)
    hand, other = g.hand(0), g.hand(1)
    before = g.snapshot()
    bad = [
        PlayerMove.choose(hand[0], hand[1]),
        PlayerMove.choose(*hand[:4]),
        PlayerMove.choose(hand[0], hand[1], None),  # type: ignore[arg-type]
        PlayerMove(Action.CHOOSE_FACE_UP, hand[:2], num_cards=3),  # the third entry NULL
        PlayerMove.choose(hand[0], hand[0], hand[1]),
        PlayerMove.choose(hand[0], hand[1], other[0]),
        PlayerMove.choose(hand[0], hand[1], g.face_down(0)[0]),
        PlayerMove.choose(hand[0], hand[1], g.top_discard()),
        PlayerMove.play(hand[0]),  # a play in the setup phase
        PlayerMove.blind(0),
        PlayerMove.pick_up(),
    ]
    assert [g.is_valid_move(m) for m in bad] == [False] * len(bad)
    assert g.snapshot() == before


def test_C5_C40_no_choice_once_play_has_started() -> None:
    """C5: no later swapping -- CHOOSE_FACE_UP is FALSE in the play phase."""
    g = seated("5H 6H 7H | 8H 9H TH", "5D 6D 7D", start="4S")
    assert not g.is_valid_move(PlayerMove.choose(*g.hand(0)))
    assert not g.is_valid_move(PlayerMove.choose(*g.face_up(0)))


def test_P5_C1_play_passes_to_the_next_seat_and_wraps() -> None:
    """P5, C1: after an ordinary move seat s hands over to (s+1) mod N; C6 one turn per move."""
    g = seated("4H 9C 9D", "5H 9H 9S", "6H JC JD", start="3S", draw="2C 2D 2H")
    assert (g.current_player(), g.current_turn()) == (0, 3)
    play(g, "4H")
    assert (g.current_player(), g.current_turn()) == (1, 4)
    play(g, "5H")
    assert (g.current_player(), g.current_turn()) == (2, 5)
    play(g, "6H")
    assert (g.current_player(), g.current_turn()) == (0, 6)
