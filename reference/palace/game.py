"""The Palace reference engine: one state machine, one method per Palace.h function.

Methods are the C functions in snake_case with the C return conventions (``None`` where C returns
NULL, ``bool`` for TRUE/FALSE).  The engine follows rules-palace.md §1.4 (isValidMove) and §1.5
(playMove's order of effects), every STRICT ruling, the reference reading of every LENIENT one
(C4 twin not held: invalid; C13 empty pile: invalid; C29 value THREE; C31 (a) a starting card is just a
rank) and, for the four LENIENT (switch) rulings C9, C14, C15, C21, the reading ``Readings`` names.
Comments name the rule (P-) or ruling (C-) each line implements.

Beyond Palace.h, read-only queries show every zone (``hand``, ``face_up``, ``face_down``, ``pile``,
``draw_pile``, ``burnt``), ``legal_moves`` lists the canonical valid moves, ``snapshot`` gives every
fact as plain data for diffing, and ``resolve``/``written`` translate between written and real moves.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Iterable

from ..game import Outcome, Termination
from .cards import Card, Setup
from .errors import DeckError, IllegalMoveError, MalformedMoveError
from .header import (
    DEALT_PER_SEAT,
    HAND_DEAL,
    MAX_SET,
    NOT_FINISHED,
    RULE_MIRROR_THREE,
    RULE_SEVEN_LOWER,
    TABLE_CARDS,
    Action,
    Phase,
    Rank,
)
from .moves import MoveSpec, PlayerMove
from .readings import REFERENCE, Readings

# Where a card lies: seat * 3 + zone for a seat's zones, negative codes for the shared piles.
HAND, UP, DOWN = 0, 1, 2
DRAW, PILE, BURNT = -1, -2, -3

SETUP_PHASE, PLAY_PHASE, GAME_OVER = Phase.SETUP_PHASE, Phase.PLAY_PHASE, Phase.GAME_OVER
CHOOSE_FACE_UP, PLAY_CARDS = int(Action.CHOOSE_FACE_UP), int(Action.PLAY_CARDS)
PLAY_FACE_DOWN, PICK_UP_PILE = int(Action.PLAY_FACE_DOWN), int(Action.PICK_UP_PILE)
TWO, THREE, SEVEN, TEN = int(Rank.TWO), int(Rank.THREE), int(Rank.SEVEN), int(Rank.TEN)
BOMB_RUN = 4  # P15, C20: four of a kind
REFILL_TO = 3  # C9 (b): draw until the hand holds three

# Why a move is invalid: (message naming the clause, malformed in the sense of C40?).  0 = valid.
_WHY: dict[int, tuple[str, bool]] = {
    1: ("the game is over (C32, C42)", False),
    2: ("the action is outside the enum (§1.4, C40)", True),
    3: ("this action belongs to another phase (§1.4, C5, C40)", False),
    4: ("numCards is out of range for this action (§1.4, C40)", True),
    5: ("a card entry is NULL (C40)", True),
    6: ("the same card is named twice (C40)", True),
    7: ("a card is not in the mover's current zone (C4, C16, C40)", False),
    8: ("a face-up set of two or more under the C15 'singles' reading", False),
    9: ("the cards are of different ranks (P7, C40)", False),
    10: ("the rank cannot be played on the pile (P6, C8, C22-C30)", False),
    11: ("face-down cards only once hand and face-up row are empty (P12, C16)", False),
    12: ("the face-down position is out of range (§1.4, C40)", False),
    13: ("the pile is empty: nothing to take (C13 reading (a))", False),
    14: ("no pick-up in the face-down stage under the C14 'not' reading", False),
}


def new_game(n_players: int, n_cards: int, ranks: Iterable[int], suits: Iterable[int], rules: int,
             readings: Readings = REFERENCE) -> Game:
    """``newGame(nPlayers, nCards, ranks, suits, rules)``: reads the first nCards entries (C7 outside the contract)."""
    r, s = list(ranks)[:n_cards], list(suits)[:n_cards]
    if len(r) != n_cards or len(s) != n_cards:
        raise DeckError(f"nCards={n_cards} but the arrays hold {len(r)} ranks and {len(s)} suits (C7)")
    return Game(Setup.from_arrays(n_players, r, s, rules), readings=readings)


class Game:
    """The game state.  Only ``play_move`` (and construction) changes it."""

    __slots__ = (
        "_setup", "_readings", "_n", "_rules", "_mirror", "_seven", "_draw_reading", "_pickup_blind",
        "_up_sets", "_start_counts", "_cards", "_loc", "_hands", "_up", "_down", "_draw", "_pile", "_eff",
        "_restricts", "_start_on_pile", "_burnt", "_phase", "_player", "_turn", "_winner",
    )

    def __init__(self, setup: Setup, readings: Readings = REFERENCE) -> None:
        if not isinstance(setup, Setup):
            raise TypeError("Game(setup): a reference.palace.Setup (Setup.parse or Setup.from_arrays)")
        if not isinstance(readings, Readings):
            raise TypeError("readings: a reference.palace.Readings")
        self._setup = setup
        self._readings = readings
        n = self._n = setup.n_players
        self._rules = setup.rules
        self._mirror = bool(setup.rules & RULE_MIRROR_THREE)  # P18, P20
        self._seven = bool(setup.rules & RULE_SEVEN_LOWER)  # P19, P20
        self._draw_reading = readings.draw  # C9
        self._pickup_blind = readings.face_down_pickup == "allowed"  # C14
        self._up_sets = readings.face_up_sets == "allowed"  # C15
        self._start_counts = readings.start_card_run == "counts"  # C21
        cards = setup.cards()  # C4: one Card per entry, index 0 the top of the deck; never shuffled (C2)
        self._cards: tuple[Card, ...] = tuple(cards)
        dealt, table = HAND_DEAL * n, DEALT_PER_SEAT * n
        self._hands: list[list[Card]] = [cards[s:dealt:n] for s in range(n)]  # C2: card i to seat i mod N
        self._up: list[list[Card]] = [[] for _ in range(n)]  # P3: empty until the seat chooses (C5)
        self._down: list[list[Card]] = [cards[dealt + s:table:n] for s in range(n)]  # C2: position j = 6N+jN+s
        start = cards[table]
        self._pile: list[Card] = [start]  # P4, C2: card 9N starts the pile; the top is the last element
        self._eff: list[int] = [int(start.rank)]  # effective rank of each pile card (C29); C31 (a): just a rank
        self._restricts: list[bool] = [False]  # does this pile card impose the seven's bound? C31 (a): no
        self._start_on_pile = True  # until the first clearing (C21)
        self._draw: list[Card] = cards[:table:-1]  # C2: reversed, so pop() gives card 9N+1 first
        self._burnt: list[Card] = []
        self._loc: list[int] = [DRAW] * len(cards)
        for s in range(n):
            for c in self._hands[s]:
                self._loc[c.ident] = 3 * s + HAND
            for c in self._down[s]:
                self._loc[c.ident] = 3 * s + DOWN
        self._loc[start.ident] = PILE
        self._phase = SETUP_PHASE  # §1.3: SETUP_PHASE, seat 0, turn 0
        self._player = 0  # C1: seat 0 sits left of the dealer (seat N-1)
        self._turn = 0
        self._winner = NOT_FINISHED

    def copy(self) -> Game:
        """An independent game in the same state (the cards are shared: they never change)."""
        g = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(g, name, getattr(self, name))
        g._loc = list(self._loc)
        g._hands = [list(h) for h in self._hands]
        g._up = [list(u) for u in self._up]
        g._down = [list(d) for d in self._down]
        g._draw = list(self._draw)
        g._pile = list(self._pile)
        g._eff = list(self._eff)
        g._restricts = list(self._restricts)
        g._burnt = list(self._burnt)
        return g

    # ---- lifecycle and constants ---------------------------------------------------------
    def destroy_game(self) -> None:
        """``destroyGame``: nothing to free in Python."""

    @property
    def setup(self) -> Setup:
        return self._setup

    @property
    def readings(self) -> Readings:
        return self._readings

    def num_players(self) -> int:
        return self._n

    def num_cards(self) -> int:
        return len(self._cards)  # the initial deck size, constant

    def game_rules(self) -> int:
        return self._rules

    # ---- phase and turn --------------------------------------------------------------------
    def current_phase(self) -> Phase:
        return self._phase

    def current_player(self) -> int:
        return self._player  # C42: after GAME_OVER the winner (LENIENT)

    def current_turn(self) -> int:
        return self._turn  # C6: accepted moves so far

    # ---- hands and rows ---------------------------------------------------------------------
    def hand_card_count(self) -> int:
        return len(self._hands[self._player])

    def hand_card(self, n: int) -> Card | None:
        return _at(self._hands[self._player], n)  # C43

    def player_card_count(self, player: int) -> int:
        return len(self._hands[player]) if self._seat_ok(player) else 0

    def face_up_count(self, player: int) -> int:
        return len(self._up[player]) if self._seat_ok(player) else 0

    def face_up_card(self, player: int, n: int) -> Card | None:
        return _at(self._up[player], n) if self._seat_ok(player) else None  # P11: public

    def face_down_count(self, player: int) -> int:
        return len(self._down[player]) if self._seat_ok(player) else 0

    # ---- piles ----------------------------------------------------------------------------------
    def draw_pile_size(self) -> int:
        return len(self._draw)  # C11: never increases

    def discard_pile_size(self) -> int:
        return len(self._pile)

    def top_discard(self) -> Card | None:
        return self._pile[-1] if self._pile else None

    def get_discard_pile_card(self, n: int) -> Card | None:
        """n = 0 is the top (§1.3); NULL out of range (C43)."""
        return self._pile[-1 - n] if 0 <= n < len(self._pile) else None

    def burnt_count(self) -> int:
        return len(self._burnt)

    def get_burnt_card(self, n: int) -> Card | None:
        """In the order the cards were burnt, each pile bottom first (C37 leaves the order free)."""
        return _at(self._burnt, n)

    def effective_top_rank(self) -> int:
        """0 on an empty pile; else the top's rank, a mirror three standing for what it copies (C29)."""
        return self._eff[-1] if self._eff else 0

    def seven_restriction(self) -> bool:
        """P19, C26-C28: the top is a played seven (or a mirror three copying one) under RULE_SEVEN_LOWER.

        C31 (a): a turned starting seven imposes nothing, nor do threes copying it.
        """
        return bool(self._restricts) and self._restricts[-1]

    # ---- runner and test functions (C44) ---------------------------------------------------------
    def game_winner(self) -> int:
        return self._winner  # C32: the seat that went out, forever

    def get_hand_card(self, player: int, n: int) -> Card | None:
        return _at(self._hands[player], n) if self._seat_ok(player) else None

    def get_face_down_card(self, player: int, n: int) -> Card | None:
        return _at(self._down[player], n) if self._seat_ok(player) else None  # C38: positions as PLAY_FACE_DOWN

    def get_deck_card(self, n: int) -> Card | None:
        """n = 0 is the next card drawn (C2)."""
        return self._draw[-1 - n] if 0 <= n < len(self._draw) else None

    def outcome(self) -> Outcome | None:
        """How the game ended (C32: the first seat out wins), None while it goes on (C34)."""
        if self._winner == NOT_FINISHED:
            return None
        return Outcome(Termination.LAST_CARD, self._winner)

    # ---- isValidMove (§1.4) -------------------------------------------------------------------
    def is_valid_move(self, move: PlayerMove) -> bool:
        """``isValidMove``: never changes the game (C46), never fails on a malformed move (C40)."""
        return self._check(move) == 0

    def why_invalid(self, move: PlayerMove) -> str | None:
        """None for a valid move, else the reason with the clause it comes from."""
        code = self._check(move)
        return _WHY[code][0] if code else None

    def _check(self, move: PlayerMove) -> int:
        if self._phase == GAME_OVER:
            return 1  # §1.4.1, C32, C42
        action = getattr(move, "action", None)
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action <= PICK_UP_PILE:
            return 2  # §1.4.1, C40
        seat = self._player
        if action == CHOOSE_FACE_UP:  # §1.4.2, C5
            if self._phase != SETUP_PHASE:
                return 3
            if _count(move) != TABLE_CARDS:
                return 4
            return self._held(move.entries(), 3 * seat + HAND)
        if self._phase != PLAY_PHASE:
            return 3  # C40: a move of the wrong phase
        if action == PLAY_CARDS:  # §1.4.3
            n = _count(move)
            if not 1 <= n <= MAX_SET:
                return 4
            entries = move.entries()
            from_hand = bool(self._hands[seat])  # C16: the hand while it has cards, else the face-up row
            why = self._held(entries, 3 * seat + (HAND if from_hand else UP))
            if why:
                return why
            if not from_hand and n > 1 and not self._up_sets:
                return 8  # C15 (b)
            rank = entries[0].rank  # type: ignore[union-attr]
            if any(c.rank != rank for c in entries):  # type: ignore[union-attr]
                return 9  # P7
            return 0 if self._playable(rank) else 10
        if action == PLAY_FACE_DOWN:  # §1.4.4, C17: the hidden rank plays no part
            if self._hands[seat] or self._up[seat]:
                return 11  # P12, C16
            index = move.face_down_index
            if type(index) is not int or not 0 <= index < len(self._down[seat]):
                return 12
            return 0
        # PICK_UP_PILE, §1.4.5
        if not self._pile:
            return 13  # C13 (a)
        if not self._pickup_blind and not self._hands[seat] and not self._up[seat]:
            return 14  # C14 (b)
        return 0  # P9, C36: allowed with playable cards too

    def _held(self, entries: tuple[Card | None, ...], zone: int) -> int:
        """0 if the entries are distinct cards of this game, all at ``zone``; else the reason (C4, C40)."""
        seen: set[int] = set()
        cards, loc = self._cards, self._loc
        for c in entries:
            if not isinstance(c, Card):
                return 5
            ident = c.ident
            if ident in seen:
                return 6
            seen.add(ident)
            if not (0 <= ident < len(cards)) or cards[ident].key != c.key or loc[ident] != zone:
                return 7  # C4: by identity; a twin or a card made elsewhere is not held
        return 0

    def _playable(self, rank: int) -> bool:
        """Playability of a rank (§1.4)."""
        if not self._pile:
            return True  # C23: anything leads on an empty pile
        if self._restricts[-1]:
            return rank <= SEVEN  # C26, C28: TWO..SEVEN only; never TEN, never EIGHT..ACE
        if rank == TWO or rank == TEN or (rank == THREE and self._mirror):
            return True  # P17/C25, P16/C22, P18/C29
        return rank >= self._eff[-1]  # P6, C3, C8: equal is enough

    def can_play_rank(self, rank: int) -> bool:
        """Would a card of this rank be playable on the pile now (ignoring whose it is)?"""
        return self._phase == PLAY_PHASE and self._playable(rank)

    # ---- playMove (§1.5) --------------------------------------------------------------------------
    def play_move(self, move: PlayerMove) -> None:
        """``playMove``: make a valid move for the current seat; an invalid one raises (C41: undefined in C)."""
        code = self._check(move)
        if code:
            message, malformed = _WHY[code]
            error = MalformedMoveError if malformed else IllegalMoveError
            raise error(f"seat {self._player} may not {move} at turn {self._turn}: {message}")
        seat = self._player
        action = move.action
        if action == CHOOSE_FACE_UP:
            self._choose(seat, move.entries())  # type: ignore[arg-type]
        elif action == PLAY_CARDS:
            self._play_cards(seat, move.entries())  # type: ignore[arg-type]
        elif action == PLAY_FACE_DOWN:
            self._play_face_down(seat, move.face_down_index)
        else:
            self._take_pile(seat)  # P9, C12
            self._player = (seat + 1) % self._n  # C12: no extra play after a pick-up
        self._turn += 1  # C6: every accepted move

    def _choose(self, seat: int, cards: tuple[Card, ...]) -> None:
        """P3, C5: three hand cards to the face-up row; the next seat chooses; after seat N-1 play begins."""
        ids = {c.ident for c in cards}
        hand = self._hands[seat]
        self._hands[seat] = [c for c in hand if c.ident not in ids]
        mine = [self._cards[c.ident] for c in cards]
        self._up[seat].extend(mine)
        for c in mine:
            self._loc[c.ident] = 3 * seat + UP
        if seat == self._n - 1:
            self._phase = PLAY_PHASE  # C5, C6: play starts at turn N with seat 0
            self._player = 0
        else:
            self._player = seat + 1  # C1

    def _play_cards(self, seat: int, cards: tuple[Card, ...]) -> None:
        hand = self._hands[seat]
        from_hand = bool(hand)  # C16
        ids = {c.ident for c in cards}
        if from_hand:
            self._hands[seat] = hand = [c for c in hand if c.ident not in ids]
        else:
            self._up[seat] = [c for c in self._up[seat] if c.ident not in ids]
        for c in cards:
            self._push(self._cards[c.ident])  # P7; C37: the set's order as given
        if from_hand and self._draw:
            self._draw_after(seat, hand, len(cards))  # P8, C9, C10: before any bomb's free play
        self._settle(seat)

    def _draw_after(self, seat: int, hand: list[Card], played: int) -> None:
        """C9: reading (a) one card, (b) up to three in hand, (c) one per card played; C11: no recycling."""
        if self._draw_reading == "one":
            wanted = 1
        elif self._draw_reading == "refill":
            wanted = max(0, REFILL_TO - len(hand))
        else:
            wanted = played
        code = 3 * seat + HAND
        for _ in range(min(wanted, len(self._draw))):
            card = self._draw.pop()  # C4: the pointer that was getDeckCard(0)
            hand.append(card)
            self._loc[card.ident] = code

    def _play_face_down(self, seat: int, index: int) -> None:
        card = self._down[seat].pop(index)  # C38: later positions move down by one
        if self._playable(card.rank):
            self._push(card)  # C19: a one-card play with every effect; no draw (the draw pile is empty)
            self._settle(seat)
            return
        # C18: the turned card and the whole pile go into the hand; it never lands on the pile as a play
        self._take_pile(seat)
        self._hands[seat].append(card)
        self._loc[card.ident] = 3 * seat + HAND
        self._player = (seat + 1) % self._n

    def _push(self, card: Card) -> None:
        """Put a card on the pile with its effective rank (C29) and whether it imposes the seven's bound."""
        self._loc[card.ident] = PILE
        rank = int(card.rank)
        if self._mirror and rank == THREE and self._pile:
            self._eff.append(self._eff[-1])  # P18, C29: a copy of the card below, restriction included
            self._restricts.append(self._restricts[-1])
        else:
            self._eff.append(rank)  # C29: a three on an empty pile is a plain THREE
            self._restricts.append(self._seven and rank == SEVEN)  # P19, C26, C27: renewed by a seven
        self._pile.append(card)

    def _settle(self, seat: int) -> None:
        """§1.5 after a play: going out ends the game; else a bomb burns the pile and the seat plays again."""
        if not self._hands[seat] and not self._up[seat] and not self._down[seat]:
            self._winner = seat  # P14, C32: at once, even with a bomb or a two (no free play)
            self._phase = GAME_OVER
            return
        if self._pile[-1].rank == TEN or self._run() >= BOMB_RUN:
            self._burn()  # P15, P16, C20, C22, C47: resolved inside the move
            return  # C23: the same seat moves again
        self._player = (seat + 1) % self._n  # P5, C1; C24 (a): a two passes the turn too

    def _run(self) -> int:
        """How many cards on top share the top's effective rank (C20, C30), the start card per C21."""
        eff = self._eff
        top = eff[-1]
        k = 0
        for r in reversed(eff):
            if r != top:
                break
            k += 1
        if k == len(eff) and self._start_on_pile and not self._start_counts:
            k -= 1  # C21 (b): the turned starting card was not played
        return k

    def _burn(self) -> None:
        for c in self._pile:
            self._loc[c.ident] = BURNT
        self._burnt.extend(self._pile)  # burnt cards never return (C11)
        self._clear_pile()

    def _take_pile(self, seat: int) -> None:
        """Every pile card into the hand, bottom first (C12, C37)."""
        code = 3 * seat + HAND
        for c in self._pile:
            self._loc[c.ident] = code
        self._hands[seat].extend(self._pile)
        self._clear_pile()

    def _clear_pile(self) -> None:
        self._pile = []
        self._eff = []
        self._restricts = []  # C27: an empty pile ends the seven's bound
        self._start_on_pile = False

    # ---- moves: canonical list, written form --------------------------------------------------------
    def legal_moves(self) -> list[PlayerMove]:
        """Every kind of valid move, canonically.

        Setup: every 3-subset of the hand, by identity.  Play: per playable rank of the current zone, one
        set per size 1..available (sizes above 1 from the face-up row only under C15 (a)), each taking
        that rank's lowest deck indexes; then every face-down position; then PICK_UP_PILE when valid.
        """
        seat = self._player
        if self._phase == GAME_OVER:
            return []
        if self._phase == SETUP_PHASE:
            hand = sorted(self._hands[seat], key=_ident)
            return [PlayerMove(Action.CHOOSE_FACE_UP, trio) for trio in combinations(hand, TABLE_CARDS)]
        moves: list[PlayerMove] = []
        zone = self._hands[seat] or self._up[seat]
        if zone:
            by_rank: dict[int, list[Card]] = {}
            for c in zone:
                by_rank.setdefault(int(c.rank), []).append(c)
            sets = self._up_sets or zone is self._hands[seat]
            for rank in sorted(by_rank):
                if not self._playable(rank):
                    continue
                same = sorted(by_rank[rank], key=_ident)
                for k in range(1, min(len(same), MAX_SET) + 1 if sets else 2):
                    moves.append(PlayerMove(Action.PLAY_CARDS, tuple(same[:k])))
        else:
            moves.extend(PlayerMove(Action.PLAY_FACE_DOWN, (), i) for i in range(len(self._down[seat])))
        if self._check(_PICK_UP) == 0:
            moves.append(_PICK_UP)
        return moves

    def resolve(self, spec: MoveSpec | str) -> PlayerMove:
        """A written move as a ``PlayerMove`` of this game (see ``moves``); raises IllegalMoveError if a card
        cannot be found."""
        if isinstance(spec, str):
            spec = MoveSpec.parse(spec)
        if spec.action == Action.PICK_UP_PILE:
            return _PICK_UP
        if spec.action == Action.PLAY_FACE_DOWN:
            return PlayerMove(Action.PLAY_FACE_DOWN, (), spec.face_down_index)
        seat = self._player
        zone = self._hands[seat] if spec.action == Action.CHOOSE_FACE_UP or self._hands[seat] else self._up[seat]
        taken = {r.ident for r in spec.cards if r.ident is not None}
        out: list[Card] = []
        for ref in spec.cards:
            if ref.ident is not None:
                if not 0 <= ref.ident < len(self._cards) or self._cards[ref.ident].key != (ref.rank, ref.suit):
                    raise IllegalMoveError(f"this game has no card {ref}")
                out.append(self._cards[ref.ident])
                continue
            found = [c for c in zone if c.key == (ref.rank, ref.suit) and c.ident not in taken]
            if not found:
                raise IllegalMoveError(f"seat {seat} has no (further) {ref} in its current zone")
            card = min(found, key=_ident)
            taken.add(card.ident)
            out.append(card)
        return PlayerMove(spec.action, tuple(out))

    def written(self, move: PlayerMove) -> MoveSpec:
        """The shortest written form that resolves to this move now: identities only where needed."""
        spec = move.spec(explicit=True)
        refs = list(spec.cards)
        for i, ref in enumerate(refs):
            trial = refs[:i] + [ref._replace(ident=None)] + refs[i + 1:]
            try:
                same = self.resolve(MoveSpec(spec.action, tuple(trial))).cards == move.cards
            except IllegalMoveError:
                same = False
            if same:
                refs = trial
        return MoveSpec(spec.action, tuple(refs), spec.face_down_index)

    # ---- read-only queries beyond Palace.h ------------------------------------------------------
    def card(self, ident: int) -> Card:
        """The game's card with that deck index."""
        return self._cards[ident]

    def stage(self, seat: int) -> str:
        """``hand``, ``face_up``, ``face_down`` or ``out`` (§1.2 "stage", derived, never stored)."""
        if self._hands[seat]:
            return "hand"
        if self._up[seat]:
            return "face_up"
        return "face_down" if self._down[seat] else "out"

    def hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._hands[seat])

    def face_up(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._up[seat])

    def face_down(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._down[seat])

    def pile(self) -> tuple[Card, ...]:
        """The pile, top first."""
        return tuple(reversed(self._pile))

    def draw_pile(self) -> tuple[Card, ...]:
        """The draw pile, next card drawn first."""
        return tuple(reversed(self._draw))

    def burnt(self) -> tuple[Card, ...]:
        return tuple(self._burnt)

    def run_on_top(self) -> int:
        """Cards on top that count toward four of a kind now (C20, C21, C30); 0 on an empty pile."""
        return self._run() if self._pile else 0

    def start_card_on_pile(self) -> bool:
        """Is the turned starting card still at the bottom of the pile (no clearing yet)?"""
        return self._start_on_pile

    def start_card_in_run(self) -> bool:
        """Is the starting card still on the pile with every card above it of its effective rank (where the
        readings of C21 can differ)?"""
        return self._start_on_pile and all(r == self._eff[-1] for r in self._eff)

    def location(self, card: Card) -> tuple[str, int | None]:
        """Where a card of this game lies: (``hand``/``face_up``/``face_down``, seat) or (pile name, None)."""
        code = self._loc[card.ident]
        if code >= 0:
            return (("hand", "face_up", "face_down")[code % 3], code // 3)
        return ({DRAW: "draw_pile", PILE: "pile", BURNT: "burnt"}[code], None)

    def snapshot(self) -> dict[str, Any]:
        """Every public and test-visible fact as plain data (card idents; piles top first; §4.2)."""
        return {
            "phase": int(self._phase),
            "current_player": self._player,
            "current_turn": self._turn,
            "winner": self._winner,
            "effective_top_rank": self.effective_top_rank(),
            "seven_restriction": self.seven_restriction(),
            "hands": tuple(tuple(c.ident for c in h) for h in self._hands),
            "face_up": tuple(tuple(c.ident for c in u) for u in self._up),
            "face_down": tuple(tuple(c.ident for c in d) for d in self._down),
            "pile": tuple(c.ident for c in reversed(self._pile)),
            "draw_pile": tuple(c.ident for c in reversed(self._draw)),
            "burnt": tuple(c.ident for c in self._burnt),
        }

    def describe(self) -> str:
        """One line per fact, for failure messages."""
        eff = self.effective_top_rank()
        lines = [
            f"{self._setup.n_players}p rules {self._rules} readings [{self._readings}]; "
            f"{self._phase.name}, turn {self._turn}, seat {self._player} to move, winner {self._winner}",
            f"pile (top first) {_names(self.pile()) or '(empty)'}; effective top {eff}"
            f"{', seven restriction' if self.seven_restriction() else ''}",
            f"draw pile {_names(self.draw_pile()) or '(empty)'}; burnt {len(self._burnt)}",
        ]
        for s in range(self._n):
            lines.append(f"seat {s}: hand {_names(self._hands[s]) or '-'} | up {_names(self._up[s]) or '-'} "
                         f"| down {_names(self._down[s]) or '-'}")
        return "\n".join(lines)

    def _seat_ok(self, seat: int) -> bool:
        return 0 <= seat < self._n  # a bad seat is a precondition violation in C (§1.3); here 0 / None


def _at(cards: list[Card], n: int) -> Card | None:
    return cards[n] if 0 <= n < len(cards) else None  # C43: NULL for n < 0 and n >= size


def _count(move: PlayerMove) -> int:
    """numCards, or -1 when it is not an int at all (C40: junk is FALSE, never a crash)."""
    n = move.count
    return n if isinstance(n, int) and not isinstance(n, bool) else -1


def _ident(card: Card) -> int:
    return card.ident


def _names(cards: Iterable[Card]) -> str:
    return " ".join(repr(c) for c in cards)


_PICK_UP = PlayerMove(Action.PICK_UP_PILE)

__all__ = ["Game", "new_game"]
