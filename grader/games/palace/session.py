"""A Palace scenario played on a submission and judged on what its file expects.

``PalaceSession`` is the core's ``SubmissionSession`` (build, worker, limits) with Palace's part.
``run_scenario`` plays the scenario's moves on the library in one worker run (the job
``grader.games.palace.play``, with the questions of the scenario's ``valid``/``invalid``/``malformed``
lists and ``index_ranges`` asked at their step) and judges every ``expect`` block on the library's own
observation after ``after`` moves.  The expected values come from the scenario file -- checked on the
reference under every reading by the scenario tests -- never from the reference engine here.

The reference is used only to say *whose* business a difference is (one bug, one deduction).  When a
scenario cannot be judged on its own rule because the library's game went another way earlier (a wrong
deal, a refused move, a wrong turn order...), the first step where the library's game matches the
reference under no reading (``first_departure``) is attributed to the rules that govern what happened
there (``effect_owners``, ``validity_owners``).  If the scenario names one of them, the difference is its
business (a failure); otherwise the test is INCONCLUSIVE -- another test judges it, and it is not counted
twice.  So is a scenario whose only wrong values are isValidMove answers governed by rules it does not
name (``ask_relation``: an equal rank played on a mirror three is the business of C8, not of C29).  Every
failure also records its cause (``mismatch_cause``: what it shows, in the same words in every test) for
``stages.charge_once``, which makes a cause cost marks in one group only.  A crash, a hang or an early
exit is always the scenario's verdict, pinned on the call in progress.

A probe scenario (``probe = "C9"``, §4.3) passes when the library follows one of the switch's readings
in every block; the readings it follows are kept (``PalaceSession.probed``) for the random games, which
hold a submission to the reading it follows.  Mixing readings fails the probe: following none of them in
one probe, or following one another probe of the same ruling excluded.

Also here, for the reports: ``write_repros``, a C program per failed scenario that replays it with newGame
and playMove and checks what it expects (``c_program``).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from grader.core.classify import classify
from grader.core.limits import Limits
from grader.core.results import TestResult, Verdict
from grader.core.run_report import RunReport
from grader.core.session import SubmissionSession
from grader.core.worker_client import WorkerClient, WorkerLost
from grader.games.palace.interface import API_FUNCTIONS
from grader.games.palace.observe import MISSING, NULL_CARD, describe_call, look
from grader.games.palace.play import ASK, OVER, RECHECK, Event, max_frames
from grader.games.palace.scenarios import Expect, Malformed, Scenario, ScenarioError, build_move
from reference.palace import (
    HAND_DEAL,
    NOT_FINISHED,
    RULE_MIRROR_THREE,
    RULE_SEVEN_LOWER,
    SWITCHES,
    TABLE_CARDS,
    Action,
    CardRef,
    Game,
    GameError,
    MoveSpec,
    Phase,
    PlayerMove,
    Rank,
    Readings,
    Setup,
    format_moves,
)

GAME_ERRORS = {"null_game": (Verdict.WRONG, "newGame() returned NULL for a valid deck (rules-palace.md §1.3).")}
OVER_TAGS = frozenset(e.value for e in OVER)
STOP_TAGS = (Event.REFUSED.value, Event.NO_CARD.value)
MOVES_SHOWN = 40  # moves a message lists at most (the last ones)
# A test whose rule a departure owned elsewhere hid keeps its marks for now: Palace does not judge around
# a departure yet (Final Card-Down does, and earns only what was seen); issue 35 brings it here.
EXCUSED = 1.0
PHASES = {int(p): p.name for p in Phase}

__all__ = ["Departure", "GameRun", "Mismatch", "PalaceSession", "effect_owners", "first_departure", "play",
           "state_view", "validity_owners"]


# ---- one game on the library --------------------------------------------------------------------------
@dataclass(frozen=True)
class GameRun:
    """One game played on the submission: how the run ended, and what the child sent."""

    report: RunReport
    steps: list[Any]  # the observation after newGame and after each move made
    asked: dict[int, Mapping[str, Any]]  # step -> the "asked" frame of that step
    events: list[Mapping[str, Any]]  # moved, refused, no_card, done, error
    rechecked: dict[int, Any]  # step -> the counters the battery's isValidMove calls changed (C46)

    @property
    def over(self) -> bool:
        """Did the child get to the end of what it could play?"""
        return any(e["t"] in OVER_TAGS for e in self.events)

    def stop(self) -> tuple[str, int] | None:
        """("refused" | "no_card", move index) when the library could not make a move."""
        for e in self.events:
            if e["t"] in STOP_TAGS:
                i = e.get("i")
                return str(e["t"]), i if isinstance(i, int) and not isinstance(i, bool) else -1
        return None


def play(client: WorkerClient, setup: Setup, moves: Sequence[MoveSpec], *, limits: Limits,
         asks: Sequence[tuple[int, list[Any]]] = (), blind_cards: Sequence[tuple[int, int]] = (),
         destroy: bool = False, battery: bool = True, recheck: bool = False) -> GameRun:
    """Play ``moves`` on a fresh game in a fresh child (``grader.games.palace.play``; see its request keys)."""
    request: dict[str, Any] = {"setup": str(setup), "moves": [str(m) for m in moves], "destroy": destroy,
                               "battery": battery, "recheck": recheck}
    if asks:
        request["ask"] = [[step, entries] for step, entries in asks]
    if blind_cards:
        request["blind_cards"] = [list(b) for b in blind_cards]
    frames = max_frames(len(moves)) + len(asks) + (len(moves) + 1 if recheck else 0)
    report = client.run(request, limits, frames)
    steps: list[Any] = []
    asked: dict[int, Mapping[str, Any]] = {}
    rechecked: dict[int, Any] = {}
    events: list[Mapping[str, Any]] = []
    for f in report.frames:
        i = f.get("i")
        step = i if isinstance(i, int) and not isinstance(i, bool) else -1
        if f["t"] == Event.OBS.value:
            steps.append(f.get("obs"))
        elif f["t"] == Event.ASKED.value:
            asked.setdefault(step, f)
        elif f["t"] == Event.RECHECK.value:
            rechecked.setdefault(step, f.get("counts"))
        else:
            events.append(f)
    return GameRun(report, steps, asked, events, rechecked)


def judge_run(run: GameRun) -> tuple[Verdict, str] | None:
    """What a played game's facts mean, when it did not simply finish (``grader.core.classify``)."""
    return classify(run.report, over=run.over, errors=GAME_ERRORS)


