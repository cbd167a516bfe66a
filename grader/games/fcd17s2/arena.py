"""Final Card-Down (2017) at the table: its seating (``Fcd17Seating``: the 2017 engine, bound in ``engine``), its
baselines (``bots``), and a student's 2017 ``player.c`` as a player (``StudentPlayer``).

As for 2018 (``grader.games.fcd18s2.arena``): a student's player is compiled with the course's 2017 model
``Game.c`` (never the student's own) and the 2017 guard, and runs in its own sandboxed worker; every decision is
one fresh child that replays the game so far and calls ``decideMove`` once (``decide``), under a per-call CPU and
wall limit.  A player keeps nothing from one call to the next: it may only look at the game, as player.h says.
The 2017 Game.h cannot show another player's hand, so the marking configuration's ``other_hands`` has nothing
to allow or forbid here.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Mapping, Sequence, cast

from grader.core.arena.game import Policy, Privacy, Row, StudentPlayerFactory
from grader.core.arena.players import Decision, Table
from grader.core.arena.student import PlayerKit, SandboxedPlayer
from grader.core.limits import Limits
from grader.games.fcd17s2.bots import BOTS
from grader.games.fcd17s2.engine import ENGINE
from grader.games.fcd17s2.interface import INCLUDE_DIR
from reference.fcd17s2 import Deck, Game

MODEL = Path(__file__).resolve().parents[3] / "fixtures" / "fcd17s2" / "submissions" / "model"
GUARD = Path(__file__).resolve().parent / "arena_c" / "fcd_guard.c"
RENAMED = ("newGame", "destroyGame", "playMove")  # the model's, behind the guard
REFUSED = {1: "playMove", 2: "newGame", 4: "destroyGame"}


class Fcd17Seating:
    """The 2017 game's seating at the table: the baselines, a student's ``player.c``, the stand-in move, and who
    sees what (``privacy``: in the replay's frames, a row per seat, its hand; then the draw pile and the discard
    pile: a seat sees its own hand, everyone's hand size, the discards, not the draw pile's next cards)."""

    engine = ENGINE

    def __init__(self) -> None:
        self.bots: dict[str, Policy] = {name: _bot(policy) for name, policy in BOTS.items()}
        self.student_player: StudentPlayerFactory | None = StudentPlayer
        self.privacy = Privacy(tuple(Row(seat, "", "owner") for seat in range(ENGINE.seats)), ("none", "all"))

    def stand_in(self, state: object, legal: Sequence[str]) -> str:
        """Draw, else end the turn (a seat that forfeited never says a word nor discards)."""
        return next((m for m in ("draw", "end") if m in legal), legal[0])


def _bot(policy: Any) -> Policy:
    def decide(state: object, legal: Sequence[str], rng: random.Random) -> str:
        game = cast(Game, state)  # (the 2017 engine's state)
        return str(policy(game, game.legal_moves(), rng))
    return decide


class StudentPlayer(SandboxedPlayer):
    """A student's 2017 ``player.c``, built with the 2017 model and guard, asked for moves in the sandbox."""

    kit = PlayerKit(headers=tuple(INCLUDE_DIR / h for h in ("Card.h", "Game.h", "player.h")), model=MODEL / "Game.c",
                    support=(MODEL / "Card.c",), guard=GUARD, renamed=RENAMED, prefix="fcdModel_",
                    job="grader.games.fcd17s2.decide", packages=("reference", "grader.games.fcd"), refused=REFUSED,
                    refusal="refused: a player may only look at the game", work_prefix="fcd17-player-")

    def __init__(self, folder: str | Path, name: str, limits: Limits, other_hands: str = "allowed") -> None:
        """``limits``: of one call of decideMove; ``other_hands`` is taken for the factory's signature only (the
        2017 API has no way to read another hand)."""
        super().__init__(folder, name, limits)

    def request(self, state: object, table: Table) -> Mapping[str, object]:
        return {"deck": [list(k) for k in Deck.parse(table.deck).keys], "moves": list(table.moves)}

    def judge(self, state: object, legal: Sequence[str], answer: Mapping[str, Any], notes: tuple[str, ...]) -> Decision:
        if answer.get("action") == 1 and not answer.get("in_hand"):
            return Decision(None, f"played a card that is not in its hand ({str(answer.get('move'))[:40]})", notes)
        return Decision(str(answer.get("move", ""))[:40], "", notes)


SEATING = Fcd17Seating()
