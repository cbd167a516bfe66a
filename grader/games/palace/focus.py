"""Whose business a difference is: the rules that govern what happened where the library's game went wrong.

One bug, one deduction.  A scenario is judged on its own rules (its ``rules``); a difference is attributed to
the rules that govern what happened there -- what a move did on the reference (``effect_owners``: a ten burns
the pile, so the pile's state after a ten is P16's and C22's business), or whether a move is valid
(``validity_owners``, from the reference's own reason; ``ask_relation``, narrowly, for a valid play: its rank
against the pile).  ``grader.games.palace.session`` excuses a scenario whose difference is only other rules'
business (another test judges it), and ``grader.games.palace.stages`` charges a random game's difference to its
rule family (``grader.games.palace.families``), judged around when a scenario already failed on that family.

Every difference also has a cause, in words that are the same in every test it shows in (``state_cause``: "the
game after a bomb"; ``ask_relation``: "isValidMove TRUE: a card of the rank to beat"): ``stages.charge_once``
makes one cause cost marks in one group only.
"""

from __future__ import annotations

import re
from typing import AbstractSet, Iterable

from reference.palace import (
    NOT_FINISHED,
    RULE_MIRROR_THREE,
    RULE_SEVEN_LOWER,
    Action,
    Game,
    Phase,
    PlayerMove,
    Rank,
)

__all__ = ["NO_CARD_CAUSE", "SIDE_EFFECT_RULES", "answer_rules", "ask_relation", "clauses_in", "effect_owners",
           "effect_rules", "move_category", "sort_rules", "state_cause", "validity_owners"]


# ---- the rules of what a move did ------------------------------------------------------------------------
Keys = AbstractSet[str] | str  # state keys (``compare.STATE_KEYS``, "valid", ...), or ALL
ALL = "*"
ZONE_KEYS = frozenset({"hands", "hand_counts", "face_up", "face_up_counts", "face_down", "face_down_counts", "pile",
                       "pile_size", "top_discard", "draw_pile", "draw_pile_size", "burnt", "burnt_count", "hand",
                       "hand_count"})
DRAW_KEYS = frozenset({"hands", "hand_counts", "hand", "hand_count", "draw_pile", "draw_pile_size"})
PILE_KEYS = frozenset({"pile", "pile_size", "top_discard", "burnt", "burnt_count", "effective_top_rank",
                       "seven_restriction", "current_player", "valid"})
TURN_KEYS = frozenset({"phase", "current_player", "current_turn"})
KeyRules = list[tuple[AbstractSet[str], set[str]]]  # (the state keys, the rules that govern them there)
DEAL: KeyRules = [
    ({"hands", "hand_counts", "hand", "hand_count", "face_down", "face_down_counts", "face_up", "face_up_counts",
      "burnt", "burnt_count"}, {"P2", "C2"}),  # newGame: the deal (P2), the starting card and the rest (P4)
    ({"pile", "pile_size", "top_discard", "draw_pile", "draw_pile_size", "effective_top_rank",
      "seven_restriction"}, {"P4", "C2"}),
    ({"phase", "current_player"}, {"P5", "C1", "C5"}), ({"current_turn"}, {"C6"}), ({"winner"}, {"C32"})]
CHOOSE: KeyRules = [(ZONE_KEYS, {"P3", "C5"}), ({"phase"}, {"C5"}), ({"current_player"}, {"P5", "C1", "C5"}),
                    ({"current_turn"}, {"C6"}), ({"winner", "effective_top_rank", "seven_restriction"}, {"C5"})]
BOUND_KEYS = frozenset({"effective_top_rank", "seven_restriction", "valid"})  # what the next card must beat
RANK_KEYS: dict[int, frozenset[str]] = {  # what a rank's power shows in
    Rank.TWO: frozenset({"current_player", "effective_top_rank", "valid"}),
    Rank.THREE: BOUND_KEYS | {"pile", "pile_size", "top_discard", "burnt", "burnt_count"},
    Rank.SEVEN: BOUND_KEYS, Rank.TEN: PILE_KEYS}
