"""Observations of a 2017 game: everything its Game.h lets a tester see, as plain data.

The family's observer (``grader.games.fcd.sandbox.observe``) over the 2017
table (``grader.games.fcd17s2.sandbox.observations``): one ``Observer`` looks at the
reference ``Game`` and at a student's library alike (the same snake_case
methods), reads hands by their counts, tells ``trace`` of every call before it
makes it (so a crash or a hang is pinned on it), and can leave a probe out
(``skip``).  Cards are ``[value, colour, suit, ident]`` with identities 1, 2, ...
in the order first met; a move of the history is written in the notation
(``5RH``, ``DRH/B``, ``uno``, ``end``).
"""

from __future__ import annotations

from typing import Callable, Sequence, SupportsInt, cast

from grader.games.fcd.sandbox import observe as family
from grader.games.fcd.sandbox.notation import COLOR_LETTERS, WORD_OF_ACTION, D, PlayerMove, actions
from grader.games.fcd.sandbox.observe import (
    DESTROY_GAME,
    FIND_CARD,
    MISSING,
    NEW_GAME,
    PLAY_MOVE,
    SKIPPED,
    CardLike,
    MadeMove,
    Obs,
    Trace,
    card_label,
)
from grader.games.fcd17s2.sandbox.interface import API, API_FUNCTIONS
from grader.games.fcd17s2.sandbox.observations import ORDER

__all__ = ["Observer", "describe_call", "probe_name", "PROBE_IDS", "CALL_IDS", "NEW_GAME", "PLAY_MOVE",
           "DESTROY_GAME", "FIND_CARD"]

Action = actions(API)  # DRAW_CARD, PLAY_CARD, SAY_UNO, SAY_DUO, SAY_TRIO, END_TURN: Game.h's
SAYS = (Action.SAY_UNO, Action.SAY_DUO, Action.SAY_TRIO)
WORDS = {a: WORD_OF_ACTION[a.name] for a in Action if a.name in WORD_OF_ACTION}  # draw, uno, duo, trio, end
PROBE_IDS = {name: i for i, name in enumerate(ORDER)}
CALL_IDS = {name: i for i, name in enumerate(API_FUNCTIONS)}
MOVES_CAP = 4000  # no legal turn holds more moves (the draws of a long run of 2s included)
SAY_LABELS = {WORDS[w]: w for w in SAYS}  # "uno" -> SAY_UNO ...
INT_PROBES = (("winner", "gameWinner", "game_winner"), ("current_player", "currentPlayer", "current_player"),
              ("current_turn", "currentTurn", "current_turn"), ("num_turns", "numTurns", "num_turns"),
              ("play_direction", "playDirection", "play_direction"))
DECK_COUNT_PROBES = (("num_cards", "numCards", "num_cards", 0), ("num_of_suit", "numOfSuit", "num_of_suit", 5),
                     ("num_of_color", "numOfColor", "num_of_color", 5),
                     ("num_of_value", "numOfValue", "num_of_value", 16))


def _no_trace(_probe: int, _call: int, _a: int, _b: int) -> None:
    return None


def move_label(action: int, card: CardLike | None, next_color: SupportsInt | None) -> str:
    """A move of the history in the notation; what no move is, in angle brackets."""
    if action != Action.PLAY_CARD:
        try:
            return WORDS[Action(action)]
        except ValueError:
            return f"<action {action}>"[:24]
    if card is None:
        return "<no card>"
    label = card_label((card.value, card.color, card.suit))[:24]
    if int(card.value) == D:
        colour = int(next_color) if next_color is not None else -1
        label += "/" + (COLOR_LETTERS[colour] if 0 <= colour < 5 else "?")
    return label


