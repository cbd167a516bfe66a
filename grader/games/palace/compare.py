"""The library's game against what is expected of it: a scenario's values, and the reference's states.

``check_expect`` judges one ``expect`` block on the library's own observation after ``after`` moves (and its
answers to the step's isValidMove questions): the expected values come from the scenario file -- checked on the
reference under every reading by the scenario tests --, never from the reference engine here.  Cards are
compared by look, and by identity where the file names one (``5H@12``: ``ident_map`` reads which of the
library's cards is which deck index from the deal of C2).

The reference only says where the library's game went another way, to judge around it: ``first_departure`` is
the first step where the library's state (``state_view``, by looks; hands, rows and burnt cards as multisets)
matches the reference's under no reading of the LENIENT switches, what the rules leave open there put aside
(``lenient_keys``).  ``mismatch_cause`` says what a wrong value shows, in the same words in every test, with the
rules of that (``grader.games.palace.focus``).  The words of a value and of the game so far (``value_words``,
``moves_text``...) are here too, for the messages (``grader.games.palace.explain``, the random games): enums by
their Palace.h names, seats by number, cards in the notation the reports explain (``GameSpec.notation``) --
never a Python repr.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Protocol, Sequence, cast

from grader.games.palace.focus import (
    NO_CARD_CAUSE,
    SIDE_EFFECT_RULES,
    ask_relation,
    effect_owners,
    sort_rules,
    state_cause,
    validity_owners,
)
from grader.games.palace.sandbox.frames import INDEX_RANGES, Event
from grader.games.palace.sandbox.observe import MISSING, NULL_CARD, look
from grader.games.palace.scenarios import Expect, Malformed, Scenario, ScenarioError, build_move
from reference.palace import (
    HAND_DEAL,
    NOT_FINISHED,
    RULE_MIRROR_THREE,
    RULE_SEVEN_LOWER,
    TABLE_CARDS,
    CardRef,
    Game,
    GameError,
    MoveSpec,
    Phase,
    PlayerMove,
    Rank,
    Readings,
    Setup,
)

MOVES_SHOWN = 40  # moves a message lists at most (the last ones)
SIDE_EFFECTS_ASKED = "C46"  # a Mismatch's entry when the step's isValidMove questions changed the game
PHASES = {int(p): p.name for p in Phase}
RANKS = {int(r): r.name for r in Rank}
RULE_FLAGS = {RULE_MIRROR_THREE: "RULE_MIRROR_THREE", RULE_SEVEN_LOWER: "RULE_SEVEN_LOWER"}

__all__ = ["ANSWER_READS", "CALLS", "COUNTERS", "COUNTS", "Departure", "Mismatch", "Played", "SCALARS", "STATE_KEYS",
           "Walk", "after_words", "answers_agree", "asserts", "card_text", "check_expect", "differing",
           "entry_label", "first_departure", "game_view", "ident_map", "lenient_keys", "mismatch_cause",
           "mismatch_owners", "moves_text", "rebased", "ref_text", "state_view", "value_words", "walk"]


class Played(Protocol):
    """What the comparison reads of a game played on the library (``session.GameRun``)."""

    @property
    def steps(self) -> Sequence[object]: ...  # the observation after newGame and after each move made

    @property
    def asked(self) -> Mapping[int, Mapping[str, object]]: ...  # step -> the "asked" frame of that step

    @property
    def rechecked(self) -> Mapping[int, object]: ...  # step -> the counters the battery's calls changed

    def stop(self) -> tuple[str, int] | None: ...


# ---- words ------------------------------------------------------------------------------------------------
def card_text(card: object) -> str:
    """An observed card as a student writes it: ``5H``, ``NULL``, or ``<r,s>`` for garbage."""
    if isinstance(card, tuple) and len(card) == 2 and all(isinstance(v, int) for v in card):
        return look(card[0], card[1])  # a card by its look (``state_view``)
    if not _is_card(card):
        return _plain(card)
    assert isinstance(card, list)
    return "NULL" if card == NULL_CARD else look(card[0], card[1])


def _is_card(value: object) -> bool:
    """An observed card: ``[rank, suit, ident]``."""
    return isinstance(value, list) and len(value) == 3 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                for v in value)


def cards_text(cards: object) -> str:
    if cards == MISSING:
        return "(the function is missing)"
    if not isinstance(cards, (list, tuple)):
        return _plain(cards)
    return "[" + " ".join(card_text(c) for c in cards) + "]" if cards else "[] (none)"


def ref_text(ref: CardRef) -> str:
    return str(ref)


def refs_text(refs: Iterable[CardRef]) -> str:
    refs = list(refs)
    return "[" + " ".join(ref_text(r) for r in refs) + "]" if refs else "[] (none)"


def value_text(value: object) -> str:
    if value == MISSING:
        return "(the function is missing)"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return _plain(value)


def _named(names: Mapping[int, str], value: int) -> str:
    """An enum value as Palace.h names it, with its number: ``PLAY_PHASE (1)``; a number no name has, alone."""
    return f"{names[value]} ({value})" if value in names else str(value)


def _rules_words(rules: int) -> str:
    flags = [name for flag, name in RULE_FLAGS.items() if rules & flag]
    known = sum(flag for flag in RULE_FLAGS if rules & flag) == rules
    return f"{' | '.join(flags) or 'RULES_BASIC'} ({rules})" if known else str(rules)


def _per_seat(values: Sequence[object], words: Callable[[object], str], sep: str) -> str:
    return sep.join(f"seat {s}: {words(v)}" for s, v in enumerate(values)) if values else "(no seat)"


GETTER_ENDS = ("a card at n = -1", "a card at n = size", "NULL at n = size - 1")  # what a False entry means


def _ranges_words(ranges: Mapping[object, object]) -> str:
    """The Card getters at the ends of their ranges (C43): each getter's wrong answers, or that all are right."""
    wrong = []
    for getter, row in ranges.items():
        if row == MISSING:
            continue
        bad = [GETTER_ENDS[i] for i, ok in enumerate(row) if ok is not True and i < len(GETTER_ENDS)] \
            if isinstance(row, list) else [_plain(row)]
        if bad:
            wrong.append(f"{getter} gives {' and '.join(bad)}")
    return "; ".join(wrong) if wrong else "NULL at n = -1 and at n = size from every Card getter"


