"""Properties of every random game (R1-R18 as invariants), with Hypothesis.

Decks: random lists of 29-120 cards (uniform, and rich in 2s, As and Ds so
stacking, skips and declarations happen often) and shuffles of the 800-card
traditional deck.  Moves: drawn with ``st.data()`` among ``legal_moves()``.

Invariants checked after every move:

- conservation (R1, R6, R11, A46): every Card object of the deck is in exactly
  one of the four hands, the draw pile or the discard pile, always the same
  objects, as many as numCards;
- R14: playerPoints is the sum of the hand's values;
- A31: numTurns == currentTurn + 1;
- A47/R15.4: isValidMove changes nothing (a snapshot of every query before and
  after probing every legal move and a set of illegal ones);
- R15: every move legal_moves() offers is accepted by isValidMove, every other
  well-formed move is refused, and playMove accepts each legal move (tried on
  copies of the game);
- R12/R13: the game ends with a winner or NO_WINNER within a bounded number of moves.

The project's Hypothesis profile (tests/conftest.py) is derandomized, so the
run is the same everywhere; the whole module takes a few seconds.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

from decks import deck_pile, discard_pile, hand_cards, snapshot
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from reference import (
    NO_WINNER,
    NOT_FINISHED,
    Action,
    Card,
    Color,
    Deck,
    Game,
    MoveSpec,
    PlayerMove,
    Suit,
    Value,
    traditional_deck,
)

MAX_MOVES = 6000  # the longest of 2,000 random games measured was under 2,500 moves
DRAWN_MOVES = 300  # moves drawn from st.data(); later ones from a Random seeded by st.data()

keys = st.tuples(st.integers(0, 15), st.integers(0, 4), st.integers(0, 4))
special_keys = st.tuples(st.sampled_from([0, 2, 2, 10, 13, 5, 7]), st.integers(0, 4), st.integers(0, 4))
small_decks = st.one_of(
    st.lists(keys, min_size=29, max_size=120),
    st.lists(special_keys, min_size=29, max_size=120),
).map(Deck.from_keys)
TRADITIONAL_KEYS = traditional_deck().keys
traditional_shuffles = st.permutations(TRADITIONAL_KEYS).map(Deck.from_keys)


def all_cards(g: Game) -> list[Card]:
    cards = [c for p in range(4) for c in hand_cards(g, p)]
    return cards + deck_pile(g) + discard_pile(g)


def check_invariants(g: Game, deck: Deck, identities: frozenset[int]) -> None:
    cards = all_cards(g)
    ids = [id(c) for c in cards]
    assert len(ids) == len(set(ids)) == g.num_cards() == len(deck)  # each card in one place
    assert frozenset(ids) == identities  # and always the same card objects
    assert Counter(c.key for c in cards) == Counter(deck.keys)
    for p in range(4):
        assert g.player_points(p) == sum(int(c.value) for c in hand_cards(g, p))
        assert g.get_hand_card(p, g.player_card_count(p)) is None  # A27
    assert g.num_turns() == g.current_turn() + 1  # A31
    assert g.hand_card_count() == g.player_card_count(g.current_player())
    assert g.get_active_draw_twos() >= 0 and g.current_turn_moves() >= 0
    top = g.top_discard()
    assert g.get_discard_pile_card(0) is top
    if top.value != Value.DRAW_TWO:  # Game.h: both 2-counters are 0 unless a 2 is on top
        assert g.get_number_of_two_cards_at_top() == 0 and g.get_active_draw_twos() == 0
    if top.value != Value.D:  # R9: only a D on top can make the colour differ from the top's
        assert g.get_current_color() == int(top.color)


def illegal_probes(g: Game) -> list[PlayerMove]:
    """Moves that are never valid now: cards not in the current hand, look-alikes, junk."""
    me = g.current_player()
    probes = [PlayerMove(Action.PLAY_CARD, None), PlayerMove(Action.PLAY_CARD, g.top_discard())]
    for p in range(4):
        if p != me and g.player_card_count(p):
            probes.append(PlayerMove(Action.PLAY_CARD, g.get_hand_card(p, 0), Color.BLUE))
    if g.get_deck_card(0) is not None:
        probes.append(PlayerMove(Action.PLAY_CARD, g.get_deck_card(0), Color.RED))
    for card in hand_cards(g, me)[:3]:
        probes.append(PlayerMove(Action.PLAY_CARD, Card(card.value, card.color, card.suit), Color.GREEN))
        if card.value == Value.D:
            probes.append(PlayerMove(Action.PLAY_CARD, card, None))  # a D without a colour
    return probes


def every_well_formed_move(g: Game) -> list[PlayerMove]:
    """Each card of the current hand (a D with each colour), DRAW_CARD, END_TURN."""
    out = [PlayerMove(Action.DRAW_CARD), PlayerMove(Action.END_TURN)]
    for card in hand_cards(g, g.current_player()):
        if card.value == Value.D:
            out.extend(PlayerMove(Action.PLAY_CARD, card, c) for c in Color)
        else:
            out.append(PlayerMove(Action.PLAY_CARD, card))
    return out


def move_key(m: PlayerMove) -> tuple:
    return (m.action, None if m.card is None else m.card.key, m.next_color)


def fork(g: Game) -> Game:
    """A copy of the game sharing its (immutable) Card objects, so a move's card is valid in both.

    Lists are copied (a list of lists one level deeper); other mutable values are deep-copied.
    """
    twin = Game.__new__(Game)
    for name in Game.__slots__:
        value = getattr(g, name)
        if isinstance(value, list):
            value = [list(v) if isinstance(v, list) else v for v in value]
        elif not isinstance(value, (int, float, str, bytes, tuple, frozenset, type(None), Deck, Card)):
            value = copy.deepcopy(value)
        setattr(twin, name, value)
    return twin


def check_play_move_accepts(g: Game, legal: list[PlayerMove]) -> None:
    """R15/A28: playMove takes every legal move (each applied to a fork of the game)."""
    for m in legal:
        twin = fork(g)
        before_moves, before_turn = twin.current_turn_moves(), twin.current_turn()
        twin.play_move(m)
        if m.action == Action.END_TURN:
            assert twin.current_turn() == before_turn + 1 and twin.current_turn_moves() == 0
        elif twin.game_winner() == NOT_FINISHED:
            assert twin.current_turn_moves() == before_moves + 1


def check_move_effect(g: Game, m: PlayerMove, before: dict) -> None:
    """What each action does (R5, R6, R4), read through the queries."""
    if m.action == Action.PLAY_CARD:
        assert g.top_discard() is m.card  # A46
        assert g.get_top_discard_turn_number() == before["turn"]
        assert not any(c is m.card for c in hand_cards(g, before["player"]))
        if g.game_winner() == NOT_FINISHED:
            assert g.current_player() == before["player"]
        else:
            assert g.game_winner() == before["player"] and g.player_card_count(before["player"]) == 0
    elif m.action == Action.DRAW_CARD:
        if g.game_winner() == NO_WINNER:  # R13: nothing was left to draw
            assert before["deck0"] is None and before["discards"] == 1
        else:
            assert g.player_card_count(before["player"]) == before["count"] + 1
            drawn = before["deck0"] if before["deck0"] is not None else before["oldest"]  # R11/A21
            assert any(c is drawn for c in hand_cards(g, before["player"]))  # A46
    else:
        assert g.current_turn() == before["turn"] + 1  # R4
        assert g.current_turn_moves() == 0
        assert g.get_previous_turn_player() == before["player"]  # A14
        assert g.current_player() in ((before["player"] + 1) % 4, (before["player"] + 2) % 4)


class Chooser:
    """Picks moves with ``st.data()`` (so Hypothesis can shrink them) for the first
    DRAWN_MOVES moves, then with a Random seeded from ``st.data()``: a long game
    would otherwise overrun Hypothesis's buffer and be thrown away."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data
        self.rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed for long games"))
        self.count = 0

    def __call__(self, legal: list[PlayerMove]) -> PlayerMove:
        self.count += 1
        if self.count <= DRAWN_MOVES:
            return self.data.draw(st.sampled_from(legal))
        return self.rng.choice(legal)