RANK_RULES: dict[int, set[str]] = {Rank.TWO: {"P17", "C24", "C25"}, Rank.THREE: {"P18", "P20", "C29", "C30"},
                                   Rank.SEVEN: {"P19", "P20", "C26", "C27", "C28"}, Rank.TEN: {"P16", "C22", "C23"}}


def _covers(keys: Keys, key: str) -> bool:
    return keys == ALL or key in keys


def _effects(before: Game | None, move: PlayerMove | None, after: Game | None) -> list[tuple[Keys, set[str]]]:
    """What a move did on the reference, as (the state keys it shows in, the rules that govern it)."""
    if before is None or move is None or after is None:
        return [(keys, set(rules)) for keys, rules in DEAL]
    if move.action == Action.CHOOSE_FACE_UP:
        return [(keys, set(rules)) for keys, rules in CHOOSE]
    out: list[tuple[Keys, set[str]]] = [({"current_turn"}, {"C6"}), ({"phase", "winner"}, {"P14", "C32", "C33"})]
    seat = before.current_player()
    if move.action == Action.PICK_UP_PILE:
        return out + [(ZONE_KEYS, {"P9", "C12", "C10"}), ({"current_player"}, {"C12", "P5", "C1"}),
                      ({"effective_top_rank", "seven_restriction", "valid"}, {"C12", "C27"})]
    stage = before.stage(seat)
    if move.action == Action.PLAY_FACE_DOWN:
        card = before.face_down(seat)[move.face_down_index]
        if not before.can_play_rank(card.rank):
            return out + [(ALL, {"P13", "C17", "C18"})]  # failed: the card and the pile went into the hand
        out.append((ZONE_KEYS, {"P12", "C17", "C19", "C38"}))
        ranks = {int(card.rank)}
    else:
        ranks = {int(c.rank) for c in move.cards if c is not None}
        out.append((ZONE_KEYS, {"P7", "C16"} | ({"P10", "C15"} if stage == "face_up" else set())))
        if stage == "hand":
            out.append((DRAW_KEYS, {"P8", "C9", "C10", "C11"}))
    for rank in ranks:
        if rank in RANK_RULES:
            out.append((RANK_KEYS[rank], set(RANK_RULES[rank])))
    if before.seven_restriction():
        out.append((BOUND_KEYS, {"P19", "C27", "C28"}))
    top = before.top_discard()
    if top is not None and top.rank == Rank.THREE and before.game_rules() & RULE_MIRROR_THREE:
        out.append((BOUND_KEYS, {"P18", "C29"}))
    if before.discard_pile_size() == 0:
        out.append(({"effective_top_rank", "valid"}, {"C23", "C12"}))  # a lead on an empty pile
    if after.game_winner() != NOT_FINISHED:
        return out + [(ALL, {"P14", "C32", "C33", "C19", "C42"})]
    if after.burnt_count() > before.burnt_count():
        tens = any(r == Rank.TEN for r in ranks)
        out.append(((PILE_KEYS | ZONE_KEYS) - {"current_player", "valid"}, {"P16", "C22", "C47"} if tens else
                    {"P15", "C20", "C30", "C21", "C25", "C47"}))  # the pile burnt
        out.append(({"current_player", "valid"}, {"C23"} | ({"P16", "C22"} if tens else {"P15"})))  # free play
    else:
        if after.run_on_top() >= 3 or after.start_card_in_run():
            out.append((PILE_KEYS, {"P15", "C20", "C21", "C30"}))  # nearly four: a bomb counted wrongly
        out.append(({"current_player"}, {"P5", "C1", "C35", "C24"}))
    return out


def effect_rules(before: Game | None, move: PlayerMove | None, after: Game | None) -> frozenset[str]:
    """Every rule that governs something ``move`` did (None: newGame): what a game judges at that step."""
    return frozenset(set().union(*(rules for _keys, rules in _effects(before, move, after))))