def value_words(key: str, value: object) -> str:
    """An observed value (an observation's ``key``: ``STATE_KEYS`` and the rest) in Palace.h's words: an enum by
    name and number (``PLAY_PHASE (1)``, ``KING (13)``), TRUE/FALSE, cards in the notation, a value of each seat
    as ``seat 0: ...``; never a Python repr."""
    if value == MISSING:
        return "(the function is missing)"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        if key == "phase":
            return _named(PHASES, value)
        if key == "winner" and value == NOT_FINISHED:
            return f"NOT_FINISHED ({NOT_FINISHED})"
        if key == "effective_top_rank":
            return "0 (the pile is empty)" if value == 0 else _named(RANKS, value)
        if key == "seven_restriction":
            return "TRUE" if value else "FALSE"
        if key == "rules":
            return _rules_words(value)
        return str(value)
    if key in COUNT_KEYS and isinstance(value, (list, tuple)):
        return _per_seat(value, value_text, ", ")
    if key in ROWS and isinstance(value, (list, tuple)):
        return _per_seat(value, cards_text, "; ")
    if key == "out_of_range" and isinstance(value, dict):
        return _ranges_words(value)
    if key == "top_discard" or _is_card(value):
        return card_text(value)
    if key in CARD_LISTS and isinstance(value, (list, tuple)):
        return cards_text(value)
    return _plain(value)


def _plain(value: object) -> str:
    """Any other value in plain words (what a broken library may give where a card or a number should be)."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_plain(v)}" for k, v in value.items()) or "(nothing)"
    if isinstance(value, (list, tuple)):
        return "[" + " ".join(card_text(v) if _is_card(v) else _plain(v) for v in value) + "]"
    return str(value)


def _seats(setup: Setup, moves: Sequence[MoveSpec], readings: Readings | None = None) -> list[int | None]:
    """Who made each move, on the reference under the first readings of the LENIENT switches that allow every
    move (``readings`` first when given: a random game is played under the readings found in the code); None
    for a move after the game's end."""
    best: list[int | None] = []
    for choice in ([readings] if readings is not None else []) + list(Readings.every()):
        game = Game(setup, choice)
        out: list[int | None] = []
        try:
            for spec in moves:
                if game.outcome() is not None:
                    out.append(None)
                    continue
                out.append(game.current_player())
                game.play_move(game.resolve(spec))
        except GameError:
            best = max(best, out, key=len)
            continue
        return out
    return best + [None] * (len(moves) - len(best))


def _mover(seat: int | None) -> str:
    return f"seat {seat}" if seat is not None else "after the end"


def moves_text(setup: Setup, moves: Sequence[MoveSpec], upto: int, readings: Readings | None = None) -> str:
    """The moves 1..upto, one a line with the seat that made it (the last ``MOVES_SHOWN``); ``readings``: those
    the game was played under, if not the reference's."""
    upto = max(0, min(upto, len(moves)))
    if not upto:
        return "    (no move yet)"
    seats = _seats(setup, moves[:upto], readings)
    first = max(0, upto - MOVES_SHOWN)
    lines = [f"    ... ({first} earlier moves)"] if first else []
    for k in range(first, upto):
        lines.append(f"    {k + 1:>3}. {_mover(seats[k])}: {moves[k]}")
    return "\n".join(lines)


