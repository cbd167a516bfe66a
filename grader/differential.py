"""Compare a submission's trace with the reference's, move by move, and explain.

Strictness comes from the rulings table only (``reference.rulings``): an
observation a LENIENT ruling covers in the state at hand is never held against
the submission; the difference is recorded as a note instead.  Hands are
compared as multisets (the rules fix no order).  The first strict difference
is the verdict, explained for a first-year student: the rule in plain words,
the moves up to that point, what was expected and what came back, and a
picture of the state just before.
"""

from __future__ import annotations

import signal as signals
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from reference import Action, Deck, MoveSpec
from reference.cards import COLOR_LETTERS, COLOR_NAMES
from reference.rulings import BY_ID

from .observe import MISSING, card_label
from .protocol import valid_observation
from .reference_trace import Step, play
from .results import Outcome

# Field -> (the API call a student recognises, what it means in plain words).
FIELDS: dict[str, tuple[str, str]] = {
    "winner": ("gameWinner()", "who has won (-1 not finished, 4 no winner)"),
    "current_player": ("currentPlayer()", "whose turn it is"),
    "current_turn": ("currentTurn()", "the turn number"),
    "num_turns": ("numTurns()", "the number of turns so far, this one included"),
    "current_turn_moves": ("currentTurnMoves()", "actions taken so far this turn"),
    "previous_turn_player": ("getPreviousTurnPlayer()", "who played the previous turn"),
    "hand_card_count": ("handCardCount()", "the size of the current player's hand"),
    "hand": ("handCard(i)", "the cards in the current player's hand"),
    "hands": ("getHandCard(p, i)", "the cards in player p's hand"),
    "card_counts": ("playerCardCount(p)", "how many cards player p holds"),
    "points": ("playerPoints(p)", "the sum of the values in player p's hand"),
    "top_discard": ("topDiscard()", "the top card of the discard pile"),
    "top_discard_turn_number": ("getTopDiscardTurnNumber()", "the turn the top discard was played in"),
    "number_of_two_cards_at_top": ("getNumberOfTwoCardsAtTop()", "how many 2s lie on top of the discard pile"),
    "active_draw_twos": ("getActiveDrawTwos()", "how many 2s on top still have to be answered"),
    "current_color": ("getCurrentColor()", "the colour the next card must match"),
    "deck_pile": ("getDeckCard(n)", "the draw pile, next card first"),
    "discard_pile": ("getDiscardPileCard(n)", "the discard pile, top first"),
    "valid_draw": ("isValidMove(DRAW_CARD)", "whether the current player may draw now"),
    "valid_end": ("isValidMove(END_TURN)", "whether the current player may end the turn now"),
    "valid_play": ("isValidMove(PLAY_CARD)", "whether the current player may play this card now"),
    "valid_foreign": ("isValidMove(PLAY_CARD)", "a card from ANOTHER player's hand must never be playable"),
    "hand_end_null": ("handCard(handCardCount())", "one past the last card must be NULL"),
    "num_cards": ("numCards()", "the size of the initial deck"),
    "num_of_suit": ("numOfSuit(s)", "cards of each suit in the initial deck"),
    "num_of_color": ("numOfColor(c)", "cards of each colour in the initial deck"),
    "num_of_value": ("numOfValue(v)", "cards of each value in the initial deck"),
}
ORDER = tuple(FIELDS)

