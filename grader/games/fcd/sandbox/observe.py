"""Observations: everything the Game.h API lets a tester see, as plain data.

One function observes either engine -- the reference ``Game`` or the loaded
student library behind ``grader.games.fcd.sandbox.loader.CGame`` -- because both expose the same
snake_case methods.  The worker calls it on the student's game and sends the
result back; the grader calls it on the reference.  A trace is the list of
observations after newGame and after each move.

Each observation of ``grader.games.fcd.sandbox.observations`` is one *probe*.  Probes read by
counts, never by walking until NULL: a hand by ``handCardCount()`` /
``playerCardCount(p)``, a pile as deep as the grader asks (the reference's
pile size, capped).  Whether one past the end is NULL (A27) is a probe of its
own.  Before every call the probe tells ``trace`` which call it is making, so a
crash or a hang is pinned on that call; a probe that crashed can be left out
(``skip``) and the game played again without it.

A card is observed as ``[value, colour, suit, ident]``: what it looks like plus
an identity, for the identity rules (A46): 1, 2, ... in the order the observer
first met each card (its pointer on the C side, its object on the reference),
so a correct submission's trace equals the reference's and is compared at once.
A NULL where a card should be is ``[-1, -1, -1, 0]``.
"""

from __future__ import annotations

import re
from typing import Callable, ClassVar, Mapping, Protocol, Sequence, SupportsInt, cast

from grader.core.sandbox.native import snake
from grader.core.sandbox.protocol import LOADING
from grader.games.fcd.sandbox.notation import COLOR_LETTERS, D, format_key
from grader.games.fcd.sandbox.observations import Table

# How far down each pile to look when the deck is large (observing an 800-card
# pile after every move costs more than it tells).
FULL_PILES_UP_TO = 40
PILE_DEPTH = 8
HAND_CAP = 1000  # no legal hand is larger than the deck: a count beyond this is not believed
FOREIGN_PROBES = 3

MISSING = "missing"  # an observation whose API function the submission lacks
SKIPPED = "skipped"  # a probe left out because it crashed or hung before
NULL_CARD = [-1, -1, -1, 0]

# Probe numbers for the call-in-progress record: an edition's observations (``probe_ids``), and the calls
# that are not probes.
NEW_GAME, PLAY_MOVE, DESTROY_GAME, FIND_CARD = -1, -2, -3, -4

Trace = Callable[[int, int, int, int], None]  # (probe, call, a, b)
Obs = dict[str, object]  # one observation: field -> plain data (a card ``[value, colour, suit, ident]``, ...)
CardObs = list[int]  # a card as observed: ``[value, colour, suit, ident]`` (``NULL_CARD`` for NULL)


class CardLike(Protocol):
    """A card of either side: the reference's ``Card`` or a library's ``loader.CCard``."""

    @property
    def value(self) -> int: ...

    @property
    def color(self) -> int: ...

    @property
    def suit(self) -> int: ...


class IdentifiedCard(CardLike, Protocol):
    """A library's card (``loader.CCard``): its ``ident`` is the pointer."""

    @property
    def ident(self) -> int: ...


class MadeMove(Protocol):
    """A ``playerMove`` as either side takes it: an edition's ``PlayerMove``, holding a reference ``Card`` (on
    the reference) or a library's ``CCard`` (on the student's library)."""

    @property
    def action(self) -> int: ...

    @property
    def card(self) -> object: ...

    @property
    def next_color(self) -> int | None: ...


class Actions(Protocol):
    """An edition's ``Action`` enum, as the observer reads it."""

    @property
    def DRAW_CARD(self) -> int: ...  # noqa: N802 - the enum's names

    @property
    def PLAY_CARD(self) -> int: ...  # noqa: N802

    @property
    def END_TURN(self) -> int: ...  # noqa: N802


class PileSizes(Protocol):
    """What ``pile_depths`` reads of a reference game (2018's ``Game``)."""

    def draw_pile_size(self) -> int: ...

    def discard_pile_size(self) -> int: ...

    def num_cards(self) -> int: ...


def _no_trace(_probe: int, _call: int, _a: int, _b: int) -> None:
    return None


def card_label(key: Sequence[SupportsInt]) -> str:
    """A card's notation (``5RH``), ``NULL``, or ``<v,c,s>`` when a submission returns values no
    card has (a freed card, garbage memory): what it returns must never break the grader."""
    v, c, s = (int(x) for x in key[:3])
    if (v, c, s) == (-1, -1, -1):
        return "NULL"
    if 0 <= v < 16 and 0 <= c < 5 and 0 <= s < 5:
        return format_key((v, c, s))
    return f"<{v},{c},{s}>"


