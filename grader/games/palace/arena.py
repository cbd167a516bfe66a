"""Palace at the table: the arena's view of the reference rules (``PalaceArena``) and its baselines.

Tables seat four (the arena's fixed size; the rules allow 2-5) and play the base game unless a
course asks for options. Each deal is a shuffled 52-card deck that never turns a ten, nor a seven
when the seven rule is on, as the starting card (C31: left open, so kept out of play). Moves travel
in the reference's notation with card identities (``5H@12``), so a player's answer names exactly
one card. A player's score at the end is the cards it still holds in all three zones. Students'
players are not seated yet: ``student_player`` is None until Palace's ``decideMove`` harness exists.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from grader.games.palace.bots import BOTS
from reference.palace import Game, Rank, Setup, standard_deck
from reference.palace.header import RULE_SEVEN_LOWER, RULES_BASIC


class PalaceArena:
    title = "Palace"

    def __init__(self, seats: int = 4, rules: int = RULES_BASIC) -> None:
        self.seats = seats
        self.rules = rules
        self.bots = {name: _bot(policy) for name, policy in BOTS.items()}
        self.student_player = None

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
