"""Observations: everything the Game.h API lets a tester see, as plain data.

One function observes either engine -- the reference ``Game`` or the loaded
student library behind ``grader.loader.CGame`` -- because both expose the same
snake_case methods.  The worker calls it on the student's game and sends the
result back; the grader calls it on the reference.  A trace is the list of
observations after newGame and after each move.

A card is observed as ``[value, colour, suit, ident]``: what it looks like plus
an identity (a pointer on the C side) used only within one trace, for the
identity rules (A46).
"""

from __future__ import annotations

from typing import Any, Protocol

from reference.cards import COLOR_LETTERS, format_key
from reference.moves import Action, PlayerMove
from reference.cards import Value

# How far down each pile to look when the deck is large (observing an 800-card
# pile after every move costs more than it tells).
FULL_PILES_UP_TO = 40
PILE_DEPTH = 8
HAND_CAP = 1000  # a hand walk stops here: no legal hand is larger than the deck
FOREIGN_PROBES = 3

MISSING = "missing"  # an observation whose API function the submission lacks


class GameAPI(Protocol):  # the shape both engines share
    def hand_card(self, index: int) -> Any: ...
    def is_valid_move(self, move: Any) -> bool: ...


def card_label(key: Any) -> str:
    """A card's notation (``5RH``), or ``<v,c,s>`` when a submission returns values no card
    has (a freed card, garbage memory): what it returns must never break the grader."""
    v, c, s = (int(x) for x in key[:3])
    if 0 <= v < 16 and 0 <= c < 5 and 0 <= s < 5:
        return format_key((v, c, s))
    return f"<{v},{c},{s}>"


def card_name(data: list[int] | None) -> str:
    return "NULL" if data is None else card_label(data)


def _walk(get, cap: int) -> list[Any]:
    cards = []
    for i in range(cap):
        c = get(i)
        if c is None:
            break
        cards.append(c)
    return cards


def deck_counts(game: Any) -> dict[str, Any]:
    """A37: counts over the initial deck; observed once, after newGame."""
    return {
        "num_cards": _int(game, "num_cards"),
        "num_of_suit": [_int(game, "num_of_suit", s) for s in range(5)],
        "num_of_color": [_int(game, "num_of_color", c) for c in range(5)],
        "num_of_value": [_int(game, "num_of_value", v) for v in range(16)],
    }


def _int(game: Any, name: str, *args: int) -> Any:
    fn = getattr(game, name, None)
    if fn is None:
        return MISSING
    return int(fn(*args))


def observe(game: Any, deck_size: int, ident=None, full_piles: bool = False) -> dict[str, Any]:  # noqa: ANN001
    """Every observation of ``game`` as it stands.  ``ident`` maps a card to its identity.

    The piles are observed down to ``PILE_DEPTH`` cards, or whole with ``full_piles``
    (after newGame and after the last move, and always for small decks).
    """
    ident = ident or (lambda c: c.ident)

    def cd(card: Any) -> list[int] | None:
        return None if card is None else [int(card.value), int(card.color), int(card.suit), int(ident(card))]

    obs: dict[str, Any] = {}
    for name in ("current_player", "current_turn", "num_turns", "current_turn_moves",
                 "get_previous_turn_player", "get_top_discard_turn_number",
                 "get_number_of_two_cards_at_top", "get_active_draw_twos", "get_current_color",
                 "hand_card_count", "game_winner"):
        obs[_OBS_NAME.get(name, name)] = _int(game, name)
    obs["top_discard"] = cd(game.top_discard()) if hasattr(game, "top_discard") else MISSING

    cap = min(deck_size + 1, HAND_CAP)
    if hasattr(game, "hand_card"):
        hand = _walk(game.hand_card, cap)
        obs["hand"] = [cd(c) for c in hand]
        obs["hand_end_null"] = game.hand_card(len(hand)) is None
    else:
        hand = []
        obs["hand"] = obs["hand_end_null"] = MISSING
    if hasattr(game, "get_hand_card"):
        obs["hands"] = [[cd(c) for c in _walk(lambda i, p=p: game.get_hand_card(p, i), cap)] for p in range(4)]
    else:
        obs["hands"] = MISSING
    obs["card_counts"] = [_int(game, "player_card_count", p) for p in range(4)]
    obs["points"] = [_int(game, "player_points", p) for p in range(4)]

    depth = deck_size + 1 if full_piles or deck_size <= FULL_PILES_UP_TO else PILE_DEPTH
    for name, fn in (("deck_pile", "get_deck_card"), ("discard_pile", "get_discard_pile_card")):
        getter = getattr(game, fn, None)
        obs[name] = MISSING if getter is None else [cd(c) for c in _walk(getter, depth)]

    obs.update(validity(game, hand, obs["hands"]))
    return obs


def validity(game: Any, hand: list[Any], hands: Any) -> dict[str, Any]:
    """isValidMove for a battery of candidates: every card in hand (a D with
    every colour), a few cards from other hands, DRAW_CARD and END_TURN."""
    if not hasattr(game, "is_valid_move"):
        return {"valid_play": MISSING, "valid_foreign": MISSING, "valid_draw": MISSING, "valid_end": MISSING}
    play: dict[str, bool] = {}
    for card in hand:
        for move, label in play_moves(card):
            if label not in play:
                play[label] = bool(game.is_valid_move(move))
    foreign: dict[str, bool] = {}
    others = _foreign_cards(game, {lbl[:3] for lbl in play})
    for card in others:
        for move, label in play_moves(card):
            foreign.setdefault(label, bool(game.is_valid_move(move)))
    return {
        "valid_play": play,
        "valid_foreign": foreign,
        "valid_draw": bool(game.is_valid_move(PlayerMove(Action.DRAW_CARD))),
        "valid_end": bool(game.is_valid_move(PlayerMove(Action.END_TURN))),
    }


def play_moves(card: Any) -> list[tuple[PlayerMove, str]]:
    """The PLAY_CARD moves for one card, with their notation; a D once per colour."""
    name = card_label((card.value, card.color, card.suit))
    if int(card.value) == Value.D:
        return [(PlayerMove(Action.PLAY_CARD, card, col), f"{name}/{COLOR_LETTERS[col]}") for col in range(5)]
    return [(PlayerMove(Action.PLAY_CARD, card, 0), name)]


def _foreign_cards(game: Any, own: set[str]) -> list[Any]:
    """A25: one card from each other hand, none with a twin in the current hand."""
    if not hasattr(game, "get_hand_card") or not hasattr(game, "current_player"):
        return []
    me = int(game.current_player())
    found = []
    for p in range(4):
        if p == me:
            continue
        card = game.get_hand_card(p, 0)
        if card is not None and card_label((card.value, card.color, card.suit)) not in own:
            found.append(card)
        if len(found) >= FOREIGN_PROBES:
            break
    return found


_OBS_NAME = {
    "get_previous_turn_player": "previous_turn_player",
    "get_top_discard_turn_number": "top_discard_turn_number",
    "get_number_of_two_cards_at_top": "number_of_two_cards_at_top",
    "get_active_draw_twos": "active_draw_twos",
    "get_current_color": "current_color",
    "game_winner": "winner",
}
