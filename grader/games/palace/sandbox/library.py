"""A built Palace library, loaded and driven through the Palace API's cffi FFI (``interface.API``).

The analogue of ``grader.games.fcd.sandbox.loader.CLibrary``/``CGame`` for Palace.h: ``PalaceLibrary``
loads the shared library (the same ``load_function`` lookup the loader uses, no ``ffi.dlopen``
class per child), records which of the 32 API functions it defines, and makes games.  A
``PalaceGame`` has the reference engine's method names (``reference.palace.Game``: the C functions
in snake_case), so one observer reads either; it has exactly the methods whose C functions exist.

Cards come back as ``CCard(rank, suit, ident, ptr)``, ``ident`` being the pointer's value (C4:
identity is the pointer).  Moves go in as a ``playerMove`` passed by value, built from anything
shaped like ``notation.PlayerMove`` (``action``, ``cards`` -- CCards or None --, ``count``,
``face_down_index``); fields the action ignores are zero or NULL (C40), entries past ``MAX_SET`` are
dropped (the struct has no room for them; ``numCards`` still says what the move claims).

A hostile library must never break the grader: a NULL game is ``None``; a NULL card is ``None``;
integers are read as they come (a caller that loops on a count caps it, see ``observe``).  This
module runs only inside the sandboxed worker: the trusted grader never loads a student library.
"""

from __future__ import annotations

import mmap
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Callable, Sequence, SupportsInt

import cffi

from grader.core.sandbox.native import (
    LoadError,
    NativeGame,
    cached_function_type,
    declarations,
    game_class,
    load_symbols,
)
from grader.games.palace.sandbox.interface import API, PalaceApi
from grader.games.palace.sandbox.notation import PlayerMove
from grader.games.palace.sandbox.observer_call import DECLARATION, ENTRY

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
UINT_MASK = 2**32 - 1
CARD_GETTERS = ("cardRank", "cardSuit")

__all__ = ["CCard", "LoadError", "PalaceGame", "PalaceLibrary", "c_int", "warm_up"]


def warm_up(api: PalaceApi = API) -> None:
    """Build, once, what every fork child would otherwise build again (declarations, call interfaces,
    the game class of a complete submission).  Called in the fork server before any fork; no student
    code is involved."""
    f = api.ffi()
    api.function_types()
    for ctype in ("rank[]", "suit[]", "playerMove *", "uintptr_t", "Card"):
        f.typeof(ctype)
    _game_class(api, frozenset(api.functions))
    observer_entry_type()
    for ctype in ("void *[]", "int32_t[]", "int64_t *", "int32_t *", "uint32_t[]"):
        observer_ffi().typeof(ctype)


def c_int(value: SupportsInt) -> int:
    """A Python int as a C int would hold it (clamped: the grader never relies on overflow)."""
    return max(INT_MIN, min(INT_MAX, int(value)))


@dataclass(frozen=True, slots=True, eq=False)
class CCard:
    """A card seen through PalaceCard.h's getters; ``ident`` is the pointer."""

    rank: int
    suit: int
    ident: int
    ptr: Any  # the cffi ``Card`` pointer

    @property
    def key(self) -> tuple[int, int]:
        return (self.rank, self.suit)


class PalaceLibrary:
    """A loaded submission: which functions it has, and games made with it."""

    def __init__(self, path: str | Path, api: PalaceApi = API) -> None:
        self.api = api
        self.lib, self.functions, self.missing = load_symbols(path, api)
        self._game_class = _game_class(api, frozenset(self.functions))

    def has(self, name: str) -> bool:
        return name in self.functions

    def new_game(self, n_players: int, ranks: Sequence[int], suits: Sequence[int], rules: int) -> PalaceGame | None:
        """``newGame(nPlayers, nCards, ranks, suits, rules)`` (nCards = len(ranks)); None for a NULL game."""
        f = self.api.ffi()
        handle = self.functions["newGame"](c_int(n_players), c_int(len(ranks)),
                                           f.new("rank[]", [int(r) for r in ranks]),
                                           f.new("suit[]", [int(s) for s in suits]), c_int(rules))
        if handle == f.NULL:
            return None
        return self._game_class(self, handle)

    def play_packed(self, observer: str, words: Sequence[int], call_slot: memoryview,
                    capacity: int) -> tuple[int, bytes]:
        """A whole game played and observed by the C observer at ``observer`` (``c_observer``), in one call:
        (how it ended, the packed frames).  ``words``: the request (``c_observer.request_words``); ``call_slot``:
        the writable buffer whose first 20 bytes are the call in progress."""
        f = observer_ffi()
        native = f._backend.load_library(observer, 0)  # kept while its function is called: no dlclose
        entry = native.load_function(observer_entry_type(), ENTRY)
        api = f.new("void *[]", [f.cast("void *", self.functions[name]) for name in self.api.functions])
        # Pages of their own, touched only as written (as Final Card-Down's observer: no malloc of the whole area).
        area = mmap.mmap(-1, 4 * capacity)
        out = f.from_buffer("uint32_t[]", area)
        length = f.new("int64_t *")
        slot = f.from_buffer(call_slot)
        try:
            outcome = entry(api, f.new("int32_t[]", list(words)), len(words), f.cast("int32_t *", slot), out,
                            capacity, length)
            return int(outcome), area[:4 * min(max(length[0], 0), capacity)]
        finally:
            f.release(slot)
            f.release(out)


