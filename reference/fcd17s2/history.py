"""The move history of 2017 (``turnMoves``/``pastMove``) and what a call-out is judged on.

One ``TurnRecord`` per turn number, the current turn included: the seat that
held it and every move submitted through ``playMove`` in order, each with the
mover's hand size right after it.  Penalty draws are effects, not moves, and
are never recorded; a skipped seat holds no turn, so it has no record (B26, B50).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .moves import SAID_COUNT, SAY_FOR_COUNT, SAYS, Action, PlayerMove

CLAIMABLE = frozenset(SAID_COUNT.values())  # 1, 2, 3 cards


@dataclass(slots=True)
class TurnRecord:
    seat: int
    moves: list[PlayerMove] = field(default_factory=list)
    hand_after: list[int] = field(default_factory=list)  # the seat's hand size after each move
    call_outs: list[tuple[Action, bool]] = field(default_factory=list)  # each call-out's word, and was it right

    def add(self, move: PlayerMove) -> None:
        """Record a move before its effects (§4.3); ``settle`` fills in the hand size after them."""
        self.moves.append(move)
        self.hand_after.append(-1)

    def settle(self, hand_size: int) -> None:
        self.hand_after[-1] = hand_size

    # ---- what the turn holds so far -----------------------------------------
    def draws(self) -> int:
        return sum(1 for m in self.moves if m.action == Action.DRAW_CARD)

    def discards(self) -> list[PlayerMove]:
        return [m for m in self.moves if m.action == Action.PLAY_CARD]

    def only_calls_so_far(self) -> bool:
        """Nothing drawn or discarded yet: a SAY_* now is a call-out (V4, B40)."""
        return all(m.action in SAYS for m in self.moves)

    def said(self, word: Action) -> bool:
        return any(m.action == word for m in self.moves)

    def discard_counts(self) -> list[int]:
        """The seat's hand size after each discard of the turn, in order."""
        return [n for m, n in zip(self.moves, self.hand_after) if m.action == Action.PLAY_CARD]

    def ended(self) -> bool:
        return bool(self.moves) and self.moves[-1].action == Action.END_TURN

    # ---- what the next player may call out (B42) ------------------------------
    def unclaimed_counts(self) -> frozenset[int]:
        """The counts (1, 2, 3) a discard left the seat with, not claimed by the very next move.

        Every count passed in a CONTINUE chain is listed: B42's reference reading (a).
        """
        out = set()
        for i, move in enumerate(self.moves):
            size = self.hand_after[i]
            if move.action != Action.PLAY_CARD or size not in CLAIMABLE:
                continue
            claimed = i + 1 < len(self.moves) and self.moves[i + 1].action == SAY_FOR_COUNT[size]
            if not claimed:
                out.add(size)
        return frozenset(out)