def effect_owners(before: Game | None, move: PlayerMove | None, after: Game | None, key: str) -> frozenset[str]:
    """The rules whose business a difference in ``key`` is, right after ``move`` (None: after newGame)."""
    effects = _effects(before, move, after)
    owners = set().union(*(rules for keys, rules in effects if _covers(keys, key)))
    return frozenset(owners or set().union(*(rules for _k, rules in effects)))


# ---- the rules of a move's validity ------------------------------------------------------------------------
_CLAUSE = re.compile(r"\b([PC])(\d+)(?:-[PC]?(\d+))?")


def clauses_in(text: str) -> set[str]:
    """The rule ids a reference message names: ``(P6, C8, C22-C30)`` -> P6, C8, C22 ... C30."""
    out: set[str] = set()
    for letter, first, last in _CLAUSE.findall(text):
        for n in range(int(first), int(last or first) + 1):
            out.add(f"{letter}{n}")
    return out


def validity_owners(game: Game, move: PlayerMove) -> frozenset[str]:
    """The rules that say whether ``move`` is valid in ``game`` (a reference game in the state asked about)."""
    why = game.why_invalid(move)
    if why is not None:
        return frozenset(clauses_in(why) | {"C40"} if "C40" in why else clauses_in(why))
    if game.current_phase() == Phase.SETUP_PHASE:
        return frozenset({"P3", "C5"})
    if move.action == Action.PICK_UP_PILE:
        return frozenset({"P9", "C12", "C14", "C36"})
    if move.action == Action.PLAY_FACE_DOWN:
        return frozenset({"P12", "C16", "C17"})
    out = {"P6", "P7", "C3", "C8", "C16"}
    seat = game.current_player()
    if not game.hand(seat):
        out |= {"P10", "C15"}
    for c in move.cards:
        if c is not None and int(c.rank) in RANK_RULES:
            out |= RANK_RULES[int(c.rank)]
    if game.seven_restriction():
        out |= {"P19", "C26", "C28"}
    top = game.top_discard()
    if top is None:
        out |= {"C12", "C23"}
    elif top.rank == Rank.THREE and game.game_rules() & RULE_MIRROR_THREE:
        out |= {"P18", "C29"}
    return frozenset(out)


def sort_rules(rules: Iterable[str]) -> list[str]:
    return sorted(rules, key=lambda r: (r[0] != "P", int(r[1:]) if r[1:].isdigit() else 0, r))


# ---- causes: what a difference shows, in the same words in every test ------------------------------------
SIDE_EFFECT_RULES = frozenset({"C46"})
NO_CARD_CAUSE = "a card of a move not in the mover's zone"


def move_category(before: Game | None, move: PlayerMove | None, after: Game) -> str:
    """What kind of move it was, as the reference played it: "a ten", "four of a kind", "a pick-up"..."""
    if before is None or move is None:
        return "newGame()"
    if move.action == Action.CHOOSE_FACE_UP:
        return "a face-up choice"
    if move.action == Action.PICK_UP_PILE:
        return "a pick-up"
    seat = before.current_player()
    if move.action == Action.PLAY_FACE_DOWN:
        card = before.face_down(seat)[move.face_down_index]
        if not before.can_play_rank(card.rank):
            return "a face-down card that cannot be played"
        ranks = {int(card.rank)}
    else:
        ranks = {int(c.rank) for c in move.cards if c is not None}
    if after.game_winner() != NOT_FINISHED:
        return "the last card"
    if after.burnt_count() > before.burnt_count():
        return "a ten" if Rank.TEN in ranks else "four of a kind"
    for rank, words in ((Rank.TWO, "a two"), (Rank.THREE, "a three"), (Rank.SEVEN, "a seven")):
        if rank in ranks:
            return words
    if before.stage(seat) == "hand" and before.draw_pile_size():
        return "a play from the hand, with a draw"
    return f"a play from the {before.stage(seat).replace('_', '-')} row" if before.stage(seat) != "hand" \
        else "a play from the hand"


