"""Palace at the table: the arena's view of the reference rules (``PalaceArena``) and its baselines.

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
"""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path
from typing import Any, Sequence

from grader.core.arena.players import Decision, Table
from grader.core.arena.student import ask_player, build_player
from grader.core.limits import Limits
from grader.core.worker_client import WorkerClient
from grader.games.palace.bots import BOTS
from grader.games.palace.interface import INCLUDE_DIR
from reference.palace import Action, Game, IllegalMoveError, NotationError, PlayerMove, Rank, Setup, standard_deck
from reference.palace.header import RULE_SEVEN_LOWER, RULES_BASIC

MODEL = Path(__file__).resolve().parents[3] / "fixtures" / "palace" / "submissions" / "model"
GUARD = Path(__file__).resolve().parent / "arena_c" / "palace_guard.c"
RENAMED = ("newGame", "destroyGame", "playMove", "gameWinner", "getHandCard", "getFaceDownCard", "getDeckCard")
REFUSED = {1: "playMove", 2: "newGame", 4: "destroyGame", 8: "gameWinner", 16: "getHandCard",
           32: "getFaceDownCard", 64: "getDeckCard"}  # the guard's bits


class PalaceArena:
    title = "Palace"

    def __init__(self, seats: int = 4, rules: int = RULES_BASIC) -> None:
        self.seats = seats
        self.rules = rules
        self.bots = {name: _bot(policy) for name, policy in BOTS.items()}
        self.student_player = StudentPlayer

    def random_deck(self, rng: random.Random) -> Setup:
        deck = standard_deck()
        avoid = {Rank.TEN} | ({Rank.SEVEN} if self.rules & RULE_SEVEN_LOWER else set())
        while True:
            rng.shuffle(deck)
            if deck[9 * self.seats][0] not in avoid:  # C2: card 9N is turned to start the pile
                return Setup(self.seats, self.rules, tuple(deck))

    def format_deck(self, deck: Setup) -> str:
        return str(deck)

    def new_state(self, deck: Setup) -> Game:
        return Game(deck)

    def to_move(self, state: Game) -> int:
        return state.current_player()

    def legal(self, state: Game) -> list[str]:
        return [str(m) for m in state.legal_moves()]

    def apply(self, state: Game, move: str) -> None:
        state.play_move(state.resolve(move))

    def finished(self, state: Game) -> bool:
        return state.outcome() is not None

    def winner(self, state: Game) -> int | None:
        outcome = state.outcome()
        return outcome.winner if outcome is not None else None

    def scores(self, state: Game) -> list[int]:
        return [state.player_card_count(p) + state.face_up_count(p) + state.face_down_count(p)
                for p in range(self.seats)]

    def stand_in(self, state: Game, legal: Sequence[str]) -> str:
        """A seat that forfeited plays on passively: it takes the pile when it may, else the first move."""
        return next((m for m in legal if m == "pickup"), legal[0])


def _bot(policy: Any) -> Any:
    def decide(state: Game, legal: Sequence[str], rng: random.Random) -> str:
        return str(policy(state, state.legal_moves(), rng))
    return decide


def _same_move(state: Game, move: PlayerMove, legal: Sequence[str]) -> str | None:
    """The legal move (as listed) that ``move`` is: the same cards for a face-up choice, the same rank and
    size for a set (C37, suits never matter), the same position, or taking the pile."""
    for written in legal:
        other = state.resolve(written)
        if other.action != move.action:
            continue
        if move.action == Action.CHOOSE_FACE_UP and {c.ident for c in other.cards} == {c.ident for c in move.cards}:
            return written
        if move.action == Action.PLAY_CARDS and (other.cards[0].rank, len(other.cards)) == (move.cards[0].rank,
                                                                                         len(move.cards)):
            return written
        if move.action == Action.PLAY_FACE_DOWN and other.face_down_index == move.face_down_index:
            return written
        if move.action == Action.PICK_UP_PILE:
            return written
    return None


class StudentPlayer:
    """A student's Palace ``player.c``, built with the model and the guard, asked for moves in the sandbox."""

    kind = "student"

    def __init__(self, folder: str | Path, name: str, limits: Limits, other_hands: str = "forbidden") -> None:
        """``limits``: of one call of decideMove.  ``other_hands`` is not a choice in Palace: C44 forbids
        every runner and test function inside decideMove (the argument is taken for the arena's sake)."""
        self.folder = Path(folder)
        self.name = name or self.folder.name
        self.limits = limits
        self.work = Path(tempfile.mkdtemp(prefix="palace-player-"))
        self.work.chmod(0o755)
        library, self.problem, self.build_output = build_player(
            self.folder, self.work, headers=[INCLUDE_DIR / h for h in ("PalaceCard.h", "Palace.h", "player.h")],
            model=MODEL / "Palace.c", support=[MODEL / "PalaceCard.c"], guard=GUARD, renamed=RENAMED,
            prefix="palaceModel_")
        self.client = (WorkerClient(library, "grader.games.palace.decide", ("reference",))
                       if library is not None else None)

    def decide(self, state: Game, legal: Sequence[str], table: Table) -> Decision:
        if self.client is None:
            return Decision(None, f"could not play: {self.problem}")
        answer, forfeit, notes = ask_player(
            self.client, {"setup": table.deck, "moves": list(table.moves)}, self.limits, REFUSED,
            "refused: a player may only look at the game through the player-callable functions, C44")
        if answer is None:
            return forfeit
        written = str(answer.get("move", ""))[:80]
        try:
            move = state.resolve(written) if answer.get("whole") else None
        except (IllegalMoveError, NotationError, ValueError):
            move = None
        chosen = _same_move(state, move, legal) if move is not None and state.is_valid_move(move) else None
        if chosen is None:
            return Decision(None, f"made an invalid move: {written}", notes)
        return Decision(chosen, "", notes)

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        shutil.rmtree(self.work, ignore_errors=True)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001, S110 - at interpreter exit, nothing more to do
            pass
