"""The 2018 edition as the family's trusted-side pipeline takes it (``grader.games.fcd.edition``)."""

from __future__ import annotations

from pathlib import Path

import reference
from grader.games.fcd.deal_map import PLAIN_VALUES, DealProbe
from grader.games.fcd.edition import Edition, RefusalRulings, folder_of
from grader.games.fcd.sandbox.notation import COLOR_LETTERS
from grader.games.fcd.sandbox.observe import card_label, pile_depths
from grader.games.fcd18s2 import c_observer
from grader.games.fcd18s2.observations import TABLE
from grader.games.fcd18s2.sandbox.observe import Observer, describe_call, probe_name
from reference.rulings import BY_ID


def answer_key(game: reference.Game, move: reference.PlayerMove) -> tuple[str, str]:
    """Where the observer files an answer to isValidMove(move) (``fcd.sandbox.observe.Observer.validity``)."""
    if move.action == reference.Action.DRAW_CARD:
        return "valid_draw", ""
    if move.action != reference.Action.PLAY_CARD or move.card is None:
        return "valid_end", ""
    card = move.card
    label = card_label(card.key) + (f"/{COLOR_LETTERS[move.next_color]}" if card.value == reference.Value.D
                                    and move.next_color is not None else "")
    own = any(game.hand_card(i) is card for i in range(game.hand_card_count()))
    return ("valid_play" if own else "valid_foreign"), label


HERE = Path(__file__).resolve().parent  # the edition's values (its table, its observer) are part of a trace's version
# R2/R3 deal and turn the first discard; getHandCard shows every hand right after newGame (``deal_map.DealProbe``).
DEAL_PROBE = DealProbe(PLAIN_VALUES, clauses=frozenset({"R1", "R2", "R3", "*"}), shown_in={
    "hand": ("hands", "hand", "hand_card_count", "card_counts", "points"), "discard": ("top_discard",),
    "draw": ("deck_pile",)})

FCD18 = Edition(name="fcd18s2", table=TABLE, new_game=reference.Game, parse_move=reference.MoveSpec.parse,
                illegal_move=reference.IllegalMoveError, leniency=reference.leniency, rulings=BY_ID,
                observer=Observer, depths=pile_depths, sources=(folder_of(reference), HERE),
                describe_call=describe_call, probe_name=probe_name,
                refusal=RefusalRulings(undefined="A28", strict_after={"valid_draw": "A23"}), rules_span="R1-R18",
                random_specials=(reference.Value.DRAW_TWO, reference.Value.A, reference.Value.D),
                random_prefers_plays=False, deal_probe=DEAL_PROBE, eager_recycling_reading=True,
                native_observer=c_observer.install, answer_key=answer_key)
