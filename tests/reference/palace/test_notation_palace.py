"""The project's notations -- cards, setups, moves, readings -- and their exact round trips; C7 deck checks."""

from __future__ import annotations

import pytest
from decks_palace import seated

from reference.palace import (
    NO_IDENT,
    Action,
    Card,
    CardRef,
    DeckError,
    Game,
    IllegalMoveError,
    MoveSpec,
    NotationError,
    PlayerMove,
    Rank,
    Readings,
    Setup,
    Suit,
    format_moves,
    new_game,
    parse_moves,
    standard_deck,
)
from reference.palace.cards import format_key, parse_key


def test_notation_cards_round_trip() -> None:
    for rank in Rank:
        for suit in Suit:
            text = format_key((rank, suit))
            assert parse_key(text) == (rank, suit)
            assert parse_key(text.lower()) == (rank, suit)
    assert parse_key("TH") == (Rank.TEN, Suit.HEARTS)
    assert parse_key("3S") == (Rank.THREE, Suit.SPADES)
    assert parse_key("AC") == (Rank.ACE, Suit.CLUBS)
    for bad in ("1H", "10H", "TX", "T", "", "THH"):
        with pytest.raises(NotationError):
            parse_key(bad)


def test_notation_card_identity_C4() -> None:
    """C4: cards are equal by identity (their deck index); twins differ; a card of no game has ident -1."""
    a, b = Card(Rank.FIVE, Suit.HEARTS, 3), Card(Rank.FIVE, Suit.HEARTS, 12)
    assert a != b and a == Card(Rank.FIVE, Suit.HEARTS, 3) and len({a, b, Card(Rank.FIVE, Suit.HEARTS, 3)}) == 2
    assert str(b) == "5H" and repr(b) == "5H@12" and Card.parse("5H@12") == b
    assert Card.parse("5H").ident == NO_IDENT and repr(Card.parse("5H")) == "5H"
    assert b.describe() == "five of hearts" and b.key == (5, 0)


@pytest.mark.parametrize("text", [
    "2p basic: " + " ".join(["5H", "6D", "7C"] * 6) + " 4C 9S KD",
    "3p mirror: 2H*3 3D*3 4C*3 5S*3 6H*3 7D*3 8C*3 9S*3 TH*3 JD",
    "4p seven: " + " ".join(["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH"] * 4) + " AS",
    "5p mirror+seven: " + " ".join(f"{r}{s}" for s in "HDCS" for r in "23456789TJQKA"),
])
def test_notation_setup_round_trip(text: str) -> None:
    setup = Setup.parse(text)
    assert str(setup) == text
    assert Setup.parse(str(setup)) == setup


def test_notation_setup_repeat_shorthand_is_canonical() -> None:
    setup = Setup.parse("2p seven+mirror: 9S 9S " + "5H 6D " * 8 + "4C")
    assert setup.rules == 3 and setup.deck[:2] == ((9, 3), (9, 3)) and setup.n_cards == 19
    assert str(setup) == "2p mirror+seven: 9S*2 " + "5H 6D " * 8 + "4C"
    assert Setup.parse(str(setup)) == setup


def test_notation_setup_properties_follow_C2() -> None:
    """C2: the Setup names the hands, face-down rows, starting card and draw pile of its deal."""
    setup = Setup(2, 0, tuple(standard_deck()))
    assert setup.hand_of(1) == tuple(standard_deck()[1:12:2])
    assert setup.face_down_of(0) == tuple(standard_deck()[i] for i in (12, 14, 16))
    assert setup.start == standard_deck()[18] and setup.draw == tuple(standard_deck()[19:])
    again = Setup.dealt(2, 0, [setup.hand_of(0), setup.hand_of(1)], [setup.face_down_of(0), setup.face_down_of(1)],
                        setup.start, setup.draw)
    assert again == setup
    assert Setup.from_arrays(2, setup.ranks, setup.suits, 0) == setup


@pytest.mark.parametrize("text", ["2p basic 5H", "2p fancy: 5H", "p basic: 5H", "2p mirror+mirror: 5H",
                                  "2p basic: 5H*0"])
def test_notation_setup_errors(text: str) -> None:
    with pytest.raises(NotationError):
        Setup.parse(text)


def test_C7_decks_outside_the_contract_raise_DeckError_naming_C7() -> None:
    """C7: players outside 2..5, fewer than 9N+1 cards, a rank more than MAX_SET times, bad values or rules."""
    deck = tuple(standard_deck())
    cases = [
        lambda: Setup(1, 0, deck), lambda: Setup(6, 0, deck), lambda: Setup(3, 0, deck[:27]),
        lambda: Setup(2, 0, ((5, 0),) * 9 + deck[:10]), lambda: Setup(2, 4, deck), lambda: Setup(2, -1, deck),
        lambda: Setup(2, 0, ((1, 0),) + deck), lambda: Setup(2, 0, ((5, 4),) + deck),
        lambda: new_game(2, 30, [5] * 19, [0] * 19, 0),
    ]
    for make in cases:
        with pytest.raises(DeckError, match="C7"):
            make()
    assert Setup(2, 0, ((14, 0),) * 8 + deck[:11]).n_cards == 19  # exactly MAX_SET copies is inside
    assert Setup(5, 3, deck[:46]).n_cards == 46


