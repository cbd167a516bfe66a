"""Properties of every random 2017 game (S1-S26 and the STRICT rulings as invariants), with Hypothesis.

Decks: random lists of 29-120 cards (uniform, and rich in 2s, As, Bs, Cs and Ds so
stacking, skips, reversals, chains and declarations happen often) and shuffles of
the 800-card traditional deck.  Moves: drawn with ``st.data()`` among
``legal_moves()``, either any of them or, "politely", without call-outs that
are wrong (uniform play calls out wrongly so often that hands only grow: on the
800-card deck such a game never ends, and small decks end with NO_WINNER).

Checked at every state:

- S1, S3, S10, S20, B3, B54: every Card of the deck is in exactly one hand or pile,
  always the same objects, as many as numCards;
- S22/B12 points; B60 numTurns; S24 handCard is the current hand;
- S25/B57: isValidMove changes nothing; every move legal_moves() offers is valid,
  every other well-formed move (each card, each word, draw, end) is not, and
  cards outside the hand never are; playMove takes each legal move (on copies);
- S6, S9, B13, B34, B50, B26: every finished turn holds a draw or a discard and ends
  with its only END_TURN; a turn's discards are Cs but the last; consecutive turns
  belong to seats one or two apart;
- what each move does (S9-S19, B22, B27, B28, B42-B44), and the history read back
  through turnMoves/pastMove is exactly the moves played;
- S19/S21: the game ends with a winner or NO_WINNER, and then nothing is valid (B53).

The project's Hypothesis profile (tests/conftest.py) is derandomized, so the run is
the same everywhere.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

from decks17 import snapshot
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from reference.cards import traditional_deck
from reference.fcd17s2 import (
    NO_WINNER,
    NOT_FINISHED,
    SAYS,
    Action,
    Card,
    Color,
    Deck,
    Direction,
    Game,
    PlayerMove,
    Value,
)

MAX_MOVES = 20_000
DRAWN_MOVES = 300  # moves drawn from st.data(); later ones from a Random seeded by st.data()
COUNT_OF = {Action.SAY_UNO: 1, Action.SAY_DUO: 2, Action.SAY_TRIO: 3}

keys = st.tuples(st.integers(0, 15), st.integers(0, 4), st.integers(0, 4))
special_keys = st.tuples(st.sampled_from([0, 2, 2, 10, 11, 12, 12, 13, 5]), st.integers(0, 4), st.integers(0, 4))
small_decks = st.one_of(
    st.lists(keys, min_size=29, max_size=120),
    st.lists(special_keys, min_size=29, max_size=120),
).map(Deck.from_keys)
traditional_shuffles = st.permutations(traditional_deck().keys).map(Deck.from_keys)


def all_cards(g: Game) -> list[Card]:
    return [c for p in range(4) for c in g.player_hand(p)] + list(g.draw_pile()) + list(g.discard_pile())


def moves_of(g: Game, turn: int) -> list[PlayerMove]:
    return [g.past_move(turn, m) for m in range(g.turn_moves(turn))]


def check_invariants(g: Game, deck: Deck, identities: frozenset[int]) -> None:
    cards = all_cards(g)
    ids = [id(c) for c in cards]
    assert len(ids) == len(set(ids)) == g.num_cards() == len(deck)
    assert frozenset(ids) == identities
    assert Counter(c.key for c in cards) == Counter(deck.keys)
    for p in range(4):
        assert g.player_points(p) == sum(int(c.value) for c in g.player_hand(p))
    assert g.num_turns() == g.current_turn() + 1
    me = g.current_player()
    assert [id(g.hand_card(i)) for i in range(g.hand_card_count())] == [id(c) for c in g.player_hand(me)]
    assert g.play_direction() in (Direction.CLOCKWISE, Direction.ANTICLOCKWISE)
    assert g.top_discard() is g.discard_pile()[0]
    if g.declared_color() is not None:
        assert g.top_discard().value == Value.D
    if g.owed_twos():
        assert g.top_discard().value == Value.DRAW_TWO
    assert not any(m.action == Action.END_TURN for m in moves_of(g, g.current_turn()))


def check_finished_turns(g: Game) -> None:
    for turn in range(g.current_turn()):
        moves = moves_of(g, turn)
        actions = [m.action for m in moves]
        assert actions[-1] == Action.END_TURN and actions.count(Action.END_TURN) == 1  # B50
        assert Action.DRAW_CARD in actions or Action.PLAY_CARD in actions  # S6, B13
        played = [m.card for m in moves if m.action == Action.PLAY_CARD]
        assert all(c.value == Value.C for c in played[:-1])  # S9, B34
        assert (g.turn_player(turn + 1) - g.turn_player(turn)) % 4 in (1, 2, 3)  # B26-B28


def every_well_formed_move(g: Game) -> list[PlayerMove]:
    out = [PlayerMove(a) for a in Action if a != Action.PLAY_CARD]
    for card in g.player_hand(g.current_player()):
        colours = list(Color) if card.value == Value.D else [None]
        out.extend(PlayerMove(Action.PLAY_CARD, card, c) for c in colours)
    return out


def illegal_probes(g: Game) -> list[PlayerMove]:
    """Cards that are never valid now: others' cards, pile cards, look-alikes, a D without a colour."""
    me = g.current_player()
    probes = [PlayerMove(Action.PLAY_CARD, None), PlayerMove(Action.PLAY_CARD, g.top_discard(), Color.RED)]
    probes += [PlayerMove(Action.PLAY_CARD, g.player_hand(p)[0], Color.BLUE)
               for p in range(4) if p != me and g.player_card_count(p)]
    if g.draw_pile():
        probes.append(PlayerMove(Action.PLAY_CARD, g.draw_pile()[0], Color.RED))
    for card in g.player_hand(me)[:3]:
        probes.append(PlayerMove(Action.PLAY_CARD, Card(card.value, card.color, card.suit), Color.GREEN))
        if card.value == Value.D:
            probes.append(PlayerMove(Action.PLAY_CARD, card, None))
    return probes


