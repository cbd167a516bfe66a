"""A Final Card-Down edition at the table: its seating (``FcdSeating``: the edition's engine and baselines) and
a student's ``player.c`` as a player (``FcdPlayer``, which an edition's ``StudentPlayer`` gives its kit,
``player_kit``).

A student's player is compiled with the course's model ``Game.c`` of the edition (never the student's own: a
player is judged on its decisions, not on its Game ADT) and the family's guard, and runs in its own sandboxed
worker; every decision is one fresh child that replays the game so far and calls ``decideMove`` once (the
edition's ``decide``, on ``grader.games.fcd.sandbox.decide``), under a per-call CPU and wall limit.  A player therefore
keeps nothing from one call to the next: it may only look at the game, as player.h says.  Where the edition's
API can show another player's hand (2018's ``getHandCard``), a look at one is counted: allowed by default (the
API is public), a forfeit where the marking configuration says ``other_hands = "forbidden"``; either way the
notes say so.  (2017's cannot: its guard counts none, and ``other_hands`` has nothing to allow or forbid.)
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, cast

from grader.core.arena.game import Policy, Privacy, Row, StudentPlayerFactory
from grader.core.arena.players import Decision, Table
from grader.core.arena.student import PlayerKit, SandboxedPlayer
from grader.core.sandbox.limits import Limits
from grader.games.fcd.engine import FcdEngine, PlayedGame
from reference.cards import Deck

GUARD = Path(__file__).resolve().parent / "arena_c" / "fcd_guard.c"
REFUSED = {1: "playMove", 2: "newGame", 4: "destroyGame"}  # the guard's bits

# An edition's baseline (its ``bots``): (its reference Game, its legal PlayerMoves, random numbers) -> one of them.
EditionPolicy = Callable[[Any, Any, random.Random], object]


class FcdSeating:
    """An edition's seating at the table: its engine, its baselines, a student's ``player.c`` (the edition's
    ``StudentPlayer``), the stand-in move, and who sees what (``privacy``: in the replay's frames, a row per seat,
    its hand; then the draw pile and the discard pile: a seat sees its own hand, everyone's hand size, the
    discards, not the draw pile's next cards)."""

    def __init__(self, engine: FcdEngine, bots: Mapping[str, EditionPolicy],
                 student_player: StudentPlayerFactory) -> None:
        self.engine = engine
        self.bots: dict[str, Policy] = {name: _bot(policy) for name, policy in bots.items()}
        self.student_player: StudentPlayerFactory | None = student_player
        self.privacy = Privacy(tuple(Row(seat, "", "owner") for seat in range(engine.seats)), ("none", "all"))

    def stand_in(self, state: object, legal: Sequence[str]) -> str:
        """Draw, else end the turn (a seat that forfeited never says a word nor discards)."""
        return next((m for m in ("draw", "end") if m in legal), legal[0])


def _bot(policy: EditionPolicy) -> Policy:
    def decide(state: object, legal: Sequence[str], rng: random.Random) -> str:
        game = cast(PlayedGame, state)  # (the edition's reference Game)
        return str(policy(game, game.legal_moves(), rng))
    return decide


def player_kit(*, include_dir: Path, model: Path, guard_flags: Path, renamed: tuple[str, ...], job: str,
               work_prefix: str) -> PlayerKit:
    """An edition's kit: its course headers (``include_dir``) and the guard's settings (``guard_flags``, its
    ``fcd_guard_flags.h``), the course's model ``Game.c`` and ``Card.c`` (in ``model``) with ``renamed`` behind
    the guard (newGame, destroyGame, playMove, and getHandCard where the flags count the looks), its ``decide``
    job, and the prefix of a player's work folder."""
    return PlayerKit(headers=(*(include_dir / h for h in ("Card.h", "Game.h", "player.h")), guard_flags),
                     model=model / "Game.c", support=(model / "Card.c",), guard=GUARD, renamed=renamed,
                     prefix="fcdModel_", job=job, packages=("grader.games.fcd.sandbox",), refused=REFUSED,
                     refusal="refused: a player may only look at the game", work_prefix=work_prefix)


class FcdPlayer(SandboxedPlayer):
    """A student's ``player.c``, built with the edition's model and the guard (the subclass's ``kit``), asked for
    moves in the sandbox."""

    def __init__(self, folder: str | Path, name: str, limits: Limits, other_hands: str = "allowed") -> None:
        """``limits``: of one call of decideMove; ``other_hands``: "allowed" or "forbidden" (reading other
        players' hands with getHandCard; the marking configuration says which)."""
        self.other_hands = other_hands
        super().__init__(folder, name, limits)

    def request(self, state: object, table: Table) -> Mapping[str, object]:
        return {"deck": [list(k) for k in Deck.parse(table.deck).keys], "moves": list(table.moves)}

    def judge(self, state: object, legal: Sequence[str], answer: Mapping[str, Any], notes: tuple[str, ...]) -> Decision:
        looked = int(answer.get("other_hands", 0))
        if looked and self.other_hands == "forbidden":
            return Decision(None, f"looked at other players' hands ({looked} getHandCard calls), which this course "
                            "forbids", notes)
        if looked:
            notes += (f"looked at other players' hands ({looked} getHandCard calls): allowed, the API is public",)
        if answer.get("action") == 1 and not answer.get("in_hand"):
            return Decision(None, f"played a card that is not in its hand ({str(answer.get('move'))[:40]})", notes)
        return Decision(str(answer.get("move", ""))[:40], "", notes)
