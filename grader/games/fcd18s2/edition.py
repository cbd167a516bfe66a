"""An edition of Final Card-Down as a value: what the shared trusted-side pipeline needs of it.

The reference trace (``reference_trace``), the comparison (``compare``), the
failure messages (``explain``) and the session (``session``) were written for
the 2018 rules; each reads the edition it grades from one of these, so the
2017 edition (``grader.games.fcd17s2.edition``) is its own engine, notation,
rulings, observation table and observer, and the same code around them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

import reference
from grader.games.fcd18s2.observations import TABLE, Table
from grader.games.fcd18s2.observe import Observer, describe_call, pile_depths, probe_name
from reference.rulings import BY_ID, Leniency


@dataclass(frozen=True, eq=False)
class Edition:
    name: str  # the game's name (``grader.games``): part of every cached trace's key
    table: Table  # what a tester sees through the edition's Game.h
    new_game: Callable[[Any], Any]  # deck -> the reference game
    parse_move: Callable[[str], Any]  # one token of the notation -> the edition's MoveSpec
    illegal_move: type[Exception]  # what the reference raises for a move it refuses
    leniency: Callable[[Any, frozenset[str]], Leniency]  # what is left open in a reference state
    rulings: Mapping[str, Any]  # ruling id -> ruling (``touches``, ``readings``), for the messages
    observer: Callable[..., Any]  # (game, deck size, ident=...) -> an observer with observe(depths), deck_counts()
    depths: Callable[[Any, bool], tuple[int, int]]  # how deep the piles of a reference game are read
    sources: tuple[Any, ...]  # the packages a reference trace follows from (their source is its version)
    describe_call: Callable[..., str]  # the call in progress (the worker's call slot) in a student's words
    probe_name: Callable[[int], str | None]  # the observation a probe number of the call slot stands for
    rules_span: str  # the edition's rules, as a random game cites them when nothing differed ("R1-R18")
    random_specials: tuple[int, ...]  # the values random games play whenever they may (2s, skips, ...)
    random_prefers_plays: bool  # random games discard 4 times in 5 when they may (or a game may never end)
    rearranges_deals: bool = False  # a wrong deal is judged around with a rearranged deck (``deal_map``, 2018 cards)


FCD18 = Edition(name="fcd18s2", table=TABLE, new_game=reference.Game, parse_move=reference.MoveSpec.parse,
                illegal_move=reference.IllegalMoveError, leniency=reference.leniency, rulings=BY_ID,
                observer=Observer, depths=pile_depths, sources=(reference,), describe_call=describe_call,
                probe_name=probe_name, rules_span="R1-R18",
                random_specials=(reference.Value.DRAW_TWO, reference.Value.A, reference.Value.D),
                random_prefers_plays=False, rearranges_deals=True)