def move_key(m: PlayerMove) -> tuple:
    return (m.action, None if m.card is None else m.card.key, m.next_color)


def fork(g: Game) -> Game:
    """A copy of the game sharing its (immutable) Card objects, so a move's card is valid in both.

    Lists are copied (hands one level deeper); of the history only the current turn's record can
    change, so only it is deep-copied.
    """
    twin = Game.__new__(Game)
    for name in Game.__slots__:
        value = getattr(g, name)
        if name == "_history":
            value = value[:-1] + [copy.deepcopy(value[-1], memo={id(c): c for c in all_cards(g)})]
        elif isinstance(value, list):
            value = [list(v) if isinstance(v, list) else v for v in value]
        setattr(twin, name, value)
    return twin


def recent_snapshot(g: Game) -> tuple:
    """``snapshot`` without the older turns' history, which no move or probe can reach: cheap on long games."""
    return snapshot(g, history_from=max(0, g.current_turn() - 1))


def check_play_move_accepts(g: Game, legal: list[PlayerMove]) -> None:
    for m in legal:
        twin = fork(g)
        twin.play_move(m)
        assert g.turn_moves(g.current_turn()) == twin.turn_moves(g.current_turn()) - 1


def is_wrong_call_out(g: Game, m: PlayerMove) -> bool:
    if m.action not in SAYS or not g.calls_only_so_far():
        return False
    turn = g.current_turn()
    return turn == 0 or COUNT_OF[m.action] not in g.unclaimed_counts(turn - 1)


def check_move_effect(g: Game, m: PlayerMove, before: dict) -> None:
    """What each kind of move did, read through the queries."""
    p, turn = before["player"], before["turn"]
    assert g.past_move(turn, before["moves"]) is m  # recorded in its turn, in order (B50)
    if g.game_winner() == NO_WINNER:  # B55: a card had to be drawn and none was left
        assert m.action in (Action.DRAW_CARD, *SAYS) and not g.draw_pile() and len(g.discard_pile()) == 1
        return
    counts = [g.player_card_count(q) for q in range(4)]
    if m.action == Action.PLAY_CARD:
        assert g.top_discard() is m.card and not any(c is m.card for c in g.player_hand(p))  # S9, B3
        assert counts[p] == before["counts"][p] - 1
        if g.game_winner() != NOT_FINISHED:
            assert g.game_winner() == p and counts[p] == 0  # S19
        elif m.card.value == Value.B:
            assert g.play_direction() != before["direction"]  # S13, B29 (a)
    elif m.action == Action.DRAW_CARD:
        drawn = before["next"] if before["next"] is not None else before["oldest"]  # S10, S20, B54
        assert any(c is drawn for c in g.player_hand(p))
        assert counts[p] == before["counts"][p] + 1
    elif m.action in SAYS:
        expected = list(before["counts"])
        if before["call_out"] is None:  # a claim (S16): nothing changes
            pass
        elif before["call_out"]:  # right (B43): the previous player draws 2
            expected[g.turn_player(turn - 1)] += 2
        else:  # wrong (B44, reference (a)): the caller draws 4
            expected[p] += 4
        assert counts == expected
    else:
        assert g.current_turn() == turn + 1 and g.turn_moves(turn + 1) == 0  # S6
        seats = 2 if before["last_discard"] is not None and before["last_discard"].value == Value.A else 1
        assert g.current_player() == (p + seats * g.play_direction().step) % 4  # S5, S12, S13, B27, B28
        is_two = before["last_discard"] is not None and before["last_discard"].value == Value.DRAW_TWO
        assert g.owed_twos() == (before["owed"] + 1 if is_two else 0)  # B22, B25