# The rule behind each observation, in plain words: what a failure message cites
# when the test itself covers many rules (random games).
FIELD_RULES: dict[str, tuple[str, str]] = {
    "winner": ("R12, R13", "The game ends the moment a player puts down their last card (that player wins); "
               "it ends with no winner when a player must draw and no card is left to draw."),
    "current_player": ("R4, R8", "Only END_TURN passes the turn, to the next player (or the one after, if an A "
                       "was played)."),
    "current_turn": ("R4", "The turn number starts at 0 and goes up by one at each END_TURN."),
    "num_turns": ("A31", "numTurns() is always currentTurn() + 1."),
    "current_turn_moves": ("A32", "currentTurnMoves() counts the plays and draws made so far this turn."),
    "previous_turn_player": ("A14", "getPreviousTurnPlayer() is the player who played the previous turn "
                             "(skipped players hold no turn); -1 during turn 0."),
    "hand_card_count": ("R2, R5, R6", "A hand loses the card played and gains each card drawn."),
    "hand": ("R5, R6, R11", "A hand loses the card played and gains each card drawn, taken from the top of the "
             "draw pile (after a recycle: the oldest discard)."),
    "hands": ("R2, R5, R6, R11", "A hand loses the card played and gains each card drawn."),
    "card_counts": ("R5, R6", "A hand loses the card played and gains each card drawn."),
    "points": ("R14", "A player's points are the sum of the values in their hand (A=10 ... F=15)."),
    "top_discard": ("R5", "The card played becomes the top of the discard pile."),
    "top_discard_turn_number": ("R5, A15", "getTopDiscardTurnNumber() is the turn the top card was played in "
                                "(-1 for the card turned up at the start)."),
    "number_of_two_cards_at_top": ("R7, A9", "getNumberOfTwoCardsAtTop() counts the 2s lying one on another on "
                                   "top of the discard pile, paid or not."),
    "active_draw_twos": ("R7", "Each 2 played adds one active 2; the next player must draw 2 cards per active "
                         "2 or play another 2; once they have drawn, the 2s are no longer active."),
    "current_color": ("R9, A16", "After a D, the colour to match is the colour declared with it, while that D "
                      "is on top; otherwise it is the top card's own colour."),
    "deck_pile": ("R3, R6, R11", "Cards are drawn from the top of the draw pile; when it is empty, the discard "
                  "pile except its top card is turned over so the oldest card is drawn first."),
    "discard_pile": ("R5, R11", "Played cards go on top of the discard pile; a recycle leaves only the top card."),
    "valid_draw": ("R6, R7, R15", "A player may draw once a turn before playing, or, facing active 2s, until "
                   "2 cards per active 2 have been drawn."),
    "valid_end": ("R4, R7, R15", "END_TURN is valid only after a play or a draw, and after the full penalty "
                  "when 2s are active."),
    "valid_play": ("R5, R7, R15", "A card may be played if it is in the hand, nothing was played or drawn yet "
                   "this turn, and it is a ZERO or matches the top card's value, suit or current colour; facing "
                   "active 2s only a 2 may be played."),
    "valid_foreign": ("A25", "A card from another player's hand can never be played."),
    "hand_end_null": ("A27", "Asking for the card one past the end of a hand gives NULL."),
    "num_cards": ("A37", "numCards() is the size of the initial deck."),
    "num_of_suit": ("A37", "numOfSuit() counts over the initial deck."),
    "num_of_color": ("A37", "numOfColor() counts over the initial deck."),
    "num_of_value": ("A37", "numOfValue() counts over the initial deck."),
}


@dataclass
class Divergence:
    step: int  # observation index: 0 after newGame, k after move k
    field: str
    expected: Any
    got: Any
    label: str = ""  # for valid_play: the move tried; for hands: the player

    def describe(self) -> str:
        call, meaning = FIELDS[self.field]
        if self.field in ("valid_play", "valid_foreign"):
            call = f"isValidMove(PLAY_CARD {self.label})"
        elif self.field in ("hands", "card_counts", "points") and self.label:
            call = call.replace("(p", f"({self.label}")
        return f"{call}  -- {meaning}\n    expected: {_show(self.expected)}\n    got:      {_show(self.got)}"


@dataclass
class Comparison:
    divergence: Divergence | None
    identity_problem: str | None = None
    notes: list[str] = field(default_factory=list)
    compared_steps: int = 0
    cut_at: int | None = None  # step after which readings differ and comparing stops

    @property
    def passed(self) -> bool:
        return self.divergence is None and self.identity_problem is None


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, list) and value and isinstance(value[0], str):
        return " ".join(value) if value else "(none)"
    if value is None:
        return "NULL"
    if value == []:
        return "(none)"
    return str(value)


def _keys(cards: list[list[int]]) -> list[str]:
    return [card_label(c) for c in cards]


def _multiset(cards: list[list[int]]) -> list[str]:
    return sorted(_keys(cards))


def _hand_difference(expected: list[str], got: list[str]) -> tuple[str, str]:
    e, g = Counter(expected), Counter(got)
    missing, extra = e - g, g - e
    exp = " ".join(expected) or "(empty)"
    gotten = " ".join(got) or "(empty)"
    if missing or extra:
        gotten += f"   [missing: {' '.join(missing.elements()) or '-'}; unexpected: {' '.join(extra.elements()) or '-'}]"
    return exp, gotten