# ---- words ------------------------------------------------------------------------------------------------
def card_text(card: Any) -> str:
    """An observed card as a student writes it: ``5H``, ``NULL``, or ``<r,s>`` for garbage."""
    if not isinstance(card, list) or len(card) != 3:
        return repr(card)
    if card == NULL_CARD:
        return "NULL"
    try:
        return look(card[0], card[1])
    except (TypeError, ValueError):
        return repr(card)


def cards_text(cards: Any) -> str:
    if cards == MISSING:
        return "(the function is missing)"
    if not isinstance(cards, list):
        return repr(cards)
    return "[" + " ".join(card_text(c) for c in cards) + "]" if cards else "[] (none)"


def ref_text(ref: CardRef) -> str:
    return str(ref)


def refs_text(refs: Iterable[CardRef]) -> str:
    refs = list(refs)
    return "[" + " ".join(ref_text(r) for r in refs) + "]" if refs else "[] (none)"


def value_text(value: Any) -> str:
    if value == MISSING:
        return "(the function is missing)"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return repr(value)


def _seats(setup: Setup, moves: Sequence[MoveSpec]) -> list[int | None]:
    """Who made each move, on the reference (the moves of a test are valid under every reading)."""
    game = Game(setup)
    out: list[int | None] = []
    for spec in moves:
        if game.outcome() is not None:
            out.append(None)
            continue
        out.append(game.current_player())
        try:
            game.play_move(game.resolve(spec))
        except GameError:
            return out + [None] * (len(moves) - len(out))
    return out


def moves_text(setup: Setup, moves: Sequence[MoveSpec], upto: int) -> str:
    """The moves 1..upto, one a line with the seat that made it (the last ``MOVES_SHOWN``)."""
    upto = max(0, min(upto, len(moves)))
    if not upto:
        return "    (no move yet)"
    seats = _seats(setup, moves[:upto])
    first = max(0, upto - MOVES_SHOWN)
    lines = [f"    ... ({first} earlier moves)"] if first else []
    for k in range(first, upto):
        who = f"seat {seats[k]}" if seats[k] is not None else "?"
        lines.append(f"    {k + 1:>3}. {who}: {moves[k]}")
    return "\n".join(lines)


def after_words(step: int) -> str:
    return "right after newGame()" if step == 0 else f"after move {step}"


# ---- what a scenario asks of isValidMove -----------------------------------------------------------------------
def ask_entry(entry: MoveSpec | Malformed) -> dict[str, Any]:
    """A ``valid``/``invalid``/``malformed`` entry as the job's ``ask`` reads it."""
    if isinstance(entry, Malformed):
        cards: list[Any] = [ref_text(c) for c in entry.cards]
        if entry.form == "action":
            return {"action": entry.number}
        if entry.form == "blind":
            return {"action": int(Action.PLAY_FACE_DOWN), "index": entry.number}
        if entry.form == "count":
            return {"action": entry.action, "cards": cards, "count": entry.number}
        if entry.form == "null":
            return {"action": entry.action, "cards": cards + [None]}
        return {"action": entry.action, "cards": cards + [0]}  # repeat: the first card's pointer again
    return {"action": int(entry.action), "cards": [ref_text(c) for c in entry.cards],
            "index": entry.face_down_index}


def entry_label(entry: MoveSpec | Malformed) -> str:
    return entry.text if isinstance(entry, Malformed) else str(entry)


INDEX_RANGES = "index_ranges"


class Asks:
    """The questions of a scenario, by step: each distinct entry asked once."""

    def __init__(self) -> None:
        self.by_step: dict[int, list[tuple[str, Any]]] = {}

    def add(self, step: int, label: str, entry: Any) -> None:
        row = self.by_step.setdefault(step, [])
        if label not in (lb for lb, _e in row):
            row.append((label, entry))

    def add_expect(self, e: Expect) -> None:
        for entry in (*e.valid, *e.invalid, *e.malformed):
            self.add(e.after, entry_label(entry), ask_entry(entry))
        if e.index_ranges:
            self.add(e.after, INDEX_RANGES, INDEX_RANGES)

    def request(self) -> list[tuple[int, list[Any]]]:
        return [(step, [entry for _label, entry in row]) for step, row in sorted(self.by_step.items())]

    def answers(self, step: int, frame: Mapping[str, Any] | None) -> dict[str, Any]:
        """label -> the library's answer at that step ({} when the questions were not asked)."""
        if frame is None:
            return {}
        got = frame.get("answers")
        if not isinstance(got, list):
            return {}
        return {label: got[k] for k, (label, _e) in enumerate(self.by_step.get(step, [])) if k < len(got)}



