"""The 2017 edition as the shared trusted-side pipeline takes it (``grader.games.fcd.edition``)."""

from __future__ import annotations

from pathlib import Path

import reference
import reference.fcd17s2
from grader.games.fcd.deal_map import DealProbe
from grader.games.fcd.edition import Edition, RefusalRulings, folder_of
from grader.games.fcd.sandbox.notation import COLOR_LETTERS
from grader.games.fcd.sandbox.observe import card_label
from grader.games.fcd17s2 import c_observer
from grader.games.fcd17s2.observations import TABLE
from grader.games.fcd17s2.sandbox.observe import Observer, describe_call, probe_name
from reference.fcd17s2 import BY_ID, SAYS, Action, Game, IllegalMoveError, MoveSpec, PlayerMove, Value, leniency
from reference.fcd17s2.moves import WORDS

HERE = Path(__file__).resolve().parent  # the edition's values (its table, its observer) are part of a trace's version


def answer_key(game: Game, move: PlayerMove) -> tuple[str, str]:
    """Where the 2017 observer files an answer to isValidMove(move) (``fcd17s2.sandbox.observe.Observer.validity``):
    a card of the current hand under ``valid_play``, of another hand under ``valid_foreign`` (``5RH``, ``DRH/B``),
    a word under ``valid_say`` (``uno``, ``duo``, ``trio``), DRAW_CARD and END_TURN alone."""
    if move.action == Action.DRAW_CARD:
        return "valid_draw", ""
    if move.action in SAYS:
        return "valid_say", WORDS[move.action]
    if move.action != Action.PLAY_CARD or move.card is None:
        return "valid_end", ""
    card = move.card
    label = card_label(card.key) + (f"/{COLOR_LETTERS[move.next_color]}" if card.value == Value.D
                                    and move.next_color is not None else "")
    own = any(c is card for c in game.player_hand(game.current_player()))
    return ("valid_play" if own else "valid_foreign"), label


def no_piles(_game: Game, _full: bool) -> tuple[int, int]:
    """2017 shows no pile beyond its top: nothing to read deep."""
    return 0, 0

# S2/S3/B2 deal and turn the first discard; only the hand of the player to move shows, so the probe has each of the
# first three players draw and end the turn (S6) and reads each hand as its turn begins: a deck of 32 cards at
# least (28 dealt, the first discard, three to draw).  Plain first discards: not A, B, C, D or 2 (B5-B9).
DEAL_PROBE = DealProbe((0, 1, 3, 4, 5, 6, 7, 8, 9, 14, 15), clauses=frozenset({"S1", "S2", "S3", "B2", "*"}),
                       shown_in={"hand": ("hand", "hand_card_count", "card_counts", "points"),
                                 "discard": ("top_discard",), "draw": ("hand", "hand_card_count")},
                       moves=("draw", "end") * 3, by_turns=True, smallest=32)

FCD17 = Edition(name="fcd17s2", table=TABLE, new_game=Game, parse_move=MoveSpec.parse,
                illegal_move=IllegalMoveError, leniency=leniency, rulings=BY_ID, observer=Observer,
                depths=no_piles, sources=(folder_of(reference), folder_of(reference.fcd17s2), HERE),
                describe_call=describe_call, probe_name=probe_name,
                refusal=RefusalRulings(undefined="B58", strict_after={}), rules_span="S1-S26",
                random_specials=(Value.DRAW_TWO, Value.A, Value.B, Value.C, Value.D),
                random_prefers_plays=True, deal_probe=DEAL_PROBE, native_observer=c_observer.install,
                answer_key=answer_key)