def compare_step(k: int, ref: Step, got: dict[str, Any], notes: list[str]) -> Divergence | None:
    exp = ref.obs
    len_ = ref.lenient
    for name in ORDER:
        if name not in exp:
            continue
        e, g = exp[name], got.get(name, MISSING)
        if g == MISSING or (isinstance(g, list) and MISSING in g):
            continue  # the API-completeness tests report missing functions
        if name == "winner":
            if e != g:
                if len_.winner_accepts and g in len_.winner_accepts:
                    notes.append(f"after move {k}: gameWinner() {g} accepted (A50)")
                    continue
                if len_.field_is_lenient(name):
                    continue
                return Divergence(k, name, e, g)
            continue
        if name in ("valid_play", "valid_foreign"):
            for label, ev in e.items():
                gv = g.get(label)
                key = label[:3]
                if gv is None:
                    continue  # the card is not in the submission's hand: 'hand' reports that
                if ev != gv:
                    ck = _card_key(key)
                    if name == "valid_play" and len_.play_is_lenient(ck):
                        why = len_.why(name, ck)
                        notes.append(f"after move {k}: isValidMove(PLAY_CARD {label}) gave "
                                     f"{_show(gv)}, the reference {_show(ev)}; accepted ({', '.join(why)})")
                        continue
                    if name == "valid_foreign" and len_.field_is_lenient(name):
                        continue
                    return Divergence(k, name, ev, gv, label)
            continue
        if e == g:
            continue
        if name in ("hand", "hands", "deck_pile", "discard_pile", "top_discard"):
            if _same_cards(name, e, g):
                continue
        if len_.field_is_lenient(name):
            notes.append(f"after move {k}: {FIELDS[name][0]} differs ({_brief(e)} vs {_brief(g)}); "
                         f"accepted ({', '.join(len_.why(name))})")
            continue
        return _divergence(k, name, e, g)
    return None


def _brief(v: Any) -> str:
    if isinstance(v, list) and v and isinstance(v[0], list):
        return " ".join(_keys(v)) if len(v) < 12 else f"{len(v)} cards"
    return _show(v)


def _card_key(label: str) -> tuple[int, int, int]:
    return (int(label[0], 16), COLOR_LETTERS.index(label[1]), "HDCSQ".index(label[2]))


def _same_cards(name: str, e: Any, g: Any) -> bool:
    if name == "top_discard":
        return (e is None and g is None) or (e is not None and g is not None and e[:3] == g[:3])
    if name == "hand":
        return _multiset(e) == _multiset(g)
    if name == "hands":
        return all(_multiset(a) == _multiset(b) for a, b in zip(e, g))
    return _keys(e) == _keys(g)  # piles: order matters


def _divergence(k: int, name: str, e: Any, g: Any) -> Divergence:
    if name == "hand":
        exp, got = _hand_difference(_multiset(e), _multiset(g))
        return Divergence(k, name, exp, got)
    if name == "hands":
        for p, (a, b) in enumerate(zip(e, g)):
            if _multiset(a) != _multiset(b):
                exp, got = _hand_difference(_multiset(a), _multiset(b))
                return Divergence(k, name, exp, got, label=str(p))
    if name in ("card_counts", "points"):
        for p, (a, b) in enumerate(zip(e, g)):
            if a != b:
                return Divergence(k, name, a, b, label=str(p))
    if name in ("deck_pile", "discard_pile"):
        return Divergence(k, name, " ".join(_keys(e)) or "(empty)", " ".join(_keys(g)) or "(empty)")
    if name == "top_discard":
        return Divergence(k, name, card_label(e) if e else None, card_label(g) if g else None)
    if name == "current_color":
        return Divergence(k, name, _colour(e), _colour(g))
    return Divergence(k, name, e, g)


def _colour(c: int) -> str:
    return f"{c} ({COLOR_NAMES[c]})" if isinstance(c, int) and 0 <= c < 5 else str(c)


def validity_label(spec: MoveSpec) -> tuple[str, str]:
    """Which observation holds isValidMove for this move, and under which label."""
    if spec.action == Action.DRAW_CARD:
        return "valid_draw", ""
    if spec.action == Action.END_TURN:
        return "valid_end", ""
    return "valid_play", str(spec)


def contested_moves(moves: Sequence[MoveSpec], ref: list[Step]) -> list[int]:
    """Moves whose validity a LENIENT ruling leaves open in the state before them."""
    out = []
    for i, spec in enumerate(moves):
        name, label = validity_label(spec)
        lenient = ref[i].lenient
        if name == "valid_play" and lenient.play_is_lenient(spec.card_key):  # type: ignore[arg-type]
            out.append(i)
        elif name != "valid_play" and lenient.field_is_lenient(name):
            out.append(i)
    return out


