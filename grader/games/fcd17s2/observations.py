"""The 17s2 observation table as the trusted side judges with it: the rows
(``grader.games.fcd17s2.sandbox.observations``) and where a clause governs an observation only in some
states (``SCOPES``), over the reference's observation.
"""

from __future__ import annotations

from typing import TypedDict, cast

from grader.games.fcd.sandbox.observations import Answered, Judged, Table
from grader.games.fcd17s2.sandbox.observations import FAMILIES, IDENTITY, OBSERVATIONS
from reference.cards import format_key, parse_key
from reference.fcd17s2.moves import ACTION_OF_WORD, SAID_COUNT

# ---- where a clause governs an observation only in some states (over the reference's observation) --------

class Seen(TypedDict):
    """What the scopes read of the reference's observation (``fcd.sandbox.observe.Obs``), by their rows' shapes."""

    winner: int
    turn_moves: int
    past_moves: list[list[str]]  # the previous turn's moves and this turn's, in the notation
    top_discard: list[int] | None
    hand_card_count: int


def _start_of_turn(obs: dict[str, object]) -> bool:
    """Nothing done yet this turn: where call-outs are judged (B40, B47, B48)."""
    o = cast(Seen, obs)
    return o["turn_moves"] == 0 or all(m in ("uno", "duo", "trio") for m in o["past_moves"][1])


def _plays(moves: list[str]) -> list[str]:
    return [m for m in moves if m not in ("draw", "end", "uno", "duo", "trio")]


def _two_on_top(obs: dict[str, object]) -> bool:
    """A 2 is on top and nothing has been discarded this turn."""
    o = cast(Seen, obs)
    return o["top_discard"] is not None and o["top_discard"][0] == 2 and not _plays(o["past_moves"][1])


def _two_on_top_at_the_start(obs: dict[str, object]) -> bool:
    """A 2 is on top and nothing has been done this turn: who owes for it (B25)."""
    return _two_on_top(obs) and obs["turn_moves"] == 0


def _facing_a_two(obs: dict[str, object]) -> bool:
    """The current player faces the 2 the previous turn ended on: play a 2 or draw (S11, B20-B23)."""
    previous = _plays(cast(Seen, obs)["past_moves"][0])
    return _two_on_top(obs) and bool(previous) and previous[-1][0] == "2"


def _over(obs: dict[str, object]) -> bool:
    """The game has ended: no move is valid (S19, B53)."""
    return obs["winner"] != -1


def _after_a_continue(obs: dict[str, object]) -> bool:
    """The last discard of this turn was a CONTINUE: one more discard is allowed (S14, B31, B34)."""
    plays = _plays(cast(Seen, obs)["past_moves"][1])
    return bool(plays) and plays[-1][0] == "C"


def _plain_match(obs: dict[str, object], label: str) -> bool:
    """The card matches the top by value or colour and is not a ZERO: whether it may be discarded does not
    rest on the ZERO's wildness or a match by suit alone (S8's, judged by the matching tests)."""
    top = cast(Seen, obs)["top_discard"]
    card = parse_key(label[:3])
    return card[0] != 0 and top is not None and (card[0] == top[0] or card[1] == top[1])


def _declare_on_top(obs: dict[str, object]) -> bool:
    """A DECLARE is on top: what may follow it (B35)."""
    o = cast(Seen, obs)
    return o["top_discard"] is not None and o["top_discard"][0] == 13


def _a_discard_on_top(obs: dict[str, object]) -> bool:
    """The top card was discarded in this turn or the last (not the card turned up at the start, B5-B9): a
    declared colour's life is judged from the first discard on (S15)."""
    o = cast(Seen, obs)
    plays = _plays(o["past_moves"][0]) + _plays(o["past_moves"][1])
    top = o["top_discard"]
    return bool(plays) and top is not None and plays[-1][:3] == format_key(tuple(top[:3]))


def _the_word_for_the_hand(obs: dict[str, object], label: str) -> bool:
    """The claim the hand now calls for (B33: a claim may follow a CONTINUE); which words a hand of another
    size refuses is B38's."""
    return SAID_COUNT[ACTION_OF_WORD[label]] == obs["hand_card_count"]


def _not_a_zero(_o: dict[str, object], label: str) -> bool:
    """Whether a ZERO may be discarded is S8's (a ZERO is wild), or B35's on a DECLARE."""
    return label[0] != "0"


_VALIDITY = ("valid_play", "valid_draw", "valid_end")
SCOPES: dict[tuple[str, str], Judged] = {
    **{("valid_say", clause): _start_of_turn for clause in ("S17", "B40", "B41", "B47", "B48")},
    ("valid_play", "B35"): _declare_on_top,
    ("valid_play", "S15"): _a_discard_on_top,
    **{(obs, clause): _facing_a_two for obs in _VALIDITY for clause in ("S11", "B20", "B21", "B22", "B23")},
    **{(obs, "B25"): _two_on_top_at_the_start for obs in _VALIDITY},
    **{(obs, clause): _start_of_turn for obs in ("valid_play", "valid_draw") for clause in ("B45",)},
    **{(obs, "B57"): _start_of_turn for obs in _VALIDITY},
    **{(obs, clause): _over for obs in (*_VALIDITY, "valid_say") for clause in ("S19", "B53")},
    **{("valid_play", clause): _after_a_continue for clause in ("S14", "B31", "B34")},
}
ANSWER_SCOPES: dict[tuple[str, str], Answered] = {
    **{("valid_play", clause): _plain_match for clause in ("S14", "B31", "B34")},
    **{("valid_play", clause): _not_a_zero for clause in ("S9", "B14", "S15")},
    ("valid_say", "B33"): _the_word_for_the_hand,
}

TABLE = Table(OBSERVATIONS, IDENTITY, FAMILIES, SCOPES, ANSWER_SCOPES)
BY_NAME = TABLE.by_name
ORDER = TABLE.order