# ---- judging one expect block -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mismatch:
    field: str  # the expectation key
    what: str  # the call a student recognises
    expected: str
    got: str
    entry: Any = None  # the move asked of isValidMove (valid, invalid, malformed)

    def line(self) -> str:
        return f"{self.what}: expected {self.expected}, got {self.got}"


def ident_map(obs0: Any, setup: Setup) -> dict[int, int]:
    """The observer's card ids of the library -> deck index, read from its observation right after newGame by
    the deal of C2 (only where the card there has the look the deal puts there)."""
    out: dict[int, int] = {}
    if not isinstance(obs0, dict):
        return out
    n, keys = setup.n_players, setup.deck

    def put(card: Any, index: int) -> None:
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
        hand = [c for c in (_at(hands, s) or []) if isinstance(c, list) and len(c) == 3]
        used: set[int] = set()
        for index in range(s, HAND_DEAL * n, n):
            k = next((k for k, c in enumerate(hand) if k not in used and (c[0], c[1]) == keys[index]), None)
            if k is not None:
                used.add(k)
                put(hand[k], index)
    return out


def _at(values: Any, i: int) -> Any:
    return values[i] if isinstance(values, list) and 0 <= i < len(values) else None


def _matches(want: CardRef, got: Any, ids: Mapping[int, int]) -> bool:
    if not (isinstance(got, list) and len(got) == 3) or got == NULL_CARD:
        return False
    return (got[0], got[1]) == (want.rank, want.suit) and (want.ident is None or ids.get(got[2]) == want.ident)


def _same_ordered(want: Sequence[CardRef], got: Any, ids: Mapping[int, int]) -> bool:
    return isinstance(got, list) and len(want) == len(got) and all(_matches(w, g, ids) for w, g in zip(want, got))


def _same_set(want: Sequence[CardRef], got: Any, ids: Mapping[int, int]) -> bool:
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


def _scalar_text(key: str, value: Any) -> str:
    if value == MISSING:
        return value_text(value)
    if key == "phase" and isinstance(value, int) and not isinstance(value, bool):
        return PHASES.get(value, repr(value))
    if key == "winner" and value == NOT_FINISHED:
        return "NOT_FINISHED (-1)"
    if key == "seven_restriction":
        return value_text(bool(value)) if isinstance(value, (bool, int)) else repr(value)
    return value_text(value)


def check_expect(e: Expect, obs: Any, answers: Mapping[str, Any], ids: Mapping[int, int], n_players: int,
                 after: Any = None) -> list[Mismatch]:
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
            out.append(Mismatch(key, call, _scalar_text(key, expected), _scalar_text(key, got)))
    for key, field, call in COUNTS:
        want = getattr(e, key)
        if want is not None and obs.get(field) != list(want):
            got = obs.get(field)
            out.append(Mismatch(key, f"{call} for p = 0..{n_players - 1}", repr(list(want)),
                                value_text(got) if got == MISSING else repr(got)))
    if e.top_discard is not None:
        got = obs.get("top_discard")
        if e.top_discard == "none":
            if got != NULL_CARD:
                out.append(Mismatch("top_discard", "topDiscard()", "NULL (the pile is empty)", card_text(got)))
        elif not _matches(e.top_discard, got, ids):  # type: ignore[arg-type]
            out.append(Mismatch("top_discard", "topDiscard()", ref_text(e.top_discard),  # type: ignore[arg-type]
                                card_text(got)))
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
    for key, entries, expected in (("valid", e.valid, True), ("invalid", e.invalid, False),
                                   ("malformed", e.malformed, False)):
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
    if after is not None and answers and isinstance(after, dict):
        changed = [k for k in STATE_KEYS if obs.get(k) != after.get(k)]
        if changed:
            out.append(Mismatch("side_effects", "the game after these isValidMove() calls (C46)", "unchanged",
                                f"{', '.join(changed)} changed", "C46"))
    return out


# ---- the state as both engines show it, by looks ------------------------------------------------------------------
STATE_KEYS = ("phase", "current_player", "current_turn", "winner", "hand_counts", "face_up_counts", "face_down_counts",
              "pile_size", "draw_pile_size", "burnt_count", "hands", "face_up", "face_down", "pile", "draw_pile",
              "burnt", "effective_top_rank", "seven_restriction")
ROWS = ("hands", "face_up", "face_down")  # per seat, compared as multisets of looks
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


def _looks(cards: Any) -> Any:
    if not isinstance(cards, list):
        return ("unreadable", repr(cards)[:40])
    out = []
    for c in cards:
        if not (isinstance(c, list) and len(c) == 3):
            return ("unreadable", repr(cards)[:40])
        out.append((c[0], c[1]))
    return tuple(out)


def _sorted(looks: Any) -> Any:
    return tuple(sorted(looks)) if isinstance(looks, tuple) and (not looks or looks[0] != "unreadable") else looks