def pile_depths(game: PileSizes, full: bool) -> tuple[int, int]:
    """How deep to read the draw and discard piles of the reference ``game`` (the worker is told)."""
    sizes = (game.draw_pile_size(), game.discard_pile_size())
    if full or game.num_cards() <= FULL_PILES_UP_TO:
        return sizes
    return min(sizes[0], PILE_DEPTH), min(sizes[1], PILE_DEPTH)


class Observer:
    """Observes one game, step after step; ``trace`` hears of every call before it is made.  An edition
    binds its probes (``grader.games.fcd18s2.sandbox.observe.Observer``): their numbers for the call slot, the
    int queries, the deck counts and the piles, read from its observation table."""

    probe_ids: ClassVar[Mapping[str, int]]  # observation -> its number in the call slot
    call_ids: ClassVar[Mapping[str, int]]  # API function -> its number in the call slot
    int_probes: ClassVar[tuple[tuple[str, str, str], ...]]  # (observation, C function, method)
    deck_count_probes: ClassVar[tuple[tuple[str, str, str, int], ...]]  # (observation, C function, method, n)
    pile_probes: ClassVar[tuple[tuple[str, str, str], ...]]  # (observation, C function, method), read n deep
    player_move: ClassVar[Callable[..., MadeMove]]  # the edition's move struct, as the observed side takes it
    actions: ClassVar[Actions]  # the edition's ``Action`` enum (PLAY_CARD, DRAW_CARD, END_TURN)

    def __init__(self, game: object, deck_size: int, *, ident: Callable[[CardLike], int] | None = None,
                 skip: frozenset[str] = frozenset(), trace: Trace = _no_trace) -> None:
        self.game = game  # the reference ``Game`` or a library's ``CGame``: its queries are looked up by name
        self.deck_size = deck_size
        self.ident = ident or (lambda c: cast(IdentifiedCard, c).ident)
        self.skip = skip
        self.trace = trace
        self.cap = min(deck_size + 1, HAND_CAP)
        self._idents: dict[int, int] = {}  # pointer (or id) -> 1, 2, ... in the order first seen

    def _cd(self, card: CardLike | None) -> CardObs:
        if card is None:
            return NULL_CARD
        raw = int(self.ident(card))
        ident = self._idents.get(raw)
        if ident is None:
            ident = self._idents[raw] = len(self._idents) + 1
        return [int(card.value), int(card.color), int(card.suit), ident]

    def _int(self, probe: str, cname: str, method: str, *args: int) -> int | str:
        fn = getattr(self.game, method, None)
        if fn is None:
            return MISSING
        self.trace(self.probe_ids[probe], self.call_ids[cname], args[0] if args else 0, 0)
        return int(fn(*args))

    def _count(self, value: object) -> int:
        """A count the submission gave, as a number of reads we are willing to make."""
        return max(0, min(value, self.cap)) if isinstance(value, int) else 0

    def deck_counts(self) -> Obs:
        """A37: counts over the initial deck; observed once, after newGame."""
        out: Obs = {}
        for name, cname, method, n in self.deck_count_probes:
            if name in self.skip:
                out[name] = SKIPPED
            elif n == 0:
                out[name] = self._int(name, cname, method)
            else:
                out[name] = [self._int(name, cname, method, i) for i in range(n)]
        return out

    def observe(self, depths: Sequence[int]) -> Obs:
        """Every observation of the game as it stands; piles read ``depths`` deep."""
        g, skip = self.game, self.skip
        obs: Obs = {}
        ints: dict[str, int | str] = {}  # the int queries' answers (or MISSING, SKIPPED), as ``obs`` has them
        for name, cname, method in self.int_probes:
            obs[name] = ints[name] = SKIPPED if name in skip else self._int(name, cname, method)

        if "top_discard" in skip:
            obs["top_discard"] = SKIPPED
        elif hasattr(g, "top_discard"):
            self.trace(self.probe_ids["top_discard"], self.call_ids["topDiscard"], 0, 0)
            top = g.top_discard()
            obs["top_discard"] = None if top is None else self._cd(top)
        else:
            obs["top_discard"] = MISSING

        hand: list[CardLike | None] = []
        count = ints["hand_card_count"]
        if "hand" in skip or count == SKIPPED:
            obs["hand"] = SKIPPED
        elif not hasattr(g, "hand_card") or count == MISSING:
            obs["hand"] = MISSING
        else:
            probe, call = self.probe_ids["hand"], self.call_ids["handCard"]
            for i in range(self._count(count)):
                self.trace(probe, call, i, cast(int, count))  # neither MISSING nor SKIPPED: an int
                hand.append(g.hand_card(i))
            obs["hand"] = [self._cd(c) for c in hand]
        if "hand_end_null" in skip:
            obs["hand_end_null"] = SKIPPED
        elif not hasattr(g, "hand_card") or not isinstance(count, int):
            obs["hand_end_null"] = MISSING
        else:
            self.trace(self.probe_ids["hand_end_null"], self.call_ids["handCard"], count, count)
            obs["hand_end_null"] = 0 <= count <= self.cap and g.hand_card(count) is None

        counts: list[int | str] = ([SKIPPED] * 4 if "card_counts" in skip else
                                   [self._int("card_counts", "playerCardCount", "player_card_count", p)
                                    for p in range(4)])
        obs["card_counts"] = counts
        obs["points"] = ([SKIPPED] * 4 if "points" in skip else
                         [self._int("points", "playerPoints", "player_points", p) for p in range(4)])
        if "hands" in skip or SKIPPED in counts:
            obs["hands"] = SKIPPED
        elif not hasattr(g, "get_hand_card") or MISSING in counts:
            obs["hands"] = MISSING
        else:
            probe, call = self.probe_ids["hands"], self.call_ids["getHandCard"]
            hands = []
            for p in range(4):
                cards: list[CardObs] = []
                for i in range(self._count(counts[p])):
                    self.trace(probe, call, p, i)
                    cards.append(self._cd(g.get_hand_card(p, i)))
                hands.append(cards)
            obs["hands"] = hands

        for (name, cname, method), depth in zip(self.pile_probes, depths):
            fn = getattr(g, method, None)
            if name in skip:
                obs[name] = SKIPPED
            elif fn is None:
                obs[name] = MISSING
            else:
                cards = []
                for i in range(depth):
                    self.trace(self.probe_ids[name], self.call_ids[cname], i, depth)
                    cards.append(self._cd(fn(i)))
                obs[name] = cards

        obs.update(self.validity(hand, obs["hand"], obs["current_player"]))
        return obs

    def play_battery(self, hand: list[CardLike | None], hand_obs: object) -> object:
        """isValidMove of every card in hand (a D with every colour), each written move asked once; SKIPPED
        or MISSING where the hand was."""
        if "valid_play" in self.skip or hand_obs in (SKIPPED, MISSING):
            return SKIPPED if hand_obs != MISSING else MISSING
        g = self.game
        play: dict[str, bool] = {}
        call, probe = self.call_ids["isValidMove"], self.probe_ids["valid_play"]
        for i, card in enumerate(hand):
            if card is None:
                continue
            for move, label in play_moves(card, self.player_move, self.actions.PLAY_CARD):
                if label not in play:
                    self.trace(probe, call, i, int(move.next_color or 0))
                    play[label] = bool(g.is_valid_move(move))  # type: ignore[attr-defined]  # checked: hasattr
        return play

    def validity(self, hand: list[CardLike | None], hand_obs: object, me: object) -> Obs:
        """isValidMove for a battery of candidates: every card in hand (a D with every
        colour), a few cards from other hands, DRAW_CARD and END_TURN."""
        g, skip = self.game, self.skip
        if not hasattr(g, "is_valid_move"):
            return {name: MISSING for name in ("valid_play", "valid_foreign", "valid_draw", "valid_end")}
        out: Obs = {}
        call = self.call_ids["isValidMove"]
        out["valid_play"] = self.play_battery(hand, hand_obs)
        if "valid_foreign" in skip or not isinstance(me, int):
            out["valid_foreign"] = SKIPPED
        else:
            own = {card_label((c.value, c.color, c.suit)) for c in hand if c is not None}
            foreign: dict[str, bool] = {}
            probe = self.probe_ids["valid_foreign"]
            for p, card in self._foreign_cards(me, own):
                for move, label in play_moves(card, self.player_move, self.actions.PLAY_CARD):
                    self.trace(probe, call, 100 + p, int(move.next_color or 0))
                    foreign.setdefault(label, bool(g.is_valid_move(move)))
            out["valid_foreign"] = foreign
        for name, action in (("valid_draw", self.actions.DRAW_CARD), ("valid_end", self.actions.END_TURN)):
            if name in skip:
                out[name] = SKIPPED
            else:
                self.trace(self.probe_ids[name], call, -1 - int(action), 0)
                out[name] = bool(g.is_valid_move(self.player_move(action)))
        return out

    def _foreign_cards(self, me: int, own: set[str]) -> list[tuple[int, CardLike]]:
        """A25: the first card of each other hand, none with a twin in the current hand."""
        g = self.game
        if not hasattr(g, "get_hand_card") or not hasattr(g, "player_card_count"):
            return []
        found = []
        for p in range(4):
            if p == me:
                continue
            self.trace(self.probe_ids["valid_foreign"], self.call_ids["playerCardCount"], p, 0)
            if g.player_card_count(p) <= 0:
                continue
            self.trace(self.probe_ids["valid_foreign"], self.call_ids["getHandCard"], p, 0)
            card = g.get_hand_card(p, 0)
            if card is not None and card_label((card.value, card.color, card.suit)) not in own:
                found.append((p, card))
            if len(found) >= FOREIGN_PROBES:
                break
        return found


