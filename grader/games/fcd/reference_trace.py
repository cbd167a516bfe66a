"""Expected traces: play a scenario's moves on the reference engine and observe.

Lives only in the trusted grader process: the worker never sees any of this.
"""

from __future__ import annotations

import base64
import copy
import functools
import hashlib
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence, cast

from grader.core.cache import cached, key_of, source_version
from grader.games.fcd.edition import AnswerKey, Edition, G, WrittenMove
from grader.games.fcd.focus import REASONS
from grader.games.fcd.packed import pack_step, pack_trace
from grader.games.fcd.sandbox.observe import Obs, Observer
from reference import Deck
from reference.answers import Answer
from reference.rulings import Leniency


@dataclass(frozen=True, slots=True)
class Step:
    """The reference's observation after a move (step 0: after newGame)."""

    obs: Obs
    lenient: Leniency
    depths: tuple[int, int]  # how deep the piles were read (the worker reads as deep)


class ScenarioMoveError(ValueError):
    """A scenario move that the reference rejects: a bug in our scenario data."""


class Explains(Protocol):
    """A reference game that gives the reason of each isValidMove answer (2018's ``Game.why_valid``)."""

    def why_valid(self, move: Any) -> Answer: ...


class EagerRecycling(Protocol):
    """A reference game that can take A22's other reading (2018's ``Game``: ``Edition.eager_recycling_reading``)."""

    eager_recycling: bool


def play(deck: Deck, moves: Sequence[WrittenMove], upto: int | None, edition: Edition[G]) -> G:
    """The reference game after the first ``upto`` moves."""
    game = edition.new_game(deck)
    for i, spec in enumerate(moves[:upto]):
        try:
            game.play_move(game.resolve(spec))
        except edition.illegal_move as err:
            raise ScenarioMoveError(f"move {i + 1} ({spec}): {err}") from err
    return game


class _Explaining:
    """The reference game as the observer asks it, remembering the reason of every isValidMove answer
    (``reference.answers``) under the observation and label the answer is filed under (``Edition.answer_key``)."""

    def __init__(self, game: object, key: AnswerKey) -> None:
        self._game, self._key = game, key
        self.reasons: dict[str, dict[str, list[str]]] = {}

    def __getattr__(self, name: str) -> object:
        return getattr(self._game, name)

    def is_valid_move(self, move: object) -> bool:
        answer = cast(Explains, self._game).why_valid(move)
        name, label = self._key(self._game, move)
        self.reasons.setdefault(name, {}).setdefault(label, list(answer.clauses))  # the first answer, as observed
        return answer.value

    def observe(self, observer: Observer, depths: tuple[int, int]) -> Obs:
        """The observation, with the reasons of its answers (``focus.REASONS``)."""
        self.reasons = {}
        obs = observer.observe(depths)
        obs[REASONS] = self.reasons
        return obs


def as_reported(obs: Obs) -> Obs:
    """A copy of the reference's observation as a submission reports it: without the reasons."""
    return copy.deepcopy({k: v for k, v in obs.items() if k != REASONS})


def _observing(game: object, deck_size: int, edition: Edition[G]) -> Callable[[tuple[int, int]], Obs]:
    """observe(depths) of the reference game, with reasons where the edition's engine gives them."""
    if edition.answer_key is None:
        observer = edition.observer(game, deck_size, ident=id)
        return observer.observe
    explaining = _Explaining(game, edition.answer_key)
    observer = edition.observer(explaining, deck_size, ident=id)
    return lambda depths: explaining.observe(observer, depths)