def state_view(obs: Any) -> dict[str, Any] | None:
    """The library's state, by looks (None: nothing readable); functions it lacks are left out."""
    if not isinstance(obs, dict):
        return None
    out: dict[str, Any] = {}
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


def game_view(game: Game) -> dict[str, Any]:
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


def differing(view: dict[str, Any] | None, game: Game) -> list[str]:
    """The state keys where the library's view differs from the reference game, in ``STATE_KEYS`` order."""
    if view is None:
        return ["phase"]
    ref = game_view(game)
    skip = lenient_keys(game)
    return [k for k in STATE_KEYS if k in view and k not in skip and view[k] != ref[k]]


# ---- whose business a difference is ---------------------------------------------------------------------------
ALL = "*"
ZONE_KEYS = frozenset({"hands", "hand_counts", "face_up", "face_up_counts", "face_down", "face_down_counts", "pile",
                       "pile_size", "top_discard", "draw_pile", "draw_pile_size", "burnt", "burnt_count", "hand",
                       "hand_count"})
DRAW_KEYS = frozenset({"hands", "hand_counts", "hand", "hand_count", "draw_pile", "draw_pile_size"})
PILE_KEYS = frozenset({"pile", "pile_size", "top_discard", "burnt", "burnt_count", "effective_top_rank",
                       "seven_restriction", "current_player", "valid"})
TURN_KEYS = frozenset({"phase", "current_player", "current_turn"})
DEAL = [({"hands", "hand_counts", "hand", "hand_count", "face_down", "face_down_counts", "face_up", "face_up_counts",
          "burnt", "burnt_count"}, {"P2", "C2"}),  # newGame: the deal (P2), the starting card and the rest (P4)
        ({"pile", "pile_size", "top_discard", "draw_pile", "draw_pile_size", "effective_top_rank",
          "seven_restriction"}, {"P4", "C2"}),
        ({"phase", "current_player"}, {"P5", "C1", "C5"}), ({"current_turn"}, {"C6"}), ({"winner"}, {"C32"})]
CHOOSE = [(ZONE_KEYS, {"P3", "C5"}), ({"phase"}, {"C5"}), ({"current_player"}, {"P5", "C1", "C5"}),
          ({"current_turn"}, {"C6"}), ({"winner", "effective_top_rank", "seven_restriction"}, {"C5"})]
BOUND_KEYS = frozenset({"effective_top_rank", "seven_restriction", "valid"})  # what the next card must beat
RANK_KEYS = {Rank.TWO: frozenset({"current_player", "effective_top_rank", "valid"}),  # what a rank's power shows in
             Rank.THREE: BOUND_KEYS | {"pile", "pile_size", "top_discard", "burnt", "burnt_count"},
             Rank.SEVEN: BOUND_KEYS, Rank.TEN: PILE_KEYS}
RANK_RULES = {Rank.TWO: {"P17", "C24", "C25"}, Rank.THREE: {"P18", "P20", "C29", "C30"},
              Rank.SEVEN: {"P19", "P20", "C26", "C27", "C28"}, Rank.TEN: {"P16", "C22", "C23"}}


def _covers(keys: Any, key: str) -> bool:
    return keys == ALL or key in keys


def _effects(before: Game | None, move: PlayerMove | None, after: Game | None) -> list[tuple[Any, set[str]]]:
    """What a move did on the reference, as (the state keys it shows in, the rules that govern it)."""
    if before is None or move is None or after is None:
        return [(keys, set(rules)) for keys, rules in DEAL]
    if move.action == Action.CHOOSE_FACE_UP:
        return [(keys, set(rules)) for keys, rules in CHOOSE]
    out: list[tuple[Any, set[str]]] = [({"current_turn"}, {"C6"}), ({"phase", "winner"}, {"P14", "C32", "C33"})]
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


def effect_owners(before: Game | None, move: PlayerMove | None, after: Game | None, key: str) -> frozenset[str]:
    """The rules whose business a difference in ``key`` is, right after ``move`` (None: after newGame)."""
    effects = _effects(before, move, after)
    owners = set().union(*(rules for keys, rules in effects if _covers(keys, key)))
    return frozenset(owners or set().union(*(rules for _k, rules in effects)))


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

    def line(self, setup: Setup, moves: Sequence[MoveSpec]) -> str:
        seats = _seats(setup, moves[:self.step])
        move = (f" (seat {seats[self.step - 1]}: {moves[self.step - 1]})"
                if 0 < self.step <= len(moves) and seats[self.step - 1] is not None else "")
        return (f"{after_words(self.step)}{move}: {self.what}: expected {self.expected}, got {self.got} "
                f"-- the business of {', '.join(sort_rules(self.owners))}")


def sort_rules(rules: Iterable[str]) -> list[str]:
    return sorted(rules, key=lambda r: (r[0] != "P", int(r[1:]) if r[1:].isdigit() else 0, r))


def _view_text(key: str, value: Any) -> str:
    if key in ROWS and isinstance(value, tuple):
        return "; ".join(f"seat {s}: " + _keys_text(row) for s, row in enumerate(value))
    if key in SETS or key == "draw_pile":
        return _keys_text(value)
    return _scalar_text(key, value) if key in ("phase", "winner", "seven_restriction") else value_text(value)


