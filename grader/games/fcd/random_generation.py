"""Random games made by Hypothesis against the reference (imported only when they are not cached).

Every move of a game is one the reference says is legal, weighted so that 2s,
A and D come up often; small decks lean on the special values so recycling and
the no-winner end come up too.  Profiles: ``grading`` is derandomized with no
example database, so it makes the same games every time; ``explore`` makes
fresh ones, for the team.

Hypothesis's derandomized generation is not a function of its arguments alone:
the same call made in a process that has already graded a submission made other
full-deck games than in a fresh interpreter.  So the grading profile's games are
made in a fresh interpreter (``python -m grader.games.fcd.random_generation
FAMILY COUNT EDITION``, ``in_fresh_process``): the same games on every machine,
whatever ran before, and so the same marks.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, TypedDict

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.database import ExampleDatabase
from hypothesis.errors import HypothesisWarning, NoSuchExample

from grader.core.interpreter import python_module
from grader.games.fcd.edition import Edition, G, LegalMove, ReferenceGame, WrittenMove
from grader.games.fcd.random_families import FAMILIES, Family, RandomGame
from reference import Deck, Value, traditional_deck

# Card pools that make the interesting rules come up often.
SPECIAL_VALUES = (Value.DRAW_TWO, Value.A, Value.D, Value.ZERO)


class Profile(TypedDict, total=False):
    """The ``settings`` a profile gives Hypothesis."""

    derandomize: bool
    database: ExampleDatabase | None
    deadline: None
    print_blob: bool


PROFILES: dict[str, Profile] = {
    "grading": dict(derandomize=True, database=None, deadline=None, print_blob=False),
    "explore": dict(derandomize=False, database=None, deadline=None),
}


def _small_card() -> st.SearchStrategy[tuple[int, int, int]]:
    value = st.one_of(st.sampled_from([int(v) for v in SPECIAL_VALUES]), st.integers(0, 15))
    return st.tuples(value, st.integers(0, 4), st.integers(0, 4))


def decks(family: Family) -> st.SearchStrategy[Deck]:
    if family.min_cards == 800:
        keys = traditional_deck().keys
        return st.permutations(keys).map(Deck.from_keys)
    any_card = st.tuples(st.integers(0, 15), st.integers(0, 4), st.integers(0, 4))
    card = _small_card() if family.max_cards <= 40 else any_card
    return st.lists(card, min_size=family.min_cards, max_size=family.max_cards).map(Deck.from_keys)


def _spec(move: LegalMove, edition: Edition[G]) -> WrittenMove:
    """The move as written (what its card looks like, not which card it is)."""
    return edition.parse_move(str(move))


@st.composite
def games(draw: st.DrawFn, family: Family, edition: Edition[G]) -> RandomGame:
    """A deck and a sequence of moves the reference says are legal."""
    deck = draw(decks(family))
    game = edition.new_game(deck)
    length = draw(st.integers(1, family.max_moves))
    moves: list[WrittenMove] = []
    for _ in range(length):
        legal = game.legal_moves()
        if not legal:
            break
        plays = [m for m in legal if m.card is not None]
        if edition.random_prefers_plays and plays and draw(st.integers(0, 4)) > 0:
            legal = plays
        special = [m for m in legal if m.card is not None and m.card.value in edition.random_specials]
        if special and draw(st.integers(0, 2)) > 0:
            move = special[draw(st.integers(0, len(special) - 1))]
        else:
            move = legal[draw(st.integers(0, len(legal) - 1))]
        game.play_move(move)
        moves.append(_spec(move, edition))
    return RandomGame(deck, tuple(moves))



def generate(family: Family, count: int, edition: Edition[G], profile: str = "grading") -> list[RandomGame]:
    """The first ``count`` games Hypothesis generates for ``family``, in order."""
    found: list[RandomGame] = []

    def keep(game: RandomGame) -> bool:
        found.append(game)
        return False  # never "found": the whole budget is generated, nothing is shrunk

    config = settings(**PROFILES[profile], max_examples=count, suppress_health_check=list(HealthCheck),
                      phases=[Phase.generate])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", HypothesisWarning)  # reprs of 800-card decks
            find(games(family, edition), keep, settings=config)
    except NoSuchExample:
        pass
    return found


def in_fresh_process(family: Family, count: int, edition: Edition[G]) -> list[list[Any]]:
    """The grading profile's games of ``family``, made by a fresh interpreter (see above), as
    ``[deck, [move, ...]]`` in the notation."""
    root = str(Path(__file__).resolve().parents[3])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run(python_module("grader.games.fcd.random_generation", family.name, str(count), edition.name),
                          capture_output=True, text=True, env=env, timeout=1800, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"making the random games of {family.name} failed: {done.stderr[-2000:]}")
    games: list[list[Any]] = json.loads(done.stdout)
    return games


def _edition(name: str) -> Edition[ReferenceGame]:
    """The edition of that name, from its game package's ``edition`` module."""
    module = importlib.import_module(f"grader.games.{name}.edition")
    return next(v for v in vars(module).values() if isinstance(v, Edition) and v.name == name)


def main(argv: list[str]) -> int:
    family_name, count, edition_name = argv
    family = next(f for f in FAMILIES if f.name == family_name)
    found = generate(family, int(count), _edition(edition_name), "grading")
    print(json.dumps([[str(g.deck), [str(m) for m in g.moves]] for g in found]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
