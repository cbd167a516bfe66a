"""The 2017 reference engine: Final Card-Down (17s2) as one state machine.

One method per Game.h v1.2.1 (2017) function, in snake_case, with the C return
conventions (``None`` where C returns NULL).  Where the texts leave a behaviour
open, the engine takes the reading ``rulings.py`` marks as the reference's
(rules-17s2.md §3); the comments name the ruling (B-) or rule (S-) each line
implements.  Beyond Game.h, a few read-only queries show what the C API hides
(other hands, the piles, what the current player owes): tests and the rulings
table read them.
"""

from __future__ import annotations

from ..answers import Answer, no, yes
from ..cards import Card, Color, Deck, Value
from ..game import Outcome, Termination
from .errors import DeckError, HistoryError, IllegalMoveError, InvalidMoveError
from .header import DEALT, MIN_DECK, NO_WINNER, NOT_FINISHED, NUM_PLAYERS, Direction
from .history import TurnRecord
from .moves import SAID_COUNT, SAYS, Action, MoveSpec, PlayerMove

RIGHT_CALL_PENALTY = 2  # S17, B43: the previous player draws 2
WRONG_CALL_PENALTY = 4  # B44: reference reading (a); the grader accepts 2 or 4


def new_game(values, colors, suits) -> Game:  # noqa: ANN001 - any int sequences
    """``newGame``: a game dealt from these parallel arrays, index 0 on top."""
    return Game(Deck.from_keys(zip(values, colors, suits)))