def after_words(step: int, *, first: bool = False) -> str:
    """``after move 3``, ``right after newGame()``; ``first``: to start a sentence (``str.capitalize`` would
    write newgame())."""
    words = "right after newGame()" if step == 0 else f"after move {step}"
    return words[0].upper() + words[1:] if first else words


def entry_label(entry: MoveSpec | Malformed) -> str:
    return entry.text if isinstance(entry, Malformed) else str(entry)


# ---- judging one expect block -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mismatch:
    field: str  # the expectation key
    what: str  # the call a student recognises
    expected: str
    got: str
    entry: MoveSpec | Malformed | str | None = None  # the move asked of isValidMove (valid, invalid, malformed),
    # or SIDE_EFFECTS_ASKED (the questions changed the game)

    def line(self) -> str:
        return f"{self.what}: expected {self.expected}, got {self.got}"


def ident_map(obs0: object, setup: Setup) -> dict[int, int]:
    """The observer's card ids of the library -> deck index, read from its observation right after newGame by
    the deal of C2 (only where the card there has the look the deal puts there)."""
    out: dict[int, int] = {}
    if not isinstance(obs0, dict):
        return out
    n, keys = setup.n_players, setup.deck

    def put(card: object, index: int) -> None:
        if isinstance(card, list) and len(card) == 3 and card != NULL_CARD and 0 <= index < len(keys) \
                and (card[0], card[1]) == keys[index] and isinstance(card[2], int):
            out.setdefault(card[2], index)

    rows = obs0.get("face_down")
    for s in range(n):
        row = _at(rows, s)
        for j in range(TABLE_CARDS):
            put(_at(row, j), HAND_DEAL * n + j * n + s)
    pile = obs0.get("pile")
    put(_at(pile, 0), (HAND_DEAL + TABLE_CARDS) * n)
    draw = obs0.get("draw_pile")
    if isinstance(draw, list):
        for k, card in enumerate(draw):
            put(card, (HAND_DEAL + TABLE_CARDS) * n + 1 + k)
    hands = obs0.get("hands")
    for s in range(n):
        hand = [c for c in cast("Iterable[object]", _at(hands, s) or []) if isinstance(c, list) and len(c) == 3]
        used: set[int] = set()
        for index in range(s, HAND_DEAL * n, n):
            at = next((k for k, c in enumerate(hand) if k not in used and (c[0], c[1]) == keys[index]), None)
            if at is not None:
                used.add(at)
                put(hand[at], index)
    return out


def _at(values: object, i: int) -> object:
    return values[i] if isinstance(values, list) and 0 <= i < len(values) else None


def _matches(want: CardRef, got: object, ids: Mapping[int, int]) -> bool:
    if not (isinstance(got, list) and len(got) == 3) or got == NULL_CARD:
        return False
    return (got[0], got[1]) == (want.rank, want.suit) and (want.ident is None or ids.get(got[2]) == want.ident)


def _same_ordered(want: Sequence[CardRef], got: object, ids: Mapping[int, int]) -> bool:
    return isinstance(got, list) and len(want) == len(got) and all(_matches(w, g, ids) for w, g in zip(want, got))


def _same_set(want: Sequence[CardRef], got: object, ids: Mapping[int, int]) -> bool:
    if not isinstance(got, list) or not all(isinstance(g, list) and len(g) == 3 for g in got):
        return False
    if Counter((w.rank, w.suit) for w in want) != Counter((g[0], g[1]) for g in got):
        return False
    held = {ids.get(g[2]) for g in got}
    return all(w.ident is None or w.ident in held for w in want)


SCALARS = (  # (expectation key, observation key, the call)
    ("phase", "phase", "currentPhase()"),
    ("current_player", "current_player", "currentPlayer()"),
    ("current_turn", "current_turn", "currentTurn()"),
    ("winner", "winner", "gameWinner()"),
    ("effective_top_rank", "effective_top_rank", "effectiveTopRank()"),
    ("seven_restriction", "seven_restriction", "sevenRestriction()"),
    ("draw_pile_size", "draw_pile_size", "drawPileSize()"),
    ("discard_pile_size", "pile_size", "discardPileSize()"),
    ("burnt_count", "burnt_count", "burntCount()"),
)
COUNTS = (("hand_counts", "hand_counts", "playerCardCount(p)"), ("face_up_counts", "face_up_counts", "faceUpCount(p)"),
          ("face_down_counts", "face_down_counts", "faceDownCount(p)"))


