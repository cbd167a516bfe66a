"""The C observer as the job calls it (``play``): its one entry point, the request as the C program reads it
(``request_words``), how a call ends, and the room its packed frames may fill.

The observer itself -- its C source, written from the observation table, compiled and installed next to a
submission's library -- is the trusted side's (``grader.games.palace.c_observer``, which takes these values from
here): the sandbox side only calls it.
"""

from __future__ import annotations

from typing import Mapping, Sequence, cast

from grader.games.palace.sandbox.frames import AskEntry
from grader.games.palace.sandbox.notation import MoveSpec, Setup

ENTRY = "palace_play_packed"
DECLARATION = (f"int {ENTRY}(void *const *api, const int32_t *req, int32_t req_n, int32_t *call_slot, "
               "uint32_t *out, int64_t out_cap, int64_t *out_len);")
# How the call ended (its return value): the stream is whole, or it was cut.
FINISHED, OVERFLOW, NO_MEMORY, BAD_REQUEST = 0, 1, 2, 3
OUTCOMES = {FINISHED: "finished", OVERFLOW: "overflow", NO_MEMORY: "no_memory", BAD_REQUEST: "bad_request"}
# The request's flags, and the kinds of an asked move's card entries.
BATTERY, RECHECKING, DESTROY, DEAL_MAP, DEALT_AS = 1, 2, 4, 8, 16
ENTRY_NULL, ENTRY_SAME, ENTRY_WRITTEN = 0, 1, 2
CAPACITY = 8 << 20  # words a packed game may fill (32 MiB of address space, touched only as written)


# ---- the request, as the C program reads it ------------------------------------------------------------------
def _c_int(value: object) -> int:
    v = int(value) if isinstance(value, int) else 0
    return max(-(2**31), min(2**31 - 1, v))


def _ask_words(entry: AskEntry) -> list[int]:
    if isinstance(entry, str):
        return [1]  # INDEX_RANGES
    texts = list(entry.get("cards") or [])
    count = entry.get("count")
    words = [0, _c_int(entry.get("action", 0)), int(count is not None), _c_int(count),
             _c_int(entry.get("index", 0) or 0), len(texts)]
    for t in texts:
        if t is None:
            words += (ENTRY_NULL, 0, 0, 0)
        elif isinstance(t, int) and not isinstance(t, bool):
            words += (ENTRY_SAME, _c_int(t), 0, 0)
        else:
            ref = MoveSpec.parse(str(t)).cards[0]
            words += (ENTRY_WRITTEN, ref.rank, ref.suit, -1 if ref.ident is None else ref.ident)
    return words


def request_words(request: Mapping[str, object]) -> list[int]:
    """A ``play`` request (setup, moves, ask, blind_cards, battery, recheck, destroy, dealt_as) as the C program
    reads it: the header, the deck (then, with ``dealt_as``, the deck newGame is given), each move (action,
    face-down index, 0, cards: rank, suit, identity or -1), the blind moves' cards (move, deck index), then each
    asked step (step, entries: an index-ranges entry is ``1``, a move ``0, action, has count, count, index, cards:
    kind, a, b, c``)."""
    setup = Setup.parse(str(request["setup"]))
    specs = [MoveSpec.parse(str(t)) for t in _seq(request.get("moves"))]
    asked = cast("Sequence[tuple[int, list[AskEntry]]]", _seq(request.get("ask")))
    asks = {int(step): list(entries) for step, entries in asked}
    blind = {int(i): int(index) for i, index in cast("Sequence[tuple[int, int]]", _seq(request.get("blind_cards")))}
    deal_map = bool(asks or blind or any(ref.ident is not None for spec in specs for ref in spec.cards))
    given = Setup.parse(str(request["dealt_as"])) if request.get("dealt_as") else None
    flags = ((BATTERY if request.get("battery", True) else 0) | (RECHECKING if request.get("recheck", False) else 0)
             | (DESTROY if request.get("destroy", True) else 0) | (DEAL_MAP if deal_map else 0)
             | (DEALT_AS if given is not None else 0))
    words = [setup.n_players, setup.n_cards, setup.rules, flags, len(specs), len(asks), len(blind),
             *setup.ranks, *setup.suits, *((*given.ranks, *given.suits) if given is not None else ())]
    for spec in specs:
        words += (int(spec.action), spec.face_down_index, 0, len(spec.cards))
        for ref in spec.cards:
            words += (ref.rank, ref.suit, -1 if ref.ident is None else ref.ident)
    for i, index in blind.items():
        words += (i, index)
    for step, entries in asks.items():
        words += (step, len(entries))
        for entry in entries:
            words += _ask_words(entry)
    return words


def _seq(value: object) -> Sequence[object]:
    return value if isinstance(value, (list, tuple)) else []


__all__ = ["BAD_REQUEST", "BATTERY", "CAPACITY", "DEAL_MAP", "DEALT_AS", "DECLARATION", "DESTROY", "ENTRY",
           "ENTRY_NULL", "ENTRY_SAME", "ENTRY_WRITTEN", "FINISHED", "NO_MEMORY", "OUTCOMES", "OVERFLOW", "RECHECKING",
           "request_words"]
