"""The 2017 rulings table (rules-17s2.md §3, B1-B60): one row per ruling, the reference's reading first.

Every ruling is a row, STRICT ones included, so the table is the one place that
says what the edition asserts (``strict``: the scope the grader holds every
implementation to) and what it accepts in every reading (``lenient``: the
scope where any listed reading passes).  A ruling may be both, for different
parts; §3.11 lists those under both headings.  The engine always takes
``readings[0]``.

For a lenient part that shows in some states only, the row says where, as
predicates over the reference game *in the state being observed* (as
``reference.rulings`` does for 2018): ``when`` names the observations
``affects`` left open there, ``cards`` narrows ``valid_play`` to some cards of
the hand, ``accepts`` lists the extra ``gameWinner`` values accepted, and
``diverged`` says that the readings have already led to different games, so
that nothing but what ``unaffected`` lists can be compared any more.
``leniency`` reads the table for one state.

Observation names are those a 2017 grader compares, one per Game.h query
(``OBSERVATIONS``); ``valid_*`` are isValidMove of each kind of move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..cards import CardKey, Value
from ..rulings import EVERY_OBSERVATION, Leniency
from .game import NO_WINNER, NOT_FINISHED, Game
from .moves import SAID_COUNT, Action

DECK_COUNTS = ("num_cards", "num_of_suit", "num_of_color", "num_of_value")
VALIDITY = ("valid_play", "valid_draw", "valid_say", "valid_end")
OBSERVATIONS = DECK_COUNTS + (
    "current_player", "current_turn", "num_turns", "play_direction", "top_discard", "turn_moves",
    "past_moves", "declarations", "hand", "card_counts", "points", "winner",
) + VALIDITY


def _never(_g: Game) -> bool:
    return False


def _always(_g: Game) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Ruling:
    """One ruling of rules-17s2.md §3."""

    id: str
    question: str
    readings: tuple[str, ...]  # the reference's reading first; a single one when the ruling leaves no choice
    strict: str = ""  # what every implementation is held to ("" when nothing)
    lenient: str = ""  # where every listed reading is accepted ("" when nowhere)
    affects: tuple[str, ...] = ()  # observations ``lenient`` leaves open where ``when`` holds
    when: Callable[[Game], bool] = _always
    cards: Callable[[Game, CardKey], bool] | None = None  # narrows valid_play to these cards
    accepts: Callable[[Game], frozenset[int]] | None = None  # for 'winner': the values accepted
    diverged: Callable[[Game], bool] = _never  # the readings have made different games by now
    unaffected: tuple[str, ...] = DECK_COUNTS  # what stays comparable once diverged (or with EVERY_OBSERVATION)
    # once diverged, per-player counts of ``unaffected`` that differ by one of these for some players
    offsets: Callable[[Game], dict[str, dict[int, tuple[int, ...]]]] | None = None
    note: str = field(default="")

    @property
    def reference(self) -> str:
        """The reading the reference engine takes."""
        return self.readings[0]

    @property
    def kind(self) -> str:
        """``STRICT``, ``LENIENT``, or ``STRICT in part`` (both, for different parts)."""
        if self.strict and self.lenient:
            return "STRICT in part"
        return "STRICT" if self.strict else "LENIENT"

    def touches(self, name: str) -> bool:
        """Can this ruling leave observation ``name`` open in some state?"""
        every = EVERY_OBSERVATION in self.affects or self.diverged is not _never
        return name in self.affects or (every and name not in self.unaffected)


# ---- where the lenient parts show ------------------------------------------------------
def _first_is(*values: Value) -> Callable[[Game], bool]:
    return lambda g: g.first_discard().value in values


def _over(g: Game) -> bool:
    return g.game_winner() != NOT_FINISHED


def _discarding_possible(g: Game) -> bool:
    """A discard is open now in the reference (nothing drawn; first discard, or after a CONTINUE)."""
    discards = g.discards_this_turn()
    return (not _over(g) and g.cards_drawn_this_turn() == 0
            and (not discards or discards[-1].value == Value.C))


def _matches_top(g: Game, key: CardKey) -> bool:
    v, c, s = key
    top = g.top_discard()
    return v == Value.ZERO or v == top.value or s == top.suit or c == g.current_color()


def _drew_without_a_two(g: Game) -> bool:
    return not _over(g) and g.cards_drawn_this_turn() > 0 and g.owed_twos() == 0


def _discarded_a_plain_card(g: Game) -> bool:
    discards = g.discards_this_turn()
    return not _over(g) and bool(discards) and discards[-1].value != Value.C


def _after_a_continue(g: Game) -> bool:
    discards = g.discards_this_turn()
    return not _over(g) and bool(discards) and discards[-1].value == Value.C


def _chain_differs_from_run(g: Game) -> bool:
    """B22: a 2 on a paid 2 (the run on top is longer than the chain), or a run a recycle shortened."""
    owed = g.owed_twos()
    return not _over(g) and owed > 0 and not g.discards_this_turn() and (
        g.twos_on_top() != owed or g.top_survived_recycle())


def _paid_some(g: Game) -> bool:
    return not _over(g) and g.owed_twos() > 0 and not g.discards_this_turn() and g.cards_drawn_this_turn() > 0


def _playable_after_paying(g: Game, key: CardKey) -> bool:
    """B24 (b): a 2 part-way through paying; once paid, any card matching the top."""
    if g.owed_cards() > 0:
        return key[0] == Value.DRAW_TWO
    return _matches_top(g, key)


def _reversed_this_turn(g: Game) -> bool:
    discards = g.discards_this_turn()
    return not _over(g) and bool(discards) and discards[-1].value == Value.B


def _declaration_stands(g: Game) -> bool:
    return g.declared_color() is not None and _discarding_possible(g)


def _readings_of_d_differ(g: Game, key: CardKey) -> bool:
    """B35: matches the DECLARE only by its printed colour, its suit or its value."""
    v, c, s = key
    top = g.top_discard()
    return v != Value.ZERO and c != g.current_color() and (c == top.color or s == top.suit or v == top.value)


def _declaration_outlived_a_turn(g: Game) -> bool:
    return _declaration_stands(g) and g.top_discard_turn() < g.current_turn() - 1


def _colour_sensitive(g: Game, key: CardKey) -> bool:
    return key[1] in (g.top_discard().color, g.current_color())


def _a_call_out_judged_differently_on_a_chain(g: Game) -> bool:
    """B42: a call-out right in the reference about a count a CONTINUE chain passed, not the final one."""
    for turn in range(1, g.num_turns()):
        counts = g.discard_counts(turn - 1)
        if len(counts) < 2:
            continue
        if any(right and SAID_COUNT[word] != counts[-1] for word, right in g.call_outs(turn)):
            return True
    return False


def _a_wrong_call_out_was_made(g: Game) -> bool:
    return any(not right for turn in range(g.num_turns()) for _word, right in g.call_outs(turn))


def _wrong_callers_hold_2_fewer(g: Game) -> dict[str, dict[int, tuple[int, ...]]]:
    """B44 (b): each wrong call-out cost its caller 2 cards, not the reference's 4."""
    fewer: dict[int, int] = {}
    for turn in range(g.num_turns()):
        for _word, right in g.call_outs(turn):
            if not right:
                caller = g.turn_player(turn)
                fewer[caller] = fewer.get(caller, 0) + 2
    return {"card_counts": {p: tuple(range(0, -n - 1, -2)) for p, n in fewer.items()}}