def test_notation_new_game_reads_the_C_arrays() -> None:
    deck = standard_deck()
    g = new_game(3, 30, [r for r, _ in deck], [s for _, s in deck], 1)
    assert (g.num_players(), g.num_cards(), g.game_rules()) == (3, 30, 1)


@pytest.mark.parametrize("token", [
    "up:5H,6D,KS", "5H", "5H,5D", "5H@12", "5H,5H@40", "blind:1", "blind:-1", "pickup", "TH,TD,TC,TS",
    "up:5H@0,6D,KS@3",
])
def test_notation_move_tokens_round_trip(token: str) -> None:
    spec = MoveSpec.parse(token)
    assert str(spec) == token
    assert MoveSpec.parse(str(spec)) == spec


def test_notation_move_token_meanings() -> None:
    assert MoveSpec.parse("up:5H,6D,KS") == MoveSpec(Action.CHOOSE_FACE_UP,
                                                     (CardRef(5, 0), CardRef(6, 1), CardRef(13, 3)))
    assert MoveSpec.parse("5h,5d@7") == MoveSpec(Action.PLAY_CARDS, (CardRef(5, 0), CardRef(5, 1, 7)))
    assert MoveSpec.parse("blind:2") == MoveSpec(Action.PLAY_FACE_DOWN, (), 2)
    assert MoveSpec.parse("PICKUP") == MoveSpec(Action.PICK_UP_PILE)
    text = "up:5H,6D,KS 5H,5D pickup blind:0"
    assert format_moves(parse_moves(text)) == text
    for bad in ("", "up:", "5H,", "blind:x", "5H@x", "pick", "5H 6D", "5X"):
        with pytest.raises(NotationError):
            MoveSpec.parse(bad)


def test_notation_resolve_plain_tokens_take_the_lowest_ident_in_the_zone_C4() -> None:
    """C4 with two decks: a plain token is the lowest deck index of that card in the mover's zone."""
    g = seated("5H 5H 5D | 8C 8C 8S", "6H 6D 6C", start="4S")
    first, second = g.hand(0)[0], g.hand(0)[1]
    assert (first.ident, second.ident) == (0, 2)
    assert g.resolve("5H").cards == (first,)
    assert g.resolve("5H,5H").cards == (first, second)
    assert g.resolve("5H@2,5H").cards == (second, first)
    assert str(g.resolve("5H,5H")) == "5H@0,5H@2"
    assert str(g.written(g.resolve("5H@2"))) == "5H@2"
    assert str(g.written(g.resolve("5H,5D"))) == "5H,5D"
    with pytest.raises(IllegalMoveError):
        g.resolve("5H,5H,5H")  # only two in the hand
    with pytest.raises(IllegalMoveError):
        g.resolve("6H")  # seat 1's card, not in seat 0's zone
    assert g.resolve("6H@1").cards == (g.card(1),)  # an identity names the card wherever it lies
    with pytest.raises(IllegalMoveError):
        g.resolve("7H@1")  # card 1 is not a 7H


def test_notation_player_move_str_and_spec() -> None:
    g = seated("5H 5D 9C", "6H 6D 6C", start="4S")
    move = g.resolve("5H,5D")
    assert str(move) == "5H@0,5D@2" and str(move.spec(explicit=False)) == "5H,5D"
    assert str(PlayerMove.blind(2)) == "blind:2" and str(PlayerMove.pick_up()) == "pickup"
    assert str(PlayerMove(9)).startswith("<action 9")
    assert str(PlayerMove(Action.PLAY_CARDS, (None,))).startswith("<action 1")
    assert MoveSpec.parse("5H,5D").describe() == "plays 5H,5D"
    assert MoveSpec.parse("blind:0").describe() == "turns face-down card 0"


def test_notation_readings_round_trip() -> None:
    """§4.3 switches: C9, C14, C15, C21, the reference's reading first."""
    text = "C9=one C14=allowed C15=allowed C21=counts"
    assert str(Readings()) == text and Readings.parse(text) == Readings() and Readings().is_reference
    r = Readings.parse("C21=not C9=per_card")
    assert str(r) == "C9=per_card C14=allowed C15=allowed C21=not"
    assert Readings.parse(str(r)) == r and r.of("C9") == "per_card"
    every = list(Readings.every())
    assert len(every) == len(set(every)) == 24 and every[0] == Readings()
    for bad in ("C9=two", "C10=one", "C9", "C9=one C9=refill"):
        with pytest.raises(NotationError):
            Readings.parse(bad)


def test_notation_game_copy_is_independent() -> None:
    g = seated("5H 5D 9C", "6H 6D 6C", start="4S", draw="2C 2D")
    h = g.copy()
    h.play_move(h.resolve("5H,5D"))
    assert g.snapshot() != h.snapshot() and g.hand_card_count() == 3 and g.current_player() == 0
    assert isinstance(h, Game) and h.current_player() == 1