class PalaceGame(NativeGame):
    """A game inside the student's library, with the reference engine's method names."""

    _lib: PalaceLibrary

    def __init__(self, library: PalaceLibrary, handle: Any) -> None:  # handle: the cffi ``Game`` pointer
        super().__init__(library, handle)
        self._null = self._ffi.NULL
        self._uintptr = self._ffi.typeof("uintptr_t")
        self._rank, self._suit = library.functions.get("cardRank"), library.functions.get("cardSuit")

    @property
    def library(self) -> PalaceLibrary:
        return self._lib

    def returns_null(self, cname: str, *args: int) -> bool:
        """Does this Card getter give NULL here?  The pointer is only compared, never read: a getter that
        answers past the end of a zone hands back memory nobody set (C43 is its own test's business)."""
        return self._fn[cname](self._handle, *args) == self._null

    def card(self, ptr: Any) -> CCard | None:
        """The card a cffi ``Card`` pointer is (None for NULL)."""
        if ptr == self._null:
            return None
        rank, suit = self._rank, self._suit
        assert rank is not None and suit is not None  # a class with card-valued queries has the getters
        return CCard(int(rank(ptr)), int(suit(ptr)), int(self._ffi.cast(self._uintptr, ptr)), ptr)

    def c_move(self, move: PlayerMove) -> Any:
        """The ``playerMove`` struct (by value) for a move shaped like ``notation.PlayerMove``."""
        f = self._ffi
        m = f.new("playerMove *")  # zeroed: unused fields are 0 / NULL (C40)
        m.action = int(move.action) & UINT_MASK  # the enum is unsigned: -1 keeps its bit pattern
        count = getattr(move, "count", None)
        cards = tuple(getattr(move, "cards", ()) or ())
        m.numCards = c_int(len(cards) if count is None else count)
        for k, card in enumerate(cards[:len(m.cards)]):
            m.cards[k] = f.NULL if card is None else card.ptr
        m.faceDownIndex = c_int(getattr(move, "face_down_index", 0) or 0)
        return m[0]


def _is_valid_move(self: PalaceGame, move: PlayerMove) -> bool:
    return bool(self._fn["isValidMove"](self._handle, self.c_move(move)))  # any non-zero is TRUE (§1.3)


def _play_move(self: PalaceGame, move: PlayerMove) -> None:
    self._fn["playMove"](self._handle, self.c_move(move))


def _destroy_game(self: PalaceGame) -> None:
    self._fn["destroyGame"](self._handle)


def _seven_restriction(self: PalaceGame) -> bool:
    return bool(self._fn["sevenRestriction"](self._handle))  # TRUE/FALSE, as the reference's bool


# Wrapped by hand; every other query on a Game is wrapped by what it returns (an int or an enum, or a
# Card), read from its declaration (``native.game_class``).
_OTHER: dict[str, Callable[..., object]] = {"isValidMove": _is_valid_move, "playMove": _play_move,
                                            "destroyGame": _destroy_game, "sevenRestriction": _seven_restriction}


@cache
def observer_ffi() -> cffi.FFI:
    """The C observer's one entry point (``c_observer.DECLARATION``)."""
    return declarations(DECLARATION)


@cache
def observer_entry_type() -> Any:
    """Its cffi type, looked up as ``function_types`` does (no per-child ``dlopen`` class)."""
    return cached_function_type(observer_ffi(), ENTRY)


@cache
def _game_class(api: PalaceApi, available: frozenset[str]) -> type[PalaceGame]:
    """A PalaceGame subclass with exactly the methods whose C functions exist (card-valued queries
    only when the card getters exist too: a card is read through them)."""
    return game_class(PalaceGame, api, available, _OTHER, CARD_GETTERS)
