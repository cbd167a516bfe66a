"""Final Card-Down (2018) at the table: its seating (``FcdSeating``: the engine is the core's contract, bound in
``engine``), its baselines (``bots``), and a student's ``player.c`` as a player (``StudentPlayer``).

A student's player is compiled with the course's model ``Game.c`` (never the student's own: a player
is judged on its decisions, not on its Game ADT) and the guard, and runs in its own sandboxed worker;
every decision is one fresh child that replays the game so far and calls ``decideMove`` once
(``decide``), under a per-call CPU and wall limit.  A player therefore keeps nothing from one call to
the next: it may only look at the game, as player.h says.  Reading the other hands through
``getHandCard`` is counted: allowed by default (the API is public), a forfeit where the marking
configuration says ``other_hands = "forbidden"``; either way the notes say so.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Mapping, Sequence

from grader.core.arena.game import Policy, Privacy, Row, StudentPlayerFactory
from grader.core.arena.players import Decision, Table
from grader.core.arena.student import PlayerKit, SandboxedPlayer
from grader.core.limits import Limits
from grader.games.fcd18s2.bots import BOTS
from grader.games.fcd18s2.engine import ENGINE
from grader.games.fcd18s2.interface import INCLUDE_DIR
from reference import Deck, Game

MODEL = Path(__file__).resolve().parents[3] / "fixtures" / "submissions" / "model"
GUARD = Path(__file__).resolve().parent / "arena_c" / "fcd_guard.c"
RENAMED = ("newGame", "destroyGame", "playMove", "getHandCard")  # the model's, behind the guard
REFUSED = {1: "playMove", 2: "newGame", 4: "destroyGame"}


class FcdSeating:
    """The 2018 game's seating at the table: the baselines, a student's ``player.c``, the stand-in move, and who
    sees what (``privacy``: in the replay's frames, a row per seat, its hand; then the draw pile and the discard
    pile: a seat sees its own hand, everyone's hand size, the discards, not the draw pile's next cards)."""

    engine = ENGINE

    def __init__(self) -> None:
        self.bots: dict[str, Policy] = {name: _bot(policy) for name, policy in BOTS.items()}
        self.student_player: StudentPlayerFactory | None = StudentPlayer
        self.privacy = Privacy(tuple(Row(seat, "", "owner") for seat in range(ENGINE.seats)), ("none", "all"))

    def stand_in(self, state: object, legal: Sequence[str]) -> str:
        return next((m for m in ("draw", "end") if m in legal), legal[0])


def _bot(policy: Any) -> Any:
    def decide(state: Game, legal: Sequence[str], rng: random.Random) -> str:
        return str(policy(state, state.legal_moves(), rng))
    return decide


class StudentPlayer(SandboxedPlayer):
    """A student's ``player.c``, built with the model and the guard, asked for moves in the sandbox."""

    kit = PlayerKit(headers=tuple(INCLUDE_DIR / h for h in ("Card.h", "Game.h", "player.h")), model=MODEL / "Game.c",
                    support=(MODEL / "Card.c",), guard=GUARD, renamed=RENAMED, prefix="fcdModel_",
                    job="grader.games.fcd18s2.decide", packages=("reference", "grader.games.fcd"), refused=REFUSED,
                    refusal="refused: a player may only look at the game", work_prefix="fcd-player-")

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


SEATING = FcdSeating()
