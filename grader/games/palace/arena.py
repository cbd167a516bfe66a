"""Palace at the table: its seating (``PalaceSeating``: the table's engine, ``engine.PalaceTable``) and its baselines.

Tables seat four (the arena's fixed size; the rules allow 2-5) and play the base game unless a
course asks for options. Each deal is a shuffled 52-card deck that never turns a ten, nor a seven
when the seven rule is on, as the starting card (C31: left open, so kept out of play). Moves travel
in the reference's notation with card identities (``5H@12``), so a player's answer names exactly
one card. A player's score at the end is the cards it still holds in all three zones.

A student's ``player.c`` is a ``StudentPlayer``: built with the course's model ``Palace.c`` behind the
guard (``arena_c/palace_guard.c``), asked in a fresh sandboxed child per decision (``decide``), its
answer checked against the reference. Calling a runner or test function inside decideMove (C44), or
changing the game, forfeits; so does an invalid move. A set is judged by its rank and size (suits
never affect play), so a player that names other copies of a rank makes the same move.

The arena hands a deck and a state back as ``object`` (``grader.core.arena.game.ArenaGame``): they are the
reference's ``Setup`` and ``Game`` (``engine.as_setup``, ``engine.as_game``).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from grader.core.arena.game import Privacy, Row, StudentPlayerFactory
from grader.core.arena.players import Decision, Table
from grader.core.arena.student import PlayerKit, SandboxedPlayer
from grader.core.sandbox.limits import Limits
from grader.games.palace.bots import BOTS, Policy
from grader.games.palace.engine import PalaceTable, as_game
from grader.games.palace.sandbox.interface import INCLUDE_DIR
from reference.palace import (
    Action,
    Card,
    Game,
    IllegalMoveError,
    NotationError,
    PlayerMove,
)
from reference.palace.header import RULES_BASIC

MODEL = Path(__file__).resolve().parents[3] / "fixtures" / "palace" / "submissions" / "model"
GUARD = Path(__file__).resolve().parent / "arena_c" / "palace_guard.c"
RENAMED = ("newGame", "destroyGame", "playMove", "gameWinner", "getHandCard", "getFaceDownCard", "getDeckCard")
REFUSED = {1: "playMove", 2: "newGame", 4: "destroyGame", 8: "gameWinner", 16: "getHandCard",
           32: "getFaceDownCard", 64: "getDeckCard"}  # the guard's bits


class PalaceSeating:
    """Palace at the table: its engine there (``PalaceTable``: four seats, the base game unless told otherwise),
    the baselines, a student's ``player.c``, the stand-in move, and who sees what (``privacy``: in the replay's
    frames, three rows a seat -- its hand, seen by its seat only; its face-up cards, seen by all; its face-down
    cards, seen by no one, not even its seat -- then the pile and the burnt cards, seen by all, and the draw pile,
    by no one)."""

    def __init__(self, seats: int = 4, rules: int = RULES_BASIC) -> None:
        self.engine = PalaceTable(seats, rules)
        self.bots: dict[str, Callable[[object, Sequence[str], random.Random], str]] = {
            name: _bot(policy) for name, policy in BOTS.items()}
        self.student_player: StudentPlayerFactory | None = StudentPlayer
        self.privacy = Privacy(tuple(row for seat in range(seats) for row in (
            Row(seat, "hand", "owner"), Row(seat, "face up", "all"), Row(seat, "face down", "none"))),
            ("all", "none", "all"))

    def stand_in(self, state: object, legal: Sequence[str]) -> str:
        """A seat that forfeited plays on passively: it takes the pile when it may, else the first move."""
        return next((m for m in legal if m == "pickup"), legal[0])


def _bot(policy: Policy) -> Callable[[object, Sequence[str], random.Random], str]:
    def decide(state: object, legal: Sequence[str], rng: random.Random) -> str:
        game = as_game(state)
        return str(policy(game, game.legal_moves(), rng))
    return decide


def _cards(move: PlayerMove) -> tuple[Card, ...]:
    """A resolved move's cards (``Game.resolve`` never names a NULL entry)."""
    return tuple(c for c in move.cards if c is not None)


def _same_move(state: Game, move: PlayerMove, legal: Sequence[str]) -> str | None:
    """The legal move (as listed) that ``move`` is: the same cards for a face-up choice, the same rank and
    size for a set (C37, suits never matter), the same position, or taking the pile."""
    for written in legal:
        other = state.resolve(written)
        if other.action != move.action:
            continue
        theirs, mine = _cards(other), _cards(move)
        if move.action == Action.CHOOSE_FACE_UP and {c.ident for c in theirs} == {c.ident for c in mine}:
            return written
        if move.action == Action.PLAY_CARDS and (theirs[0].rank, len(theirs)) == (mine[0].rank, len(mine)):
            return written
        if move.action == Action.PLAY_FACE_DOWN and other.face_down_index == move.face_down_index:
            return written
        if move.action == Action.PICK_UP_PILE:
            return written
    return None


class StudentPlayer(SandboxedPlayer):
    """A student's Palace ``player.c``, built with the model and the guard, asked for moves in the sandbox."""

    kit = PlayerKit(headers=tuple(INCLUDE_DIR / h for h in ("PalaceCard.h", "Palace.h", "player.h")),
                    model=MODEL / "Palace.c", support=(MODEL / "PalaceCard.c",), guard=GUARD, renamed=RENAMED,
                    prefix="palaceModel_", job="grader.games.palace.sandbox.decide", packages=(), refused=REFUSED,
                    refusal="refused: a player may only look at the game through the player-callable functions, C44",
                    work_prefix="palace-player-")

    def __init__(self, folder: str | Path, name: str, limits: Limits, other_hands: str = "forbidden") -> None:
        """``limits``: of one call of decideMove.  ``other_hands`` is not a choice in Palace: C44 forbids
        every runner and test function inside decideMove (the argument is taken for the arena's sake)."""
        super().__init__(folder, name, limits)

    def request(self, state: object, table: Table) -> Mapping[str, object]:
        return {"setup": table.deck, "moves": list(table.moves)}

    def judge(self, state: object, legal: Sequence[str], answer: Mapping[str, Any], notes: tuple[str, ...]) -> Decision:
        game = as_game(state)
        written = str(answer.get("move", ""))[:80]
        try:
            move = game.resolve(written) if answer.get("whole") else None
        except (IllegalMoveError, NotationError, ValueError):
            move = None
        chosen = _same_move(game, move, legal) if move is not None and game.is_valid_move(move) else None
        if chosen is None:
            return Decision(None, f"made an invalid move: {written}", notes)
        return Decision(chosen, "", notes)
