"""Judging around a wrong deal: the deck rearranged so a submission's own deal gives the rules' hands.

A submission that deals in another order (seven cards to each player in a block,
say) fails the deal tests, once.  Every other scenario needs particular cards in
particular hands; played on the same deck, its moves name cards the submission
put elsewhere, so those tests could see nothing of their own rules.  Instead of
excusing them (marks without evidence) or charging them (a second deduction),
the grader learns how the submission deals -- one game on a deck of distinct
cards, read right after newGame -- and gives those tests a deck rearranged so
that the submission's deal puts every card where the rules put it in the
original deck: the hands, the first discard and the draw pile the reference
has.  The tests whose own rule is the deal keep the original deck.

Only a deal that is a rearrangement of the deck can be judged around this way
(every card dealt once, the draw pile in an order the probe shows); anything
else keeps the original deck.  What every game's deal map shares (from the two maps to
the rearranged deck) is the core's: ``grader.core.deal_map``.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from grader.core.deal_map import rearranged as core_rearranged
from grader.core.deal_map import rearrangement as core_rearrangement
from reference import Deck

# Values with no effect when turned up first (not ZERO, 2, A or D), so the probe's game starts plainly.
PLAIN_VALUES = (1, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 15)
DISTINCT = len(PLAIN_VALUES) * 5 * 5  # distinct plain cards: decks up to this size are probed card by card
Place = tuple[str] | tuple[str, int]  # ("hand", p), ("discard",), ("draw", k)


def probe_deck(size: int) -> Deck:
    """A deck of ``size`` cards whose first ``DISTINCT`` cards are all different (the rest repeat the last)."""
    keys = [(v, c, s) for v in PLAIN_VALUES for c in range(5) for s in range(5)]
    return Deck.from_keys(keys[min(i, DISTINCT - 1)] for i in range(size))


def places(obs: Mapping[str, object], size: int) -> dict[int, Place] | None:
    """Where each card of the probe deck went, by deck position: ("hand", p), ("discard",), ("draw", k) for
    the k-th card of the draw pile as read; None when the observation cannot say (a card seen twice, a card
    the probe deck does not hold, a value that is not a card)."""
    position = {key: i for i, key in enumerate(probe_deck(size).keys[:DISTINCT])}
    out: dict[int, Place] = {}

    def put(card: object, place: Place) -> bool:
        if not (isinstance(card, list) and len(card) >= 3 and all(isinstance(x, int) for x in card[:3])):
            return False
        i = position.get(tuple(card[:3]))
        if i is None or i in out or (i == DISTINCT - 1 and size > DISTINCT):  # the repeated card: no position
            return False
        out[i] = place
        return True

    hands, top, pile = obs.get("hands"), obs.get("top_discard"), obs.get("deck_pile")
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        return None
    for p, hand in enumerate(hands):
        if not all(put(card, ("hand", p)) for card in hand):
            return None
    if not put(top, ("discard",)):
        return None
    if isinstance(pile, list):
        for k, card in enumerate(pile):
            if not put(card, ("draw", k)):
                break  # the repeated filler: the rest of the pile is not told apart
    return out


def rearrangement(reference: Mapping[int, Place], submission: Mapping[int, Place], size: int) -> list[int] | None:
    """``order``, with ``order[r]`` the position the submission must find the card the reference has at position
    ``r`` (``grader.core.deal_map``; the draw pile is read in part: its places may be named on one side only)."""
    return core_rearrangement(reference, submission, size, partial=("draw",))


def rearranged(deck: Deck, order: Iterable[int]) -> Deck:
    """``deck`` with the card at position ``r`` moved to ``order[r]``."""
    return Deck.from_keys(core_rearranged(deck.keys, list(order)))
