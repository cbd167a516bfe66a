"""Judging around a wrong deal: the deck rearranged so a submission's own deal gives the rules' hands.

A submission that deals in another order (seven cards to each player in a block,
say) fails the deal tests, once.  Every other scenario needs particular cards in
particular hands; played on the same deck, its moves name cards the submission
put elsewhere, so those tests could see nothing of their own rules.  Instead of
excusing them (marks without evidence) or charging them (a second deduction),
the grader learns how the submission deals -- one game on a deck of distinct
cards, read right after newGame (2018, which shows every hand) or as each
player's first turn begins (2017, which shows only the hand of the player to
move: ``DealProbe``) -- and gives those tests a deck rearranged so
that the submission's deal puts every card where the rules put it in the
original deck: the hands, the first discard and the draw pile the reference
has.  The tests whose own rule is the deal keep the original deck.

Only a deal that is a rearrangement of the deck can be judged around this way
(every card dealt once, the draw pile in an order the probe shows); anything
else keeps the original deck.  What every game's deal map shares (from the two maps to
the rearranged deck) is the core's: ``grader.core.deal_map``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from grader.core.deal_map import rearranged as core_rearranged
from grader.core.deal_map import rearrangement as core_rearrangement
from reference import Deck

# 2018's values with no effect when turned up first (not ZERO, 2, A or D), so the probe's game starts plainly.
PLAIN_VALUES = (1, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 15)
DISTINCT = len(PLAIN_VALUES) * 5 * 5  # distinct plain cards: decks up to this size are probed card by card
Place = tuple[str] | tuple[str, int]  # ("hand", p), ("discard",), ("draw", k)


@dataclass(frozen=True)
class DealProbe:
    """How an edition shows a submission's deal: the values whose cards change nothing when turned up first, the
    probe game's moves, and whether its observation right after newGame shows every hand (2018's getHandCard of any
    player) or each hand is seen only when its player is to move (2017's handCard: the probe then has each player
    draw and end the turn, and reads each hand as its turn begins).  ``clauses``: a test whose focus holds one at the
    start judges the deal, and plays its deck as given.  ``smallest``: the smallest deck the probe's moves can be
    played on (each draw needs a card to draw); a smaller deck's deal is not learnt.  ``shown_in``: the
    observations a card dealt to another kind of place shows in (a wrong draw pile shows in 2017's hand only once
    the card is drawn)."""
    plain_values: tuple[int, ...]
    clauses: frozenset[str]
    shown_in: Mapping[str, tuple[str, ...]]
    moves: tuple[str, ...] = ()
    by_turns: bool = False
    smallest: int = 0

    def deck(self, size: int) -> Deck:
        """A deck of ``size`` cards whose first cards are all different (``probe_deck``)."""
        return probe_deck(size, self.plain_values)

    def places(self, steps: Sequence[object], size: int) -> dict[int, Place] | None:
        """Where the probe game's observations show each card of the probe deck (``places``, ``places_by_turns``)."""
        if not steps or not isinstance(steps[0], Mapping):
            return None
        if not self.by_turns:
            return places(steps[0], size, self.plain_values)
        return places_by_turns(steps, size, self.plain_values)


def probe_deck(size: int, plain: Sequence[int] = PLAIN_VALUES) -> Deck:
    """A deck of ``size`` cards whose first cards are all different, of the ``plain`` values (the rest repeat the
    last)."""
    keys = [(v, c, s) for v in plain for c in range(5) for s in range(5)]
    return Deck.from_keys(keys[min(i, len(keys) - 1)] for i in range(size))


class _Placing:
    """Deck positions given places, each once (a card seen twice, or not of the probe deck, spoils the reading)."""

    def __init__(self, size: int, plain: Sequence[int]) -> None:
        keys = probe_deck(size, plain).keys
        self.distinct = len(plain) * 5 * 5
        self.position = {key: i for i, key in enumerate(keys[:self.distinct])}
        self.size = size
        self.out: dict[int, Place] = {}

    def put(self, card: object, place: Place) -> bool:
        i = self.position_of(card)
        if i is None or i in self.out:
            return False
        self.out[i] = place
        return True

    def position_of(self, card: object) -> int | None:
        if not (isinstance(card, list) and len(card) >= 3 and all(isinstance(x, int) for x in card[:3])):
            return None
        i = self.position.get(tuple(card[:3]))
        if i is None or (i == self.distinct - 1 and self.size > self.distinct):  # the repeated card: no position
            return None
        return i


def places(obs: Mapping[str, object], size: int, plain: Sequence[int] = PLAIN_VALUES) -> dict[int, Place] | None:
    """Where each card of the probe deck went, by deck position, as the observation right after newGame shows it
    (every hand): ("hand", p), ("discard",), ("draw", k) for the k-th card of the draw pile as read; None when the
    observation cannot say (a card seen twice, a card the probe deck does not hold, a value that is not a card)."""
    placing = _Placing(size, plain)
    hands, top, pile = obs.get("hands"), obs.get("top_discard"), obs.get("deck_pile")
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        return None
    for p, hand in enumerate(hands):
        if not all(placing.put(card, ("hand", p)) for card in hand):
            return None
    if not placing.put(top, ("discard",)):
        return None
    if isinstance(pile, list):
        for k, card in enumerate(pile):
            if not placing.put(card, ("draw", k)):
                break  # the repeated filler: the rest of the pile is not told apart
    return placing.out


def places_by_turns(steps: Sequence[object], size: int, plain: Sequence[int]) -> dict[int, Place] | None:
    """``places`` for an edition that shows only the hand of the player to move (2017), from the probe game where
    each player in turn draws a card and ends the turn: the player to move after ``2k`` moves is the ``k``-th one
    to play (who that is, ``current_player`` says); its hand then is the one dealt to it, and the card it holds one
    move later besides is the ``k``-th card drawn ("draw", k).  The first observation shows the first discard.
    None when a hand or the player to move cannot be read, or a card is seen in two places; the draws are read up to
    the first that cannot be told apart (a filler card, or a pile turned over: S20)."""
    placing = _Placing(size, plain)
    first = steps[0]
    if not isinstance(first, Mapping) or not placing.put(first.get("top_discard"), ("discard",)):
        return None
    seen_players: set[int] = set()
    drawing = True
    for at in range(0, len(steps), 2):
        obs = steps[at]
        if not isinstance(obs, Mapping):
            return None
        me, hand = obs.get("current_player"), obs.get("hand")
        if type(me) is not int or me in seen_players or not isinstance(hand, list):
            return None
        seen_players.add(me)
        if not all(placing.put(card, ("hand", me)) for card in hand):
            return None
        after = steps[at + 1] if at + 1 < len(steps) else None
        if not drawing or not isinstance(after, Mapping) or not isinstance(after.get("hand"), list):
            continue
        before = {placing.position_of(c) for c in hand}
        drawn = [c for c in after["hand"] if placing.position_of(c) not in before]
        drawing = len(drawn) == 1 and placing.put(drawn[0], ("draw", at // 2))
    return placing.out


def rearrangement(reference: Mapping[int, Place], submission: Mapping[int, Place], size: int) -> list[int] | None:
    """``order``, with ``order[r]`` the position the submission must find the card the reference has at position
    ``r`` (``grader.core.deal_map``; the draw pile is read in part: its places may be named on one side only)."""
    return core_rearrangement(reference, submission, size, partial=("draw",))


def rearranged(deck: Deck, order: Iterable[int]) -> Deck:
    """``deck`` with the card at position ``r`` moved to ``order[r]``."""
    return Deck.from_keys(core_rearranged(deck.keys, list(order)))