def reference_trace(
    deck: Deck, moves: Sequence[WrittenMove], strict: frozenset[str] = frozenset(),
    *, edition: Edition[G], full_piles: bool = False,
) -> list[Step]:
    """The observation after newGame and after each move, with what is lenient in each.

    ``full_piles`` observes the whole piles after every move (for checking hand-worked
    expectations); the differential uses the same depth as the worker.
    """
    game = edition.new_game(deck)
    observer = edition.observer(game, len(deck), ident=id)
    observe = _observing(game, len(deck), edition)
    depths = edition.depths(game, True)
    first = observe(depths)
    first.update(observer.deck_counts())
    steps = [Step(first, edition.leniency(game, strict), depths)]
    for i, spec in enumerate(moves):
        try:
            game.play_move(game.resolve(spec))
        except edition.illegal_move as err:
            raise ScenarioMoveError(f"move {i + 1} ({spec}): {err}") from err
        depths = edition.depths(game, full_piles or i == len(moves) - 1)
        steps.append(Step(observe(depths), edition.leniency(game, strict), depths))
    return steps


@functools.cache
def trace_version(edition: Edition[G]) -> str:
    """The version of everything a reference trace follows from: the rules and this game's grader code."""
    here = Path(__file__).resolve().parent
    folders = edition.sources
    return source_version([*(f for folder in folders for f in folder.glob("*.py")), *here.glob("*.py")])


def cached_reference_trace(deck: Deck, moves: Sequence[WrittenMove],
                           strict: frozenset[str], edition: Edition[G]) -> list[Step]:
    """``reference_trace``, computed once per version for every submission (``grader.core.cache``)."""
    key = key_of(trace_version(edition), edition.name, str(deck), [str(m) for m in moves], sorted(strict))
    return cached("traces", key, lambda: reference_trace(deck, moves, strict, edition=edition), encode_trace,
                  decode_trace)


def encode_trace(steps: list[Step]) -> list[list[object]]:
    return [[s.obs, s.lenient.fields, [[list(k), list(v)] for k, v in s.lenient.play_cards.items()],
             None if s.lenient.winner_accepts is None else sorted(s.lenient.winner_accepts), list(s.depths),
             list(s.lenient.all_but),
             {name: [[p, list(d)] for p, d in players.items()] for name, players in s.lenient.offsets.items()}]
            for s in steps]


def decode_trace(data: list[list[Any]]) -> list[Step]:  # the JSON ``encode_trace`` wrote (a bad one raises)
    return [Step(obs, Leniency({k: tuple(v) for k, v in fields.items()}, {tuple(k): tuple(v) for k, v in play},
                               None if winner is None else frozenset(winner), tuple(all_but),
                               {name: {p: tuple(d) for p, d in players} for name, players in offsets.items()}),
                 (depths[0], depths[1]))
            for obs, fields, play, winner, depths, all_but, offsets in data]


@dataclass(frozen=True, slots=True)
class PackedTrace:
    """A game as the C observer plays it -- the deck, the moves in its form (``move_codes``), the depths the
    piles are read to -- and the reference's observations in its packed form, with their SHA-256 (what a
    batch's child sends back for a game: ``grader.games.fcd.sandbox.play.play_batch``)."""

    cards: list[list[int]]
    codes: list[list[int]]
    depths: tuple[tuple[int, int], ...]
    data: bytes
    digest: str

    @classmethod
    def of(cls, deck: Deck, moves: Sequence[WrittenMove], depths: tuple[tuple[int, int], ...],
           data: bytes) -> PackedTrace:
        return cls([list(k) for k in deck.keys], [move_codes(m) for m in moves], depths, data,
                   hashlib.sha256(data).hexdigest())


def move_codes(spec: WrittenMove) -> list[int]:
    """A move for the C observer: action, the card's value, colour and suit, the colour declared (0: none)."""
    v, c, s = spec.card_key if spec.card_key is not None else (-1, -1, -1)
    return [int(spec.action), v, c, s, int(spec.next_color or 0)]


# The same game objects come back for every submission a process grades (the random games are cached as
# values), and a game's cache key hashes its whole text: a fifth of a millisecond for a long game, as much
# as the game's native run.  So a game's packed trace is also remembered by the identity of its deck and
# moves when both are immutable (held here, so that identity cannot pass to other objects).
_BY_IDENTITY: dict[tuple[int, int], tuple[Deck, Sequence[WrittenMove], PackedTrace]] = {}
_BY_IDENTITY_ENTRIES = 4096