class Chooser:
    """Moves from ``st.data()`` (so Hypothesis can shrink them) for the first DRAWN_MOVES moves, then
    from a Random seeded by it; a polite chooser never makes a wrong call-out."""

    def __init__(self, data: st.DataObject, polite: bool) -> None:
        self.data, self.polite = data, polite
        self.rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed for long games"))
        self.count = 0

    def __call__(self, g: Game, legal: list[PlayerMove]) -> PlayerMove:
        if self.polite:
            legal = [m for m in legal if not is_wrong_call_out(g, m)]
        self.count += 1
        if self.count <= DRAWN_MOVES:
            return self.data.draw(st.sampled_from(legal))
        return self.rng.choice(legal)


def walk(deck: Deck, data: st.DataObject, *, polite: bool, try_every_move: bool) -> None:
    g = Game(deck)
    choose = Chooser(data, polite)
    identities = frozenset(id(c) for c in all_cards(g))
    played: list[PlayerMove] = []
    for _ in range(MAX_MOVES):
        check_invariants(g, deck, identities)
        legal = g.legal_moves()
        state = recent_snapshot(g)
        legal_keys = {move_key(m) for m in legal}
        assert len(legal_keys) == len(legal)
        for m in every_well_formed_move(g):
            assert g.is_valid_move(m) is (move_key(m) in legal_keys), str(m)
        assert not any(g.is_valid_move(m) for m in illegal_probes(g))
        assert recent_snapshot(g) == state  # B57
        if g.game_winner() != NOT_FINISHED:
            assert legal == []  # B53
            check_finished_turns(g)
            assert [m for t in range(g.num_turns()) for m in moves_of(g, t)] == played
            event("NO_WINNER" if g.game_winner() == NO_WINNER else "a winner")
            event(f"recycled: {'yes' if g.recycles() else 'no'}")
            return
        assert legal, "a game that is not over always has a legal move"
        if try_every_move:
            check_play_move_accepts(g, legal)
        m = choose(g, legal)
        turn = g.current_turn()
        discards = g.discards_this_turn()
        before = {
            "player": g.current_player(), "turn": turn, "moves": g.turn_moves(turn),
            "counts": [g.player_card_count(q) for q in range(4)], "direction": g.play_direction(),
            "next": g.draw_pile()[0] if g.draw_pile() else None, "oldest": g.discard_pile()[-1],
            "owed": g.owed_twos(), "last_discard": discards[-1] if discards else None,
            "call_out": (not is_wrong_call_out(g, m)) if m.action in SAYS and g.calls_only_so_far() else None,
        }
        g.play_move(m)
        played.append(m)
        check_move_effect(g, m, before)
    raise AssertionError(f"no end within {MAX_MOVES} moves")


SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(max_examples=40, **SETTINGS)
@given(small_decks, st.booleans(), st.data())
def test_S1_S26_invariants_of_random_games_on_small_decks(deck: Deck, polite: bool, data: st.DataObject) -> None:
    """S1-S26, B3, B12, B13, B22, B26-B28, B34, B42-B44, B50, B53, B54, B57, B60 on 29-120-card decks."""
    walk(deck, data, polite=polite, try_every_move=True)


@settings(max_examples=5, **SETTINGS)
@given(traditional_shuffles, st.data())
def test_S1_B10_invariants_of_polite_random_games_on_the_traditional_deck(deck: Deck, data: st.DataObject) -> None:
    """S1/B10 (800 cards), B57, B60 as invariants on shuffles of the traditional deck."""
    walk(deck, data, polite=True, try_every_move=False)


@settings(max_examples=80, **SETTINGS)
@given(st.one_of(small_decks, traditional_shuffles), st.data())
def test_S19_S21_random_games_end_with_a_winner_or_no_winner(deck: Deck, data: st.DataObject) -> None:
    """S19/S21/B55: a polite random game ends; a winner has no cards left, NO_WINNER means nothing to draw."""
    g = Game(deck)
    choose = Chooser(data, polite=True)
    for _ in range(MAX_MOVES):
        if g.game_winner() != NOT_FINISHED:
            break
        g.play_move(choose(g, g.legal_moves()))
    winner = g.game_winner()
    assert winner in (0, 1, 2, 3, NO_WINNER)
    if winner == NO_WINNER:
        assert not g.draw_pile() and len(g.discard_pile()) == 1
    else:
        assert g.player_card_count(winner) == 0
        assert all(g.player_card_count(p) > 0 for p in range(4) if p != winner)
