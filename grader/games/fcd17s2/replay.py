"""A 2017 game as replay frames: the 2018 maker (``grader.games.fcd.replay``) with what the
2017 game shows -- the direction, the moves of the turn, the colour a DECLARE declared, the cards a
2 still owes."""

from __future__ import annotations

from typing import Sequence

from grader.core.replay import Frame, Pile, Seat
from grader.games.fcd import replay as family
from grader.games.fcd.edition import WrittenMove
from grader.games.fcd.replay import NUM_PLAYERS, PILE_SHOWN
from grader.games.fcd17s2.edition import FCD17
from reference.cards import COLOR_NAMES, Deck
from reference.fcd17s2 import Game


def describe17(game: Game, step: int, move: str) -> Frame:
    """The 2017 game after ``move``."""
    seats = tuple(Seat(f"player {p}", family.card_names(game.player_hand(p)), p == game.current_player())
                  for p in range(NUM_PLAYERS))
    draw, discard = game.draw_pile(), game.discard_pile()
    piles = (Pile("draw pile (next card first)", family.card_names(draw[:PILE_SHOWN]), len(draw)),
             Pile("discard pile (top first)", family.card_names(discard[:PILE_SHOWN]), len(discard)))
    turn, declared = game.current_turn(), game.declared_color()
    facts = (("turn", str(turn)), ("player", str(game.current_player())),
             ("direction", game.play_direction().name.lower()),
             ("moves this turn", " ".join(str(game.past_move(turn, i)) for i in range(game.turn_moves(turn)))
              or "none"),
             ("current colour", COLOR_NAMES[game.current_color()]),
             ("declared colour", "none" if declared is None else COLOR_NAMES[declared]),
             ("cards a 2 still owes", str(game.owed_cards())), ("winner", family.winner_words(game.game_winner())))
    return Frame(step, move, seats, piles, facts, tuple(str(m) for m in game.legal_moves()))


def frames(deck: Deck, moves: Sequence[WrittenMove]) -> tuple[Frame, ...]:
    return family.frames(deck, moves, FCD17, describe17)
