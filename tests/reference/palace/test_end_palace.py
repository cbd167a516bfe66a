"""Going out (P14, C32, C33, C34), after the end (C42), malformed moves (C40, C41, C46), index ranges (C43),
hidden information and turn-taking (C35, C44, C45)."""

from __future__ import annotations

import pytest
from decks_palace import names, play, seated

from reference.palace import (
    NOT_FINISHED,
    Action,
    Card,
    IllegalMoveError,
    MalformedMoveError,
    Outcome,
    Phase,
    PlayerMove,
    Rank,
    Suit,
    Termination,
)
from reference.palace.header import PLAYER_CALLABLE


def everything_invalid(g) -> bool:  # noqa: ANN001
    battery = [PlayerMove.pick_up(), PlayerMove.blind(0), PlayerMove.choose(*g.hand(0)[:3])]
    battery += [PlayerMove.play(c) for s in range(g.num_players()) for c in g.hand(s) + g.face_up(s)]
    battery += [PlayerMove.blind(i) for i in range(-1, 4)]
    return not any(g.is_valid_move(m) for m in battery) and g.legal_moves() == []


def test_P14_C32_C18_C19_going_out_from_the_hand_after_a_failed_blind_card() -> None:
    """P1, C32: the seat that gets rid of all its cards wins; the last card can be a hand card -- seat 0's
    last blind card (4S) fails on the queen and goes to its hand with the pile (C18); seat 0 then plays 4S,
    9H and QS and is out: winner 0, GAME_OVER."""
    g = seated("4H 4D 4C | 6H 6D 6C | TH 4S 9H", "5S 7S QS | 3S 5C JS", start="2S")
    play(g, "4H,4D,4C 5S 6H,6D,6C 7S blind:0")  # TH on 7S: a ten, bomb, free play (C19, C22, C23)
    assert (g.current_player(), g.burnt_count()) == (0, 10)
    play(g, "blind:1 QS")  # 9H on the empty pile; seat 1 answers with its last hand card
    assert [str(c) for c in g.face_down(0)] == ["4S"] and g.stage(1) == "face_up"
    play(g, "blind:0")  # 4S on QS fails
    assert names(g.hand(0)) == ["4S", "9H", "QS"] and g.face_down_count(0) == 0 and g.current_player() == 1
    play(g, "3S 4S 5C 9H JS")
    assert g.game_winner() == NOT_FINISHED and g.outcome() is None and g.stage(1) == "face_down"
    play(g, "QS")
    assert (g.game_winner(), g.current_phase(), g.current_turn()) == (0, Phase.GAME_OVER, 16)
    assert g.outcome() == Outcome(Termination.LAST_CARD, 0)
    assert (g.player_card_count(0), g.face_up_count(0), g.face_down_count(0)) == (0, 0, 0)


def _one_blind_card_left(last: str):  # noqa: ANN202
    g = seated(f"4H 4D 4C | 6H 6D 6C | 9H 9D {last}", "5S 7S 9S | JS", start="2S")
    play(g, "4H,4D,4C 5S 6H,6D,6C 7S blind:0 9S blind:0 JS")
    assert g.face_down_count(0) == 1 and g.run_on_top() == 1 and g.discard_pile_size() == 13
    return g


def test_P14_C32_winning_with_a_bomb_takes_no_free_play() -> None:
    """C32: the game ends when seat 0's last (blind) card is a ten: winner 0, GAME_OVER, no free play.
    §1.5 order of effects: going out is checked before the bomb, so the reference leaves the winning ten
    on the pile unburnt (C42: the final position is described as it stands)."""
    g = _one_blind_card_left("TH")
    play(g, "blind:0")
    assert (g.game_winner(), g.current_phase(), g.current_player()) == (0, Phase.GAME_OVER, 0)
    assert str(g.top_discard()) == "TH" and (g.discard_pile_size(), g.burnt_count()) == (14, 0)
    assert everything_invalid(g)


def test_P14_C32_C24_winning_with_a_two() -> None:
    """C32: a two as the last card wins at once; the turn does not pass (C24 has nothing to pass)."""
    g = _one_blind_card_left("2H")
    play(g, "blind:0")
    assert (g.game_winner(), g.current_phase()) == (0, Phase.GAME_OVER) and str(g.top_discard()) == "2H"


def test_C32_C33_C42_after_the_end_nothing_is_valid_and_nothing_changes() -> None:
    """C33: the game ends at its first winner; C42: isValidMove FALSE for everything, gameWinner unchanged,
    the winner's zones empty; playMove refuses (C41); the snapshot stays the same."""
    g = _one_blind_card_left("TH")
    play(g, "blind:0")
    before = g.snapshot()
    assert everything_invalid(g)
    for move in (PlayerMove.pick_up(), PlayerMove.blind(0), PlayerMove.play(*g.hand(1)[:1])):
        with pytest.raises(IllegalMoveError, match="C32"):
            g.play_move(move)
    assert g.snapshot() == before and g.game_winner() == 0 and g.stage(1) != "out"


def test_C34_no_move_limit_in_the_engine() -> None:
    """C34: gameWinner stays NOT_FINISHED while nobody is out, however long the game runs: here each seat
    takes a pile of two and otherwise plays its lowest single card, which goes round for ever."""
    g = seated("5H 6H 7H", "5D 6D 7D", start="4S")
    for _ in range(300):
        if g.discard_pile_size() >= 2:
            g.play_move(PlayerMove.pick_up())
        else:
            g.play_move(min((m for m in g.legal_moves() if len(m.cards) == 1), key=lambda m: m.cards[0].rank))
        assert g.game_winner() == NOT_FINISHED and g.outcome() is None
    assert g.current_turn() == 302 and g.current_phase() == Phase.PLAY_PHASE