def play_moves(card: CardLike, player_move: Callable[..., MadeMove], play_card: int) -> list[tuple[MadeMove, str]]:
    """The PLAY_CARD moves for one card, with their notation; a D once per colour (``player_move`` and
    ``play_card``: the edition's moves)."""
    name = card_label((card.value, card.color, card.suit))
    if int(card.value) == D:
        return [(player_move(play_card, card, col), f"{name}/{COLOR_LETTERS[col]}") for col in range(5)]
    return [(player_move(play_card, card, 0), name)]


def int_probes(table: Table) -> tuple[tuple[str, str, str], ...]:
    """(observation, C function, method) for every row of the table that is one int query without
    arguments (``numTurns()``), in the table's order: observed in that order after every step, and
    checked in that order by the repro programs.  A new query of that kind is one new row."""
    probes = []
    for o in table.observations:
        m = re.fullmatch(r"(\w+)\(\)", o.call)
        if o.shape == "int" and m and o.name not in table.deck_counts:
            probes.append((o.name, m.group(1), snake(m.group(1))))
    return tuple(probes)



def deck_count_probes(table: Table) -> tuple[tuple[str, str, str, int], ...]:
    """(observation, C function, method, n) for the counts over the initial deck: ``numCards()``
    (n = 0, no argument) and ``numOfSuit(s)`` for s in 0..n-1 (shape ``ints_n``)."""
    probes = []
    for o in table.observations:
        if o.name in table.deck_counts:
            cname = o.call.split("(")[0]
            probes.append((o.name, cname, snake(cname), int(o.shape.split("_")[1]) if o.shape != "int" else 0))
    return tuple(probes)


