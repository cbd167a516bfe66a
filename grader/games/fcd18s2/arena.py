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
import shutil
import tempfile
from pathlib import Path
from typing import Any, Sequence

from grader.core.arena.game import Policy, StudentPlayerFactory
from grader.core.arena.players import Decision, Table
from grader.core.arena.student import ask_player, build_player
from grader.core.limits import Limits
from grader.core.worker_client import WorkerClient
from grader.games.fcd18s2.bots import BOTS
from grader.games.fcd18s2.engine import ENGINE
from grader.games.fcd18s2.interface import INCLUDE_DIR
from reference import Deck, Game

MODEL = Path(__file__).resolve().parents[3] / "fixtures" / "submissions" / "model"
GUARD = Path(__file__).resolve().parent / "arena_c" / "fcd_guard.c"
RENAMED = ("newGame", "destroyGame", "playMove", "getHandCard")  # the model's, behind the guard
REFUSED = {1: "playMove", 2: "newGame", 4: "destroyGame"}


class FcdSeating:
    """The 2018 game's seating at the table: the baselines, a student's ``player.c``, and the stand-in move."""

    engine = ENGINE

    def __init__(self) -> None:
        self.bots: dict[str, Policy] = {name: _bot(policy) for name, policy in BOTS.items()}
        self.student_player: StudentPlayerFactory | None = StudentPlayer

    def stand_in(self, state: object, legal: Sequence[str]) -> str:
        return next((m for m in ("draw", "end") if m in legal), legal[0])


def _bot(policy: Any) -> Any:
    def decide(state: Game, legal: Sequence[str], rng: random.Random) -> str:
        return str(policy(state, state.legal_moves(), rng))
    return decide


class StudentPlayer:
    """A student's ``player.c``, built with the model and the guard, asked for moves in the sandbox."""

    kind = "student"

    def __init__(self, folder: str | Path, name: str, limits: Limits, other_hands: str = "allowed") -> None:
        """``limits``: of one call of decideMove; ``other_hands``: "allowed" or "forbidden" (reading other
        players' hands with getHandCard; the marking configuration says which)."""
        self.folder = Path(folder)
        self.name = name or self.folder.name
        self.limits, self.other_hands = limits, other_hands
        self.work = Path(tempfile.mkdtemp(prefix="fcd-player-"))
        self.work.chmod(0o755)
        self.problem = ""  # why it could not be built ('' when it was)
        self.build_output = ""
        self.client: WorkerClient | None = None
        library = self._build()
        if library is not None:
            self.client = WorkerClient(library, "grader.games.fcd18s2.decide", ("reference", "grader.games.fcd"))

    def _build(self) -> Path | None:
        library, self.problem, self.build_output = build_player(
            self.folder, self.work, headers=[INCLUDE_DIR / h for h in ("Card.h", "Game.h", "player.h")],
            model=MODEL / "Game.c", support=[MODEL / "Card.c"], guard=GUARD, renamed=RENAMED, prefix="fcdModel_")
        return library

    def decide(self, state: Any, legal: Sequence[str], table: Table) -> Decision:
        if self.client is None:
            return Decision(None, f"could not play: {self.problem}")
        deck = [list(k) for k in Deck.parse(table.deck).keys]
        answer, forfeit, notes = ask_player(self.client, {"deck": deck, "moves": list(table.moves)}, self.limits,
                                            REFUSED, "refused: a player may only look at the game")
        if answer is None:
            return forfeit or Decision(None, "gave no answer", notes)
        looked = int(answer.get("other_hands", 0))
        if looked and self.other_hands == "forbidden":
            return Decision(None, f"looked at other players' hands ({looked} getHandCard calls), which this course "
                            "forbids", notes)
        if looked:
            notes += (f"looked at other players' hands ({looked} getHandCard calls): allowed, the API is public",)
        if answer.get("action") == 1 and not answer.get("in_hand"):
            return Decision(None, f"played a card that is not in its hand ({str(answer.get('move'))[:40]})", notes)
        return Decision(str(answer.get("move", ""))[:40], "", notes)

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        shutil.rmtree(self.work, ignore_errors=True)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001, S110 - at interpreter exit, nothing more to do
            pass


SEATING = FcdSeating()