def check_expect(e: Expect, obs: object, answers: Mapping[str, object], ids: Mapping[int, int], n_players: int,
                 after: object = None) -> list[Mismatch]:
    """What the library's observation (and its answers to the step's questions) got wrong of ``e``."""
    if not isinstance(obs, dict):
        return [Mismatch("observation", "the game", "a readable game", "nothing readable")]
    out: list[Mismatch] = []
    for key, field, call in SCALARS:
        want = getattr(e, key)
        if want is None:
            continue
        got = obs.get(field)
        expected = Phase[want].value if key == "phase" else want
        same = (bool(got) == expected if key == "seven_restriction" and isinstance(got, (bool, int)) else
                got == expected and not (isinstance(got, bool) and key != "seven_restriction"))
        if not same:
            out.append(Mismatch(key, call, value_words(field, expected), value_words(field, got)))
    for key, field, call in COUNTS:
        want = getattr(e, key)
        if want is not None and obs.get(field) != list(want):
            got = obs.get(field)
            out.append(Mismatch(key, call, value_words(field, list(want)), value_words(field, got)))
    top = e.top_discard
    if top is not None:
        got = obs.get("top_discard")
        if top == "none":
            if got != NULL_CARD:
                out.append(Mismatch("top_discard", "topDiscard()", "NULL (the pile is empty)", card_text(got)))
        elif not isinstance(top, str) and not _matches(top, got, ids):
            out.append(Mismatch("top_discard", "topDiscard()", ref_text(top), card_text(got)))
    if e.pile is not None:
        got = obs.get("pile")
        same = _same_set(e.pile, got, ids) if e.pile_as_set else _same_ordered(e.pile, got, ids)
        if not same:
            how = "in any order" if e.pile_as_set else "top first"
            out.append(Mismatch("pile", f"getDiscardPileCard(n), {how}", refs_text(e.pile), cards_text(got)))
    if e.draw_pile is not None and not _same_ordered(e.draw_pile, obs.get("draw_pile"), ids):
        out.append(Mismatch("draw_pile", "getDeckCard(n), next card first", refs_text(e.draw_pile),
                            cards_text(obs.get("draw_pile"))))
    for key, field, call, ordered in (("hand", "hands", "getHandCard({s}, n): seat {s}'s hand, in any order", False),
                                      ("face_up", "face_up", "faceUpCard({s}, n): seat {s}'s face-up row, in any order",
                                       False),
                                      ("face_down", "face_down", "getFaceDownCard({s}, n): seat {s}'s face-down row, "
                                       "by position", True)):
        for seat, refs in getattr(e, key) or ():
            rows = obs.get(field)
            got = _at(rows, seat) if rows != MISSING else MISSING
            same = _same_ordered(refs, got, ids) if ordered else _same_set(refs, got, ids)
            if not same:
                out.append(Mismatch(key, call.format(s=seat), refs_text(refs), cards_text(got)))
    asked: tuple[tuple[str, Sequence[MoveSpec | Malformed], bool], ...] = (
        ("valid", e.valid, True), ("invalid", e.invalid, False), ("malformed", e.malformed, False))
    for key, entries, expected in asked:
        for entry in entries:
            label = entry_label(entry)
            got = answers.get(label, MISSING)
            if got == "no_card":
                cards = " ".join(ref_text(c) for c in entry.cards)
                out.append(Mismatch(key, f"isValidMove({label})", value_text(expected),
                                    f"no answer: the card(s) {cards} are nowhere in your game"))
            elif got == MISSING:
                out.append(Mismatch(key, f"isValidMove({label})", value_text(expected), "not asked: the game stopped"))
            elif bool(got) != expected:
                out.append(Mismatch(key, f"isValidMove({label})", value_text(expected), value_text(bool(got)), entry))
    if e.index_ranges:
        ranges = answers.get(INDEX_RANGES)
        if not isinstance(ranges, dict):
            out.append(Mismatch("index_ranges", "the Card getters at n = -1 and n = size", "NULL",
                                "not asked: the game stopped"))
        else:
            for getter, row in ranges.items():
                if not (isinstance(row, list) and len(row) == 3):
                    continue
                for ok, where, want, bad in ((row[0], "n = -1", "NULL", "a card"), (row[1], "n = size", "NULL",
                                                                                    "a card"),
                                             (row[2], "n = size - 1", "a card", "NULL")):
                    if ok is not True:
                        out.append(Mismatch("index_ranges", f"{getter} at {where}", want, bad))
    if e.same_cards:
        for views in filter(None, _inconsistent_views(obs).split("; ")):
            out.append(Mismatch("same_cards", views, "the very same Card pointers (C4)",
                                "other Cards: a card must be one Card wherever it is read, never a copy"))
    if after is not None and answers and isinstance(after, dict):
        changed = [k for k in STATE_KEYS if obs.get(k) != after.get(k)]
        if changed:
            out.append(Mismatch("side_effects", "the game after these isValidMove() calls (C46)", "unchanged",
                                changed_words(changed), SIDE_EFFECTS_ASKED))
    return out


