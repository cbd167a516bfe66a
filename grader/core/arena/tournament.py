"""A fair tournament: duplicate seating over seeded decks, standings with intervals, early stopping.

Duplicate seating: every deck is played once per rotation of the table, each player taking every seat,
so no one is favoured by the cards or the seat.  A class larger than a table is shuffled into tables
each round (the last filled up with ``random`` baselines, each named as one: ``fillers``), seeded, so the same
entrants give the same games.
Tables run in parallel processes; each process makes its players once (a student's player: its
library and its sandboxed worker) and keeps them.  With ``watch``, the tournament stops as soon as a
sequential test has decided, for every watched pair, whether the first places above the second.
The same seed and entrants give the same games, standings and early stop on any machine, however loaded:
a table's results are taken in the order of the schedule (``pool.map``), never in the order tables finish,
and a student's decision is limited by its own CPU time (``decision_clock``), not by real time.
"""

from __future__ import annotations

import json
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.util import Finalize
from typing import TYPE_CHECKING, Sequence

from .match import MatchRecord, play_match
from .players import BotPlayer
from .stats import Sprt, mean_interval, ratings, wilson

if TYPE_CHECKING:
    from grader.core.sandbox.limits import LimitsDict

    from .players import Player


@dataclass(frozen=True)
class Entrant:
    name: str  # unique in the tournament
    kind: str  # "bot" or "student"
    source: str  # the bot's policy name, or the student's folder


@dataclass(frozen=True)
class Table:
    entrants: tuple[Entrant, ...]
    deck_seed: int


FILLER = "random"  # the baseline that takes a seat no entrant fills


def filler_name(policy: str, which: str) -> str:
    """A baseline the runner seated itself, named so that no one takes it for a player they named."""
    return f"{policy} (baseline, {which})"


def fillers(entrants: Sequence[Entrant], seats: int) -> list[Entrant]:
    """The baselines that fill the last table's empty seats each round (none when the entrants fill their
    tables): the same ones every round, so each has a line in the standings."""
    return [Entrant(filler_name(FILLER, f"filler {k}"), "bot", FILLER) for k in range(1, -len(entrants) % seats + 1)]


def schedule(entrants: Sequence[Entrant], rounds: int, seats: int, seed: int, first_round: int = 0) -> list[Table]:
    """``rounds`` rounds of tables (from round ``first_round``): each round, the entrants shuffled into tables
    of ``seats`` (the last filled with ``fillers``), each table with a deck seed of its own."""
    tables = []
    for r in range(first_round, first_round + rounds):
        rng = random.Random(seed * 1_000_003 + r)
        order = list(entrants)
        if len(order) > seats:
            rng.shuffle(order)
        order += fillers(entrants, seats)
        for t in range(0, len(order), seats):
            tables.append(Table(tuple(order[t:t + seats]), rng.randrange(1 << 30)))
    return tables


@dataclass(frozen=True)
class Settings:
    """What every table of a tournament plays under (the marking configuration's ``[players]``)."""

    max_moves: int
    limits: LimitsDict  # of one call of a student's decideMove (``Limits.as_dict``)
    other_hands: str  # "allowed" or "forbidden"


_PLAYERS: dict[tuple[str, Entrant, str, str], Player] = {}  # each process's players, made once, closed when it ends


def close_players() -> None:
    """Close every player this process made (their sandboxed workers and scratch folders)."""
    while _PLAYERS:
        _PLAYERS.popitem()[1].close()


def _player(game_name: str, entrant: Entrant, seed: int, settings: Settings) -> Player:
    from grader.core.sandbox.limits import Limits  # noqa: PLC0415
    from grader.games import get  # noqa: PLC0415

    arena = get(game_name).arena_game()
    if entrant.kind == "bot":
        return BotPlayer(entrant.name, arena.bots[entrant.source], seed)
    key = (game_name, entrant, json.dumps(settings.limits, sort_keys=True), settings.other_hands)
    if key not in _PLAYERS:
        if not _PLAYERS:  # a pool's process ends by os._exit: atexit would not run, multiprocessing's finalizers do
            Finalize(None, close_players, exitpriority=10)
        if arena.student_player is None:
            raise ValueError(f"{entrant.name}: students cannot play {arena.title}")
        _PLAYERS[key] = arena.student_player(entrant.source, entrant.name, Limits.from_dict(settings.limits),
                                             settings.other_hands)
    return _PLAYERS[key]