MERGED = {"a ten": "a bomb", "four of a kind": "a bomb"}  # one burning mechanism, whatever burnt the pile


def state_cause(before: Game | None, move: PlayerMove | None, after: Game) -> str:
    """A state difference right after ``move``, in the words every test uses for it (``mismatch_cause``)."""
    category = move_category(before, move, after)
    return f"the game after {MERGED.get(category, category)}"


def ask_relation(game: Game, move: PlayerMove, expected: bool) -> tuple[str, frozenset[str]]:
    """Why ``move`` is valid (``expected``) or invalid in ``game``, in words, and the rules of that, narrowly:
    for a valid play, the relation of its rank to the pile (equal, higher, a special rank, a lead, under the
    seven's bound)."""
    words, core, context = _relation(game, move, expected)
    return words, core | context


def answer_rules(game: Game, move: PlayerMove, expected: bool) -> frozenset[str]:
    """The rules that decide isValidMove's answer for ``move``, without the context ``ask_relation`` adds (a
    set, the face-up row, a plain three or seven below): for a valid play, only the relation of its rank to
    the pile."""
    return _relation(game, move, expected)[1]


def _relation(game: Game, move: PlayerMove, expected: bool) -> tuple[str, frozenset[str], frozenset[str]]:
    """``ask_relation``'s words, and its rules: those that decide the answer, and those of the context."""
    if not expected:
        why = game.why_invalid(move) or ""
        return f"isValidMove FALSE: {why}", frozenset(clauses_in(why)), frozenset()
    if game.current_phase() == Phase.SETUP_PHASE:
        return "isValidMove TRUE: a face-up choice", frozenset({"P3", "C5"}), frozenset()
    seat = game.current_player()
    if move.action == Action.PICK_UP_PILE:
        stage = game.stage(seat)
        return f"isValidMove TRUE: taking the pile ({stage})", frozenset(
            {"P9", "C12", "C36"} | ({"C14"} if stage == "face_down" else set())), frozenset()
    if move.action == Action.PLAY_FACE_DOWN:
        return "isValidMove TRUE: a face-down card", frozenset({"P12", "C16", "C17"}), frozenset()
    cards = [c for c in move.cards if c is not None]
    if not cards:
        return "isValidMove TRUE: no card", frozenset({"C40"}), frozenset()
    core: set[str] = set()
    context = {"P7"} if len(cards) > 1 else set()
    words = ["a set" if len(cards) > 1 else "a card"]
    if game.stage(seat) == "face_up":
        context |= {"P10", "C15", "C16"}
        words.append("from the face-up row")
    rank, top, flags = int(cards[0].rank), game.top_discard(), game.game_rules()
    if top is None:
        core |= {"C23", "C12"}
        words.append("led on an empty pile")
    elif game.seven_restriction():
        core |= {"P19", "C26", "C28"}
        words.append("under the seven's bound")
    elif rank in (Rank.TWO, Rank.TEN) or (rank == Rank.THREE and flags & RULE_MIRROR_THREE):
        core |= RANK_RULES[rank]
        words.append(f"of the special rank {rank}")
    elif rank == game.effective_top_rank():
        core |= {"P6", "C8"}
        words.append("of the rank to beat")
    else:
        core |= {"P6", "C3"}
        words.append("higher than the rank to beat")
    if top is not None and top.rank == Rank.THREE and not flags & RULE_MIRROR_THREE:
        context |= {"P18", "P20"}  # a plain three: the option is off
        words.append("on a plain three")
    if top is not None and top.rank == Rank.SEVEN and not flags & RULE_SEVEN_LOWER:
        context |= {"P19", "P20"}  # a plain seven: the option is off
        words.append("on a plain seven")
    return "isValidMove TRUE: " + " ".join(words), frozenset(core), frozenset(context)