# ---- the state as both engines show it, by looks ------------------------------------------------------------------
STATE_KEYS = ("phase", "current_player", "current_turn", "winner", "hand_counts", "face_up_counts", "face_down_counts",
              "pile_size", "draw_pile_size", "burnt_count", "hands", "face_up", "face_down", "pile", "draw_pile",
              "burnt", "effective_top_rank", "seven_restriction")
ROWS = ("hands", "face_up", "face_down")  # per seat, compared as multisets of looks
COUNT_KEYS = ("hand_counts", "face_up_counts", "face_down_counts")  # a count per seat
CARD_LISTS = ("pile", "draw_pile", "burnt", "hand")  # cards in an order (or as a multiset)
# State no rule reads (currentTurn, C6): once it has differed it is judged by what each move changed, so a counter
# off by a constant is one note (its owner's business) and hides nothing else
COUNTERS = frozenset({"current_turn"})
SETS = ("pile", "burnt")  # multisets of looks (C37: the order inside a set and of burnt cards is free)
CALLS = {"phase": "currentPhase()", "current_player": "currentPlayer()", "current_turn": "currentTurn()",
         "winner": "gameWinner()", "hand_counts": "playerCardCount(p)", "face_up_counts": "faceUpCount(p)",
         "face_down_counts": "faceDownCount(p)", "pile_size": "discardPileSize()", "draw_pile_size": "drawPileSize()",
         "burnt_count": "burntCount()", "hands": "getHandCard(p, n)", "face_up": "faceUpCard(p, n)",
         "face_down": "getFaceDownCard(p, n)", "pile": "getDiscardPileCard(n)", "draw_pile": "getDeckCard(n)",
         "burnt": "getBurntCard(n)", "effective_top_rank": "effectiveTopRank()",
         "seven_restriction": "sevenRestriction()", "top_discard": "topDiscard()", "hand": "handCard(n)",
         "hand_count": "handCardCount()", "out_of_range": "the Card getters at n = -1 and n = size",
         "valid": "isValidMove()", "num_players": "numPlayers()", "num_cards": "numCards()", "rules": "gameRules()"}


def changed_words(keys: Iterable[str]) -> str:
    """What the grader's isValidMove calls changed, by the calls that show it (C46)."""
    return ", ".join(dict.fromkeys(CALLS.get(k, k) for k in keys)) + " changed"


def _looks(cards: object) -> tuple[object, ...]:
    if not isinstance(cards, list):
        return ("unreadable", repr(cards)[:40])
    out = []
    for c in cards:
        if not (isinstance(c, list) and len(c) == 3):
            return ("unreadable", repr(cards)[:40])
        out.append((c[0], c[1]))
    return tuple(out)


def _sorted(looks: object) -> object:
    return tuple(sorted(looks)) if isinstance(looks, tuple) and (not looks or looks[0] != "unreadable") else looks


def state_view(obs: object) -> dict[str, object] | None:
    """The library's state, by looks (None: nothing readable); functions it lacks are left out."""
    if not isinstance(obs, dict):
        return None
    out: dict[str, object] = {}
    for key in STATE_KEYS:
        value = obs.get(key)
        if value == MISSING:
            continue
        if key in ROWS:
            out[key] = tuple(_sorted(_looks(row)) if row != MISSING else MISSING for row in value) \
                if isinstance(value, list) else ("unreadable",)
        elif key in SETS:
            out[key] = _sorted(_looks(value))
        elif key == "draw_pile":
            out[key] = _looks(value)
        elif key in ("hand_counts", "face_up_counts", "face_down_counts"):
            out[key] = tuple(value) if isinstance(value, list) else value
        elif key == "seven_restriction":
            out[key] = bool(value) if isinstance(value, (bool, int)) else value
        else:
            out[key] = value
    return out


def game_view(game: Game) -> dict[str, object]:
    """The reference's state, as ``state_view`` shows the library's."""
    n = game.num_players()
    keys = lambda cards: tuple(sorted(c.key for c in cards))  # noqa: E731
    return {
        "phase": int(game.current_phase()), "current_player": game.current_player(),
        "current_turn": game.current_turn(), "winner": game.game_winner(),
        "hand_counts": tuple(game.player_card_count(s) for s in range(n)),
        "face_up_counts": tuple(game.face_up_count(s) for s in range(n)),
        "face_down_counts": tuple(game.face_down_count(s) for s in range(n)),
        "pile_size": game.discard_pile_size(), "draw_pile_size": game.draw_pile_size(),
        "burnt_count": game.burnt_count(),
        "hands": tuple(keys(game.hand(s)) for s in range(n)), "face_up": tuple(keys(game.face_up(s)) for s in range(n)),
        "face_down": tuple(keys(game.face_down(s)) for s in range(n)),
        "pile": keys(game.pile()), "draw_pile": tuple(c.key for c in game.draw_pile()), "burnt": keys(game.burnt()),
        "effective_top_rank": game.effective_top_rank(), "seven_restriction": game.seven_restriction(),
    }


