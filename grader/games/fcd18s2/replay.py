"""A 2018 game as replay frames: the family's ``frames`` with what the 2018 Game.h shows."""

from __future__ import annotations

from typing import Sequence

from grader.core.replay import Frame, Pile, Seat
from grader.games.fcd import replay as family
from grader.games.fcd.edition import WrittenMove
from grader.games.fcd.replay import NUM_PLAYERS, PILE_SHOWN, card_names, winner_words
from grader.games.fcd18s2.edition import FCD18
from reference import Deck, Game
from reference.cards import COLOR_NAMES


def describe18(game: Game, step: int, move: str) -> Frame:
    """The 2018 game after ``move``: what Game.h v1.6 shows."""
    seats = tuple(Seat(f"player {p}", card_names(game.get_hand_card(p, i) for i in range(game.player_card_count(p))),
                       p == game.current_player()) for p in range(NUM_PLAYERS))
    draw, discard, declared = game.draw_pile_size(), game.discard_pile_size(), game.declared_color()
    piles = (Pile("draw pile (next card first)",
                  card_names(game.get_deck_card(i) for i in range(min(draw, PILE_SHOWN))), draw),
             Pile("discard pile (top first)",
                  card_names(game.get_discard_pile_card(i) for i in range(min(discard, PILE_SHOWN))), discard))
    facts = (("turn", str(game.current_turn())), ("player", str(game.current_player())),
             ("moves this turn", str(game.current_turn_moves())),
             ("current colour", COLOR_NAMES[game.get_current_color()]),
             ("declared colour", "none" if declared is None else COLOR_NAMES[declared]),
             ("active 2s", str(game.get_active_draw_twos())), ("2s on top", str(game.get_number_of_two_cards_at_top())),
             ("top discard played in turn", str(game.get_top_discard_turn_number())),
             ("winner", winner_words(game.game_winner())))
    return Frame(step, move, seats, piles, facts, tuple(str(m) for m in game.legal_moves()))


def frames(deck: Deck, moves: Sequence[WrittenMove]) -> tuple[Frame, ...]:
    return family.frames(deck, moves, FCD18, describe18)