def pile_probes(table: Table) -> tuple[tuple[str, str, str], ...]:
    """(observation, C function, method) for the piles: read n = 0, 1, ... as deep as the grader asks."""
    return tuple((o.name, o.call.split("(")[0], snake(o.call.split("(")[0])) for o in table.observations
                 if o.change == "pile")


def call_outside_the_probes(probe: int, call: int, a: int, b: int, moves: Sequence[object],
                            api_functions: Sequence[str]) -> str | None:
    """The call in progress where it is no probe's (loading, newGame, playMove, finding a move's card,
    destroyGame), in a student's words; else the name of the API function called (an identifier, for the
    edition to word with its arguments), or None for a call number that is none of them."""
    if probe == LOADING:
        return "loading your library (before newGame: its global initialisers and constructors)"
    if probe == NEW_GAME:
        return "newGame(...)"
    if probe == DESTROY_GAME:
        return "destroyGame(game)"
    if probe in (PLAY_MOVE, FIND_CARD):
        move = moves[a] if 0 <= a < len(moves) else "?"
        if probe == FIND_CARD:
            return f"handCard({b}) while looking for the card of move {a + 1} ({move})"
        return f"playMove({move}) at move {a + 1}"
    return api_functions[call] if 0 <= call < len(api_functions) else None


def probe_name(probe: int, order: Sequence[str]) -> str | None:
    """The observation a probe number stands for (``order``: the edition's table's); None for newGame,
    playMove and the like."""
    return order[probe] if 0 <= probe < len(order) else None
