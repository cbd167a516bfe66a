"""A Palace game as replay frames (``grader.core.replay``): every seat's hand, face-up row and face-down
row (the replay is for after the game, so face-down cards are shown, marked as such), the pile, the
draw pile and the burnt cards, and the facts a student checks -- phase, turn, seat, the rank to beat,
the seven's bound, the winner.  Made on the reference engine, as a test wrote the game."""

from __future__ import annotations

from typing import Sequence

from grader.core.replay import Frame, Pile, Seat
from reference.palace import NOT_FINISHED, Card, Game, MoveSpec, Phase, Setup
from reference.palace.cards import format_key, format_rules

PILE_SHOWN = 12  # cards of each pile a frame shows (the sizes say the rest)
RANK_WORDS = {0: "none (the pile is empty: anything goes)", 11: "J", 12: "Q", 13: "K", 14: "A"}


def _names(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(format_key(c.key) for c in cards)


def describe(game: Game, step: int, move: str) -> Frame:
    """The game after ``move``."""
    seats: list[Seat] = []
    for s in range(game.num_players()):
        current = s == game.current_player() and game.current_phase() != Phase.GAME_OVER
        seats += [Seat(f"player {s}: hand", _names(game.hand(s)), current),  # the seat to move, marked once
                  Seat(f"player {s}: face up", _names(game.face_up(s))),
                  Seat(f"player {s}: face down (hidden in play)", _names(game.face_down(s)))]
    pile, draw, burnt = game.pile(), game.draw_pile(), game.burnt()
    piles = (Pile("pile (top first)", _names(pile[:PILE_SHOWN]), len(pile)),
             Pile("draw pile (next card first)", _names(draw[:PILE_SHOWN]), len(draw)),
             Pile("burnt cards", _names(burnt[-PILE_SHOWN:]), len(burnt)))
    top = game.effective_top_rank()
    winner = game.game_winner()
    facts = (("phase", game.current_phase().name), ("turn", str(game.current_turn())),
             ("player", str(game.current_player())),
             ("rank to beat", RANK_WORDS.get(top, str(top))),
             ("seven's bound (play 7 or lower)", "yes" if game.seven_restriction() else "no"),
             ("rules", format_rules(game.game_rules())),
             ("winner", "none yet" if winner == NOT_FINISHED else f"player {winner}"))
    return Frame(step, move, tuple(seats), piles, facts, tuple(str(game.written(m)) for m in game.legal_moves()))


def frames(setup: Setup, moves: Sequence[MoveSpec | str]) -> tuple[Frame, ...]:
    """The game as dealt and after each move, played on the reference."""
    game = Game(setup)
    out = [describe(game, 0, "")]
    for k, spec in enumerate(moves, 1):
        move = game.resolve(spec)
        written = str(game.written(move))
        game.play_move(move)
        out.append(describe(game, k, written))
    return tuple(out)
