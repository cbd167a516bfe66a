"""A family's failing random game is shrunk (#46): cut after its first difference, and every run of moves it can do
without left out, so a student replays the fewest moves that show the bug.  Worked out on skip_skips_two (an A skips
two players, R8): any game where an A is played differs at the first A, so the shrunk game is short and ends there."""

from __future__ import annotations

from pathlib import Path

from grader.games.fcd.random_families import FAMILIES, RandomGame
from grader.games.fcd.random_games import _legal, run_random_games, shrunk
from grader.games.fcd.random_generation import generate
from grader.games.fcd18s2.edition import FCD18
from grader.games.fcd18s2.session import Fcd18Session

ROOT = Path(__file__).resolve().parents[3]
MUTANT = ROOT / "fixtures" / "submissions" / "mutants" / "skip_skips_two"


def test_a_failing_random_game_is_shrunk_to_moves_that_still_fail_the_same_way() -> None:
    with Fcd18Session.open(MUTANT) as session:
        failed = [r for r in run_random_games(session, 12) if r.verdict.family == "fail"]
        assert failed, "skip_skips_two differs in the random games"
        for result in failed:
            assert result.repro and "The shortest, shrunk:" in result.message
        # Shrinking one long game by hand: the result is legal, still fails in the same family, and shorter.
        family = FAMILIES[1]
        game = next(g for g in generate(family, 12, FCD18) if len(g.moves) > 20
                    and any(str(m)[0] == "A" for m in g.moves[5:]))
        first = session.run_game("random/x", "", (), game.deck, game.moves, kind="random")
        assert not first.passed
        small, again = shrunk(session, "random/x", game, first, frozenset())
        assert isinstance(small, RandomGame) and small.deck == game.deck
        assert _legal(FCD18, small.deck, small.moves)
        assert len(small.moves) < len(game.moves) and again.rule_family == first.rule_family
        replay = session.run_game("random/x", "", (), small.deck, small.moves, kind="random")
        assert not replay.passed and replay.rule_family == first.rule_family
        # deterministic: the same shrunk game again
        assert shrunk(session, "random/x", game, first, frozenset())[0].moves == small.moves
