"""One game between players, every move checked by the reference before it is applied.

The rule for a player that goes wrong (an illegal move, a crash, a hang, garbage, or a refused
attempt to change the game) is the course runner's: that player forfeits the game and is placed last;
the game goes on for the others, the forfeited seat played by a passive stand-in (the game's
``stand_in``: draw, else end the turn).  A seat that forfeited never wins: should its stand-in put down
its last card, the live players are placed by what they hold.  A game still going after ``max_moves``
is stopped and placed the same way, with no winner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence, TypedDict

from .game import ArenaGame
from .players import Player, Table

MAX_MOVES = 3000


@dataclass(frozen=True)
class Forfeit:
    seat: int
    move: int  # the move it was asked for (0: the first of the game), which is its replay's step
    why: str


class ForfeitJSON(TypedDict):
    seat: int
    move: int
    why: str


class MatchJSON(TypedDict):
    """``MatchRecord.to_json``: its fields by name."""

    deck: str
    players: list[str]
    moves: list[str]
    forfeits: list[ForfeitJSON]
    winner: int | None
    places: list[float]
    stopped: bool
    notes: list[str]


@dataclass
class MatchRecord:
    deck: str
    players: list[str]  # by seat
    moves: list[str] = field(default_factory=list)
    forfeits: list[Forfeit] = field(default_factory=list)
    winner: int | None = None  # the seat that won (None: no winner, or stopped)
    places: list[float] = field(default_factory=list)  # by seat: 1 is best; ties share the better place
    stopped: bool = False  # still going after the move limit
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> MatchJSON:
        return {"deck": self.deck, "players": self.players, "moves": self.moves,
                "forfeits": [{"seat": f.seat, "move": f.move, "why": f.why} for f in self.forfeits],
                "winner": self.winner, "places": self.places, "stopped": self.stopped, "notes": self.notes}

    @classmethod
    def from_json(cls, data: MatchJSON) -> MatchRecord:
        return cls(data["deck"], data["players"], data["moves"], [Forfeit(**f) for f in data["forfeits"]],
                   data["winner"], data["places"], data["stopped"], data["notes"])


def places(game: ArenaGame, state: object, forfeited: Sequence[int]) -> tuple[int | None, list[float]]:
    """(winner, place of each seat): the winner first, the live seats by what they hold, those that forfeited
    last (the first to forfeit last of all)."""
    winner = game.winner(state)
    if winner in forfeited:
        winner = None
    scores = game.scores(state)
    live = [s for s in range(game.seats) if s not in forfeited]
    out = [0.0] * game.seats
    for seat in live:
        better = sum(1 for s in live if s != seat and (s == winner or (seat != winner and scores[s] < scores[seat])))
        out[seat] = float(1 + better)
    for k, seat in enumerate(reversed(list(forfeited))):
        out[seat] = float(len(live) + 1 + k)
    return winner, out


def turn(game: ArenaGame, state: object, player: Player, legal: Sequence[str], table: Table,
         forfeited: bool) -> tuple[str | None, str, list[str]]:
    """The move of the seat to move (its stand-in's if it forfeited earlier), or None and why it forfeits now;
    and the notes on what it did."""
    if forfeited:
        return game.stand_in(state, legal), "", []
    decision = player.decide(state, legal, table)
    notes = [f"{player.name}: {n}" for n in decision.notes]
    why = decision.forfeit or ("" if decision.move in legal else
                               f"made an illegal move: {decision.move!s:.80} (legal: {' '.join(legal)[:200]})")
    return (None if why else decision.move), why, notes


def play_match(game: ArenaGame, deck: object, players: Sequence[Player], max_moves: int = MAX_MOVES) -> MatchRecord:
    """Play one game of ``players`` (by seat) on ``deck``."""
    deck_text = game.format_deck(deck)
    record = MatchRecord(deck_text, [p.name for p in players])
    state = game.new_state(deck)
    forfeited: list[int] = []
    while not game.finished(state) and len(record.moves) < max_moves:
        seat = game.to_move(state)
        legal = game.legal(state)
        if not legal:
            break
        move, why, notes = turn(game, state, players[seat], legal, Table(deck_text, tuple(record.moves), seat),
                                seat in forfeited)
        record.notes += notes
        if move is None:
            record.forfeits.append(Forfeit(seat, len(record.moves), why))
            forfeited.append(seat)
            continue
        game.apply(state, move)
        record.moves.append(move)
    record.stopped = not game.finished(state)
    record.winner, record.places = places(game, state, forfeited)
    if record.stopped:
        record.winner = None
    return record
