"""Final Card-Down's library: load a built submission and drive it (on ``grader.core.sandbox.native``).

The cffi declarations are read from the very headers students include
(an edition's ``native.Api``), so the two can never
drift.  ``CLibrary`` checks every API
symbol at load time and reports every missing one at once; a library with
missing functions still loads, and ``CGame`` simply lacks those methods (the
tests that need them fail, the others run).

This module runs only inside the sandboxed worker: the trusted grader never
loads a student library.
"""

from __future__ import annotations

import mmap
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence, cast

from grader.core.sandbox.native import Api, NativeGame, cached_function_type, declarations, game_class, load_symbols

if TYPE_CHECKING:
    import cffi

    from grader.games.fcd.sandbox.observe import MadeMove

def warm_up(api: Api, *, native_observer: bool) -> None:
    """Build, once, what every fork child would otherwise build again: the call
    interfaces of the API's functions (cffi makes them on first use) and the game
    class of a complete submission.  Called in the fork server before any fork;
    no student code is involved.  ``native_observer``: the edition has a C observer, whose entry is
    looked up too."""
    f = api.ffi()
    api.function_types()
    for ctype in ("value[]", "color[]", "suit[]", "playerMove *", "uintptr_t", "Card"):
        f.typeof(ctype)  # the type strings the adapter uses, parsed once here
    _game_class(api, frozenset(api.functions))
    if native_observer:
        observer_entry_type()
        for ctype in ("void *[]", "int32_t[]", "int64_t *", "int32_t *", "void *"):
            observer_ffi().typeof(ctype)


@dataclass(frozen=True, slots=True, eq=False)
class CCard:
    """A card seen through the student's Card.h getters; ``ident`` is the pointer."""

    value: int
    color: int
    suit: int
    ident: int
    ptr: Any  # the cffi ``Card`` pointer


class CLibrary:
    """A loaded submission: which functions it has, and games made with it."""

    def __init__(self, path: str | Path, api: Api) -> None:
        self.api = api
        self.lib, self.functions, self.missing = load_symbols(path, api)
        self._game_class = _game_class(api, frozenset(self.functions))

    def has(self, name: str) -> bool:
        return name in self.functions

    def play_packed(self, observer: str, deck: Sequence[Sequence[int]], moves: Sequence[Sequence[int]],
                    depths: Sequence[Sequence[int]], call_slot: memoryview, capacity: int,
                    destroy: bool) -> tuple[int, int, bytes]:
        """A whole game played and observed by the C observer at ``observer`` (``c_observer``), in one
        call: (how it ended, the move it stopped at, the packed observations).  ``call_slot``: the
        writable buffer whose first 20 bytes are the call in progress."""
        f = observer_ffi()
        native = f._backend.load_library(observer, 0)  # kept while its function is called: no dlclose
        entry = native.load_function(observer_entry_type(), "fcd_play_packed")
        api = f.new("void *[]", [f.cast("void *", self.functions[name]) for name in self.api.functions])
        flat = lambda rows: f.new("int32_t[]", [x for row in rows for x in row])  # noqa: E731
        # Pages of their own, touched only as written: malloc would fill the whole area at once under the
        # worker's deterministic malloc (glibc's perturb), 32 MiB for every game.
        area = mmap.mmap(-1, 4 * capacity)
        out = f.from_buffer("int32_t[]", area)
        length, stopped = f.new("int64_t *"), f.new("int32_t *")
        slot = f.from_buffer(call_slot)
        try:
            outcome = entry(api, len(deck), flat(deck), len(moves), flat(moves), flat(depths),
                            f.cast("int32_t *", slot), out, capacity, length, stopped, int(destroy))
            return int(outcome), int(stopped[0]), area[:4 * min(max(length[0], 0), capacity)]
        finally:
            f.release(slot)
            f.release(out)

    def new_game(self, values: Sequence[int], colors: Sequence[int], suits: Sequence[int]) -> CGame | None:
        f = self.api.ffi()
        n = len(values)
        handle = self.functions["newGame"](
            n, f.new("value[]", list(values)), f.new("color[]", list(colors)), f.new("suit[]", list(suits))
        )
        if handle == f.NULL:
            return None
        return self._game_class(self, handle)


class CGame(NativeGame):
    """A game inside the student's library (a ``CLibrary``), with the reference engine's method names."""

    if TYPE_CHECKING:  # made at load time, for the functions the library has (``_game_class``); a game's player
        # checks these three are there before it plays (``play.play_game``)
        def hand_card(self, index: int) -> CCard | None: ...

        def is_valid_move(self, move: MadeMove) -> bool: ...

        def play_move(self, move: MadeMove) -> None: ...

    def card(self, ptr: Any) -> CCard | None:  # ptr: a cffi ``Card`` pointer
        f = self._ffi
        if ptr == f.NULL:
            return None
        fn = self._fn
        return CCard(int(fn["cardValue"](ptr)), int(fn["cardColor"](ptr)), int(fn["cardSuit"](ptr)),
                     int(f.cast("uintptr_t", ptr)), ptr)

    def c_move(self, move: MadeMove) -> Any:
        """The ``playerMove`` struct (by value, a cffi object) of a move holding this library's cards."""
        m = self._ffi.new("playerMove *")
        m.action = int(move.action)
        m.nextColor = int(move.next_color) if move.next_color is not None else 0
        m.card = cast(CCard, move.card).ptr if move.card is not None else self._ffi.NULL
        return m[0]


@dataclass(frozen=True, slots=True)
class CMove:
    """A ``playerMove`` a submission returned (2017's ``pastMove``): its three fields as read."""

    action: int
    next_color: int
    card: CCard | None


@cache
def observer_ffi() -> cffi.FFI:
    """The C observer's one entry point (every edition's ``c_observer``: ``grader.games.fcd.c_observer``)."""
    return declarations("int fcd_play_packed(void *const *api, int32_t deck_n, const int32_t *deck, int32_t n_moves, "
                        "const int32_t *moves, const int32_t *depths, int32_t *call_slot, int32_t *packed, "
                        "int64_t packed_cap, int64_t *packed_len, int32_t *stopped, int destroy);")


@cache
def observer_entry_type() -> Any:
    """Its cffi type, looked up as ``function_types`` does (no per-child ``dlopen`` class)."""
    return cached_function_type(observer_ffi(), "fcd_play_packed")


def _is_valid_move(self: CGame, move: MadeMove) -> bool:
    return bool(self._fn["isValidMove"](self._handle, self.c_move(move)))


def _play_move(self: CGame, move: MadeMove) -> None:
    self._fn["playMove"](self._handle, self.c_move(move))


def _destroy_game(self: CGame) -> None:
    self._fn["destroyGame"](self._handle)


def _past_move(self: CGame, turn: int, index: int) -> CMove:
    m = self._fn["pastMove"](self._handle, turn, index)
    return CMove(int(m.action), int(m.nextColor), self.card(m.card))


# The game functions wrapped by hand; every other query on a Game is wrapped by what it returns
# (an int or an enum, or a Card), read from its declaration (``native.game_class``).  getCurrentColor returns int
# (A38).
_OTHER: dict[str, Callable[..., object]] = {"isValidMove": _is_valid_move, "playMove": _play_move,
                                            "destroyGame": _destroy_game, "pastMove": _past_move}


@cache
def _game_class(api: Api, available: frozenset[str]) -> type[CGame]:
    """A CGame subclass with exactly the methods whose C functions exist (``pastMove`` reads a card too)."""
    return game_class(CGame, api, available, _OTHER, ("cardValue", "cardColor", "cardSuit"),
                      needs_cards=frozenset({"pastMove"}))
