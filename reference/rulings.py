"""The rulings table: where the rules are silent, which readings are accepted.

Every LENIENT ruling of rules.md §3 that touches something observable has a
row here: the readings a fair grader accepts (the reference takes the first),
the observations it affects, and the situation in which it applies, written as
a predicate over the reference game *in the state being observed*.  The
comparison reads this table and nothing else to decide what it may not hold
against a submission.  A course that announced one reading can make a ruling
strict in its marking configuration; the grader then compares those
observations like any other.

Observation names are the fields of a trace step (see ``grader.games.fcd18s2.sandbox.observe``).
``valid_play`` is per candidate card: a ruling may narrow it to some cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .cards import CardKey, Value
from .game import NO_WINNER, NOT_FINISHED, Game

# A ruling names the observations it makes lenient (the grader's observation table lists them all);
# EVERY_OBSERVATION stands for all of them but the ruling's ``unaffected``.
EVERY_OBSERVATION = "*"


def _always(_g: Game) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Ruling:
    """One ruling of rules.md §3 as the comparison uses it."""

    id: str
    question: str
    readings: tuple[str, ...]  # the reference's reading first
    affects: tuple[str, ...]  # observation names it makes lenient (or EVERY_OBSERVATION)
    when: Callable[[Game], bool] = _always
    cards: Callable[[Game, CardKey], bool] | None = None  # narrows valid_play to these candidates
    accepts: Callable[[Game], frozenset[int]] | None = None  # for 'winner': the values accepted
    lenient: bool = True
    note: str = field(default="")
    unaffected: tuple[str, ...] = ()  # with EVERY_OBSERVATION: the ones it leaves strict

    def touches(self, name: str) -> bool:
        """Does this ruling leave observation ``name`` open?"""
        return name in self.affects or (EVERY_OBSERVATION in self.affects and name not in self.unaffected)


def _drawn_not_played(g: Game) -> bool:
    return g.cards_drawn_this_turn() > 0 and not g.card_played_this_turn()


def _playable_but_for_the_draw(g: Game, key: CardKey) -> bool:
    """A1 reading (b): after a draw, a card is playable if it would have been before it."""
    v, c, s = key
    if g.get_active_draw_twos() > 0:
        return v == Value.DRAW_TWO
    top = g.top_discard()
    return v == Value.ZERO or v == top.value or s == top.suit or c == g.get_current_color()


def _is_a_two(_g: Game, key: CardKey) -> bool:
    return key[0] == Value.DRAW_TWO


def _partly_paid(g: Game) -> bool:
    return 0 < g.cards_drawn_this_turn() < g.penalty()


def _paying_a_penalty(g: Game) -> bool:
    """A8: from the penalised player's first draw to their END_TURN."""
    return g.get_active_draw_twos() > 0 and not g.card_played_this_turn() and g.cards_drawn_this_turn() > 0


def _two_played_this_turn(g: Game) -> bool:
    """A52: between playing a 2 and END_TURN."""
    return g.card_played_this_turn() and g.top_discard().value == Value.DRAW_TWO


def _active_differs_from_run(g: Game) -> bool:
    """A7: the two readings' penalties may differ: a paid 2 under new ones (run > active), a
    recycle that shortened the run (run < active), or a run of 2s that spans a recycle, which
    A48's other reading (a running count, which may go with A7's) does not shorten."""
    active = g.get_active_draw_twos()
    return active > 0 and (active != g.get_number_of_two_cards_at_top() or _run_of_twos_spans_a_recycle(g))


def _run_of_twos_spans_a_recycle(g: Game) -> bool:
    """A48: the top card survived a recycle, or the run of 2s on top began before one."""
    if g.top_survived_recycle():
        return True
    run = g.get_number_of_two_cards_at_top()
    return g.recycles() > 0 and run > 0 and run == g.discard_pile_size()


def _top_kept_through_a_recycle(g: Game) -> bool:
    """A15: the top card stayed through a recycle, or would have in an engine that recycles
    as soon as the draw pile empties (A22's other reading, which A15's may be combined with)."""
    return g.top_survived_recycle() or _draw_pile_empty_discard_has_more(g)


def _declared_d_on_top(g: Game) -> bool:
    return g.declared_color() is not None


def _declaration_outlived_a_turn(g: Game) -> bool:
    return _declared_d_on_top(g) and g.get_top_discard_turn_number() < g.current_turn() - 1


def _matches_d_only_by_suit_or_value(g: Game, key: CardKey) -> bool:
    top = g.top_discard()
    v, c, s = key
    return v != Value.ZERO and c != g.get_current_color() and (s == top.suit or v == top.value)


def _colour_sensitive(g: Game, key: CardKey) -> bool:
    top = g.top_discard()
    return key[1] in (int(top.color), g.get_current_color())


