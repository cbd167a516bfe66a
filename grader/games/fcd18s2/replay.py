"""A Final Card-Down game as replay frames (``grader.core.replay``), made from the reference engine.

``frames`` plays the moves on the reference and describes the game after each
one with the edition's ``describe`` (the 2018 one here; the 2017 one in
``grader.games.fcd17s2.replay``): every hand, the next cards of the draw pile
and the top of the discard pile, the counters and colours a student checks,
and the moves valid there -- all in the notation of the failure messages.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from grader.core.replay import Frame, Pile, Seat
from grader.games.fcd18s2.edition import FCD18, Edition
from reference.cards import COLOR_NAMES

PILE_SHOWN = 8  # cards of each pile a frame shows (the sizes say the rest)
NUM_PLAYERS = 4


def card_names(cards: Sequence[Any]) -> tuple[str, ...]:
    return tuple(str(c) for c in cards if c is not None)


def winner_words(value: int) -> str:
    return {-1: "not finished", 4: "no winner"}.get(value, f"player {value}")


def describe18(game: Any, step: int, move: str) -> Frame:
    """The 2018 game after ``move``: what Game.h v1.6 shows."""
    seats = tuple(Seat(f"player {p}", card_names(game.get_hand_card(p, i) for i in range(game.player_card_count(p))),
                       p == game.current_player()) for p in range(NUM_PLAYERS))
    draw, discard = game.draw_pile_size(), game.discard_pile_size()
    piles = (Pile("draw pile (next card first)",
                  card_names(game.get_deck_card(i) for i in range(min(draw, PILE_SHOWN))), draw),
             Pile("discard pile (top first)",
                  card_names(game.get_discard_pile_card(i) for i in range(min(discard, PILE_SHOWN))), discard))
    facts = (("turn", str(game.current_turn())), ("player", str(game.current_player())),
             ("moves this turn", str(game.current_turn_moves())),
             ("current colour", COLOR_NAMES[game.get_current_color()]),
             ("declared colour", "none" if game.declared_color() is None else COLOR_NAMES[game.declared_color()]),
             ("active 2s", str(game.get_active_draw_twos())), ("2s on top", str(game.get_number_of_two_cards_at_top())),
             ("top discard played in turn", str(game.get_top_discard_turn_number())),
             ("winner", winner_words(game.game_winner())))
    return Frame(step, move, seats, piles, facts, tuple(str(m) for m in game.legal_moves()))


def frames(deck: Any, moves: Sequence[Any], edition: Edition = FCD18,
           describe: Callable[[Any, int, str], Frame] = describe18) -> tuple[Frame, ...]:
    """The game as dealt and after each move, played on the reference."""
    game = edition.new_game(deck)
    out = [describe(game, 0, "")]
    for k, spec in enumerate(moves, 1):
        game.play_move(game.resolve(spec))
        out.append(describe(game, k, str(spec)))
    return tuple(out)