# What a wrong call-out's penalty size (B44: 2 or 4 cards for the caller) leaves comparable: the turn
# structure, the history, the top card, drawing and ending, the other players' counts (the caller's up to
# the difference in size).  Not the hands' cards (the piles are shifted), nor claims (hand sizes differ).
_SAME_WHATEVER_THE_PENALTY = DECK_COUNTS + (
    "current_player", "current_turn", "num_turns", "play_direction", "turn_moves", "past_moves", "declarations",
    "top_discard", "valid_draw", "valid_end", "card_counts")


def _calling_on_turn_0(g: Game) -> bool:
    return not _over(g) and g.current_turn() == 0 and g.calls_only_so_far()


def _called_out_on_turn_0(g: Game) -> bool:
    return bool(g.call_outs(0))


def _only_calls_one_penalised(g: Game) -> bool:
    """B45 (b): the turn so far is call-outs only, and one of them cost the caller cards."""
    turn = g.current_turn()
    return (not _over(g) and g.calls_only_so_far()
            and any(not right for _word, right in g.call_outs(turn)))


def _nothing_to_draw(g: Game) -> bool:
    return not g.draw_pile() and len(g.discard_pile()) == 1


def _ended_by_a_draw(g: Game) -> bool:
    """A DRAW_CARD found nothing to draw and ended the game: every reading has NO_WINNER by then ((a) now,
    (b) already; (c) is about penalty cards, which are no move)."""
    turn = g.current_turn()
    n = g.turn_moves(turn)
    return g.game_winner() == NO_WINNER and n > 0 and g.past_move(turn, n - 1).action == Action.DRAW_CARD