def _draw_pile_empty_discard_has_more(g: Game) -> bool:
    return g.draw_pile_size() == 0 and g.discard_pile_size() >= 2


def _pile_after_recycle(g: Game) -> bool:
    return g.recycles() > 0


def _nothing_to_draw(g: Game) -> bool:
    return g.draw_pile_size() == 0 and g.discard_pile_size() == 1


def _cannot_end_in_some_reading(g: Game) -> bool:
    """The turn cannot end yet: in the reference, or in A7's other reading (2 cards owed per 2
    in the run on top) while that larger penalty has not all been drawn (with A48's running
    count, which the reference does not keep, it may always be larger)."""
    if not g.can_end_turn():
        return True
    if g.card_played_this_turn() or not _active_differs_from_run(g):
        return False
    return _run_of_twos_spans_a_recycle(g) or g.cards_drawn_this_turn() < 2 * g.get_number_of_two_cards_at_top()


def _no_play_in_some_reading(g: Game) -> bool:
    """No card in the hand may be played: in the reference, after a declaring D in A17's other
    reading (declared colour or ZERO only), or once the declaration has outlived a turn in
    A16's other reading (the D's own colour, suit or value, or ZERO)."""
    hand = [c for c in (g.hand_card(i) for i in range(g.hand_card_count())) if c]
    if not any(g.can_play(c) for c in hand):
        return True
    if _declared_d_on_top(g) and not any(
            g.can_play(c) and (c.value == Value.ZERO or c.color == g.get_current_color()) for c in hand):
        return True
    if _declaration_outlived_a_turn(g) and not g.card_played_this_turn() and g.cards_drawn_this_turn() == 0:
        top = g.top_discard()
        return not any(c.value in (Value.ZERO, top.value) or c.suit == top.suit or c.color == top.color
                       for c in hand)
    return False


def _stuck_with_nothing_to_draw(g: Game) -> bool:
    """A50: the player can neither play nor end the turn, and no card can be drawn -- in the
    reference or in the other readings of what may be played (A16, A17) or owed (A7), which an
    implementation taking A50's other reading applies when it decides that the player is stuck."""
    if g.game_winner() != NOT_FINISHED or not _nothing_to_draw(g):
        return False
    return _cannot_end_in_some_reading(g) and _no_play_in_some_reading(g)


def _game_over(g: Game) -> bool:
    return g.game_winner() != NOT_FINISHED


RULINGS: tuple[Ruling, ...] = (
    Ruling("A1", "May a player play a card after drawing in the same turn?",
           ("no: draw, then end the turn", "yes: draw, then play a matching card"),
           ("valid_play",), _drawn_not_played, cards=_playable_but_for_the_draw),
    Ruling("A3", "May a player draw after playing a card?",
           ("no: after a play only END_TURN", "yes: the header only says 'not yet drawn'"),
           ("valid_draw",), lambda g: g.card_played_this_turn()),
    Ruling("A7", "A 2 played onto an already-paid 2: how many cards are owed?",
           ("2 x getActiveDrawTwos", "2 x getNumberOfTwoCardsAtTop"),
           ("valid_draw", "valid_end"), _active_differs_from_run),
    Ruling("A8", "getActiveDrawTwos while the penalised player draws, before END_TURN",
           ("unchanged until END_TURN", "0 at the last owed draw", "one 2 fewer per two cards drawn"),
           ("active_draw_twos",), _paying_a_penalty),
    Ruling("A12", "Does getActiveDrawTwos count a turned-up 2 that nobody played?",
           ("yes", "no"), ("active_draw_twos",), lambda g: g.initial_two_is_active()),
    Ruling("A15", "getTopDiscardTurnNumber of a top card that stayed through a recycle",
           ("keeps its turn number", "anything"), ("top_discard_turn_number",),
           _top_kept_through_a_recycle),
    Ruling("A16", "Does a declared colour last past the turn after the D?",
           ("while that D is on top", "only for the next turn"),
           ("current_color", "valid_play"), _declaration_outlived_a_turn, cards=_colour_sensitive),
    Ruling("A17", "After a declaring D, may a card match the D by suit or value?",
           ("yes: declared colour, D's suit, value D, or ZERO", "no: declared colour or ZERO only"),
           ("valid_play",), _declared_d_on_top, cards=_matches_d_only_by_suit_or_value),
    Ruling("A20", "nextColor with a card that is not a D, or an out-of-range colour",
           ("ignored / invalid", "anything"), (),
           note="the grader always declares a real colour with a D and never probes junk"),
    Ruling("A21", "Recycling: what order beyond the next card drawn?",
           ("keep the top; oldest card drawn first", "other orders"),
           ("deck_pile", "discard_pile"), _pile_after_recycle,
           note="hands stay strict: the card drawn after a recycle must be the oldest discard"),
    Ruling("A22", "Recycle lazily (when a draw needs a card) or eagerly (when the pile empties)?",
           ("lazily", "eagerly"), ("deck_pile", "discard_pile", "number_of_two_cards_at_top"),
           _draw_pile_empty_discard_has_more),
    Ruling("A23", "isValidMove(DRAW_CARD) with nothing left to draw",
           ("TRUE: the draw ends the game with NO_WINNER", "FALSE"),
           ("valid_draw",), _nothing_to_draw),
    Ruling("A26", "A look-alike card from another hand",
           ("identity: not in this hand", "fields: in this hand"), (),
           note="never observed: the grader probes only cards with no twin in the current hand"),
    Ruling("A29", "Queries and isValidMove after the game has ended (18s2)",
           ("every move invalid, counters frozen", "anything"), (EVERY_OBSERVATION,), _game_over,
           unaffected=("winner", "num_cards", "num_of_suit", "num_of_color", "num_of_value")),
    Ruling("A48", "The run of 2s on top after a recycle",
           ("describes the pile after recycling", "a running count that still includes the recycled 2s"),
           ("number_of_two_cards_at_top",), _run_of_twos_spans_a_recycle),
    Ruling("A49", "Playing a 2 part-way through paying a penalty",
           ("invalid: drawing commits the player", "valid"), ("valid_play",), _partly_paid, cards=_is_a_two),
    Ruling("A52", "getActiveDrawTwos between playing a 2 and END_TURN",
           ("counts the new 2 at once", "unchanged until END_TURN passes the turn"),
           ("active_draw_twos",), _two_played_this_turn),
    Ruling("A50", "When is NO_WINNER reported?",
           ("when a draw is attempted with nothing to draw",
            "as soon as the player is stuck with nothing to draw"),
           ("winner",), _stuck_with_nothing_to_draw,
           accepts=lambda _g: frozenset({NOT_FINISHED, NO_WINNER})),
)

