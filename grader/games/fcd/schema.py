"""The shape every observation a worker sends must have, derived from the observation table.

What a worker sends is student-controlled once the library is loaded: an
observation is compared with the reference only after ``valid_observation``
found it has exactly the table's fields, each of its shape (or the word for a
function the submission lacks, or a probe left out).
"""

from __future__ import annotations

from functools import cache
from typing import Callable

from grader.games.fcd.sandbox.observations import Table

MISSING_OR_SKIPPED = ("missing", "skipped")


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and -(2**63) <= x < 2**64


def _is_card(x: object) -> bool:
    return x is None or (isinstance(x, list) and len(x) == 4 and all(_is_int(v) for v in x))


def _is_cards(x: object) -> bool:
    return isinstance(x, list) and all(_is_card(c) and c is not None for c in x)


def _ints(n: int, each_may_be: tuple[str, ...]) -> Callable[[object], bool]:
    return lambda x: isinstance(x, list) and len(x) == n and all(v in each_may_be or _is_int(v) for v in x)


SHAPES: dict[str, Callable[[object], bool]] = {
    "int": _is_int,
    "bool": lambda x: isinstance(x, bool),
    "card": _is_card,
    "cards": _is_cards,
    "four_hands": lambda x: isinstance(x, list) and len(x) == 4 and all(_is_cards(h) for h in x),
    "four_ints": _ints(4, MISSING_OR_SKIPPED),  # per player: one may be missing or left out
    "ints_5": _ints(5, ("missing",)),
    "ints_16": _ints(16, ("missing",)),
    "answers": lambda x: isinstance(x, dict) and all(isinstance(k, str) and isinstance(v, bool) for k, v in x.items()),
    # two turns of moves in the notation (the previous turn's, the current one's): the 2017 history
    "history": lambda x: isinstance(x, list) and len(x) == 2 and all(
        isinstance(t, list) and all(isinstance(m, str) and len(m) <= 16 for m in t) for t in x),
}

PER_PLAYER = ("four_ints",)  # missing or left out per player, never as a whole


def _check(shape: str) -> Callable[[object], bool]:
    """The shape, or (for a whole observation) the word for a missing function or a left-out probe."""
    check = SHAPES[shape]
    return check if shape in PER_PLAYER else (lambda x: x in MISSING_OR_SKIPPED or check(x))


@cache
def schemas(table: Table) -> tuple[dict[str, Callable[[object], bool]], dict[str, Callable[[object], bool]]]:
    """The checks of an edition's observations: right after newGame (the deck counts are read once,
    then) and after every move."""
    first_only = frozenset(table.deck_counts)
    return ({o.name: _check(o.shape) for o in table.observations},
            {o.name: _check(o.shape) for o in table.observations if o.name not in first_only})




SHOWN_NAMES = 8  # of the fields that differ, the message names at most this many


def _names(keys: set[object]) -> str:
    """The fields that differ, for the message: the worker's keys are the student's (any number of them,
    any length; JSON makes them strings, but nothing here depends on it)."""
    shown = sorted(keys, key=repr)
    text = ", ".join(repr(k)[:40] for k in shown[:SHOWN_NAMES])
    more = f", ... and {len(shown) - SHOWN_NAMES} more" if len(shown) > SHOWN_NAMES else ""
    return f"[{text}{more}]"


def valid_observation(obs: object, table: Table, first: bool = False) -> str | None:
    """None if ``obs`` has exactly the expected shape, else what is wrong."""
    if not isinstance(obs, dict):
        return "an observation is not an object"
    schema = schemas(table)[0 if first else 1]
    if set(obs) != set(schema):
        return f"observation fields differ: {_names(set(obs) ^ set(schema))}"
    for name, check in schema.items():
        if not check(obs[name]):
            return f"observation field {name!r} has the wrong shape"
    return None