def _malformed(g) -> list[PlayerMove]:  # noqa: ANN001
    h0, h1 = g.hand(0)[0], g.hand(0)[2]
    return [
        PlayerMove(7), PlayerMove(-1), PlayerMove(Action.PLAY_CARDS),
        PlayerMove(Action.PLAY_CARDS, (h0,), num_cards=9), PlayerMove(Action.PLAY_CARDS, (h0,), num_cards=0),
        PlayerMove(Action.PLAY_CARDS, (h0,), num_cards=-1), PlayerMove(Action.PLAY_CARDS, (None,)),
        PlayerMove(Action.PLAY_CARDS, (h0, None)), PlayerMove(Action.PLAY_CARDS, (h0,), num_cards=2),
        PlayerMove.play(h0, h0), PlayerMove.play(*(h0,) * 9),
        PlayerMove(1.0), PlayerMove("1"), PlayerMove(True),  # type: ignore[arg-type]
        PlayerMove(Action.PLAY_CARDS, (h0,), num_cards="1"),  # type: ignore[arg-type]
        PlayerMove(Action.PLAY_CARDS, ("5H",)),  # type: ignore[arg-type]  # not a Card: like junk
    ], [
        PlayerMove.play(g.hand(1)[0]),  # C35: another seat's card
        PlayerMove.play(g.face_up(0)[0]), PlayerMove.play(g.face_down(0)[0]), PlayerMove.play(g.top_discard()),
        PlayerMove.play(g.get_deck_card(0)), PlayerMove.play(Card(Rank.FIVE, Suit.HEARTS)),
        PlayerMove.play(Card(Rank.FIVE, Suit.HEARTS, 9999)), PlayerMove.play(Card(Rank.ACE, Suit.SPADES, h0.ident)),
        PlayerMove.play(h0, h1),  # mixed ranks
        PlayerMove.blind(-1), PlayerMove.blind(3), PlayerMove.blind(0),  # the hand is not empty
        PlayerMove(Action.PLAY_FACE_DOWN, (), "0"),  # type: ignore[arg-type]
        PlayerMove.choose(*g.hand(0)),  # the wrong phase
    ]


def test_C40_C46_C41_malformed_moves_are_false_change_nothing_and_are_refused() -> None:
    """C40: every malformed move of the list is FALSE without a crash (C35: another seat's card too);
    C46: the snapshot is unchanged, after valid moves are asked about too; C41: playMove refuses each
    (MalformedMoveError for the C40 shapes), still changing nothing."""
    g = seated("5H 5D 9C | KH KD KC | 6H 6D 6C", "7H 7D 7C", start="4S", draw="2C")
    before = g.snapshot()
    malformed, wrong = _malformed(g)
    assert [g.is_valid_move(m) for m in malformed + wrong] == [False] * (len(malformed) + len(wrong))
    assert all(g.why_invalid(m) for m in malformed + wrong)
    assert all(g.is_valid_move(m) for m in g.legal_moves())
    assert g.snapshot() == before
    for move in malformed:
        with pytest.raises(MalformedMoveError):
            g.play_move(move)
    for move in wrong:
        with pytest.raises(IllegalMoveError):
            g.play_move(move)
    assert g.snapshot() == before


def test_C43_index_ranges_return_null() -> None:
    """C43: every Card getter returns NULL (None) at n = -1 and at n = the zone's size, and a card inside."""
    g = seated("TH 5D 9C", "7H 7D 7C", start="4S", draw="2C 2D 2H 2S 3C")
    play(g, "TH 5D 7H")
    assert g.burnt_count() == 2 and g.discard_pile_size() == 2
    sized = [
        (g.hand_card, g.hand_card_count()),
        (g.get_discard_pile_card, g.discard_pile_size()),
        (g.get_burnt_card, g.burnt_count()),
        (g.get_deck_card, g.draw_pile_size()),
    ]
    for s in range(2):
        sized += [(lambda n, s=s: g.face_up_card(s, n), g.face_up_count(s)),
                  (lambda n, s=s: g.get_hand_card(s, n), g.player_card_count(s)),
                  (lambda n, s=s: g.get_face_down_card(s, n), g.face_down_count(s))]
    for getter, size in sized:
        assert size > 0 and getter(-1) is None and getter(size) is None
        assert all(getter(n) is not None for n in range(size))


def test_C44_player_callable_queries_hide_face_down_and_other_hands() -> None:
    """P11: face-up rows are public (faceUpCard of any seat); C44: handCard shows only the current seat's
    hand; face-down cards and other hands only through the runner/test functions (getHandCard,
    getFaceDownCard, getDeckCard), which are not player-callable."""
    assert not {"getHandCard", "getFaceDownCard", "getDeckCard", "playMove", "gameWinner"} & set(PLAYER_CALLABLE)
    g = seated("5H 6H 7H", "5D 6D 7D", start="4S", draw="9C")
    play(g, "5H")
    assert [g.hand_card(n) for n in range(3)] == list(g.hand(1)) and g.face_up_card(0, 0) == g.face_up(0)[0]


def test_C45_C5_in_setup_every_move_is_a_face_up_choice() -> None:
    """C45: decideMove is called in setup too and must return CHOOSE_FACE_UP: every valid setup move is one."""
    g = seated("5H 6H 7H", "5D 6D 7D", start="4S")
    from reference.palace import Game

    fresh = Game(g.setup)
    assert {m.action for m in fresh.legal_moves()} == {Action.CHOOSE_FACE_UP}
    assert not fresh.is_valid_move(PlayerMove.pick_up()) and not fresh.is_valid_move(PlayerMove.blind(0))