BY_ID = {r.id: r for r in RULINGS}


@dataclass(frozen=True, slots=True)
class Leniency:
    """What may not be held against a submission in one observed state."""

    fields: dict[str, tuple[str, ...]]  # observation -> ruling ids that make it lenient
    play_cards: dict[CardKey, tuple[str, ...]]  # valid_play candidates lenient card by card
    winner_accepts: frozenset[int] | None  # extra winner values accepted (A50)
    all_but: tuple[str, ...] = ()  # with fields[EVERY_OBSERVATION]: the observations left strict
    # For a per-player count left strict but for some players: observation -> player -> the differences
    # (got - expected) accepted in that player's entry (2017's B44: the wrong caller holds 2 cards fewer).
    offsets: dict[str, dict[int, tuple[int, ...]]] = field(default_factory=dict)

    def field_is_lenient(self, name: str) -> bool:
        return name in self.fields or (EVERY_OBSERVATION in self.fields and name not in self.all_but)

    def play_is_lenient(self, key: CardKey) -> bool:
        return self.field_is_lenient("valid_play") or key in self.play_cards

    def why(self, name: str, key: CardKey | None = None) -> tuple[str, ...]:
        if name in self.fields:
            return self.fields[name]
        if self.field_is_lenient(name):
            return self.fields[EVERY_OBSERVATION]
        if key is not None and key in self.play_cards:
            return self.play_cards[key]
        return ()


def leniency(game: Game, strict: frozenset[str] = frozenset()) -> Leniency:
    """The lenient observations for ``game`` as it stands; ``strict`` ruling ids are enforced."""
    fields: dict[str, tuple[str, ...]] = {}
    play_cards: dict[CardKey, tuple[str, ...]] = {}
    winner_accepts: frozenset[int] | None = None
    hand_keys: list[CardKey] | None = None
    all_but: tuple[str, ...] = ()
    for r in RULINGS:
        if r.id in strict or not r.affects or not r.when(game):
            continue
        for name in r.affects:
            if name == "valid_play" and r.cards is not None:
                if hand_keys is None:
                    hand_keys = [c.key for c in (game.hand_card(i) for i in range(game.hand_card_count())) if c]
                for key in hand_keys:
                    if r.cards(game, key):
                        play_cards[key] = play_cards.get(key, ()) + (r.id,)
            elif name == "winner" and r.accepts is not None:
                winner_accepts = r.accepts(game)
            else:
                fields[name] = fields.get(name, ()) + (r.id,)
                all_but = r.unaffected if name == EVERY_OBSERVATION else all_but
    return Leniency(fields, play_cards, winner_accepts, all_but)