def _identity_problem(k: int, spec: MoveSpec, before: dict[str, Any], after: dict[str, Any]) -> str | None:
    """A46: the played card is the new top discard; a drawn card is the former top of the draw pile."""
    if spec.action == Action.PLAY_CARD:
        hand, top = before.get("hand"), after.get("top_discard")
        if hand in (MISSING, None) or top in (MISSING, None):
            return None
        played = next((c for c in hand if tuple(c[:3]) == spec.card_key), None)
        if played is not None and top[3] != played[3]:
            return (f"after move {k} the top discard looks like {card_label(top)} but is not the very card "
                    f"that was played (a different Card pointer). topDiscard() must return the played card "
                    f"itself, not a copy (A46).")
    elif spec.action == Action.DRAW_CARD:
        pile, hand = before.get("deck_pile"), after.get("hand")
        if pile in (MISSING, None) or not pile or hand in (MISSING, None):
            return None
        if after.get("current_player") != before.get("current_player"):
            return None
        drawn = pile[0]
        if all(c[3] != drawn[3] for c in hand):
            return (f"after move {k} the card drawn is not the very card that was on top of the draw pile "
                    f"(getDeckCard(0) before the draw, {card_label(drawn)}): the hand must receive that "
                    f"Card pointer, not a copy (A46).")
    return None


def compare(moves: Sequence[MoveSpec], ref: list[Step], got: list[dict[str, Any]],
            events: list[dict[str, Any]] | None = None) -> Comparison:
    """The first strict difference between the traces, or none."""
    notes: list[str] = []
    stop_events = {e.get("i"): e.get("t") for e in events or [] if e.get("t") in ("refused", "no_card")}
    for k, obs in enumerate(got):
        if k >= len(ref):
            break
        problem = valid_observation(obs, first=(k == 0))
        if problem:
            return Comparison(Divergence(k, "winner", "a readable observation", problem), notes=notes)
        d = compare_step(k, ref[k], obs, notes)
        if d:
            return Comparison(d, notes=notes, compared_steps=k)
        if k > 0:
            ident = _identity_problem(k, moves[k - 1], got[k - 1], obs)
            if ident:
                return Comparison(None, identity_problem=ident, notes=notes, compared_steps=k)
        if ref[k].lenient.winner_accepts and obs["winner"] != ref[k].obs["winner"]:
            return Comparison(None, notes=notes, compared_steps=k, cut_at=k)
        if "A22" in ref[k].lenient.why("deck_pile") and obs["deck_pile"] not in (MISSING, []):
            notes.append(f"after move {k}: your draw pile was refilled as soon as it ran out (A22, accepted); "
                         f"from here the two games hold different cards, so the rest was not compared")
            return Comparison(None, notes=notes, compared_steps=k, cut_at=k)
        if k in stop_events:
            if stop_events[k] == "refused":
                notes.append(f"your isValidMove() refused move {k + 1} ({moves[k]}), which the rules leave "
                             f"open; the rest of this scenario was not compared")
            return Comparison(None, notes=notes, compared_steps=k, cut_at=k)
    return Comparison(None, notes=notes, compared_steps=len(got))


# ---- messages ----------------------------------------------------------------------

def moves_by_turn(deck: Deck, moves: Sequence[MoveSpec], upto: int) -> str:
    """``turn 0, player 0: 2RH end | turn 1, player 1: draw end`` for the first ``upto`` moves."""
    if upto == 0:
        return "(none: straight after newGame)"
    game = play(deck, [], 0)
    parts: list[str] = []
    current: list[str] = []
    label = f"turn 0, player {game.current_player()}:"
    for spec in moves[:upto]:
        current.append(str(spec))
        game.play_move(game.resolve(spec))
        if spec.action == Action.END_TURN:
            parts.append(f"{label} {' '.join(current)}")
            current = []
            label = f"turn {game.current_turn()}, player {game.current_player()}:"
    if current:
        parts.append(f"{label} {' '.join(current)}")
    return "\n    ".join(parts)


