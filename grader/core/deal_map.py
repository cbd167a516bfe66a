"""Judging around a wrong deal, for any game: the deck rearranged so a submission's own deal gives the rules' places.

A submission that deals in another order fails the tests of the deal, once.  Every other test needs particular cards
in particular places; played on the same deck, its moves name cards the submission put elsewhere, so it could see
nothing of its own rule.  Instead of excusing those tests (marks without evidence) or charging them (a second
deduction), a game learns where the submission puts each card of a deck whose cards it can tell apart (a *place*:
a hand, a face-down position, the k-th card of the draw pile...) and where the rules put it, and gives those tests a
deck rearranged so that the submission's own deal puts every card where the rules put it in the original deck.

This module holds the game-free part: from the two maps (deck position -> place) to the rearrangement, and the
rearranged deck.  A game says what its places are and how it probes them (``grader.games.fcd.deal_map``,
``grader.games.palace.deal_map``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Hashable, Iterable, Mapping, Sequence, TypeVar

Item = TypeVar("Item")


def rearrangement(reference: Mapping[int, Hashable], submission: Mapping[int, Hashable], size: int, *,
                  partial: Iterable[object] = ()) -> list[int] | None:
    """``order``, with ``order[r]`` the position the submission must find the card the reference has at position
    ``r``, so each place gets the reference's cards; the positions no place names keep their order.  Places are
    tuples whose first item is their kind; a place of a kind in ``partial`` (a pile read only in part) may be named
    on one side only.  None: the same deal (nothing to rearrange), or one no rearrangement can match (a place holds
    another number of cards, or a place of another kind is named on one side only)."""
    by_place_ref: dict[Hashable, list[int]] = defaultdict(list)
    by_place_sub: dict[Hashable, list[int]] = defaultdict(list)
    for i, place in reference.items():
        by_place_ref[place].append(i)
    for i, place in submission.items():
        by_place_sub[place].append(i)
    kinds_partial = set(partial)
    if any(_kind(p) not in kinds_partial for p in set(by_place_ref) ^ set(by_place_sub)):
        return None
    order: dict[int, int] = {}
    for place in set(by_place_ref) & set(by_place_sub):
        ref_pos, sub_pos = sorted(by_place_ref[place]), sorted(by_place_sub[place])
        if len(ref_pos) != len(sub_pos):
            return None
        order.update(zip(ref_pos, sub_pos))
    taken = set(order.values())
    rest_ref = [i for i in range(size) if i not in order]
    rest_sub = [i for i in range(size) if i not in taken]
    if len(rest_ref) != len(rest_sub):
        return None
    order.update(zip(rest_ref, rest_sub))
    out = [order[r] for r in range(size)]
    return None if out == list(range(size)) else out


def rearranged(items: Sequence[Item], order: Sequence[int]) -> list[Item]:
    """``items`` (a deck, top first) with the item at position ``r`` moved to ``order[r]`` (a permutation)."""
    moved = {s: items[r] for r, s in enumerate(order)}
    if sorted(moved) != list(range(len(items))):
        raise ValueError(f"not a permutation of {len(items)} positions")
    return [moved[s] for s in range(len(items))]


def _kind(place: Hashable) -> object:
    return place[0] if isinstance(place, tuple) and place else place