def walk(deck: Deck, data: st.DataObject, *, try_every_move: bool) -> None:
    g = Game(deck)
    choose = Chooser(data)
    identities = frozenset(id(c) for c in all_cards(g))
    seen_twos = 0
    for _ in range(MAX_MOVES):
        check_invariants(g, deck, identities)
        legal = g.legal_moves()
        state = snapshot(g)
        assert all(g.is_valid_move(m) for m in legal)
        legal_keys = {move_key(m) for m in legal}
        for m in every_well_formed_move(g):
            assert g.is_valid_move(m) is (move_key(m) in legal_keys), str(m)
        assert not any(g.is_valid_move(m) for m in illegal_probes(g))
        assert snapshot(g) == state  # A47
        seen_twos = max(seen_twos, g.get_active_draw_twos())
        if g.game_winner() != NOT_FINISHED:
            assert legal == []  # A29: nothing is valid once the game is over
            assert g.game_winner() in (0, 1, 2, 3, NO_WINNER)
            event("ended with NO_WINNER" if g.game_winner() == NO_WINNER else "ended with a winner")
            event(f"recycled: {'yes' if g.recycles() else 'no'}")
            event(f"most active 2s: {min(seen_twos, 3)}{'+' if seen_twos >= 3 else ''}")
            return
        assert legal, "a game that is not over always has a legal move"
        if try_every_move:
            check_play_move_accepts(g, legal)
        m = choose(legal)
        before = {
            "player": g.current_player(), "turn": g.current_turn(),
            "count": g.hand_card_count(), "deck0": g.get_deck_card(0),
            "discards": len(discard_pile(g)), "oldest": discard_pile(g)[-1],
        }
        g.play_move(m)
        check_move_effect(g, m, before)
    raise AssertionError(f"no end within {MAX_MOVES} moves")


SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(max_examples=40, **SETTINGS)
@given(small_decks, st.data())
def test_invariants_of_random_games_on_small_decks(deck: Deck, data: st.DataObject) -> None:
    """R1-R15, A14, A27, A29, A31, A46, A47 as invariants on 29-120-card decks."""
    walk(deck, data, try_every_move=True)


@settings(max_examples=5, **SETTINGS)
@given(traditional_shuffles, st.data())
def test_invariants_of_random_games_on_the_traditional_deck(deck: Deck, data: st.DataObject) -> None:
    """R1-R15, A31, A46, A47 as invariants on shuffles of the 800-card deck."""
    walk(deck, data, try_every_move=False)


@settings(max_examples=80, **SETTINGS)
@given(st.one_of(small_decks, traditional_shuffles), st.data())
def test_R12_R13_random_games_end_with_a_winner_or_no_winner(deck: Deck, data: st.DataObject) -> None:
    """R12/R13: a random legal-move game ends within MAX_MOVES moves; the result is 0..3 or NO_WINNER."""
    g = Game(deck)
    choose = Chooser(data)
    for _ in range(MAX_MOVES):
        if g.game_winner() != NOT_FINISHED:
            break
        g.play_move(choose(g.legal_moves()))
    winner = g.game_winner()
    assert winner in (0, 1, 2, 3, NO_WINNER)
    if winner == NO_WINNER:
        assert g.get_deck_card(0) is None and g.get_discard_pile_card(1) is None  # R13
    else:
        assert g.player_card_count(winner) == 0  # R12
        assert all(g.player_card_count(p) > 0 for p in range(4) if p != winner)


@given(keys)
def test_card_notation_round_trip(key: tuple[int, int, int]) -> None:
    """Card notation (every value, colour and suit of Card.h): Card.parse(str(c)).key == c.key."""
    card = Card(Value(key[0]), Color(key[1]), Suit(key[2]))
    assert Card.parse(str(card)).key == card.key == key


@given(st.lists(keys, max_size=120))
def test_deck_notation_round_trip(deck_keys: list[tuple[int, int, int]]) -> None:
    """Deck notation: Deck.parse(str(deck)) has the same keys in the same order."""
    deck = Deck.from_keys(deck_keys)
    assert Deck.parse(str(deck)).keys == deck.keys


@given(st.sampled_from(["draw", "end"]) | keys.map(lambda k: "".join((
        "0123456789ABCDEF"[k[0]], "RBGYP"[k[1]], "HDCSQ"[k[2]])) + ("/G" if k[0] == 13 else "")))
def test_move_notation_round_trip(text: str) -> None:
    """Move notation: str(MoveSpec.parse(t)) == t."""
    assert str(MoveSpec.parse(text)) == text