def explain(says: str, rules: Sequence[str], deck: Deck, moves: Sequence[MoveSpec], cmp: Comparison) -> str:
    """The failure message for a wrong result.  ``says`` empty: cite the rule of the observation."""
    step = cmp.divergence.step if cmp.divergence else cmp.compared_steps
    if not says:
        field_name = cmp.divergence.field if cmp.divergence else "top_discard"
        clause, says = FIELD_RULES[field_name]
        rules = [clause]
    lines = [f"Rule ({', '.join(rules)}): {says}"]
    if step == 0:
        lines.append("Straight after newGame(deck):")
    else:
        spec = moves[step - 1]
        before = play(deck, moves, step - 1)
        lines.append(f"Moves so far:\n    {moves_by_turn(deck, moves, step)}")
        lines.append(f"After move {step} (player {before.current_player()} {spec.describe()}):")
    if cmp.divergence:
        lines.append("  " + cmp.divergence.describe())
    else:
        lines.append("  " + str(cmp.identity_problem))
    state = play(deck, moves, max(step - 1, 0))
    lines.append(("State before that move" if step else "The game as dealt") + " (reference):")
    lines.extend("    " + line for line in state.describe().splitlines())
    differs = cmp.divergence.field if cmp.divergence else None
    for rid in rules:
        r = BY_ID.get(rid)
        if r is not None and differs in r.affects:  # only where the open question touches what differed
            lines.append(f"Note: {rid} is a ruling where the rules are silent; the grader accepts: "
                         + "; ".join(r.readings))
    return "\n".join(lines)


SIGNAL_WORDS = {
    signals.SIGSEGV: "a segmentation fault (SIGSEGV): an invalid pointer was used, often NULL or freed memory",
    signals.SIGABRT: "an abort (SIGABRT): a failed assert() or a corrupted heap",
    signals.SIGFPE: "an arithmetic error (SIGFPE): usually a division by zero",
    signals.SIGBUS: "a bus error (SIGBUS): a misaligned or invalid memory access",
    signals.SIGILL: "an illegal instruction (SIGILL)",
    signals.SIGXFSZ: "the file-size limit (SIGXFSZ): the code wrote too much to a file",
}


def classify(raw: dict[str, Any]) -> tuple[Outcome, str] | None:
    """What a worker's raw run means, when it did not simply finish; None if it did."""
    events = raw.get("events", [])
    error = next((e for e in events if e.get("t") == "error"), None)
    limits = raw.get("limits", {})
    if raw.get("enforced") == "wall":
        return Outcome.TIMED_OUT, (f"Your code did not finish within {limits.get('wall')} seconds of real time "
                                   "(an endless loop, or waiting for something that never comes).")
    if raw.get("enforced") == "output":
        return Outcome.OUTPUT, (f"Your code printed more than {limits.get('output_kb')} KiB; "
                                "the Game ADT should not print at all.")
    if raw.get("enforced") == "protocol":
        return Outcome.PROTOCOL, f"The results channel was corrupted ({raw.get('protocol')})."
    sig = raw.get("signal")
    if sig is not None:
        # SIGXCPU is the soft CPU limit; SIGKILL near the limit is the hard one (soft + 1 s).
        if sig == signals.SIGXCPU or (sig == signals.SIGKILL and raw.get("cpu", 0) >= float(limits.get("cpu", 5)) - 0.1):
            return Outcome.TIMED_OUT, f"Your code used more than {limits.get('cpu')} seconds of CPU time (an endless loop?)."
        mem = limits.get("memory_mb")
        if mem and raw.get("maxrss_kb", 0) * 1024 >= 0.8 * mem * 1024 * 1024:
            return Outcome.MEMORY, f"Your code used more than the {mem} MiB memory limit and then crashed."
        return Outcome.CRASHED, "Your code crashed with " + SIGNAL_WORDS.get(sig, f"signal {sig}") + "."
    if error is not None:
        what, detail = error.get("what"), str(error.get("detail", ""))[:500]
        if what == "load":
            if "map segment" in detail or "allocate memory" in detail:
                return Outcome.MEMORY, f"Your library could not be loaded within the memory limit: {detail}"
            return Outcome.CRASHED, f"Your library could not be loaded: {detail}"
        if what == "missing":
            return Outcome.NOT_RUN, f"Not run: your code has no function {detail}(), which this test needs."
        if what == "null_game":
            return Outcome.WRONG, "newGame() returned NULL for a valid deck."
        return Outcome.PROTOCOL, f"The grader could not read your game's state: {detail}"
    code = raw.get("exit_code")
    finished = any(e.get("t") in ("done", "refused", "no_card") for e in events)
    if raw.get("finished") and not finished:
        return Outcome.PROTOCOL, ("The results channel was corrupted (marked finished before the game was over; "
                                  "does your code write through a stray pointer?).")
    if not finished:
        if code == 0:
            return Outcome.EXITED, ("Your code ended the program (exit(0) or similar) in the middle of the game; "
                                    "a Game ADT function must return to its caller, never exit.")
        return Outcome.EXITED, f"Your code ended the program with exit code {code} in the middle of the game."
    return None