def _keys_text(looks: Any) -> str:
    if isinstance(looks, tuple) and all(isinstance(k, tuple) and len(k) == 2 for k in looks):
        return "[" + " ".join(look(*k) for k in looks) + "]" if looks else "[] (none)"
    return repr(looks)


def first_departure(setup: Setup, moves: Sequence[MoveSpec], run: GameRun) -> Departure | None:
    """The first step where the library's state matches the reference's under no reading (the readings it
    matched so far carried on), or its refusal of a move the reference makes; None if there is none."""
    alive = [Game(setup, r) for r in Readings.every()]
    before: list[Game] = []
    for k, obs in enumerate(run.steps):
        view = state_view(obs)
        diffs = [(differing(view, g), g) for g in alive]
        matching = [g for d, g in diffs if not d]
        if not matching:
            diff, game = min(diffs, key=lambda p: len(p[0]))
            key = diff[0]
            ref = game_view(game)
            prior = before[alive.index(game)] if before else None
            move = prior.resolve(moves[k - 1]) if prior is not None else None
            got = view.get(key) if view is not None else "nothing readable"
            cause = state_cause(prior, move, game)
            return Departure(k, key, CALLS.get(key, key), _view_text(key, ref[key]), _view_text(key, got),
                             effect_owners(prior, move, game, key), cause)
        views = _inconsistent_views(obs)
        if views:
            return Departure(k, "hand", views, "the very cards the test getters show", "other cards",
                             frozenset({"C4", "C43"}), views)
        changed = _side_effects(run, k, obs)
        if changed:
            return Departure(k, "side_effects", "the game after the grader's isValidMove() calls", "unchanged",
                             f"{', '.join(changed)} changed", SIDE_EFFECT_RULES, "isValidMove changed the game")
        if k >= len(moves):
            return None
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
            return None
    stop = run.stop()
    if stop is not None and 0 <= stop[1] < len(moves) and stop[1] == len(run.steps) - 1 and before:
        game = before[0]  # the reference at the step where the library stopped (a reading it matched)
        try:
            move = game.resolve(moves[stop[1]])
        except GameError:
            return None
        if stop[0] == Event.REFUSED.value:
            return Departure(stop[1], "valid", f"isValidMove({moves[stop[1]]})", "TRUE", "FALSE",
                             validity_owners(game, move), ask_relation(game, move, True)[0])
        owners = frozenset({"C4", "C16"}) | validity_owners(game, move)
        return Departure(stop[1], "hands", f"the cards of move {stop[1] + 1} ({moves[stop[1]]})",
                         "in the mover's zone", "not found there", owners, NO_CARD_CAUSE)
    return None


SIDE_EFFECT_RULES = frozenset({"C46"})
NO_CARD_CAUSE = "a card of a move not in the mover's zone"


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


def mismatch_cause(s: Scenario, step: int, m: Mismatch) -> tuple[str, frozenset[str]]:
    """What a mismatch shows, in words that are the same in every test it shows in, and the rules whose business
    it is (for a value the scenario asserts itself, the rules of the move that led there)."""
    if m.entry == "C46":
        return "isValidMove changed the game", SIDE_EFFECT_RULES
    ref = _reference_after(s, step)
    if ref is None:
        return m.field, frozenset()
    before, move, game = ref
    if m.entry is None:
        key = EXPECT_KEYS.get(m.field, m.field)
        owners = effect_owners(before, move, game, key) if key in STATE_KEYS else frozenset()
        return state_cause(before, move, game), owners
    try:
        asked, _outside = build_move(game, m.entry)
    except ScenarioError:
        return m.field, frozenset()
    return ask_relation(game, asked, m.field == "valid")


def mismatch_owners(s: Scenario, step: int, m: Mismatch) -> frozenset[str] | None:
    """The rules a wrong isValidMove answer (or a side effect) is the business of; None for a value the
    scenario asserts itself (always its own business)."""
    return mismatch_cause(s, step, m)[1] if m.entry is not None else None


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
    if not expected:
        why = game.why_invalid(move) or ""
        return f"isValidMove FALSE: {why}", frozenset(clauses_in(why))
    if game.current_phase() == Phase.SETUP_PHASE:
        return "isValidMove TRUE: a face-up choice", frozenset({"P3", "C5"})
    seat = game.current_player()
    if move.action == Action.PICK_UP_PILE:
        stage = game.stage(seat)
        return f"isValidMove TRUE: taking the pile ({stage})", frozenset(
            {"P9", "C12", "C36"} | ({"C14"} if stage == "face_down" else set()))
    if move.action == Action.PLAY_FACE_DOWN:
        return "isValidMove TRUE: a face-down card", frozenset({"P12", "C16", "C17"})
    cards = [c for c in move.cards if c is not None]
    if not cards:
        return "isValidMove TRUE: no card", frozenset({"C40"})
    out = {"P7"} if len(cards) > 1 else set()
    words = ["a set" if len(cards) > 1 else "a card"]
    if game.stage(seat) == "face_up":
        out |= {"P10", "C15", "C16"}
        words.append("from the face-up row")
    rank, top, flags = int(cards[0].rank), game.top_discard(), game.game_rules()
    if top is None:
        out |= {"C23", "C12"}
        words.append("led on an empty pile")
    elif game.seven_restriction():
        out |= {"P19", "C26", "C28"}
        words.append("under the seven's bound")
    elif rank in (Rank.TWO, Rank.TEN) or (rank == Rank.THREE and flags & RULE_MIRROR_THREE):
        out |= RANK_RULES[rank]
        words.append(f"of the special rank {rank}")
    elif rank == game.effective_top_rank():
        out |= {"P6", "C8"}
        words.append("of the rank to beat")
    else:
        out |= {"P6", "C3"}
        words.append("higher than the rank to beat")
    if top is not None and top.rank == Rank.THREE and not flags & RULE_MIRROR_THREE:
        out |= {"P18", "P20"}  # a plain three: the option is off
        words.append("on a plain three")
    if top is not None and top.rank == Rank.SEVEN and not flags & RULE_SEVEN_LOWER:
        out |= {"P19", "P20"}  # a plain seven: the option is off
        words.append("on a plain seven")
    return "isValidMove TRUE: " + " ".join(words), frozenset(out)