def _nothing_to_draw_yet_open(g: Game) -> bool:
    return _nothing_to_draw(g) and not _ended_by_a_draw(g)


def _drawn_past_the_first_recycled_card(g: Game) -> bool:
    return any(n >= 2 for n in g.recycled_draws())


def _won(g: Game) -> bool:
    return g.game_winner() not in (NOT_FINISHED, NO_WINNER)


# ---- the table ---------------------------------------------------------------------
RULINGS: tuple[Ruling, ...] = (
    # 3.1 Setup and the first discard
    Ruling("B1", "Which headers does the edition grade against?",
           ("Game.h v1.2.1 (2017 text), Card.h v1.1.0 (2017 names), player.h v1.1.0",),
           strict="a function an older 2017 header lacked is missing and loses its own marks only"),
    Ruling("B2", "Dealing and the piles",
           ("card i < 28 to player i mod 4, card 28 the first discard, card 29 drawn first",), strict="all"),
    Ruling("B3", "Card identity",
           ("the played Card is topDiscard and pastMove's card; a drawn Card is the pile's own",),
           strict="all; cards compared by pointer"),
    Ruling("B4", "Order of the cards in a hand", ("new cards appended at the end", "anywhere"),
           lenient="never tested", note="the grader always searches the hand"),
    Ruling("B5", "Start state when card 28 is not A, B, C, D or 2",
           ("player 0, turn 0, numTurns 1, CLOCKWISE, no moves, not finished, 7 cards each",), strict="all"),
    Ruling("B6", "The first discard is an ADVANCE",
           ("player 0 is skipped: player 1 holds turn 0", "no effect"),
           lenient="all", diverged=_first_is(Value.A)),
    Ruling("B7", "The first discard is a BACKWARDS",
           ("ANTICLOCKWISE, player 0 first, player 3 next", "no effect", "ANTICLOCKWISE, player 3 first"),
           lenient="all", diverged=_first_is(Value.B)),
    Ruling("B8", "The first discard is a 2",
           ("player 0 owes 2 cards or stacks a 2", "no effect"),
           lenient="all", diverged=_first_is(Value.DRAW_TWO)),
    Ruling("B9", "The first discard is a CONTINUE or a DECLARE",
           ("no effect: nobody continues, no colour declared; the D's printed colour is matched", "other effects"),
           lenient="all", diverged=_first_is(Value.C, Value.D),
           note="STRICT scenarios never turn up A, B, C, D or 2 (B6-B9 only as readings)"),
    Ruling("B10", "Deck sizes",
           ("30 cards or more; up to 800 cards and 1,000 turns", "decks under 30 refused or anything"),
           strict="decks of 30 to 800 cards, games up to 1,000 turns",
           lenient="decks under 30, NULL arrays, bad enum values; beyond 800 cards or 1,000 turns",
           note="never built by the grader; the reference refuses decks under 29 (DeckError)"),
    Ruling("B11", "numOf* counts", ("over the whole initial deck, dealt cards included, never changing",),
           strict="all"),
    Ruling("B12", "playerPoints", ("the sum of the values (ZERO 0 ... F 15) of that hand, any time",),
           strict="all", note="the hand size is not a reading (the pre-v1.2.1 headers left it undefined)"),
    # 3.2 Turn structure, drawing and discarding
    Ruling("B13", "END_TURN first, or after call-outs only", ("invalid",), strict="all"),
    Ruling("B14", "A second discard without a CONTINUE before it", ("invalid",), strict="all"),
    Ruling("B15", "A second draw with no draw-two pending", ("invalid",), strict="all"),
    Ruling("B16", "A discard after drawing (no draw-two pending)",
           ("invalid: draw, then end the turn", "valid: V1 only counts discards"),
           lenient="all", affects=("valid_play",), when=_drew_without_a_two, cards=_matches_top),
    Ruling("B17", "A draw after a discard that is not a CONTINUE",
           ("invalid: draw or discard, not both", "valid: V3 only counts draws"),
           lenient="all", affects=("valid_draw",),
           when=lambda g: _discarded_a_plain_card(g) and g.cards_drawn_this_turn() == 0),
    Ruling("B18", "Drawing while holding a playable card", ("valid",), strict="all"),
    Ruling("B19", "A legal discard",
           ("in hand (by identity), ZERO or sharing value, suit or effective colour",
            "a field-identical twin from elsewhere accepted"),
           strict="in hand, matching; another player's card invalid",
           lenient="a look-alike twin, a NULL card", note="never probed"),
    # 3.3 Draw-two
    Ruling("B20", "A 2 on a pending 2", ("valid: stacking",), strict="all"),
    Ruling("B21", "A card other than a 2 (ZERO included) on a pending 2", ("invalid",), strict="all"),
    Ruling("B22", "How many cards a pending 2 owes",
           ("2 x the 2s of the unbroken chain; a 2 on a paid 2 starts a new chain (2 cards)",
            "2 x every 2 physically on top"),
           strict="plain chains: 2, 4, 6 cards", lenient="a 2 played on a paid 2",
           affects=("valid_draw", "valid_end"), when=_chain_differs_from_run),
    Ruling("B23", "END_TURN and DRAW_CARD while paying",
           ("END_TURN only once all owed cards are drawn; no draw beyond them",), strict="all"),
    Ruling("B24", "A discard after paying, or a 2 after paying part",
           ("invalid: drawing commits the player", "valid"),
           lenient="all", affects=("valid_play",), when=_paid_some, cards=_playable_after_paying),
    Ruling("B25", "Who owes for a 2", ("only the player of the turn after it; once drawn, the 2 is inert",),
           strict="all"),
    # 3.4 ADVANCE, BACKWARDS, direction
    Ruling("B26", "Skips and turn numbers", ("the skipped seat gets no turn number and no history",),
           strict="all"),
    Ruling("B27", "Where a skip lands", ("two seats on in the current direction: the opposite seat",),
           strict="all"),
    Ruling("B28", "BACKWARDS at the turn boundary",
           ("the direction flips; the next player is the neighbour in the new direction",), strict="all"),
    Ruling("B29", "playDirection in the middle of a turn after a BACKWARDS",
           ("already reversed", "reversed at END_TURN"),
           lenient="all", affects=("play_direction",), when=_reversed_this_turn,
           note="the grader reads playDirection at turn starts"),
    Ruling("B30", "BACKWARDS with four players", ("never a skip",), strict="all (through B28)"),
    # 3.5 CONTINUE
    Ruling("B31", "After a CONTINUE",
           ("END_TURN valid; another discard legal against the CONTINUE (or a ZERO); chains of C",),
           strict="all"),
    Ruling("B32", "A draw after a CONTINUE",
           ("invalid: only 'end turn' and 'play another card'", "valid by V3's wording"),
           lenient="all", affects=("valid_draw",),
           when=lambda g: _after_a_continue(g) and g.cards_drawn_this_turn() == 0),
    Ruling("B33", "A claim between a CONTINUE and the next discard", ("valid",), strict="all"),
    Ruling("B34", "Effects in a CONTINUE chain",
           ("only the last discard can be other than C; its effect is applied once",), strict="all"),
    # 3.6 DECLARE
    Ruling("B35", "What matches a DECLARE",
           ("the declared colour replaces the printed one; suit and value still match; ZERO",
            "the declared colour is added to the printed one",
            "the declared colour (or ZERO) only"),
           strict="a card of the declared colour, and a ZERO, are valid",
           lenient="a card matching only by the D's printed colour, or only by its suit or value",
           affects=("valid_play",), when=_declaration_stands, cards=_readings_of_d_differ),
    Ruling("B36", "How long a declaration lasts",
           ("until a card covers the DECLARE, draw-only turns included", "only for the next turn"),
           lenient="across draw-only turns",
           affects=("valid_play",), when=_declaration_outlived_a_turn, cards=_colour_sensitive,
           note="the turn right after the DECLARE is held strictly through B35; §3.11 lists B36 as LENIENT only"),
    Ruling("B37", "nextColor",
           ("every DECLARE play declares; pastMove keeps it; a DECLARE is not wild",), strict="all",
           note="a nextColor outside 0-4 is never tested; the reference refuses it"),
    # 3.7 Claims and call-outs
    Ruling("B38", "When a claim is valid",
           ("exactly when the previous move of the turn is a PLAY_CARD and the hand holds 1, 2 or 3",),
           strict="all"),
    Ruling("B39", "Claims are optional", ("END_TURN straight after the discard is valid",), strict="all"),
    Ruling("B40", "When a call-out is valid",
           ("while the turn holds only SAY_* moves, each word once per turn",), strict="all"),
    Ruling("B41", "A wrong call-out", ("valid (and penalised)",), strict="all"),
    Ruling("B42", "When a call-out is right",
           ("a discard of the previous turn left exactly k cards and the next move was not the claim of k; "
            "every count a CONTINUE chain passed",
            "only the count held at the end of the previous turn"),
           strict="single-discard turns", lenient="turns with several discards",
           diverged=_a_call_out_judged_differently_on_a_chain),
    Ruling("B43", "The penalty for a right call-out",
           ("the previous player draws 2 at once; not a move; the caller unchanged",), strict="all"),
    Ruling("B44", "The penalty for a wrong call-out",
           ("the caller draws 4", "the caller draws 2"),
           strict="the previous player's hand is unchanged", lenient="the size: 2 or 4",
           diverged=_a_wrong_call_out_was_made, unaffected=_SAME_WHATEVER_THE_PENALTY,
           offsets=_wrong_callers_hold_2_fewer,
           note="once the sizes differ so do the piles: hands and claims are not compared after a wrong call-out"),
    Ruling("B45", "After a penalised call-out",
           ("still the start of the turn: more call-outs, then a draw or a discard before END_TURN",
            "END_TURN allowed right after it"),
           strict="the rest", lenient="END_TURN right after a penalised call-out",
           affects=("valid_end",), when=_only_calls_one_penalised),
    Ruling("B46", "A call-out on turn 0",
           ("valid and wrong: the caller is penalised", "invalid", "valid, no penalty"),
           lenient="all", affects=("valid_say",), when=_calling_on_turn_0, diverged=_called_out_on_turn_0),
    Ruling("B47", "Who may call out", ("only the next player, at the start of their turn",), strict="all"),
    Ruling("B48", "Call-outs and a pending 2", ("call out first, then pay or stack; penalties owe nothing",),
           strict="all"),
    Ruling("B49", "Claims and winning", ("the last discard ends the game; no UNO, no call-out",), strict="all"),
    # 3.8 History API
    Ruling("B50", "What the history holds",
           ("every move submitted, END_TURN and SAY_* included; no penalty draws, no skipped turns",),
           strict="all"),
    Ruling("B51", "The current turn's history", ("turnMoves(currentTurn) counts the moves so far",),
           strict="all"),
    Ruling("B52", "pastMove contents",
           ("action; the played Card; a DECLARE's declared colour", "anything in the meaningless fields"),
           strict="action, played card, declared colour",
           lenient="card of non-plays, nextColor of non-DECLARE plays; out-of-range arguments",
           note="the grader compares only the meaningful fields"),
    # 3.9 End of game, recycling, no winner
    Ruling("B53", "After the game ends",
           ("every move invalid; gameWinner kept; other getters frozen", "other getters anything"),
           strict="isValidMove and gameWinner", lenient="the other getters",
           affects=(EVERY_OBSERVATION,), when=_over, unaffected=DECK_COUNTS + ("winner",) + VALIDITY),
    Ruling("B54", "Recycling",
           ("lazily; the top stays; the rest turned over, the oldest drawn first", "the top goes too",
            "shuffled"),
           strict="the top unchanged; the next card drawn is the oldest below it",
           lenient="the order beyond the first card drawn; when the pile is turned over",
           diverged=_drawn_past_the_first_recycled_card),
    Ruling("B55", "No winner",
           ("NO_WINNER when a card must be drawn and none is left", "NO_WINNER as soon as nothing is left to draw",
            "penalty cards that cannot be drawn are skipped"),
           lenient="all", affects=("winner",) + VALIDITY, when=_nothing_to_draw_yet_open,
           accepts=lambda _g: frozenset({NOT_FINISHED, NO_WINNER}),
           note="reading (b) has ended the game there, so every isValidMove may be FALSE"),
    Ruling("B56", "Winning with a special card",
           ("the game ends at once; the card's effect is applied but irrelevant", "direction and player anything"),
           strict="gameWinner", lenient="direction and current player afterwards",
           affects=("current_player", "play_direction"), when=_won),
    # 3.10 Interface hygiene
    Ruling("B57", "isValidMove has no side effects", ("none",), strict="all"),
    Ruling("B58", "playMove with an invalid move", ("undefined: the reference raises", "anything"),
           lenient="never tested"),
    Ruling("B59", "Out-of-range handCard index, bad player numbers", ("undefined", "anything"),
           lenient="never tested"),
    Ruling("B60", "numTurns and currentTurn", ("numTurns = currentTurn + 1; only END_TURN changes it",),
           strict="all"),
)