class Observer(family.Observer):
    """Observes one 2017 game, step after step; ``trace`` hears of every call before it is made.  The card
    identities (``_cd``) and the caps are the family's; the probes are 2017's."""

    probe_ids = PROBE_IDS
    call_ids = CALL_IDS
    int_probes = INT_PROBES
    deck_count_probes = DECK_COUNT_PROBES
    pile_probes = ()  # 2017 shows no piles
    player_move = PlayerMove
    actions = Action

    def __init__(self, game: object, deck_size: int, *, ident: Callable[[CardLike], int] | None = None,
                 skip: frozenset[str] = frozenset(), trace: Trace = _no_trace) -> None:
        super().__init__(game, deck_size, ident=ident, skip=skip, trace=trace)
        self._first_cards: dict[int, CardLike] = {}  # player -> card 0 of their hand, the last time they were current

    def _call(self, probe: str, cname: str, method: str, *args: int) -> int | str:
        """An int query's answer (an enum is an int: ``playDirection``), or MISSING."""
        fn = getattr(self.game, method, None)
        if fn is None:
            return MISSING
        self.trace(PROBE_IDS[probe], CALL_IDS[cname], args[0] if args else 0, args[1] if len(args) > 1 else 0)
        return fn(*args)

    def _upto(self, value: object, cap: int) -> int:
        """A count the submission gave, as a number of reads we are willing to make."""
        return max(0, min(value, cap)) if isinstance(value, int) else 0

    def deck_counts(self) -> Obs:
        """B11: counts over the initial deck; observed once, after newGame."""
        out: Obs = {}
        for name, cname, method, n in DECK_COUNT_PROBES:
            if name in self.skip:
                out[name] = SKIPPED
            elif n == 0:
                got = self._call(name, cname, method)
                out[name] = got if got == MISSING else int(got)
            else:
                answers = [self._call(name, cname, method, i) for i in range(n)]
                out[name] = [g if g == MISSING else int(g) for g in answers]
        return out

    def observe(self, _depths: Sequence[int] | None = None) -> Obs:
        """Every observation of the game as it stands (2017 shows no piles: ``_depths`` is unused)."""
        g, skip = self.game, self.skip
        obs: Obs = {}
        for name, cname, method in INT_PROBES:
            got = SKIPPED if name in skip else self._call(name, cname, method)
            obs[name] = got if got in (MISSING, SKIPPED) else int(got)
        turn = obs["current_turn"]
        if "turn_moves" in skip or not isinstance(turn, int):
            obs["turn_moves"] = SKIPPED if "turn_moves" in skip or turn == SKIPPED else MISSING
        else:
            got = self._call("turn_moves", "turnMoves", "turn_moves", turn)
            obs["turn_moves"] = got if got == MISSING else int(got)
        history = obs["past_moves"] = self._history(turn, obs["turn_moves"])
        obs["declarations"] = history if not isinstance(history, list) else [
            [m for m in moves if m[0] == "D" and "/" in m] for moves in history]

        if "top_discard" in skip:
            obs["top_discard"] = SKIPPED
        elif hasattr(g, "top_discard"):
            self.trace(PROBE_IDS["top_discard"], CALL_IDS["topDiscard"], 0, 0)
            top = g.top_discard()
            obs["top_discard"] = None if top is None else self._cd(top)
        else:
            obs["top_discard"] = MISSING

        count = SKIPPED if "hand_card_count" in skip else self._call("hand_card_count", "handCardCount",
                                                                      "hand_card_count")
        count = count if count in (MISSING, SKIPPED) else int(count)
        obs["hand_card_count"] = count
        hand: list[CardLike | None] = []
        if "hand" in skip or count == SKIPPED:
            obs["hand"] = SKIPPED
        elif not hasattr(g, "hand_card") or count == MISSING:
            obs["hand"] = MISSING
        else:
            for i in range(self._upto(count, self.cap)):
                self.trace(PROBE_IDS["hand"], CALL_IDS["handCard"], i, cast(int, count))  # neither word: an int
                hand.append(g.hand_card(i))
            obs["hand"] = [self._cd(c) for c in hand]
        for name, cname, method in (("card_counts", "playerCardCount", "player_card_count"),
                                    ("points", "playerPoints", "player_points")):
            answers = [SKIPPED] * 4 if name in skip else [self._call(name, cname, method, p) for p in range(4)]
            obs[name] = [v if v in (MISSING, SKIPPED) else int(v) for v in answers]
        me = obs["current_player"]
        if isinstance(me, int) and hand and hand[0] is not None:
            self._first_cards[me] = hand[0]
        obs.update(self.validity(hand, obs["hand"], me))
        return obs

    def _history(self, turn: object, moves_now: object) -> list[list[str]] | str:
        """The previous turn's moves and the current turn's, through turnMoves and pastMove."""
        g = self.game
        if "past_moves" in self.skip or not isinstance(turn, int) or moves_now == SKIPPED:
            return SKIPPED
        if not hasattr(g, "past_move") or moves_now == MISSING or not hasattr(g, "turn_moves"):
            return MISSING
        turns: list[list[str]] = []
        for t, n in ((turn - 1, None), (turn, moves_now)):
            if t < 0:
                turns.append([])
                continue
            if n is None:
                n = int(self._call("past_moves", "turnMoves", "turn_moves", t))
            moves = []
            for i in range(self._upto(n, MOVES_CAP)):
                self.trace(PROBE_IDS["past_moves"], CALL_IDS["pastMove"], t, i)
                m = g.past_move(t, i)
                card = m.card if int(m.action) == Action.PLAY_CARD else None
                moves.append(move_label(int(m.action), card, m.next_color))
            turns.append(moves)
        return turns

    def validity(self, hand: list[CardLike | None], hand_obs: object, me: object) -> Obs:
        """isValidMove for a battery of candidates: every card in hand (a DECLARE with every colour), the
        first card of each other hand as last seen, DRAW_CARD, the three words and END_TURN."""
        g, skip = self.game, self.skip
        if not hasattr(g, "is_valid_move"):
            return {name: MISSING for name in ("valid_play", "valid_foreign", "valid_draw", "valid_say", "valid_end")}
        out: Obs = {}
        call = CALL_IDS["isValidMove"]
        out["valid_play"] = self.play_battery(hand, hand_obs)
        if "valid_foreign" in skip or not isinstance(me, int):
            out["valid_foreign"] = SKIPPED
        else:
            own = {card_label((c.value, c.color, c.suit)) for c in hand if c is not None}
            foreign: dict[str, bool] = {}
            for p, card in sorted(self._first_cards.items()):
                if p == me or card_label((card.value, card.color, card.suit)) in own:
                    continue
                for move, label in play_moves(card):
                    self.trace(PROBE_IDS["valid_foreign"], call, 100 + p, int(move.next_color or 0))
                    foreign.setdefault(label, bool(g.is_valid_move(move)))
            out["valid_foreign"] = foreign
        for name, action in (("valid_draw", Action.DRAW_CARD), ("valid_end", Action.END_TURN)):
            if name in skip:
                out[name] = SKIPPED
            else:
                self.trace(PROBE_IDS[name], call, -1 - int(action), 0)
                out[name] = bool(g.is_valid_move(PlayerMove(action)))
        if "valid_say" in skip:
            out["valid_say"] = SKIPPED
        else:
            says: dict[str, bool] = {}
            for label, word in SAY_LABELS.items():
                self.trace(PROBE_IDS["valid_say"], call, -1 - int(word), 0)
                says[label] = bool(g.is_valid_move(PlayerMove(word)))
            out["valid_say"] = says
        return out