def lenient_keys(game: Game) -> set[str]:
    """State the rules leave open in this reference state: after the end currentPlayer (C42),
    effectiveTopRank and sevenRestriction (C39); effectiveTopRank on a pile of mirror threes only (C29)."""
    out: set[str] = set()
    if game.current_phase() == Phase.GAME_OVER:
        out |= {"current_player", "effective_top_rank", "seven_restriction"}
    pile = game.pile()
    if game.game_rules() & RULE_MIRROR_THREE and pile and all(c.rank == Rank.THREE for c in pile):
        out.add("effective_top_rank")
    return out


def differing(view: Mapping[str, object] | None, game: Game) -> list[str]:
    """The state keys where the library's view differs from the reference game, in ``STATE_KEYS`` order."""
    if view is None:
        return ["phase"]
    ref = game_view(game)
    skip = lenient_keys(game)
    return [k for k in STATE_KEYS if k in view and k not in skip and view[k] != ref[k]]


# ---- where the library's game went another way ------------------------------------------------------------------
@dataclass(frozen=True)
class Departure:
    """Where the library's game first went where the reference's goes under no reading."""

    step: int  # the observation (moves made) where it showed
    key: str  # what differed: a state key (``STATE_KEYS``), "valid" (a refused move) or "side_effects" (C46)
    what: str  # the call
    expected: str
    got: str
    owners: frozenset[str]  # the rules whose business it is
    cause: str = ""  # what it shows, in words that are the same in every test it shows in
    # every state key that went another way there (``key`` the first), each with the rules whose business it is;
    # () for a stop (``key`` alone, with ``owners``)
    keys: tuple[tuple[str, frozenset[str]], ...] = ()

    def owned(self) -> tuple[tuple[str, frozenset[str]], ...]:
        """Each state key that went another way here, with its owners."""
        return self.keys or ((self.key, self.owners),)

    def line(self, setup: Setup, moves: Sequence[MoveSpec]) -> str:
        seats = _seats(setup, moves[:self.step])
        move = f" ({_mover(seats[self.step - 1])}: {moves[self.step - 1]})" if 0 < self.step <= len(moves) else ""
        return (f"{after_words(self.step)}{move}: {self.what}: expected {self.expected}, got {self.got} "
                f"-- the business of {', '.join(sort_rules(self.owners))}")


def rebased(obs: object, offsets: Mapping[str, int]) -> object:
    """An observation with each counter (``COUNTERS``) less its offset from the reference: a counter that differed
    once is then judged by what each later move changed."""
    if not offsets or not isinstance(obs, dict):
        return obs
    out = dict(obs)
    for key, offset in offsets.items():
        value = out.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            out[key] = value - offset
    return out


@dataclass(frozen=True)
class Walk:
    """The library's game walked beside the reference's: where it went another way, and the counters that differed
    on the way (``COUNTERS``: no rule reads them, so the game goes on; each such step is a note of its own).

    The walk goes on past a departure, carrying the reference's games that differ from the library's only in what
    has already departed: a later departure is a state key that differed for the first time (``departures``), so
    a test can judge its own checks on the keys that still agree (``Departure.keys``)."""

    departure: Departure | None
    shifts: tuple[Departure, ...] = ()  # a counter's change that differed: its step, value and owners
    offsets: tuple[tuple[int, str, int], ...] = ()  # (step, counter, library minus reference from that step on)
    departures: tuple[Departure, ...] = ()  # every departure, the first one ``departure``; the last may be a stop

    def offsets_at(self, step: int) -> dict[str, int]:
        """Counter -> its offset at ``step`` (what ``rebased`` takes off the library's value there)."""
        out: dict[str, int] = {}
        for at, key, offset in self.offsets:
            if at <= step:
                out[key] = offset
        return out


def first_departure(setup: Setup, moves: Sequence[MoveSpec], run: Played) -> Departure | None:
    """The first step where the library's state matches the reference's under no reading (the readings it
    matched so far carried on), or its refusal of a move the reference makes; None if there is none.  A counter
    (``COUNTERS``) is judged by what each move changed (``walk``)."""
    return walk(setup, moves, run).departure


