"""The 18s2 observation table as the trusted side judges with it: the rows
(``grader.games.fcd18s2.sandbox.observations``) and where a clause governs an observation only in some
states (``SCOPES``), over the reference's observation.
"""

from __future__ import annotations

from typing import TypedDict, cast

from grader.games.fcd.sandbox.observations import Judged, Observation, Table
from grader.games.fcd18s2.sandbox.observations import FAMILIES, IDENTITY, OBSERVATIONS

# ---- where a clause governs an observation only in some states (over the reference's observation) --------

class Seen(TypedDict):
    """What the scopes read of the reference's observation (``fcd.sandbox.observe.Obs``), by their rows' shapes."""

    current_turn: int
    top_discard: list[int] | None
    top_discard_turn_number: int
    active_draw_twos: int


def _penalty_owed(obs: dict[str, object]) -> bool:
    """The current player faces 2s played before this turn (R7)."""
    o = cast(Seen, obs)
    return o["active_draw_twos"] > 0 and o["top_discard_turn_number"] < o["current_turn"]


def _declared_d_from_before(obs: dict[str, object]) -> bool:
    """A D played in an earlier turn is on top: what may follow it (R9)."""
    o = cast(Seen, obs)
    top = o["top_discard"]
    return top is not None and top[0] == 13 and o["top_discard_turn_number"] < o["current_turn"]


def _first_discard_on_top(obs: dict[str, object]) -> bool:
    """The card turned up at the start is still on top (R10)."""
    o = cast(Seen, obs)
    return o["top_discard_turn_number"] == -1


SCOPES: dict[tuple[str, str], Judged] = {
    **{(obs, clause): _penalty_owed for obs in ("valid_end", "valid_draw") for clause in ("R7", "A6")},
    **{("valid_play", clause): _penalty_owed for clause in ("R7", "A10", "A11", "A39", "A49")},
    **{("valid_play", clause): _declared_d_from_before for clause in ("R9", "A16", "A17")},
    **{("valid_play", clause): _first_discard_on_top for clause in ("R10", "A12", "A18")},
}


TABLE = Table(OBSERVATIONS, IDENTITY, FAMILIES, SCOPES)
BY_NAME: dict[str, Observation] = TABLE.by_name
ORDER: tuple[str, ...] = TABLE.order
VALIDITY = TABLE.validity
DECK_COUNTS = TABLE.deck_counts
