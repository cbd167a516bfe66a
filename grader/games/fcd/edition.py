"""An edition of Final Card-Down as a value: what the shared trusted-side pipeline needs of it.

The reference trace (``reference_trace``), the comparison (``compare``), the
failure messages (``explain``) and the session (``session``) are the family's;
each reads the edition it grades from one of these (``grader.games.fcd18s2.edition``,
``grader.games.fcd17s2.edition``): its engine, notation, rulings, observation table
and observer, and the same code around them.  No function of the family has a
default edition: a forgotten argument is an error, never another edition's table.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Generic, Mapping, Protocol, Sequence, TypeVar

from grader.games.fcd.deal_map import DealProbe
from grader.games.fcd.sandbox.observations import Table
from grader.games.fcd.sandbox.observe import CardLike, Observer
from reference.cards import Card, CardKey, Deck
from reference.rulings import Leniency


class WrittenMove(Protocol):
    """A move as written, either edition's ``MoveSpec`` (``5RH``, ``DRH/B``, ``draw``, 2017's ``uno``): its
    action, the look of its card, the colour it declares; ``str`` gives its notation."""

    @property
    def action(self) -> int: ...

    @property
    def card_key(self) -> CardKey | None: ...

    @property
    def next_color(self) -> int | None: ...

    def describe(self) -> str: ...


class LegalMove(Protocol):
    """A move an edition's reference offers (``legal_moves``: its ``PlayerMove``), as random games pick one."""

    @property
    def card(self) -> Card | None: ...


class ReferenceGame(Protocol):
    """What the family asks of an edition's reference ``Game`` (``reference.Game``, ``reference.fcd17s2.Game``);
    the edition's own callbacks (``leniency``, ``depths``, the replay's ``describe``) read the rest."""

    # Each edition's own MoveSpec and PlayerMove: ``resolve`` takes the edition's ``parse_move``'s, ``play_move``
    # what ``resolve`` or ``legal_moves`` gave (Python's types cannot tie a game to its move types).
    def resolve(self, spec: Any) -> object: ...

    def play_move(self, move: Any) -> None: ...

    def legal_moves(self) -> Sequence[LegalMove]: ...

    def current_player(self) -> int: ...

    def current_turn(self) -> int: ...

    def recycles(self) -> int: ...

    def describe(self) -> str: ...


G = TypeVar("G", bound=ReferenceGame)  # an edition's reference Game


class Ruling(Protocol):
    """A ruling as the messages cite it (either edition's ``rulings.Ruling``)."""

    @property
    def readings(self) -> tuple[str, ...]: ...

    def touches(self, name: str) -> bool: ...


class MakeObserver(Protocol):
    """``Edition.observer``: the edition's observer class, made for the reference game (``ident=id``)."""

    def __call__(self, game: object, deck_size: int, *, ident: Callable[[CardLike], int]) -> Observer: ...


class DescribeCall(Protocol):
    """``Edition.describe_call``: the call in progress (the worker's call slot) in a student's words."""

    def __call__(self, probe: int, call: int, a: int, b: int, /, *, moves: Sequence[object] = ...) -> str: ...


class AnswerKey(Protocol):
    """``Edition.answer_key``: where the observer files the answer to an isValidMove of the reference game: the
    observation (``valid_play``, ``valid_foreign``, ...) and the move's label in its battery ("" for one answer)."""

    def __call__(self, game: Any, move: Any, /) -> tuple[str, str]: ...


@dataclass(frozen=True)
class RefusalRulings:
    """An edition's rulings on a move its own isValidMove refused, which the grader makes anyway: the one that
    leaves what follows undefined (2018's A28, 2017's B58), and, by the validity observation of the refused move,
    a ruling that keeps its outcome strict all the same (2018's A23: the attempted draw with nothing to draw;
    2017 has none, its B55 leaving that outcome open): the ids the messages cite and the leniency is asked."""

    undefined: str
    strict_after: Mapping[str, str]


@dataclass(frozen=True, eq=False)
class Edition(Generic[G]):
    name: str  # the game's name (``grader.games``): part of every cached trace's key
    table: Table  # what a tester sees through the edition's Game.h
    new_game: Callable[[Deck], G]  # deck -> the reference game
    parse_move: Callable[[str], WrittenMove]  # one token of the notation -> the edition's MoveSpec
    illegal_move: type[Exception]  # what the reference raises for a move it refuses
    leniency: Callable[[G, frozenset[str]], Leniency]  # what is left open in a reference state
    rulings: Mapping[str, Ruling]  # ruling id -> ruling (``touches``, ``readings``), for the messages
    observer: MakeObserver  # (game, deck size, ident=...) -> an observer with observe(depths), deck_counts()
    depths: Callable[[G, bool], tuple[int, int]]  # how deep the piles of a reference game are read
    sources: tuple[Path, ...]  # the folders a reference trace follows from besides the family's (its version)
    describe_call: DescribeCall  # the call in progress (the worker's call slot) in a student's words
    probe_name: Callable[[int], str | None]  # the observation a probe number of the call slot stands for
    rules_span: str  # the edition's rules, as a random game cites them when nothing differed ("R1-R18")
    random_specials: tuple[int, ...]  # the values random games play whenever they may (2s, skips, ...)
    random_prefers_plays: bool  # random games discard 4 times in 5 when they may (or a game may never end)
    refusal: RefusalRulings  # what a move its isValidMove refused, made anyway, leaves open
    # How a wrong deal is judged around, with a rearranged deck (``deal_map``); None: every test plays its deck as given
    deal_probe: DealProbe | None = None
    eager_recycling_reading: bool = False  # A22's other reading (recycle as soon as the draw pile empties) exists
    # The edition's C observer, installed beside a built library (-> its path): a game equal to the reference's,
    # step for step, is then accepted from one native run.  None: every game is observed step by step.
    native_observer: Callable[[Path], Path] | None = None
    # Where each isValidMove answer of the reference is filed, for the engine's reasons (``why_valid``): a difference
    # there is charged to the tests that hold the clause that decided it.  None: the table's scopes decide.
    answer_key: AnswerKey | None = None


def folder_of(package: ModuleType) -> Path:
    """Where a package's source is (a trace's version follows it)."""
    return Path(str(package.__file__)).resolve().parent
