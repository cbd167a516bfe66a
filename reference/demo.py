"""Play one seeded game on the reference engine and print it move by move.

    python -m reference.demo [--seed N] [--cards N]
"""

from __future__ import annotations

import argparse
import random

from . import NOT_FINISHED, Deck, Game, traditional_deck


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cards", type=int, default=60, help="deck size (29..800)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    keys = traditional_deck().keys
    rng.shuffle(keys)
    game = Game(Deck.from_keys(keys[: max(29, min(args.cards, 800))]))
    print(game.describe())
    turn_moves: list[str] = []
    while game.game_winner() == NOT_FINISHED:
        player, turn = game.current_player(), game.current_turn()
        move = rng.choice(game.legal_moves())
        game.play_move(move)
        turn_moves.append(str(move))
        if game.current_turn() != turn or game.game_winner() != NOT_FINISHED:
            print(f"turn {turn:3d}  player {player}: {' '.join(turn_moves)}")
            turn_moves = []
    outcome = game.outcome()
    assert outcome is not None
    who = f"player {outcome.winner} wins" if outcome.winner is not None else "no winner"
    print(f"game over after {game.num_turns()} turns: {who} ({outcome.termination.value})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
