"""What every C game needs to drive a student's library: the one module that touches cffi.

The cffi declarations are read from the very headers students include, with
comments and preprocessor lines stripped, so the two can never drift (``Api``).
A built library is opened and every function of the API looked up at once
(``load_symbols``): a library with missing functions still loads, and the tests
that need them fail while the others run.  A game's own library class (its
hand-wrapped calls, its card and move types) is built on these.

Everything here runs inside the sandboxed worker, except ``c_string`` (for the C
programs the trusted side writes): the trusted grader never loads a student library.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Protocol, TypeVar

import cffi


def declarations(cdef: str) -> cffi.FFI:
    """An FFI holding these C declarations (a game's header, or a generated entry point)."""
    f = cffi.FFI()
    f.cdef(cdef)
    return f


def cached_function_type(f: cffi.FFI, name: str) -> Any:
    """The cffi type of the declared function ``name``, looked up directly: ``load_function`` with it skips
    the class and accessor table ``ffi.dlopen`` builds per library (a third of a millisecond in every
    fork child)."""
    with f._lock:  # cffi's own type cache; private, but this is the cffi module
        return f._get_cached_btype(f._parser._declarations["function " + name][0])


class Api:
    """One game's (or edition's) C interface, read from the headers students include: its declarations,
    its functions in header order, the cffi type of each (built once per process)."""

    def __init__(self, include_dir: Path, headers: tuple[str, ...],
                 elsewhere: Mapping[str, Path] | None = None) -> None:
        """``elsewhere``: headers of the interface that are not the course's (a players' guard: its path)."""
        self.include_dir, self.headers = include_dir, headers
        self.elsewhere = dict(elsewhere or {})
        self._ffi: cffi.FFI | None = None
        self._types: dict[str, Any] | None = None
        self.functions = self._declared_functions()

    def header_text(self, name: str) -> str:
        return (self.elsewhere.get(name) or self.include_dir / name).read_text()

    def _declared_functions(self) -> tuple[str, ...]:
        """The functions the API headers declare, in header order: the one list of the API."""
        names: list[str] = []
        for name in self.headers:
            text = re.sub(r"/\*.*?\*/|//[^\n]*", "", self.header_text(name), flags=re.S)
            names += re.findall(r"^\s*\w+\s*\**\s*(\w+)\s*\([^;{]*\)\s*;", text, re.M)
        return tuple(names)

    def header_constants(self) -> dict[str, int]:
        """``#define NAME <int>`` lines of the headers (NUM_PLAYERS, NOT_FINISHED, ...)."""
        found: dict[str, int] = {}
        for name in self.headers:
            for m in re.finditer(r"^#define\s+(\w+)\s+(-?\d+)\s*$", self.header_text(name), re.M):
                found[m.group(1)] = int(m.group(2))
        return found

    def cdef_source(self) -> str:
        """The headers as cffi declarations: no comments, no preprocessor lines."""
        parts = []
        for name in self.headers:
            text = re.sub(r"/\*.*?\*/", "", self.header_text(name), flags=re.S)
            text = re.sub(r"//[^\n]*", "", text)
            parts.append("\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")))
        return "\n".join(parts)

    def ffi(self) -> cffi.FFI:
        if self._ffi is None:
            self._ffi = declarations(self.cdef_source())
        return self._ffi

    def function_types(self) -> dict[str, Any]:
        """The cffi type of each API function, built from the declarations once (``cached_function_type``)."""
        if self._types is None:
            f = self.ffi()
            self._types = {name: cached_function_type(f, name) for name in self.functions}
        return self._types


def snake(name: str) -> str:
    """A C function's name as the Python method that wraps it: ``handCardCount`` -> ``hand_card_count``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class LoadError(Exception):
    """The library could not be loaded at all (dlopen failed)."""


def load_symbols(path: str | Path, api: Api) -> tuple[Any, dict[str, Callable[..., Any]], list[str]]:
    """Open a built library and look up every function of ``api``: (the library, the functions it
    defines by name, the names it lacks).  Used by every game's library class."""
    try:  # flags 0 = RTLD_NOW, as ffi.dlopen; and no find_library() fallback on failure
        lib = api.ffi()._backend.load_library(str(path), 0)
    except OSError as err:
        raise LoadError(str(err)) from err
    functions: dict[str, Callable[..., Any]] = {}
    missing: list[str] = []
    for name, btype in api.function_types().items():
        try:
            functions[name] = lib.load_function(btype, name)
        except AttributeError:
            missing.append(name)
    return lib, functions, missing