def _inconsistent_views(obs: Any) -> str:
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


def _side_effects(run: GameRun, k: int, obs: Any) -> list[str]:
    """What isValidMove calls changed at step k: the battery's (a recheck frame) or the scenario's questions."""
    changed = run.rechecked.get(k)
    if isinstance(changed, dict) and changed:
        return sorted(str(key) for key in changed)
    frame = run.asked.get(k)
    after = frame.get("obs") if frame is not None else None
    if isinstance(obs, dict) and isinstance(after, dict):
        return [key for key in STATE_KEYS if obs.get(key) != after.get(key)]
    return []


def where(setup: Setup, moves: Sequence[MoveSpec], run: GameRun, call: tuple[int, ...] | None) -> str:
    """Where in the game a crash or a hang happened: the call in progress, and the moves up to there."""
    if call is not None:
        step, probe, cfn, a, b = call
        step = max(0, min(step, len(moves)))
        name = API_FUNCTIONS[cfn] if 0 <= cfn < len(API_FUNCTIONS) else "an API call"
        if probe == ASK:
            what, upto = f"{name}(), asked by the grader {after_words(step)}", step
        elif probe == RECHECK:
            what, upto = f"{name}(), read again {after_words(step)}", step
        elif probe < 0:
            what = describe_call(probe, cfn, a, b, moves)
            upto = {-2: a + 1, -4: a + 1, -6: a + 1, -3: len(moves)}.get(probe, step)  # a move: up to it
        else:
            what = f"{describe_call(probe, cfn, a, b, moves)} while the grader was reading your game " \
                   f"{after_words(step)}"
            upto = step
        upto = max(0, min(upto, len(moves)))
        text = f"It happened in {what}."
        if upto:
            text += f"\nMoves up to there:\n{moves_text(setup, moves, upto)}"
        return text
    if not run.steps:
        return "It happened in newGame() or in the first look at the new game."
    upto = len(run.steps) - 1
    return f"It happened {after_words(upto)}.\nMoves up to there:\n{moves_text(setup, moves, upto)}"


# ---- the session ---------------------------------------------------------------------------------------------
@dataclass
class Probed:
    """What one probe (a scenario, or one of the stage's own) showed of a switch ruling's readings."""

    ruling: str
    source: str  # the test id, or the stage's probe name
    readings: frozenset[str] | None  # the readings the library follows there; None: the probe could not tell