def play_moves(card: CardLike) -> list[tuple[MadeMove, str]]:
    """The PLAY_CARD moves for one card, with their notation; a DECLARE once per colour."""
    return family.play_moves(card, PlayerMove, Action.PLAY_CARD)


ACTION_WORDS = {int(a): a.name for a in Action}


def describe_call(probe: int, call: int, a: int, b: int, moves: Sequence[object] = (), step: int = 0) -> str:
    """The call in progress, as a student would write it: ``pastMove(3, 1)``."""
    name = family.call_outside_the_probes(probe, call, a, b, moves, API_FUNCTIONS)
    if name is None or not name.isidentifier():
        return name or "an API call"
    if name in ("handCard", "turnMoves", "numOfSuit", "numOfColor", "numOfValue", "playerCardCount",
                "playerPoints"):
        return f"{name}({a})"
    if name == "pastMove":
        return f"pastMove({a}, {b})"
    if name == "isValidMove":
        if a < 0:
            return f"isValidMove({ACTION_WORDS.get(-1 - a, a)})"
        if a >= 100:
            return f"isValidMove(PLAY_CARD with the first card of player {a - 100}'s hand)"
        return f"isValidMove(PLAY_CARD handCard({a}))"
    return f"{name}()"


def probe_name(probe: int) -> str | None:
    """The observation a probe number stands for; None for newGame, playMove and the like."""
    return family.probe_name(probe, ORDER)