def game_queries(api: Api, hand_wrapped: Iterable[str]) -> tuple[dict[str, int], tuple[str, ...]]:
    """The queries on a Game, from the declarations, but for the ``hand_wrapped`` functions (a game wraps those
    itself): int-valued ones (an enum is an int: 2017's ``playDirection``) with their number of extra arguments,
    and Card-valued ones."""
    skipped = frozenset(hand_wrapped)
    ints: dict[str, int] = {}
    cards: list[str] = []
    f = api.ffi()
    game_type, card_type, int_type = f.typeof("Game"), f.typeof("Card"), f.typeof("int")
    for cname, ftype in api.function_types().items():
        if cname in skipped or not ftype.args or ftype.args[0] is not game_type:
            continue
        if ftype.result is int_type or ftype.result.kind == "enum":
            ints[cname] = len(ftype.args) - 1
        elif ftype.result is card_type:
            cards.append(cname)
    return ints, tuple(cards)


def _int_query(cname: str, nargs: int) -> Callable[..., int]:
    def method(self: Any, *args: int) -> int:
        return int(self._fn[cname](self._handle, *args[:nargs]))
    method.__name__ = snake(cname)
    return method


def _card_query(cname: str) -> Callable[..., Any]:
    def method(self: Any, *args: int) -> Any:
        return self.card(self._fn[cname](self._handle, *args))
    method.__name__ = snake(cname)
    return method


class NativeGame:
    """A game inside a loaded library, the base of a game's class (``game_class`` adds its methods): the library
    (it has ``functions`` by name and its ``api``), its functions (``_fn``), its declarations (``_ffi``), and the
    cffi ``Game`` pointer (``_handle``).  A game's class reads a ``Card`` pointer with its ``card``."""

    def __init__(self, library: Any, handle: Any) -> None:
        self._lib = library
        self._fn: dict[str, Callable[..., Any]] = library.functions
        self._ffi: cffi.FFI = library.api.ffi()
        self._handle = handle


GameT = TypeVar("GameT", bound=NativeGame)


def game_class(base: type[GameT], api: Api, available: frozenset[str],
               hand_wrapped: Mapping[str, Callable[..., object]], card_getters: Iterable[str],
               needs_cards: frozenset[str] = frozenset()) -> type[GameT]:
    """A subclass of a game's class (``base``, a ``NativeGame`` that reads a ``Card`` with ``card``) with exactly
    the methods whose C functions the library has (``available``): every query of ``game_queries`` (a
    Card-valued one only when the ``card_getters`` exist too: a card is read through them), and the
    ``hand_wrapped`` functions (those of ``needs_cards`` only with the card getters too)."""
    methods: dict[str, Callable[..., object]] = {}
    has_card_getters = all(n in available for n in card_getters)
    int_queries, card_queries = game_queries(api, hand_wrapped)
    for cname, nargs in int_queries.items():
        if cname in available:
            methods[snake(cname)] = _int_query(cname, nargs)
    for cname in card_queries:
        if cname in available and has_card_getters:
            methods[snake(cname)] = _card_query(cname)
    for cname, fn in hand_wrapped.items():
        if cname in available and (cname not in needs_cards or has_card_getters):
            methods[snake(cname)] = fn
    return type(base.__name__, (base,), methods)


class Loaded(Protocol):
    """A game's loaded library, as a job opens it: which API functions it has, and which it lacks."""

    @property
    def missing(self) -> list[str]: ...

    def has(self, name: str) -> bool: ...


LibraryT = TypeVar("LibraryT", bound=Loaded)


def open_library(load: Callable[[], LibraryT], send: Callable[[dict[str, object]], None], error: str,
                 needed: Iterable[str] | None = None) -> LibraryT | None:
    """[sandbox side] A job's library (``load`` opens it), or None once the frame that says why not is sent
    (``{"t": error, "what": "load" | "missing", "detail": ...}``): it could not be loaded, or it lacks a function
    the job needs -- of ``needed``, the first one it lacks; without ``needed``, every API function, all those it
    lacks named."""
    try:
        lib = load()
    except LoadError as err:
        send({"t": error, "what": "load", "detail": str(err)[:2000]})
        return None
    if needed is None:
        if lib.missing:
            send({"t": error, "what": "missing", "detail": ", ".join(lib.missing)})
            return None
        return lib
    for name in needed:
        if not lib.has(name):
            send({"t": error, "what": "missing", "detail": name})
            return None
    return lib


def c_string(text: str) -> str:
    """A C string literal of ``text`` (one line), for the C programs the grader writes (repros, drivers)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'