def walk(setup: Setup, moves: Sequence[MoveSpec], run: Played) -> Walk:
    """``first_departure``, with the counter differences met before it and the departures after it (``Walk``)."""
    alive = [Game(setup, r) for r in Readings.every()]
    before: list[Game] = []
    shifts: list[Departure] = []
    offsets: dict[str, int] = {}
    history: list[tuple[int, str, int]] = []
    departures: list[Departure] = []
    departed: set[str] = set()  # the state keys that have gone another way: no longer compared

    def done(last: Departure | None = None) -> Walk:
        found = [*departures, *([last] if last is not None else [])]
        return Walk(found[0] if found else None, tuple(shifts), tuple(history), tuple(found))

    for k, obs in enumerate(run.steps):
        view = state_view(rebased(obs, offsets))
        diffs = [([key for key in differing(view, g) if key not in departed], g) for g in alive]
        matching = [g for d, g in diffs if not d]
        counted = [(d, g) for d, g in diffs if d and not set(d) - COUNTERS]
        if not matching and counted and view is not None and not departures:
            # only a counter's change differs: a note, judged on
            diff, game = counted[0]
            ref = game_view(game)
            prior = before[alive.index(game)] if before else None
            move = prior.resolve(moves[k - 1]) if prior is not None else None
            for key in diff:
                value = cast("int", view[key]) + offsets.get(key, 0)  # the library's own value
                shifts.append(Departure(k, key, CALLS.get(key, key), value_words(key, ref[key]),
                                        value_words(key, value), effect_owners(prior, move, game, key),
                                        state_cause(prior, move, game)))
                offsets[key] = value - cast("int", ref[key])
                history.append((k, key, offsets[key]))
            matching = [g for d, g in counted if d == diff]
        if not matching:
            diff, game = min(diffs, key=lambda p: len(p[0]))
            key = diff[0]
            ref = game_view(game)
            prior = before[alive.index(game)] if before else None
            move = prior.resolve(moves[k - 1]) if prior is not None else None
            got = cast("dict[str, object]", rebased(view, {c: -v for c, v in offsets.items()})).get(key) \
                if view is not None else "nothing readable"  # the library's own value
            departures.append(Departure(k, key, CALLS.get(key, key), value_words(key, ref[key]), value_words(key, got),
                                        effect_owners(prior, move, game, key), state_cause(prior, move, game),
                                        tuple((d, effect_owners(prior, move, game, d)) for d in diff)))
            if view is None:
                return done()
            departed.update(diff)
            matching = [g for d, g in diffs if not set(d) - departed]
        views = _inconsistent_views(obs)
        if views:
            return done(Departure(k, "hand", views, "the very cards the test getters show", "other cards",
                                  frozenset({"C4", "C43"}), views))
        changed = _side_effects(run, k, obs)
        if changed:
            return done(Departure(k, "side_effects", "the game after the grader's isValidMove() calls", "unchanged",
                                  changed_words(changed), SIDE_EFFECT_RULES, "isValidMove changed the game"))
        if k >= len(moves):
            return done()
        before, alive = [], []
        for g in matching:
            try:
                after = g.copy()
                after.play_move(after.resolve(moves[k]))
            except GameError:
                continue
            before.append(g)
            alive.append(after)
        if not alive:
            return done()
    stop = run.stop()
    if stop is not None and 0 <= stop[1] < len(moves) and stop[1] == len(run.steps) - 1 and before:
        game = before[0]  # the reference at the step where the library stopped (a reading it matched)
        try:
            move = game.resolve(moves[stop[1]])
        except GameError:
            return done()
        if stop[0] == Event.REFUSED.value:
            return done(Departure(stop[1], "valid", f"isValidMove({moves[stop[1]]})", "TRUE", "FALSE",
                                  validity_owners(game, move), ask_relation(game, move, True)[0]))
        owners = frozenset({"C4", "C16"}) | validity_owners(game, move)
        return done(Departure(stop[1], "hands", f"the cards of move {stop[1] + 1} ({moves[stop[1]]})",
                              "in the mover's zone", "not found there", owners, NO_CARD_CAUSE))
    return done()


def _inconsistent_views(obs: object) -> str:
    """I5 (rules-palace.md §4.4): handCard(n) shows the cards getHandCard(currentPlayer, n) shows, and
    topDiscard the card getDiscardPileCard(0) shows -- the same pointers (C4).  The calls that disagree, or ''."""
    if not isinstance(obs, dict):
        return ""
    out = []
    seat, hand, hands = obs.get("current_player"), obs.get("hand"), obs.get("hands")
    if isinstance(seat, int) and isinstance(hands, list) and 0 <= seat < len(hands) and isinstance(hand, list) \
            and isinstance(hands[seat], list) and sorted(map(str, hand)) != sorted(map(str, hands[seat])):
        out.append("handCard(n) against getHandCard(currentPlayer(), n)")
    pile, top = obs.get("pile"), obs.get("top_discard")
    if isinstance(pile, list) and isinstance(top, list) and top != (pile[0] if pile else NULL_CARD):
        out.append("topDiscard() against getDiscardPileCard(0)")
    return "; ".join(out)