class PalaceSession(SubmissionSession):
    """A session of the Palace edition: scenarios judged on their expectations, probes remembered."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.owners: Any = {}
        self.probed: list[Probed] = []  # every probe's finding, in the order they ran
        # test id -> what each of its failures shows, and the rules of that (``mismatch_cause``): a failure
        # another test shows too is charged once (``stages.charge_once``)
        self.causes: dict[str, list[tuple[str, frozenset[str]]]] = {}

    @classmethod
    def open(cls, folder: Path, **kwargs: Any) -> PalaceSession:
        from grader.games.palace import GAME  # noqa: PLC0415 - the package imports this module lazily

        return cls.open_game(folder, GAME, **kwargs)

    # ---- playing -----------------------------------------------------------------------------------------
    def play(self, setup: Setup, moves: Sequence[MoveSpec], **kwargs: Any) -> GameRun:
        """One game on the library (``play``'s keywords), under the session's limits (a hang shortens the
        later ones); ``WorkerLost`` when the sandbox stopped answering."""
        assert self.client is not None
        try:
            run = play(self.client, setup, moves, limits=self.limits, **kwargs)
        except WorkerLost:
            self._count_timeout()  # a lost worker cost a full wall limit too
            raise
        trouble = judge_run(run)
        if trouble is not None and trouble[0] is Verdict.TIMED_OUT:
            self._count_timeout()
        return run

    def lost(self, base: TestResult, lost: WorkerLost, start: float) -> TestResult:
        base.verdict = Verdict.WORKER_LOST
        base.message = (f"The sandbox running your code stopped answering ({lost}); it was restarted "
                        "and the other tests still ran.")
        base.seconds = time.monotonic() - start
        return base

    # ---- a scenario -------------------------------------------------------------------------------------
    def run_scenario(self, scenario: Scenario) -> TestResult:
        s = scenario
        base = TestResult(f"{s.group}/{s.id}", s.group, tuple(s.rules), s.weight, Verdict.NOT_RUN, kind="scenario",
                          deck=str(s.setup), moves=format_moves(s.moves))
        if self.client is None:
            base.message = "Not run: the submission did not compile."
            return base
        start = time.monotonic()
        asks = Asks()
        blocks: list[tuple[str | None, Expect]] = []  # (reading, expectation): None for every reading
        if s.probe is None:
            blocks = [(None, e) for e in s.expects]
        else:
            for b in s.probe.blocks:
                blocks.append((None, b.shared))
                blocks += [(r, b.for_reading(r)) for r in s.probe.readings]
        for _r, e in blocks:
            asks.add_expect(e)
        try:
            run = self.play(s.setup, s.moves, asks=asks.request(), battery=False)
        except WorkerLost as lost:
            return self.lost(base, lost, start)
        base.seconds = time.monotonic() - start
        base.stdout, base.stderr = run.report.stdout[:65536], run.report.stderr[:65536]
        ids = ident_map(run.steps[0] if run.steps else None, s.setup)
        n = s.setup.n_players

        def judged(e: Expect) -> list[Mismatch] | None:
            """The mismatches of one block; None when the game never got there."""
            if e.after >= len(run.steps):
                return None
            frame = run.asked.get(e.after)
            answers = asks.answers(e.after, frame)
            needs_answers = bool(e.valid or e.invalid or e.malformed or e.index_ranges)
            if needs_answers and frame is None:
                return None
            return check_expect(e, run.steps[e.after], answers, ids, n, frame.get("obs") if frame else None)

        found = {id(e): judged(e) for _r, e in blocks}
        trouble = judge_run(run)
        if s.probe is None:
            failed = next(((e, found[id(e)]) for _r, e in sorted(blocks, key=lambda b: b[1].after)
                           if found[id(e)] is None or found[id(e)]), None)
            if failed is None and trouble is None:
                base.verdict = Verdict.PASSED
                return base
            return self._failure(base, s, run, trouble, failed, [])
        # a probe: which readings does the library follow in every block?
        follows = []
        for reading in s.probe.readings:
            if all(found[id(e)] == [] for r, e in blocks if r in (None, reading)):
                follows.append(reading)
        earlier = [p for p in self.probed if p.ruling == s.probe.ruling and p.readings is not None]
        self.probed.append(Probed(s.probe.ruling, base.id, frozenset(follows) if follows else None))
        if follows and trouble is None:
            before = frozenset(SWITCHES[s.probe.ruling][1]).intersection(*(p.readings for p in earlier))
            if not before & set(follows):  # each probe alone is fine, together they show two readings
                base.verdict = Verdict.WRONG
                base.failed_on = "readings"
                shown = "; ".join(f"{' / '.join(sorted(p.readings or ()))} in {p.source}" for p in earlier)
                base.message = (f"Rule ({', '.join(s.rules)}): {s.says}\nHere your code follows the reading "
                                f"{' / '.join(follows)} of {s.probe.ruling}, but {shown}: a submission follows one "
                                f"reading of each ruling the rules leave open, and mixing them is not one of them "
                                f"(rules-palace.md §4.3).")
                return base
            base.verdict = Verdict.PASSED
            base.notes.append(f"{s.probe.ruling}: your code follows the reading "
                              f"{' / '.join(follows)}; the random games hold it to that reading.")
            return base
        shared = next(((e, found[id(e)]) for r, e in blocks if r is None and (found[id(e)] is None or found[id(e)])),
                      None)
        per_reading = []
        for reading in s.probe.readings:
            bad = [(e, found[id(e)]) for r, e in blocks if r == reading and (found[id(e)] is None or found[id(e)])]
            if bad:
                per_reading.append((reading, bad[0]))
        failed = shared or (per_reading[0][1] if per_reading else None)
        return self._failure(base, s, run, trouble, failed, per_reading if shared is None else [])

    def _failure(self, base: TestResult, s: Scenario, run: GameRun, trouble: tuple[Verdict, str] | None,
                 failed: tuple[Expect, list[Mismatch] | None] | None,
                 per_reading: list[tuple[str, tuple[Expect, list[Mismatch] | None]]]) -> TestResult:
        """A scenario that did not pass: a crash or hang, a wrong value, or a game that went another way."""
        rule = f"Rule ({', '.join(s.rules)}): {s.says}\nThe game: {s.setup}\n"
        mismatches = failed[1] if failed is not None else None
        if trouble is not None and not mismatches:
            base.verdict, what = trouble
            base.failed_after = max(0, len(run.steps) - 1)
            call = run.report.call
            base.message = f"{rule}{what}\n{where(s.setup, s.moves, run, call)}"
            base.difference = {"step": base.failed_after, "what": "your code", "expected": "to keep running",
                               "got": base.verdict.value}
            return base
        assert failed is not None
        expect = failed[0]
        departure = first_departure(s.setup, s.moves, run)
        if departure is not None and not (departure.owners & set(s.rules)) and (
                departure.step < expect.after or departure.step == expect.after
                and not _asserts(s, expect.after, departure.key)):
            base.verdict, base.earned = Verdict.NOT_SHOWN, EXCUSED
            base.failed_after = departure.step
            base.message = (f"{rule}This test could not check its own rule, because your game went another way "
                            "earlier, in something another test judges (it is not counted twice):\n    "
                            + departure.line(s.setup, s.moves)
                            + f"\nMoves up to there:\n{moves_text(s.setup, s.moves, departure.step)}")
            return base
        if mismatches:
            owners = [mismatch_owners(s, expect.after, m) for m in mismatches]
            if all(o is not None and not (o & set(s.rules)) for o in owners):
                base.verdict, base.earned = Verdict.NOT_SHOWN, EXCUSED
                base.failed_after = expect.after
                found_wrong = "\n    ".join(f"{after_words(expect.after)}: {m.line()} -- the business of "
                                              f"{', '.join(sort_rules(o or ()))}" for m, o in zip(mismatches, owners))
                base.message = (f"{rule}This test could not check its own rule: what it found wrong is the "
                                f"business of other rules, which other tests judge (it is not counted twice):\n"
                                f"    {found_wrong}")
                return base
        base.verdict = Verdict.WRONG
        if departure is not None and departure.cause and (departure.step < expect.after or not mismatches):
            self.causes[base.id] = [(departure.cause, departure.owners)]
        elif mismatches and s.probe is None:
            self.causes[base.id] = [mismatch_cause(s, expect.after, m) for m in mismatches]
        if mismatches:
            lines = [m.line() for m in mismatches]
            base.failed_after, base.failed_on = expect.after, mismatches[0].field
            base.difference = {"step": expect.after, "what": mismatches[0].what, "expected": mismatches[0].expected,
                               "got": mismatches[0].got}
            if per_reading:
                lines = []
                for reading, (e, bad) in per_reading:
                    first = bad[0].line() if bad else "the game stopped before this point"
                    lines.append(f"[{s.probe.ruling} = {reading}] {after_words(e.after)}: {first}")
                text = (f"Your code follows none of the readings the rules accept for {s.probe.ruling} "
                        f"(mixing them is not one of them):\n    " + "\n    ".join(lines))
            else:
                text = f"{after_words(expect.after).capitalize()}, expected against what your code gave:\n    " + \
                    "\n    ".join(lines)
            base.message = (f"{rule}Moves up to the check:\n{moves_text(s.setup, s.moves, expect.after)}\n{text}")
            if departure is not None and departure.step < expect.after:
                base.message += ("\nYour game had already gone another way " + departure.line(s.setup, s.moves))
            return base
        # the game never got to the check
        stop = run.stop()
        base.failed_after = len(run.steps) - 1 if run.steps else 0
        if stop is not None and 0 <= stop[1] < len(s.moves):
            k = stop[1]
            base.failed_on = "valid" if stop[0] == Event.REFUSED.value else "hands"
            why = ("your isValidMove() said FALSE for it, but the rules allow it" if stop[0] == Event.REFUSED.value
                   else "a card it names is not where your game should have it (the mover's hand, or face-up row "
                        "once the hand is empty)")
            base.difference = {"step": k, "what": f"isValidMove({s.moves[k]})", "expected": "TRUE",
                               "got": "FALSE" if stop[0] == Event.REFUSED.value else "the card is missing"}
            text = (f"Move {k + 1} ({s.moves[k]}) could not be made: {why}. This test checks the game "
                    f"{after_words(expect.after)}, so it stopped there.")
            upto = k
        else:
            text = f"The game stopped before the point this test checks ({after_words(expect.after)})."
            upto = max(0, len(run.steps) - 1)
        base.message = f"{rule}Moves up to there:\n{moves_text(s.setup, s.moves, upto)}\n{text}"
        if departure is not None and departure.step < upto:
            base.message += "\nYour game had already gone another way " + departure.line(s.setup, s.moves)
        return base

    # ---- what the probes found ----------------------------------------------------------------------------------
    def readings_found(self) -> dict[str, frozenset[str]]:
        """For each switch ruling, the readings every conclusive probe allows (all of them when no probe could
        tell, or when the probes disagree: the submission is then held to nothing for that switch)."""
        out: dict[str, frozenset[str]] = {}
        for ruling, (_field, readings) in SWITCHES.items():
            allowed = frozenset(readings)
            for p in self.probed:
                if p.ruling == ruling and p.readings is not None:
                    allowed &= p.readings
            out[ruling] = allowed or frozenset(readings)
        return out


EXPECT_KEYS = {"phase": "phase", "current_player": "current_player", "current_turn": "current_turn",
               "winner": "winner", "effective_top_rank": "effective_top_rank", "seven_restriction": "seven_restriction",
               "hand_counts": "hand_counts", "face_up_counts": "face_up_counts", "face_down_counts": "face_down_counts",
               "draw_pile_size": "draw_pile_size", "discard_pile_size": "pile_size", "burnt_count": "burnt_count",
               "top_discard": "pile", "pile": "pile", "draw_pile": "draw_pile", "hand": "hands", "face_up": "face_up",
               "face_down": "face_down", "valid": "valid", "invalid": "valid", "malformed": "valid"}


def _asserts(s: Scenario, step: int, key: str) -> bool:
    """Does the scenario assert the state key ``key`` (or isValidMove, "valid") at that step itself?"""
    blocks = list(s.expects) if s.probe is None else [e for b in s.probe.blocks
                                                      for e in (b.shared, *(x for _r, x in b.by_reading))]
    return any(EXPECT_KEYS.get(k) == key for e in blocks if e.after == step for k in e.asserted())