BY_ID = {r.id: r for r in RULINGS}
STRICT_IDS = tuple(r.id for r in RULINGS if r.strict)
LENIENT_IDS = tuple(r.id for r in RULINGS if r.lenient)


def leniency(game: Game, strict: frozenset[str] = frozenset()) -> Leniency:
    """The observations left open in ``game`` as it stands; ``strict`` ruling ids are enforced."""
    fields: dict[str, tuple[str, ...]] = {}
    play_cards: dict[CardKey, tuple[str, ...]] = {}
    winner_accepts: frozenset[int] | None = None
    everything_but: set[str] | None = None  # what the rulings leaving EVERY_OBSERVATION open all spare
    offsets: dict[str, dict[int, tuple[int, ...]]] = {}
    hand_keys = [c.key for c in game.player_hand(game.current_player())]
    for r in RULINGS:
        if r.id in strict:
            continue
        if r.diverged(game):
            fields[EVERY_OBSERVATION] = fields.get(EVERY_OBSERVATION, ()) + (r.id,)
            everything_but = set(r.unaffected) if everything_but is None else everything_but & set(r.unaffected)
            if r.offsets is not None:
                for name, players in r.offsets(game).items():
                    offsets.setdefault(name, {}).update(players)
            continue
        if not r.affects or not r.when(game):
            continue
        for name in r.affects:
            if name == "valid_play" and r.cards is not None:
                for key in hand_keys:
                    if r.cards(game, key):
                        play_cards[key] = play_cards.get(key, ()) + (r.id,)
            elif name == "winner" and r.accepts is not None:
                winner_accepts = r.accepts(game)
            else:
                fields[name] = fields.get(name, ()) + (r.id,)
                if name == EVERY_OBSERVATION:
                    spared = set(r.unaffected)
                    everything_but = spared if everything_but is None else everything_but & spared
    all_but = tuple(sorted(everything_but)) if everything_but is not None else ()
    return Leniency(fields, play_cards, winner_accepts, all_but, offsets)