def _side_effects(run: Played, k: int, obs: object) -> list[str]:
    """What isValidMove calls changed at step k: the battery's (a recheck frame) or the scenario's questions."""
    changed = run.rechecked.get(k)
    if isinstance(changed, dict) and changed:
        return sorted(str(key) for key in changed)
    frame = run.asked.get(k)
    after = frame.get("obs") if frame is not None else None
    if isinstance(obs, dict) and isinstance(after, dict):
        return [key for key in STATE_KEYS if obs.get(key) != after.get(key)]
    return []


# ---- what a wrong value shows -------------------------------------------------------------------------------------
EXPECT_KEYS = {"phase": "phase", "current_player": "current_player", "current_turn": "current_turn",
               "winner": "winner", "effective_top_rank": "effective_top_rank", "seven_restriction": "seven_restriction",
               "hand_counts": "hand_counts", "face_up_counts": "face_up_counts", "face_down_counts": "face_down_counts",
               "draw_pile_size": "draw_pile_size", "discard_pile_size": "pile_size", "burnt_count": "burnt_count",
               "top_discard": "pile", "pile": "pile", "draw_pile": "draw_pile", "hand": "hands", "face_up": "face_up",
               "face_down": "face_down", "valid": "valid", "invalid": "valid", "malformed": "valid",
               "same_cards": "hand"}


def asserts(s: Scenario, step: int, key: str) -> bool:
    """Does the scenario assert the state key ``key`` (or isValidMove, "valid") at that step itself?"""
    blocks = list(s.expects) if s.probe is None else [e for b in s.probe.blocks
                                                      for e in (b.shared, *(x for _r, x in b.by_reading))]
    return any(EXPECT_KEYS.get(k) == key for e in blocks if e.after == step for k in e.asserted())


def _reference_after(s: Scenario, step: int) -> tuple[Game | None, PlayerMove | None, Game] | None:
    """The reference (its own readings) before the move that led to ``step``, that move, and after it."""
    game, before, move = Game(s.setup), None, None
    try:
        for k, spec in enumerate(s.moves[:step]):
            if k == step - 1:
                before, move = game.copy(), game.resolve(spec)
            game.play_move(game.resolve(spec))
    except GameError:
        return None
    return before, move, game


# What an isValidMove answer reads of the state, besides the mover's own rows (``answers_agree``)
ANSWER_READS = ("phase", "current_player", "winner", "pile", "effective_top_rank", "seven_restriction")


def answers_agree(s: Scenario, step: int, obs: object) -> bool:
    """Does the library's state after ``step`` moves agree with the reference's on all an isValidMove answer reads
    there: the phase, whose turn, the pile and what it asks, and the mover's hand and rows (by looks)?  Where it
    does, a wrong answer is the business of the rules of that answer, whatever else went another way."""
    ref = _reference_after(s, step)
    view = state_view(obs)
    if ref is None or view is None:
        return False
    game = ref[2]
    want = game_view(game)
    skip = lenient_keys(game)
    if any(k not in skip and view.get(k, want[k]) != want[k] for k in ANSWER_READS):
        return False
    seat = game.current_player()
    for key in ROWS:  # by seat, each a multiset of looks (``state_view``); a row the library lacks is left out
        got, rows = view.get(key), cast("tuple[object, ...]", want[key])
        if isinstance(got, tuple) and 0 <= seat < len(rows) and (seat >= len(got) or got[seat] != rows[seat]):
            return False
    return True


def mismatch_cause(s: Scenario, step: int, m: Mismatch) -> tuple[str, frozenset[str]]:
    """What a mismatch shows, in words that are the same in every test it shows in, and the rules whose business
    it is (for a value the scenario asserts itself, the rules of the move that led there)."""
    entry = m.entry
    if entry == SIDE_EFFECTS_ASKED:
        return "isValidMove changed the game", SIDE_EFFECT_RULES
    ref = _reference_after(s, step)
    if ref is None:
        return m.field, frozenset()
    before, move, game = ref
    if m.field == "same_cards":
        return "a card read through two queries is not one Card", frozenset({"C4"})
    if entry is None:
        key = EXPECT_KEYS.get(m.field, m.field)
        owners = effect_owners(before, move, game, key) if key in STATE_KEYS else frozenset()
        return state_cause(before, move, game), owners
    assert not isinstance(entry, str)  # SIDE_EFFECTS_ASKED is the one marker that is not a move
    try:
        asked, _outside = build_move(game, entry)
    except ScenarioError:
        return m.field, frozenset()
    return ask_relation(game, asked, m.field == "valid")


def mismatch_owners(s: Scenario, step: int, m: Mismatch) -> frozenset[str] | None:
    """The rules a wrong isValidMove answer (or a side effect) is the business of; None for a value the
    scenario asserts itself (always its own business)."""
    return mismatch_cause(s, step, m)[1] if m.entry is not None else None
