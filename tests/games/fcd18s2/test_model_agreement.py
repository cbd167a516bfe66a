"""The model C submission and the reference agree on every observation of every move.

Seeded random games -- small decks that force recycling and the no-winner end,
mid-sized decks, and the traditional 800-card deck -- played through the
sandboxed worker and compared with the reference under the strict comparison.
"""

from __future__ import annotations

import random

import pytest

from grader.games.fcd.compare import compare
from grader.games.fcd.random_generation import _spec
from grader.games.fcd.reference_trace import reference_trace
from grader.games.fcd.sandbox.loader import CLibrary
from grader.games.fcd.scenarios import SMALLEST_DECK
from grader.games.fcd.session import play
from grader.games.fcd18s2.edition import FCD18
from grader.games.fcd18s2.observations import TABLE
from grader.games.fcd18s2.sandbox.interface import API
from grader.games.fcd18s2.sandbox.observe import Observer
from reference import NO_WINNER, Deck, Game, traditional_deck


def seeded_game(seed: int) -> tuple[Deck, list]:
    rng = random.Random(seed)
    if seed % 4 == 3:
        keys = traditional_deck().keys
        rng.shuffle(keys)
        max_moves = 300
    else:
        size = rng.randint(SMALLEST_DECK, 36) if seed % 4 < 2 else rng.randint(37, 120)
        pool = [(rng.randrange(16), rng.randrange(5), rng.randrange(5)) for _ in range(12)]
        keys = [rng.choice(pool) if rng.random() < 0.5 else (rng.randrange(16), rng.randrange(5), rng.randrange(5))
                for _ in range(size)]
        max_moves = 600
    deck = Deck.from_keys(keys)
    game = Game(deck)
    moves = []
    for _ in range(max_moves):
        legal = game.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        game.play_move(move)
        moves.append(_spec(move, FCD18))
    return deck, moves


GAMES = 200


def test_seeded_games_cover_recycling_and_both_endings() -> None:
    """The seeds below are worth something only if they reach the rare rules."""
    recycles = no_winner = winner = 0
    for seed in range(GAMES):
        deck, moves = seeded_game(seed)
        game = Game(deck)
        for m in moves:
            game.play_move(game.resolve(m))
        recycles += game.recycles() > 0
        no_winner += game.game_winner() == NO_WINNER
        winner += 0 <= game.game_winner() < 4
    assert recycles >= 20 and no_winner >= 5 and winner >= 20, (recycles, no_winner, winner)


@pytest.mark.parametrize("block", range(10))
def test_model_agrees_with_reference_through_the_worker(model_session, block: int) -> None:  # noqa: ANN001
    for seed in range(block * GAMES // 10, (block + 1) * GAMES // 10):
        deck, moves = seeded_game(seed)
        ref = reference_trace(deck, moves, edition=FCD18)
        run = play(model_session.client, [list(k) for k in deck.keys], [str(m) for m in moves],
                   depths=[s.depths for s in ref], limits=model_session.limits)
        assert run.report.exit_code == 0 and run.report.signal is None, run.report
        assert len(run.steps) == len(ref)
        result = compare(moves, ref, run.steps, [dict(e) for e in run.events], table=TABLE, refusal=FCD18.refusal)
        assert result.passed and not result.notes, (seed, result.divergence, result.identity_problem, result.notes)


def test_worker_traces_equal_in_process_traces(model_session) -> None:  # noqa: ANN001
    """The sandbox changes nothing about what the library does (card identities aside)."""
    lib = CLibrary(model_session.build.library, API)
    for seed in (0, 1, 2, 3, 5):
        deck, moves = seeded_game(seed)
        depths = [s.depths for s in reference_trace(deck, moves, edition=FCD18)]
        game = lib.new_game(*zip(*deck.keys))
        observer = Observer(game, len(deck))
        local = [observer.observe(depths[0])]
        local[0].update(observer.deck_counts())
        for i, m in enumerate(moves):
            from grader.games.fcd.sandbox.play import resolve
            from grader.games.fcd18s2.sandbox.play import JOB

            game.play_move(resolve(game, m, len(deck) + 1, JOB))
            local.append(observer.observe(depths[i + 1]))
        game.destroy_game()
        run = play(model_session.client, [list(k) for k in deck.keys], [str(m) for m in moves], depths=depths,
                   limits=model_session.limits)

        def strip(obs: dict) -> str:  # identities are pointers: equal only within one process
            import json
            import re

            return re.sub(r",\s*\d{6,}\]", ",0]", json.dumps(obs, sort_keys=True))

        assert [strip(o) for o in run.steps] == [strip(o) for o in local]