class Game:
    """The game state.  Only ``play_move`` (and construction) changes it."""

    __slots__ = (
        "_deck", "_first", "_hands", "_draw", "_discard", "_discard_turns", "_direction", "_player",
        "_turn", "_history", "_owed_twos", "_declared", "_skip_next", "_winner", "_recycled_draws",
        "_top_survived_recycle",
    )

    def __init__(self, deck: Deck) -> None:
        if len(deck) < MIN_DECK:
            raise DeckError(f"a game needs at least {MIN_DECK} cards, got {len(deck)} (B10)")
        cards = [Card(v, c, s) for v, c, s in zip(deck.values, deck.colors, deck.suits)]
        self._deck = deck
        self._first = cards[DEALT]
        # S2: card i of the first 28 goes to player i mod 4.
        self._hands: list[list[Card]] = [cards[p:DEALT:NUM_PLAYERS] for p in range(NUM_PLAYERS)]
        # S3: card 28 starts the discard pile, card 29 is drawn first; a pile's top is its last element.
        self._discard: list[Card] = [cards[DEALT]]
        self._discard_turns: list[int] = [-1]  # the turn each discard was played in; -1: turned up
        self._draw: list[Card] = cards[:DEALT:-1]
        self._direction = Direction.CLOCKWISE  # S4
        self._player = 0
        self._turn = 0
        self._owed_twos = 0  # the unbroken chain of 2s the current player faces (B22)
        self._declared: Color | None = None
        self._skip_next = False
        self._winner = NOT_FINISHED
        self._recycled_draws: list[int] = []  # per recycle, the cards drawn from the pile it made
        self._top_survived_recycle = False
        first = self._first.value
        if first == Value.A:  # B6 (a): player 0 is skipped; player 1 holds turn 0
            self._player = 1
        elif first == Value.B:  # B7 (a): anticlockwise, player 0 still first
            self._direction = Direction.ANTICLOCKWISE
        elif first == Value.DRAW_TWO:  # B8 (a): player 0 owes 2 or stacks a 2
            self._owed_twos = 1
        # B9: a turned-up C or D (or anything else) has no effect; a D declares nothing.
        self._history: list[TurnRecord] = [TurnRecord(self._player)]

    # ---- the initial deck (S1, B11) --------------------------------------
    def destroy_game(self) -> None:
        """``destroyGame``: nothing to free in Python."""

    def num_cards(self) -> int:
        return len(self._deck)

    def num_of_suit(self, suit: int) -> int:
        return sum(1 for s in self._deck.suits if s == suit)

    def num_of_color(self, color: int) -> int:
        return sum(1 for c in self._deck.colors if c == color)

    def num_of_value(self, value: int) -> int:
        return sum(1 for v in self._deck.values if v == value)

    # ---- turns and direction -------------------------------------------------
    def current_player(self) -> int:
        return self._player

    def current_turn(self) -> int:
        return self._turn

    def player_points(self, player: int) -> int:
        """S22, B12: the sum of the values (0..15) of that hand, at any moment."""
        if not 0 <= player < NUM_PLAYERS:
            return 0  # B59: undefined in C
        return sum(int(c.value) for c in self._hands[player])

    def play_direction(self) -> Direction:
        return self._direction

    def top_discard(self) -> Card:
        return self._discard[-1]

    def num_turns(self) -> int:
        return self._turn + 1  # B60

    # ---- the history (S23, B50-B52) ----------------------------------------------
    def turn_moves(self, turn: int) -> int:
        return len(self._record(turn).moves)

    def past_move(self, turn: int, move: int) -> PlayerMove:
        moves = self._record(turn).moves
        if not 0 <= move < len(moves):
            raise HistoryError(f"turn {turn} has {len(moves)} move(s), no move {move} (B52)")
        return moves[move]

    def _record(self, turn: int) -> TurnRecord:
        if not 0 <= turn <= self._turn:
            raise HistoryError(f"no turn {turn}: turns so far are 0..{self._turn} (B52)")
        return self._history[turn]

    # ---- hands (S24) -----------------------------------------------------------
    def player_card_count(self, player: int) -> int:
        return len(self._hands[player]) if 0 <= player < NUM_PLAYERS else 0

    def hand_card_count(self) -> int:
        return len(self._hands[self._player])

    def hand_card(self, index: int) -> Card | None:
        hand = self._hands[self._player]
        return hand[index] if 0 <= index < len(hand) else None  # B59: undefined in C

    # ---- the end (S19, S21) ----------------------------------------------------
    def game_winner(self) -> int:
        return self._winner

    def outcome(self) -> Outcome | None:
        if self._winner == NOT_FINISHED:
            return None
        if self._winner == NO_WINNER:
            return Outcome(Termination.NOTHING_TO_DRAW, None)
        return Outcome(Termination.LAST_CARD, self._winner)

    # ---- read-only queries beyond Game.h -------------------------------------------
    def player_hand(self, player: int) -> tuple[Card, ...]:
        return tuple(self._hands[player])

    def draw_pile(self) -> tuple[Card, ...]:
        """The draw pile, next card drawn first."""
        return tuple(reversed(self._draw))

    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, top first."""
        return tuple(reversed(self._discard))

    def first_discard(self) -> Card:
        """Card 28, the card turned up at the start (B6-B9)."""
        return self._first

    def turn_player(self, turn: int) -> int:
        """The seat that held that turn (a skipped seat holds none, B26)."""
        return self._record(turn).seat

    def previous_player(self) -> int | None:
        """The player who held turn ``currentTurn - 1`` (§3.7); None on turn 0."""
        return self._history[-2].seat if self._turn else None

    def top_discard_turn(self) -> int:
        """The turn the top discard was played in; -1 for the card turned up at the start."""
        return self._discard_turns[-1]

    def declared_color(self) -> Color | None:
        """The colour declared with the DECLARE on top, if any (S15)."""
        return self._declared

    def current_color(self) -> Color:
        """The colour a card must share with the top: the declared one while it stands (B35, B36)."""
        return self._declared if self._declared is not None else self._discard[-1].color

    def owed_twos(self) -> int:
        """The 2s in the unbroken chain the current player faces (B22); 0 once they discard."""
        return self._owed_twos

    def owed_cards(self) -> int:
        """Cards the current player must still draw for a pending draw-two (S11, B23)."""
        if not self._owed_twos or self._this_turn().discards():
            return 0
        return max(0, 2 * self._owed_twos - self._this_turn().draws())

    def twos_on_top(self) -> int:
        """The physical run of 2s on top of the discard pile, paid or not."""
        run = 0
        for card in reversed(self._discard):
            if card.value != Value.DRAW_TWO:
                break
            run += 1
        return run

    def cards_drawn_this_turn(self) -> int:
        return self._this_turn().draws()

    def discards_this_turn(self) -> list[Card]:
        return [m.card for m in self._this_turn().discards() if m.card is not None]

    def calls_only_so_far(self) -> bool:
        """Has this turn held nothing but SAY_* moves (none at all included)?"""
        return self._this_turn().only_calls_so_far()

    def unclaimed_counts(self, turn: int) -> frozenset[int]:
        """The counts a call-out of that turn's player would be right about (B42)."""
        return self._record(turn).unclaimed_counts()

    def discard_counts(self, turn: int) -> tuple[int, ...]:
        """The hand sizes that turn's discards left its player with, in order."""
        return tuple(self._record(turn).discard_counts())

    def call_outs(self, turn: int) -> tuple[tuple[Action, bool], ...]:
        """That turn's call-outs: the word, and whether it was right (B42)."""
        return tuple(self._record(turn).call_outs)

    def recycles(self) -> int:
        """How many times the discard pile has been turned into the draw pile."""
        return len(self._recycled_draws)

    def recycled_draws(self) -> tuple[int, ...]:
        """For each recycle so far, how many cards have been drawn from the pile it made (B54)."""
        return tuple(self._recycled_draws)

    def top_survived_recycle(self) -> bool:
        return self._top_survived_recycle

    def _this_turn(self) -> TurnRecord:
        return self._history[-1]

    # ---- isValidMove (§1.4, S25) -----------------------------------------------------
    # Each answer has a ``why_`` method naming the clauses of rules-17s2.md that decided it (``reference.answers``):
    # a refusal its first failing condition, an acceptance its route, both with the context they were decided in;
    # the bool methods return the why_ method's value, so the two can never disagree.  Where a LENIENT ruling
    # refuses and its other reading would refuse too, the other reading's clause is named as well.
    def can_play(self, card: Card) -> bool:
        """Would ``card`` be a legal discard now, if it were in the hand? (S8, S9, V1, V2)"""
        return self.why_play(card).value

    def why_play(self, card: Card) -> Answer:
        """``can_play`` with the clauses that decided it."""
        if self._winner != NOT_FINISHED:
            return no("S19", "B53")  # no move at all after the end
        turn = self._this_turn()
        if turn.draws():  # B16 (a), B24 (a): a draw ends the discard option
            if self._owed_twos:  # paying for a 2; B24 (b): a 2 part-way through paying, once paid a match
                if self.owed_cards() > 0:
                    return no("B24", *(() if card.value == Value.DRAW_TWO else ("S11", "B21")))
                otherwise = self._why_match(card)
                return no("B24", *(() if otherwise.value else otherwise.clauses))
            otherwise = self._why_match(card)  # B16 (b): V1 only counts discards, the card must still match
            return no("B16", *(() if otherwise.value else otherwise.clauses))
        discards = turn.discards()
        if discards and discards[-1].card.value != Value.C:  # type: ignore[union-attr]
            # S9, B14: a further discard only straight after a CONTINUE; where this turn's last discard was the
            # one a CONTINUE allowed, S14 decided too (it allows one more discard, not more)
            more = len(discards) > 1 and discards[-2].card.value == Value.C  # type: ignore[union-attr]
            return no("S9", "B14", *(("S14",) if more else ()))
        start = self._start_context(turn, "B57", "S25")
        if self._owed_twos and not discards:  # S11: facing a 2, only a 2 (B20, B21); B25: this player owes
            if card.value == Value.DRAW_TWO:
                return yes("S11", "B20", "B25", *start)
            return no("S11", "B21", "B25", *start)
        answer = self._why_match(card).also(*start)
        if discards and card.value != Value.ZERO and (card.value == self._discard[-1].value
                                                      or card.color == self._discard[-1].color):
            answer = answer.also("S14", "B31")  # the extra discard a CONTINUE allows, matching it plainly
        return answer

    def _discard_open(self) -> bool:
        """May the current player discard at all now?"""
        if self._winner != NOT_FINISHED:
            return False  # B53
        turn = self._this_turn()
        if turn.draws():
            return False  # B16 (a), B24 (a): a draw ends the discard option
        discards = turn.discards()
        # S9, B14: a further discard only straight after a CONTINUE (B33: a claim between is fine)
        return not discards or discards[-1].card.value == Value.C  # type: ignore[union-attr]

    def _matches(self, card: Card) -> bool:
        """Is ``card`` a legal discard on the top, given that a discard is open?"""
        if self._owed_twos and not self._this_turn().discards():
            return card.value == Value.DRAW_TWO  # B20, B21
        return self._why_match(card).value

    def _why_match(self, card: Card) -> Answer:
        """Whether ``card`` matches the top discard (S8, B19), the turn and any pending 2 aside."""
        top = self._discard[-1]
        context: tuple[str, ...] = ()
        if top.value == Value.DRAW_TWO:
            context += ("B25",)  # a 2 on top that this player does not owe for: it is inert
        if card.value != Value.ZERO:
            if self._declared is not None:
                context += ("S15", "B35")  # the declared colour stands in for the DECLARE's printed one
                if self._discard_turns[-1] < self._turn - 1:
                    context += ("B36",)  # it has outlived the turn after it (draw-only turns between)
            elif len(self._discard) > 1 and self._discard[-2].value == Value.D and self._discard_turns[-2] >= 0:
                context += ("S15",)  # the top covered a DECLARE: its declaration is gone
        elif self._declared is not None:
            context += ("B35",)  # a ZERO is valid on a DECLARE, whatever was declared
        if (card.value == Value.ZERO or card.value == top.value or card.suit == top.suit
                or card.color == self.current_color()):  # B35 (a): the declared colour replaces the printed one
            return yes("S8", "B19", *context)
        return no("S8", "B19", *context)

    def _start_context(self, turn: TurnRecord, *clauses: str) -> tuple[str, ...]:
        """At the start of a turn (nothing but call-outs so far): ``clauses``, and B45 once a call-out was made."""
        if not turn.only_calls_so_far():
            return ()
        return (*clauses, *(("B45",) if turn.moves else ()))

    def can_draw(self) -> bool:
        """V3: one draw a turn, or up to what a pending draw-two is owed; none after a discard."""
        return self.why_draw().value

    def why_draw(self) -> Answer:
        """``can_draw`` with the clauses that decided it."""
        if self._winner != NOT_FINISHED:
            return no("B53")
        turn = self._this_turn()
        discards = turn.discards()
        if discards:  # B17 (a), B32 (a); their other readings (V3 only counts draws) allow it: none drawn yet
            return no("B32") if discards[-1].card.value == Value.C else no("B17")  # type: ignore[union-attr]
        start = self._start_context(turn, "B57", "S25")
        if self._owed_twos:  # B22, B23: up to 2 per 2 of the chain; B25: this player owes, from the start
            return Answer(turn.draws() < 2 * self._owed_twos,
                          ("S11", "B22", "B23", *(() if turn.draws() else ("B25",)), *start))
        inert = ("B25",) if self._discard[-1].value == Value.DRAW_TWO else ()
        if turn.draws():
            return no("S10", "B15")  # B15: a second draw, whatever is on top
        return yes("S10", "B18", *inert, *start)  # B18: holding a playable card does not matter

    def can_end_turn(self) -> bool:
        """V5: a discard or a draw this turn (calls alone are not enough), any draw-two paid."""
        return self.why_end().value

    def why_end(self) -> Answer:
        """``can_end_turn`` with the clauses that decided it."""
        if self._winner != NOT_FINISHED:
            return no("B53")
        turn = self._this_turn()
        if turn.discards():
            return yes("S6")  # B39: a claim is optional
        start = self._start_context(turn, "B57", "S25")
        owed = ("B23",) if self._owed_twos else ()
        if not turn.draws():
            return no("S6", "B13", *owed, *start)  # B13, B45 (a): calls alone are not enough
        if self._owed_twos:
            return Answer(self.owed_cards() == 0, ("S6", "B23") if self.owed_cards() == 0 else ("B23",))
        return yes("S6")

    def can_say(self, word: Action) -> bool:
        """V4: a claim right after one's own discard, or a call-out before anything else."""
        return self.why_say(word).value

    def why_say(self, word: Action) -> Answer:
        """``can_say`` with the clauses that decided it."""
        if self._winner != NOT_FINISHED:
            return no("B53", "B49")  # B49: the last discard ends the game, no word follows it
        if word not in SAID_COUNT:
            return no("S18")
        turn = self._this_turn()
        if turn.moves and turn.moves[-1].action == Action.PLAY_CARD:  # a claim (S16, B38); B39: optional
            right = len(self._hands[self._player]) == SAID_COUNT[word]
            # B33: the claim a CONTINUE's hand calls for is valid before the next discard (a wrong word is B38's)
            after_c = ("B33",) if right and turn.moves[-1].card.value == Value.C else ()  # type: ignore[union-attr]
            return Answer(right, ("S16", "B38", "B39", *after_c))
        if turn.only_calls_so_far():  # a call-out (S17, B40), valid right or wrong (B41), by this player (B47)
            facing = ("B48",) if self._owed_twos else ()
            if turn.said(word):
                return no("S17", "B40", *facing)
            first = ("B46",) if self._turn == 0 else ()  # B46 (a): on turn 0 it is wrong, and penalised
            return yes("S17", "B40", "B41", "B47", *facing, *first)
        # S18: anywhere else; B38: not a claim (after a draw, after another word); B40: nor a call-out any more
        return no("S18", "B38", *(("B40",) if turn.draws() else ()))

    def is_valid_move(self, move: PlayerMove) -> bool:
        """``isValidMove``: never changes the game (B57)."""
        return self.why_valid(move).value

    def why_valid(self, move: PlayerMove) -> Answer:
        """``is_valid_move`` with the clauses that decided it (``reference.answers``)."""
        action = move.action
        if action == Action.PLAY_CARD:
            card = move.card
            if card is None or not any(c is card for c in self._hands[self._player]):
                return no("B19")  # B19: by identity, never by look
            if card.value == Value.D and move.next_color not in _COLORS:
                return no("B37")  # B37: every DECLARE play carries a colour
            return self.why_play(card)
        if action == Action.DRAW_CARD:
            return self.why_draw()
        if action == Action.END_TURN:
            return self.why_end()
        if action in SAYS:
            return self.why_say(action)
        return no("S25")

    def legal_moves(self) -> list[PlayerMove]:
        """Every move ``is_valid_move`` accepts now; a DECLARE once per colour, one of twins."""
        moves: list[PlayerMove] = []
        if self._winner != NOT_FINISHED:
            return moves
        seen: set[tuple[int, int, int]] = set()
        for card in self._hands[self._player] if self._discard_open() else ():
            key = card.key
            if key in seen or not self._matches(card):
                continue
            seen.add(key)
            if card.value == Value.D:
                moves.extend(PlayerMove(Action.PLAY_CARD, card, colour) for colour in Color)
            else:
                moves.append(PlayerMove(Action.PLAY_CARD, card))
        if self.can_draw():
            moves.append(_DRAW)
        moves.extend(_SAY[word] for word in SAYS if self.can_say(word))
        if self.can_end_turn():
            moves.append(_END)
        return moves

    def resolve(self, spec: MoveSpec) -> PlayerMove:
        """A written move as a ``PlayerMove`` with a card from the current hand."""
        if spec.action != Action.PLAY_CARD:
            return PlayerMove(spec.action)
        for card in self._hands[self._player]:
            if card.key == spec.card_key:
                return PlayerMove(Action.PLAY_CARD, card, spec.next_color)
        raise IllegalMoveError(f"player {self._player} holds no card {spec}")

    # ---- playMove (S26) -----------------------------------------------------------
    def play_move(self, move: PlayerMove) -> None:
        """``playMove``: carry out a valid move; an invalid one raises (B58: undefined in C)."""
        if move.action not in _ACTIONS:
            raise InvalidMoveError(f"unknown action {move.action!r}")
        if move.action == Action.PLAY_CARD and move.card is None:
            raise InvalidMoveError("PLAY_CARD needs a card")
        if not self.is_valid_move(move):
            raise IllegalMoveError(f"player {self._player} may not {move} now (turn {self._turn})")
        turn = self._this_turn()
        is_call_out = move.action in SAYS and turn.only_calls_so_far()
        turn.add(move)  # §4.3: a move is recorded before its effects
        if move.action == Action.PLAY_CARD:
            self._play(move)
        elif move.action == Action.DRAW_CARD:
            self._draw_into(self._player)
        elif is_call_out:
            self._call_out(move.action)
        # a claim changes nothing but the record (S16)
        turn.settle(len(self._hands[turn.seat]))
        if move.action == Action.END_TURN:
            self._end_turn()

    def _play(self, move: PlayerMove) -> None:
        card = move.card
        assert card is not None
        hand = self._hands[self._player]
        for i, held in enumerate(hand):
            if held is card:
                del hand[i]
                break
        self._discard.append(card)  # B3: the same Card becomes topDiscard
        self._discard_turns.append(self._turn)
        self._top_survived_recycle = False
        value = card.value
        self._declared = move.next_color if value == Value.D else None  # S15, B36: until covered
        if value == Value.A:
            self._skip_next = True  # S12
        elif value == Value.B:
            self._direction = self._direction.reversed()  # S13, B29 (a): at once
        if not hand:
            self._winner = self._player  # S19, B49, B56: at once, whatever the card

    def _call_out(self, word: Action) -> None:
        """S17, B42-B44: judged on the previous turn's discards, penalising the offender or the caller."""
        previous = self._history[-2] if self._turn else None  # B46 (a): on turn 0 every call-out is wrong
        right = previous is not None and SAID_COUNT[word] in previous.unclaimed_counts()
        self._this_turn().call_outs.append((word, right))
        if previous is not None and right:
            self._penalise(previous.seat, RIGHT_CALL_PENALTY)
        else:
            self._penalise(self._player, WRONG_CALL_PENALTY)

    def _penalise(self, player: int, cards: int) -> None:
        """Penalty draws: effects, not moves (B43, B45); nothing to draw ends the game (B55)."""
        for _ in range(cards):
            if not self._draw_into(player):
                return

    def _draw_into(self, player: int) -> bool:
        """Move the next card of the draw pile into a hand; False if the game ended instead."""
        if not self._draw:
            if len(self._discard) == 1:
                self._winner = NO_WINNER  # B55 (a)
                return False
            self._recycle()
        self._hands[player].append(self._draw.pop())  # B3: the same Card
        if self._recycled_draws:
            self._recycled_draws[-1] += 1
        return True

    def _recycle(self) -> None:
        """S20, B54 (a): lazily; the top stays, the oldest discard is drawn first."""
        top, top_turn = self._discard[-1], self._discard_turns[-1]
        self._draw = self._discard[-2::-1]
        self._discard = [top]
        self._discard_turns = [top_turn]
        self._recycled_draws.append(0)
        self._top_survived_recycle = True

    def _end_turn(self) -> None:
        discards = self._this_turn().discards()
        last = discards[-1].card if discards else None
        # B22, B25: a 2 ending the turn adds to the chain (B34: only the last discard has an effect);
        # anything else -- the owed cards drawn, or no 2 at all -- leaves the next player owing nothing.
        self._owed_twos = self._owed_twos + 1 if last is not None and last.value == Value.DRAW_TWO else 0
        seats = 2 if self._skip_next else 1  # S12, B27: a skip lands two seats on
        self._player = (self._player + seats * self._direction.step) % NUM_PLAYERS  # S5, B28
        self._skip_next = False
        self._turn += 1  # S6, B26, B60: only END_TURN moves the turn on
        self._history.append(TurnRecord(self._player))

    # ---- a compact picture, for failure messages ---------------------------------
    def describe(self) -> str:
        """One line per fact, short enough to paste into a failure message."""
        declared = "" if self._declared is None else f", declared {'RBGYP'[self._declared]}"
        lines = [
            f"turn {self._turn}, player {self._player} to move, {self._direction.name.lower()}, "
            f"moves so far: {' '.join(map(str, self._this_turn().moves)) or '(none)'}",
            f"top discard {self._discard[-1]}{declared}, 2s owed {self._owed_twos}",
            f"draw pile {len(self._draw)} card(s), discard pile {len(self._discard)} card(s)",
        ]
        for p, hand in enumerate(self._hands):
            lines.append(f"player {p}: {' '.join(str(c) for c in hand) or '(empty)'}")
        return "\n".join(lines)


_COLORS = frozenset(Color)
_ACTIONS = frozenset(Action)
_DRAW = PlayerMove(Action.DRAW_CARD)
_END = PlayerMove(Action.END_TURN)
_SAY = {word: PlayerMove(word) for word in SAYS}

__all__ = ["DEALT", "MIN_DECK", "NOT_FINISHED", "NO_WINNER", "NUM_PLAYERS", "Direction", "Game", "new_game"]
