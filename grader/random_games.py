"""Random games, compared move by move with the reference, shrunk by Hypothesis.

Hand-written scenarios cover the cases someone thought of; random games find
the orderings nobody did (a recycle in the middle of a draw-two, a declared
colour surviving three draws, a skip landing on the winner).  Each game is
generated against the reference -- every move is one the reference says is
legal, weighted so that 2s, A, D and recycling come up often -- then played on
the submission in the worker in one round trip.  A failing game is shrunk by
Hypothesis to a short one and reported in the scenario format, ready to paste
into fixtures/scenarios/ as a regression case.

Profiles: ``grading`` is derandomized with no example database and a fixed
number of games, so a submission gets the same verdict on every run;
``explore`` plays many more games with fresh randomness, for the team.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisWarning, NoSuchExample

from reference import Deck, Game, MoveSpec, PlayerMove, Value, traditional_deck

from .results import Outcome, TestResult

SHRINK_BUDGET = 150  # games replayed while shrinking one failure (a count, not a time: deterministic)
SHRINK_BUDGET_SLOW = 15  # when the failure is a crash, a hang or a lost worker

# Card pools that make the interesting rules come up often.
SPECIAL_VALUES = (Value.DRAW_TWO, Value.A, Value.D, Value.ZERO)


@dataclass(frozen=True)
class Family:
    name: str
    says: str
    min_cards: int
    max_cards: int
    max_moves: int


FAMILIES = (
    Family("small_decks", "Random games on small decks (29-40 cards), where the draw pile runs out: "
           "recycling and the no-winner end come up often.", 29, 40, 250),
    Family("mid_decks", "Random games on mid-sized decks (41-120 cards) of random cards.", 41, 120, 300),
    Family("full_deck", "Random games on the traditional 800-card deck, shuffled.", 800, 800, 150),
)

PROFILES = {
    "grading": dict(derandomize=True, database=None, deadline=None, print_blob=False),
    "explore": dict(derandomize=False, database=None, deadline=None),
}


@dataclass(frozen=True)
class RandomGame:
    deck: Deck
    moves: tuple[MoveSpec, ...]

    def __repr__(self) -> str:
        return f"RandomGame({len(self.deck)} cards, {len(self.moves)} moves)"


def _small_card() -> st.SearchStrategy[tuple[int, int, int]]:
    value = st.one_of(st.sampled_from([int(v) for v in SPECIAL_VALUES]), st.integers(0, 15))
    return st.tuples(value, st.integers(0, 4), st.integers(0, 4))


def decks(family: Family) -> st.SearchStrategy[Deck]:
    if family.min_cards == 800:
        keys = traditional_deck().keys
        return st.permutations(keys).map(Deck.from_keys)
    card = _small_card() if family.max_cards <= 40 else st.tuples(st.integers(0, 15), st.integers(0, 4), st.integers(0, 4))
    return st.lists(card, min_size=family.min_cards, max_size=family.max_cards).map(Deck.from_keys)


def _spec(move: PlayerMove) -> MoveSpec:
    if move.card is None:
        return MoveSpec(move.action)
    return MoveSpec(move.action, move.card.key, move.next_color)


@st.composite
def games(draw: Any, family: Family) -> RandomGame:
    """A deck and a sequence of moves the reference says are legal."""
    deck = draw(decks(family))
    game = Game(deck)
    length = draw(st.integers(1, family.max_moves))
    moves: list[MoveSpec] = []
    for _ in range(length):
        legal = game.legal_moves()
        if not legal:
            break
        special = [m for m in legal if m.card is not None and m.card.value in (Value.DRAW_TWO, Value.A, Value.D)]
        if special and draw(st.integers(0, 2)) > 0:
            move = special[draw(st.integers(0, len(special) - 1))]
        else:
            move = legal[draw(st.integers(0, len(legal) - 1))]
        game.play_move(move)
        moves.append(_spec(move))
    return RandomGame(deck, tuple(moves))


def as_scenario(test_id: str, game: RandomGame, result: TestResult) -> str:
    """The failing game in the scenario format, to paste into fixtures/scenarios/."""
    name = test_id.replace("/", "_")
    rules = ", ".join(f'"{r}"' for r in result.rules)
    return (
        f"# Found by {test_id}; paste under a group file in fixtures/scenarios/ as a regression case.\n"
        f"[[scenario]]\n"
        f'id = "{name}_regression"\n'
        f"rules = [{rules}]\n"
        f'says = "A random game that once showed a difference from the reference."\n'
        f'deck = "{game.deck}"\n'
        f'moves = "{" ".join(str(m) for m in game.moves)}"\n'
    )


def run_family(session: Any, family: Family, examples: int, profile: str = "grading") -> TestResult:
    """One test: no game of this family may differ from the reference."""
    test_id = f"random/{family.name}"
    failures: dict[tuple[str, str], TestResult] = {}
    runs_after_failure = [0]

    def key(game: RandomGame) -> tuple[str, str]:
        return str(game.deck), " ".join(str(m) for m in game.moves)

    def fails(game: RandomGame) -> bool:
        if key(game) in failures:
            return True  # Hypothesis replays the example it reports
        if failures:
            # A shrinking budget counted in games, not seconds, so the verdict and the
            # reported game are the same on every run; small when games crash or hang.
            runs_after_failure[0] += 1
            first = next(iter(failures.values()))
            budget = SHRINK_BUDGET if first.outcome is Outcome.WRONG else SHRINK_BUDGET_SLOW
            if runs_after_failure[0] > budget:
                return False
        result = session.run_game(test_id, "", (), game.deck, game.moves, kind="random")
        if result.passed:
            return False
        failures[key(game)] = result
        return True

    config = settings(
        **PROFILES[profile], max_examples=examples,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate, Phase.shrink],
    )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", HypothesisWarning)  # reprs of 800-card decks
            smallest = find(games(family), fails, settings=config)
    except NoSuchExample:
        return TestResult(test_id, "random", ("R1-R18",), 1.0, Outcome.PASSED, kind="random",
                          notes=[f"{examples} random games agreed with the reference"])
    result = failures.get(key(smallest)) or session.run_game(test_id, "", (), smallest.deck, smallest.moves,
                                                            kind="random")
    # Moves after the first difference show nothing more: cut them if the game still fails.
    if result.failed_after is not None and result.failed_after < len(smallest.moves):
        shorter = RandomGame(smallest.deck, smallest.moves[: max(result.failed_after, 1)])
        again = session.run_game(test_id, "", (), shorter.deck, shorter.moves, kind="random")
        if not again.passed:
            smallest, result = shorter, again
    result.message = (f"{family.says}\nOne of them differs from the reference; Hypothesis shrank it to "
                      f"{len(smallest.moves)} moves on a {len(smallest.deck)}-card deck.\n" + result.message)
    result.repro = as_scenario(test_id, smallest, result)
    result.kind = "random"
    result.group = "random"
    if result.outcome is Outcome.PASSED:  # flaky: the same game passed when replayed
        result.outcome = Outcome.WRONG
        result.message = ("A random game failed once and passed when replayed: your code does not behave the same way "
                          "twice (uninitialised memory?).")
    return result


def run_random_games(session: Any, total: int, profile: str = "grading") -> list[TestResult]:
    """The random-games stage: ``total`` games shared among the deck families."""
    per = max(1, total // len(FAMILIES))
    return [run_family(session, fam, per, profile) for fam in FAMILIES]