def cached_packed_trace(deck: Deck, moves: Sequence[WrittenMove], edition: Edition[G]) -> PackedTrace:
    """The packed form of the reference's observations (they do not depend on what is strict)."""
    seen = _BY_IDENTITY.get((id(deck), id(moves)))
    if seen is not None and seen[0] is deck and seen[1] is moves:
        return seen[2]

    def compute() -> PackedTrace:
        steps = cached_reference_trace(deck, moves, frozenset(), edition)
        return PackedTrace.of(deck, moves, tuple(s.depths for s in steps),
                              pack_trace((s.obs for s in steps), edition.table))

    key = key_of(trace_version(edition), str(deck), [str(m) for m in moves])
    packed = cached("packed", key, compute,
                    lambda t: {"depths": [list(d) for d in t.depths], "data": base64.b64encode(t.data).decode()},
                    lambda d: PackedTrace.of(deck, moves, tuple((a, b) for a, b in d["depths"]),
                                             base64.b64decode(d["data"])))
    if isinstance(moves, tuple):  # (a Deck is frozen)
        if len(_BY_IDENTITY) >= _BY_IDENTITY_ENTRIES:
            _BY_IDENTITY.clear()
        _BY_IDENTITY[(id(deck), id(moves))] = (deck, moves, packed)
    return packed


def first_difference(deck: Deck, moves: Sequence[WrittenMove], data: bytes, edition: Edition[G]) -> tuple[int, str]:
    """Where packed steps first differ from the reference's: (the step, the observation), read along the
    reference's own layout, which the two share up to there; (steps, "") when they only end early."""
    steps = cached_reference_trace(deck, moves, frozenset(), edition)
    got = array("i")
    got.frombytes(data[:len(data) - len(data) % 4])
    at = 0
    for i, step in enumerate(steps):
        for name in edition.table.order:
            if name not in step.obs:
                continue
            want = pack_step({name: step.obs[name]}, edition.table)
            if got[at:at + len(want)].tolist() != want:
                return i, name
            at += len(want)
    return len(steps), ""


def eager_recycling_trace(deck: Deck, moves: Sequence[WrittenMove], lazy: list[Step],
                          strict: frozenset[str], edition: Edition[G]) -> list[Step] | None:
    """The reference's game under A22's other reading (recycle as soon as the draw pile empties), observed
    at the depths the worker reads (``lazy``'s), as far as its hands can make the moves; None where the
    edition has no such reading or the reading changes nothing in this game."""
    if not edition.eager_recycling_reading:
        return None
    game = edition.new_game(deck)
    cast(EagerRecycling, game).eager_recycling = True
    observer = edition.observer(game, len(deck), ident=id)
    observe = _observing(game, len(deck), edition)
    first = observe(lazy[0].depths)
    first.update(observer.deck_counts())
    steps = [Step(first, edition.leniency(game, strict), lazy[0].depths)]
    recycled = False
    for i, spec in enumerate(moves):
        try:
            game.play_move(game.resolve(spec))
        except edition.illegal_move:
            break  # the reading dealt other cards: the submission cannot make this move either
        recycled = recycled or game.recycles() > 0
        steps.append(Step(observe(lazy[i + 1].depths), edition.leniency(game, strict), lazy[i + 1].depths))
    return steps if recycled else None


def cached_eager_recycling_trace(deck: Deck, moves: Sequence[WrittenMove], lazy: list[Step],
                                 strict: frozenset[str], edition: Edition[G]) -> list[Step] | None:
    """``eager_recycling_trace``, once per version (``grader.core.cache``)."""
    key = key_of(trace_version(edition), edition.name, "A22 eager", str(deck), [str(m) for m in moves],
                 sorted(strict))
    found = cached("traces", key, lambda: eager_recycling_trace(deck, moves, lazy, strict, edition) or [],
                   encode_trace, decode_trace)
    return found or None