def play_table(game_name: str, table: Table, settings: Settings) -> list[MatchRecord]:
    """The table's deck, once per rotation of its players through the seats."""
    from grader.games import get  # noqa: PLC0415

    arena = get(game_name).arena_game()
    deck = arena.random_deck(random.Random(table.deck_seed))
    n = len(table.entrants)
    records = []
    for rotation in range(n):
        seated = [table.entrants[(i + rotation) % n] for i in range(n)]
        players = [_player(game_name, e, table.deck_seed + i, settings) for i, e in enumerate(seated)]
        records.append(play_match(arena, deck, players, settings.max_moves))
    return records


@dataclass
class Standing:
    name: str
    kind: str
    games: int = 0
    wins: int = 0
    forfeits: int = 0
    places: list[float] = field(default_factory=list)
    forfeit_reasons: list[str] = field(default_factory=list)
    rating: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def place(self) -> tuple[float, float, float]:
        return mean_interval(self.places)


def standings(records: Sequence[MatchRecord], kinds: dict[str, str]) -> list[Standing]:
    """Everyone's games, wins (with the Wilson interval), average place (with its interval), forfeits and
    rating, best rating first."""
    table: dict[str, Standing] = {}
    for r in records:
        for seat, name in enumerate(r.players):
            s = table.setdefault(name, Standing(name, kinds.get(name, "bot")))
            s.games += 1
            s.wins += r.winner == seat
            s.places.append(r.places[seat])
        for f in r.forfeits:
            s = table[r.players[f.seat]]
            s.forfeits += 1
            s.forfeit_reasons.append(f.why)
    for name, rating in ratings([(r.players, r.places) for r in records]).items():
        table[name].rating = rating
    return sorted(table.values(), key=lambda s: (-s.rating[2], s.name))


def head_to_head(records: Sequence[MatchRecord], a: str, b: str) -> list[bool]:
    """For each game where both played: did ``a`` place above ``b``?  (Ties are not counted.)"""
    out = []
    for r in records:
        if a in r.players and b in r.players:
            pa, pb = r.places[r.players.index(a)], r.places[r.players.index(b)]
            if pa != pb:
                out.append(pa < pb)
    return out


@dataclass
class Tournament:
    records: list[MatchRecord]
    standings: list[Standing]
    tests: dict[tuple[str, str], Sprt]  # the watched pairs' sequential tests
    rounds: int
    stopped_early: bool


def run_tournament(game_name: str, entrants: Sequence[Entrant], settings: Settings, *, rounds: int, seats: int,
                   seed: int = 0, jobs: int = 2, watch: Sequence[tuple[str, str]] = (), batch: int = 2) -> Tournament:
    """Up to ``rounds`` rounds, ``batch`` at a time; stop early once every watched pair's test has decided."""
    records: list[MatchRecord] = []
    done = 0
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        while done < rounds:
            step = min(batch, rounds - done)
            tables = schedule(entrants, step, seats, seed, first_round=done)
            for got in pool.map(play_table, [game_name] * len(tables), tables, [settings] * len(tables)):
                records.extend(got)
            done += step
            tests = _tests(records, watch)
            if watch and all(t.decision for t in tests.values()):
                break
    kinds = {e.name: e.kind for e in entrants}
    return Tournament(records, standings(records, kinds), _tests(records, watch), done, done < rounds)


def _tests(records: Sequence[MatchRecord], watch: Sequence[tuple[str, str]]) -> dict[tuple[str, str], Sprt]:
    tests = {}
    for a, b in watch:
        t = Sprt()
        for yes in head_to_head(records, a, b):
            if t.add(yes):
                break
        tests[(a, b)] = t
    return tests
