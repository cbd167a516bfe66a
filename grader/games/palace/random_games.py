"""Palace's random games, compared step by step with the reference; one test, and one deduction, per rule family.

The games.  ``games`` seeded setups from ``ENGINE.random_deck`` (2-5 players, every option, one or two decks);
the moves are chosen on the reference configured with the readings found (``stages``: the probes of §4.3) --
one reference game per combination of the readings still open, a move being taken only when every one of them
allows it and ends in the same state (so a switch the probes could not settle never decides a move) --
playing preferred 4:1 over taking the pile, at most ``MAX_MOVES`` moves.  Each game is played on the library
in the worker (destroyGame is left to the memory stage), and every step's observation is compared with the
reference's by the same ``Observer``, once what a missing function cannot show is left out (``_judged``: the
build's API test judges it) and the freedoms the rules leave are put aside (``comparable``): the orders of C37
(hands, rows, burnt cards, the cards of one set on the pile), face-down positions once a seat has turned a card
(C38: a blind move names its card, ``blind_cards``), the C13 answer on an empty pile, the C29 value of a lone
mirror three, what follows the end (C39, C42), and the answers the open switches leave open.

The families (``grader.games.palace.families``).  A difference is the business of the rules that govern what
happened there (``grader.games.palace.focus``: what the move did, or what decides isValidMove's answer), and so
of the family holding most of them (on a tie: the move's own kind, then a family already judged around, which
explains it as well).  At a step, a value another differing value explains (``DEPENDS``: isValidMove's answers
when the hands differ) is not a difference of its own, and once the rank to beat has differed (``TAINTING``)
nothing later is; of the others, the first whose family is not judged around is charged -- once: that family
is judged around in the rest of the game and in the games after (a difference of it there hides the step from
it, and charges nothing).  Where the game state differs (``DIVERGENT``) only the first difference can be
charged, and nothing after that step is judged: the library's game has gone another way.  A family a scenario
already failed on (``stages.scenario_charges``) is judged around from the start.

Evidence.  A family earns from the games that judged it (``Step.judges``: what the move did, what the grader's
questions asked) after a move and before the game went another way, by the share of those steps where it
agreed (a step a difference of its own hid while it was judged around counts against it, uncharged; one another
difference explains counts neither way); newGame alone shows no rule, so a library that does nothing earns
nothing.  A family charged in some game earns nothing, and shows its shortest game, cut after its difference.
A game the C observer saw agree at every step (``GameRun.agreed``) is not compared again.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence, cast

import orjson

import reference.palace
from grader.core.batched_games import BatchedGames, KeptState, Shown, kept_state_note
from grader.core.cache import cached, key_of, source_version
from grader.core.marks import share_words
from grader.core.results import DifferenceRow, TestResult, Verdict
from grader.core.worker_client import WorkerLost
from grader.games.palace import explain
from grader.games.palace.compare import (
    CALLS,
    COUNTERS,
    STATE_KEYS,
    after_words,
    changed_words,
    lenient_keys,
    moves_text,
    rebased,
    value_words,
)
from grader.games.palace.engine import ENGINE, as_player_move, spec_of
from grader.games.palace.explain import where
from grader.games.palace.families import CRASHES, FAMILIES, families_of, family_of, judged_at, words
from grader.games.palace.focus import (
    NO_CARD_CAUSE,
    SIDE_EFFECT_RULES,
    answer_rules,
    ask_relation,
    effect_owners,
    sort_rules,
    state_cause,
    validity_owners,
)
from grader.games.palace.sandbox.observe import MISSING, Observation, Observer
from grader.games.palace.session import GameRun, PalaceSession, judge_run, play_request, stopped_row
from reference.palace import (
    REFERENCE,
    RULE_SEVEN_LOWER,
    SWITCHES,
    Action,
    Game,
    MoveSpec,
    Phase,
    PlayerMove,
    Readings,
    Setup,
    format_moves,
    switch_matters_now,
)

SEED = 20040  # the grading profile: the same games for every submission
MAX_MOVES = 600  # a random game is stopped after this many moves (C34: "stopped", never a verdict)
PLAY_BIAS = 0.8  # 4:1 for playing over taking the pile, when both are possible
GROUP = "random"  # the tests' group (their marks: the random_games group, ``TestResult.mark_group``)

__all__ = ["DEPENDS", "DIVERGENT", "GROUP", "TAINTING", "Difference", "GameShown", "RandomGame", "Step", "comparable",
           "judge_game", "random_game", "run_random_games", "test_id"]


def test_id(family: str) -> str:
    return f"{GROUP}/{family}"


# ---- the games ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """What the reference shows after one move, and what the comparison leaves open there."""

    obs: Observation  # the reference's observation (plain JSON, as a frame arrives)
    segments: tuple[int, ...]  # the pile, top first, in runs of cards put down by one move (C37)
    turned: frozenset[int]  # seats that have turned a face-down card (C38: positions renumbered)
    skip: frozenset[str]  # state the rules leave open here (``compare.lenient_keys``)
    open_labels: frozenset[str]  # isValidMove answers the readings still open leave open
    over: bool
    empty_pile: bool
    judges: frozenset[str] = frozenset()  # the rule families judged here (``families.judged_at``; none at step 0)


@dataclass(frozen=True)
class RandomGame:
    index: int
    setup: Setup
    moves: tuple[MoveSpec, ...]
    blind_cards: tuple[tuple[int, int], ...]  # (move, deck index of the card it turns)
    steps: tuple[Step, ...]
    readings: tuple[Readings, ...]

    def __repr__(self) -> str:
        return f"RandomGame({self.index}: {self.setup.n_players}p, {len(self.moves)} moves)"


def _segments(game: Game, placed: dict[int, int]) -> tuple[int, ...]:
    out: list[int] = []
    last = None
    for c in game.pile():
        mark = placed.get(c.ident, -1)
        if out and mark == last:
            out[-1] += 1
        else:
            out.append(1)
        last = mark
    return tuple(out)


def _plain(obs: Observation) -> Observation:
    return orjson.loads(orjson.dumps(obs))


def _safe(games: list[Game], move: PlayerMove) -> bool:
    """Is ``move`` (a PlayerMove of the first game) valid in every game, ending in the same state?"""
    if len(games) == 1:
        return True
    after = []
    for g in games:
        if not g.is_valid_move(move):
            return False
        copy = g.copy()
        copy.play_move(move)
        after.append(copy.snapshot())
    return all(a == after[0] for a in after[1:])


def _matters(games: list[Game], rulings: Sequence[str]) -> bool:
    return any(switch_matters_now(r, games[0]) for r in rulings)


@functools.lru_cache(maxsize=256)
def random_game(index: int, readings: tuple[Readings, ...], observed: int | None = None) -> RandomGame:
    """Game ``index`` of the grading profile, its moves chosen on the reference games of ``readings`` (the
    combinations still open; the first is the one observed).  Only its first ``observed`` steps are observed
    (None: all of them); the others hold the families they judge and nothing else (``Step.obs`` empty): all
    ``judge_game`` reads of a game the library played as the reference (``GameRun.agreed``), or beyond the steps
    it played.  The moves never depend on what is observed."""
    rng = random.Random(SEED + index)
    setup = ENGINE.random_deck(rng)
    games = [Game(setup, r) for r in readings]
    main = games[0]
    open_rulings = [r for r in SWITCHES if len({rd.of(r) for rd in readings}) > 1]
    observers = [Observer(g, setup.n_players, setup.n_cards) for g in games]
    placed: dict[int, int] = {}
    turned: set[int] = set()
    moves: list[MoveSpec] = []
    blind: list[tuple[int, int]] = []
    steps: list[Step] = []

    def observe(judges: frozenset[str] = frozenset()) -> None:
        if observed is not None and len(steps) >= observed:
            steps.append(Step({}, (), frozenset(), frozenset(), frozenset(), False, False, judges))
            return
        obs = _plain(observers[0].observe())
        open_labels: set[str] = set()
        if len(games) > 1 and _matters(games, [r for r in open_rulings if r in ("C14", "C15")]):
            for other in observers[1:]:
                theirs = _plain(other.observe())
                valid, their_valid = cast("dict[str, bool]", obs["valid"]), cast("dict[str, bool]", theirs["valid"])
                open_labels |= {k for k, v in valid.items() if their_valid.get(k) != v}
        open_labels |= lookalike_labels(obs)
        pile = main.pile()
        steps.append(Step(obs, _segments(main, placed), frozenset(turned), frozenset(lenient_keys(main)),
                          frozenset(open_labels), main.current_phase() == Phase.GAME_OVER,
                          main.current_phase() == Phase.PLAY_PHASE and not pile, judges))

    for o in observers[1:] if observed != 0 else ():
        o.observe()  # identities are numbered at the first observation
    observe()
    while len(moves) < MAX_MOVES and main.outcome() is None:
        legal = main.legal_moves()
        plays = [m for m in legal if m.action != Action.PICK_UP_PILE]
        pickups = [m for m in legal if m.action == Action.PICK_UP_PILE]
        check = len(games) > 1 and _matters(games, open_rulings)
        move = None
        while plays or pickups:
            pool = plays if plays and (not pickups or rng.random() < PLAY_BIAS) else pickups
            pick = pool.pop(rng.randrange(len(pool)))
            if not check or _safe(games, pick):
                move = pick
                break
        if move is None:
            break  # nothing every open reading allows alike: the game stops here (never a verdict)
        k = len(moves)
        seat = main.current_player()
        if move.action == Action.PLAY_FACE_DOWN:
            turned_card = main.face_down(seat)[move.face_down_index].ident
            blind.append((k, turned_card))
            placed[turned_card] = k  # on the pile if it fits: a set of its own
            turned.add(seat)
        moves.append(spec_of(main, move))
        for c in move.cards:
            if c is not None:
                placed[c.ident] = k
        before = main.copy()
        for g in games:
            g.play_move(move)
        observe(judged_at(before, move, main))
    return RandomGame(index, setup, tuple(moves), tuple(blind), tuple(steps), readings)


def comparable(obs: object, step: Step) -> dict[str, object] | None:
    """An observation with what the rules leave open put aside (see the module's docstring); the same
    function is applied to the library's and to the reference's."""
    if not isinstance(obs, dict):
        return None
    out = dict(obs)
    for key in step.skip:
        out.pop(key, None)
    if step.over:  # C42: currentPlayer and its views are open; C32: every answer FALSE
        for key in ("current_player", "hand", "hand_count", "out_of_range"):
            out.pop(key, None)
        valid = out.get("valid")
        if isinstance(valid, dict) and not any(valid.values()):
            out["valid"] = "all FALSE"
    for key in ("hand", "burnt"):
        out[key] = _by_ident(out.get(key))
    for key in ("hands", "face_up"):
        rows = out.get(key)
        if isinstance(rows, list):
            out[key] = [_by_ident(row) for row in rows]
    rows = out.get("face_down")
    if isinstance(rows, list):
        out["face_down"] = [_by_ident(row) if s in step.turned else row for s, row in enumerate(rows)]
    pile = out.get("pile")
    if isinstance(pile, list) and sum(step.segments) == len(pile):
        parts, at = [], 0
        for n in step.segments:
            parts.append(_by_ident(pile[at:at + n]))
            at += n
        top = out.get("top_discard")
        if step.segments and step.segments[0] > 1 and isinstance(top, list) and top in pile[:step.segments[0]]:
            out["top_discard"] = "a card of the top set"
        out["pile"] = parts
    valid = out.get("valid")
    if isinstance(valid, dict):
        drop = set(step.open_labels) | ({"pickup"} if step.empty_pile else set())  # C13 on an empty pile
        out["valid"] = {_free_order(k): v for k, v in valid.items() if k not in drop}
    return out


def _free_order(label: str) -> str:
    """A battery label, without the card the observer took from a pile whose order C37 leaves free (the
    first card of the pile or of the burnt cards not like any of the mover's): both answers must be FALSE."""
    for prefix in ("wrong-zone:pile:", "wrong-zone:burnt:"):
        if label.startswith(prefix):
            return prefix.rstrip(":")
    return label


_LABEL_CARD = re.compile(r"([2-9TJQKA][HDCS])#(\d+)")


def lookalike_labels(obs: Mapping[str, object]) -> set[str]:
    """Battery labels naming a card outside the mover's zone that looks like one in it: C4 leaves isValidMove
    open there (a look-alike may stand for the held card)."""
    valid, seat = obs.get("valid"), obs.get("current_player")
    hands, ups = obs.get("hands"), obs.get("face_up")
    if not (isinstance(valid, dict) and isinstance(seat, int) and isinstance(hands, list) and isinstance(ups, list)
            and 0 <= seat < len(hands) and seat < len(ups)):
        return set()
    hand, up = hands[seat], ups[seat]
    zone = hand if obs.get("phase") == int(Phase.SETUP_PHASE) or hand else up  # the observer's own rule (C16)
    if not isinstance(zone, list):
        return set()
    idents = {c[2] for c in zone}
    looks = {_card(c) for c in zone}
    return {label for label in valid
            if any(int(ident) not in idents and look in looks for look, ident in _LABEL_CARD.findall(label))}


def _card(c: list[int]) -> str:
    from grader.games.palace.sandbox.observe import look  # noqa: PLC0415

    try:
        return look(c[0], c[1])
    except (TypeError, ValueError):
        return repr(c)


def _by_ident(cards: object) -> object:
    if isinstance(cards, list) and all(isinstance(c, list) and len(c) == 3 for c in cards):
        return sorted(cards, key=lambda c: (c[2], c[0], c[1]))
    return cards


ORDER = ("num_players", "num_cards", "rules", "phase", "current_player", "current_turn", "winner", "hand_counts",
         "face_up_counts", "face_down_counts", "pile_size", "draw_pile_size", "burnt_count", "hands", "face_up",
         "face_down", "pile", "top_discard", "draw_pile", "burnt", "effective_top_rank", "seven_restriction",
         "hand_count", "hand", "out_of_range", "valid")




# ---- one game against the reference ---------------------------------------------------------------------------
# What a value can differ because of, at the same step: a difference it shows then is not one of its own.
_ROWS = {"hands": "hand_counts", "face_up": "face_up_counts", "face_down": "face_down_counts", "pile": "pile_size",
         "draw_pile": "draw_pile_size", "burnt": "burnt_count"}
_SEAT = frozenset({"hands", "hand_counts", "current_player", "phase"})
DEPENDS: dict[str, frozenset[str]] = {
    **{row: frozenset({count}) for row, count in _ROWS.items()},
    "current_player": frozenset({"phase", "winner"}),
    "top_discard": frozenset({"pile", "pile_size"}),
    "effective_top_rank": frozenset({"pile", "pile_size", "phase", "winner"}),
    "seven_restriction": frozenset({"pile", "pile_size", "phase", "winner"}),
    "hand": _SEAT, "hand_count": _SEAT,
    "out_of_range": frozenset(_ROWS) | frozenset(_ROWS.values()) | _SEAT,
    "valid": frozenset(ORDER) - {"valid", "out_of_range"},  # the questions are built from what was observed
}
# The game's state: once it differs the library's game has gone another way, and nothing after is judged.
DIVERGENT = frozenset(STATE_KEYS) - {"effective_top_rank", "seven_restriction"} - COUNTERS | {"side_effects", "trouble"}
VIEWS = frozenset({"hand", "hand_count", "top_discard", "out_of_range"})  # views of a state that agrees: queries
# What decides what every later move does: once it has differed, a later difference may follow from it.
TAINTING = frozenset({"effective_top_rank", "seven_restriction"})


@dataclass
class Difference:
    """A difference of one game at one step, and the rule family it is the business of."""

    game: RandomGame
    step: int
    key: str
    what: str
    expected: str
    got: str
    owners: frozenset[str] = frozenset()
    verdict: Verdict = Verdict.WRONG
    cause: str = ""  # what it shows, in the words of ``compare.mismatch_cause``
    row: DifferenceRow | None = None  # a game the library stopped in: the call in progress, for the replay
    family: str = ""  # ``families.FAMILIES``: of the owners when not given
    explained: bool = False  # another value differing at this step explains it (``DEPENDS``): not one of its own
    # families the owners name as much: one already judged around explains the difference as well (``_charge``)
    alternatives: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        self.family = self.family or (family_of(self.owners) if self.verdict is Verdict.WRONG else CRASHES)


class _Reference:
    """The reference game of a random game, walked forward as the judge asks about its steps in order: the
    state before and after each move, and the grader's isValidMove questions there."""

    def __init__(self, game: RandomGame) -> None:
        self.game = game
        self._start()

    def _start(self) -> None:
        self.now = Game(self.game.setup, self.game.readings[0])
        self.observer = Observer(self.now, self.game.setup.n_players, self.game.setup.n_cards)
        self.observer.observe()  # identities are numbered at the first observation
        self.step = 0
        self.before: Game | None = None
        self.move: PlayerMove | None = None

    def at(self, step: int) -> tuple[Game | None, PlayerMove | None, Game]:
        """The reference before the move that led to ``step``, that move, and the reference after it."""
        if step < self.step:
            self._start()  # asked about an earlier step: walk again from newGame
        while self.step < step:
            self.before = self.now.copy()
            self.move = self.now.resolve(self.game.moves[self.step])
            self.now.play_move(self.move)
            self.step += 1
        return self.before, self.move, self.now

    def questions(self, step: int) -> dict[str, PlayerMove]:
        """The grader's isValidMove questions at ``step`` (its battery): label -> move."""
        self.at(step)
        return {label: as_player_move(move) for label, move in self.observer.candidates(self.observer.observe())}


Comparable = dict[str, object] | None  # an observation as ``comparable`` leaves it


def _judged(mine: Comparable, theirs: Comparable) -> tuple[Comparable, Comparable]:
    """Leave out what the library cannot show because it lacks the function: the build's API test judges that."""
    if not (isinstance(mine, dict) and isinstance(theirs, dict)):
        return mine, theirs
    theirs = dict(theirs)
    for key, value in mine.items():
        other = theirs.get(key)
        if value == MISSING:
            theirs[key] = MISSING
        elif isinstance(value, dict) and isinstance(other, dict):  # out_of_range: a getter each
            theirs[key] = {k: MISSING if v == MISSING else other.get(k) for k, v in value.items()} | \
                {k: v for k, v in other.items() if k not in value}
        elif isinstance(value, list) and isinstance(other, list) and len(value) == len(other):
            theirs[key] = [MISSING if v == MISSING else t for v, t in zip(value, other)]  # per seat
    return mine, theirs


def _only_answers_differ(mine: object, theirs: object) -> bool:
    return isinstance(mine, dict) and isinstance(theirs, dict) and \
        {k: v for k, v in mine.items() if k != "valid"} == {k: v for k, v in theirs.items() if k != "valid"}


def _differences(ref: _Reference, k: int, mine: Comparable, theirs: Comparable) -> list[Difference]:
    """Every value that differs at step ``k`` (in ``ORDER``; isValidMove's answers one a family), each with its
    family, and whether another differing value explains it."""
    game = ref.game
    if mine is None:
        return [Difference(game, k, "phase", "the game", "a readable game", "nothing readable", family=CRASHES)]
    assert theirs is not None  # the reference's observation is always readable
    keys = [key for key in ORDER if mine.get(key) != theirs.get(key)]
    keys += sorted(key for key in set(mine) | set(theirs) if key not in ORDER and mine.get(key) != theirs.get(key))
    before, move, now = ref.at(k)
    out: list[Difference] = []
    for key in keys:
        explained = bool(DEPENDS.get(key, frozenset()) & set(keys))
        a, b = mine.get(key), theirs.get(key)
        if key == "valid" and isinstance(a, dict) and isinstance(b, dict):
            out += _answers(ref, k, a, b, explained)
            continue
        if key == "out_of_range":
            owners = frozenset({"C43"})
        elif key in ("hand", "hand_count"):
            owners = frozenset({"C4", "C43"}) | effect_owners(before, move, now, "hands")
        elif key in ("num_players", "num_cards", "rules"):
            owners = frozenset({"C2", "P2"})
        else:
            owners = effect_owners(before, move, now, "pile" if key == "top_discard" else key)
        tied = sorted(families_of(owners), key=lambda f: f != _move_family(move))  # on a tie, the move's own
        if key in VIEWS:
            tied = ["queries"]
        elif key == "seven_restriction" and not now.game_rules() & RULE_SEVEN_LOWER:
            tied = ["seven"]  # P20: no restriction ever, without the option
        out.append(Difference(game, k, key, CALLS.get(key, key), value_words(key, b), value_words(key, a), owners,
                              cause=state_cause(before, move, now), family=next(iter(tied), ""),
                              explained=explained, alternatives=tuple(tied[1:])))
    return out


def _move_family(move: PlayerMove | None) -> str:
    """The family of what a kind of move does, whatever else it does: a choice, a pick-up, a blind card."""
    kinds = {int(Action.CHOOSE_FACE_UP): "deal", int(Action.PICK_UP_PILE): "pile", int(Action.PLAY_FACE_DOWN): "stages"}
    return kinds.get(move.action, "") if move is not None else "deal"


def _answers(ref: _Reference, k: int, mine: dict[str, object], theirs: dict[str, object],
             explained: bool) -> list[Difference]:
    """The isValidMove answers that differ at step ``k``: the first of each family, by the rules that decide the
    reference's answer (``focus.answer_rules``: for a valid play, its rank against the pile); a set whose first
    card alone is answered as the reference answers it differs in being a set (P7)."""
    labels = list(dict.fromkeys(lb for lb in list(theirs) + list(mine) if mine.get(lb) != theirs.get(lb)))
    questions = ref.questions(k)
    now = ref.now
    out: dict[str, Difference] = {}
    for label in labels:
        expected = bool(theirs.get(label))
        if label in questions:
            cause, owners = ask_relation(now, questions[label], expected)
            decides = answer_rules(now, questions[label], expected) or owners
            decides = decides or validity_owners(now, questions[label])
            alone = label.split(",")[0]
            if alone != label and alone in theirs and mine.get(alone) == theirs.get(alone):
                cause, owners = f"{cause} (its first card alone answered right)", frozenset({"P7"})
                decides = owners
        else:  # a question the readings or C37 leave no move for: what a malformed move is answered
            cause, owners, decides = label, frozenset({"C40"}), frozenset({"C40"})
        family = family_of(decides)
        d = Difference(ref.game, k, "valid", f"isValidMove({label})",
                       value_words("valid", theirs.get(label, "not asked")),
                       value_words("valid", mine.get(label, "not asked")), owners or decides, cause=cause,
                       family=family, explained=explained, alternatives=_context(owners, decides, family))
        out.setdefault(d.family, d)
    return list(out.values())


def _context(owners: frozenset[str], decides: frozenset[str], family: str) -> tuple[str, ...]:
    """The families of an answer's context (a plain three or seven below: the option off): a known problem there
    explains the answer as well as its own rules do."""
    return tuple(f for f in families_of(owners - decides) if f != family)


def _ending(ref: _Reference, run: GameRun) -> Difference | None:
    """How the library's game ended when it did not play every move: a crash or a hang, a move it refused (or
    whose cards it did not have), or a game that stopped early."""
    game = ref.game
    trouble = judge_run(run)
    if trouble is not None:
        return Difference(game, max(0, len(run.steps) - 1), "trouble", "your code", "to keep running",
                          f"{trouble[1]}\n{where(game.setup, game.moves, run, run.report.call)}", frozenset(),
                          trouble[0], row=stopped_row(run, trouble[0], game.moves), family=CRASHES)
    stop = run.stop()
    if stop is not None and 0 <= stop[1] < len(game.moves):
        k = stop[1]
        _before, _move, now = ref.at(k)
        move = now.resolve(game.moves[k])
        if stop[0] == "refused":
            cause, owners = ask_relation(now, move, True)
            decides = answer_rules(now, move, True) or owners or validity_owners(now, move)
            return Difference(game, k, "valid", f"isValidMove({game.moves[k]})", "TRUE", "FALSE", owners or decides,
                              cause=cause, family=family_of(decides),
                              alternatives=_context(owners, decides, family_of(decides)))
        return Difference(game, k, "valid", f"isValidMove({game.moves[k]})", "TRUE",
                          "its cards are not in the mover's zone", validity_owners(now, move) | {"C4", "C16"},
                          cause=NO_CARD_CAUSE, family="queries")  # the getters showed them there (C4)
    if len(run.steps) < len(game.steps):
        return Difference(game, len(run.steps), "trouble", "your code", "to keep running", "the game stopped early",
                          frozenset(), Verdict.PROTOCOL, family=CRASHES)
    return None


@dataclass
class GameShown:
    """What one random game showed of each rule family."""

    game: RandomGame
    charged: dict[str, Difference] = field(default_factory=dict)  # families charged in it: their difference
    again: dict[str, Difference] = field(default_factory=dict)  # families judged around that differed again
    agreed: Counter[str] = field(default_factory=Counter)  # steps that judged a family, where it agreed
    hidden: Counter[str] = field(default_factory=Counter)  # steps where a difference hid it (not charged)

    def share(self, family: str) -> float | None:
        """The share of the steps that judged ``family`` where it agreed; None: none judged it."""
        judged = self.agreed[family] + self.hidden[family]
        return self.agreed[family] / judged if judged else None

    def differs_in(self, family: str) -> Difference | None:
        return self.charged.get(family) or self.again.get(family)


def _charge(shown: GameShown, step: int, found: Sequence[Difference], around: set[str]) -> set[str]:
    """Step ``step``'s differences.  One of its own (that no other explains) in a family not judged around is
    charged, and that family judged around from now on: the first, or -- where the game state differs, every
    value after the first may follow from it -- nothing if the first is in a family judged around.  Every other
    of its own hides its family at this step; one another explains is neither seen nor hidden.  The families
    that did not agree here."""
    for d in found:  # rules that name a family judged around as much as another: the known problem explains it
        d.family = next((f for f in (d.family, *d.alternatives) if f in around), d.family)
    own = [d for d in found if not d.explained]
    chargeable = own[:1] if any(d.key in DIVERGENT for d in found) else own
    charged = next((d for d in chargeable if d.family not in around), None)
    if charged is not None:
        shown.charged[charged.family] = charged
        around.add(charged.family)
    for d in own:  # a family charged before (here or in an earlier game) that differs again
        if d.family in around and d.family != (charged.family if charged else None):
            shown.again.setdefault(d.family, d)
    if step:  # newGame alone shows no rule
        shown.hidden.update({d.family for d in own} - ({charged.family} if charged else set()))
    return {d.family for d in found}


@functools.cache
def _plan_version() -> str:
    here = Path(__file__).resolve().parent
    return source_version([*Path(reference.palace.__file__).resolve().parent.glob("*.py"), *here.glob("*.py"),
                           *(here / "sandbox").glob("*.py")])  # the moves and what each step judges follow from these


def random_plan(index: int, readings: tuple[Readings, ...]) -> RandomGame:
    """``random_game`` without its observations, once per version for every submission (``grader.core.cache``)."""
    key = key_of(_plan_version(), "palace-random-plan", index, [sorted(r.by_ruling().items()) for r in readings])

    def encode(g: RandomGame) -> object:
        return {"setup": str(g.setup), "moves": [str(m) for m in g.moves], "blind": [list(b) for b in g.blind_cards],
                "judges": [sorted(s.judges) for s in g.steps]}

    def decode(d: Any) -> RandomGame:
        return RandomGame(index, Setup.parse(d["setup"]), tuple(MoveSpec.parse(m) for m in d["moves"]),
                          tuple((int(a), int(b)) for a, b in d["blind"]),
                          tuple(Step({}, (), frozenset(), frozenset(), frozenset(), False, False, frozenset(j))
                                for j in d["judges"]), readings)

    return cached("palace-random-plans", key, lambda: random_game(index, readings, 0), encode, decode)


def agreed_game(game: RandomGame) -> GameShown:
    """What a game the library played as the reference shows: every family its steps judge, agreeing."""
    shown = GameShown(game)
    for step in game.steps[1:]:
        shown.agreed.update(step.judges)
    return shown


def judge_game(game: RandomGame, run: GameRun, around: set[str]) -> GameShown:
    """What ``run`` (``game`` played on the library) shows of each family.  ``around``: the families judged
    around (charged already); the families this game charges are added to it."""
    if run.agreed is not None:  # the C observer saw the reference's every frame: every step agreed
        return agreed_game(game)
    shown = GameShown(game)
    ref = _Reference(game)
    tainted = False
    offsets: dict[str, int] = {}  # a counter that differed (``compare.COUNTERS``): judged by its change from there
    for k, step in enumerate(game.steps[:len(run.steps)]):
        mine, theirs = _judged(comparable(rebased(run.steps[k], offsets), step), comparable(step.obs, step))
        changed = run.rechecked.get(k)
        side_effects = isinstance(changed, dict) and bool(changed)
        found: list[Difference] = []
        if mine != theirs and not (side_effects and _only_answers_differ(mine, theirs)):
            found = _differences(ref, k, mine, theirs)
        if side_effects:  # the battery's isValidMove calls changed the game (and so, maybe, their own answers)
            found.append(Difference(game, k, "side_effects", "the game after the grader's isValidMove() calls",
                                    "unchanged", changed_words(sorted(cast("dict[str, object]", changed))),
                                    SIDE_EFFECT_RULES, cause="isValidMove changed the game"))
        if tainted:  # the rank to beat differed earlier: what differs now may follow from it
            for d in found:
                d.explained = True
        for d in found:
            if d.key in COUNTERS and isinstance(mine, dict) and isinstance(theirs, dict):
                got, want = mine.get(d.key), theirs.get(d.key)
                if isinstance(got, int) and isinstance(want, int):
                    offsets[d.key] = offsets.get(d.key, 0) + got - want
        differed = _charge(shown, k, found, around)
        if any(d.key in DIVERGENT for d in found):
            return shown  # the game went another way: nothing after this step is judged
        tainted = tainted or any(d.key in TAINTING for d in found)
        shown.agreed.update(step.judges - differed - shown.charged.keys())
    ending = _ending(ref, run)
    if ending is not None:
        _charge(shown, ending.step, [ending], around)
    return shown


# ---- the stage's tests: one a family --------------------------------------------------------------------------
def variant_readings(found: Mapping[str, frozenset[str]]) -> tuple[Readings, ...]:
    """Every combination of the readings found (each switch's readings in the order SWITCHES lists them)."""
    choices = [[r for r in SWITCHES[ruling][1] if r in found[ruling]] for ruling in SWITCHES]
    return tuple(REFERENCE.with_(**dict(zip(SWITCHES, combo))) for combo in itertools.product(*choices))


def _family_rules(family: str) -> tuple[str, ...]:
    return tuple(sort_rules(FAMILIES[family][1])) or ("§4.4",)  # crashes: the invariants of random games


def run_random_games(session: PalaceSession, n_games: int, found: Mapping[str, frozenset[str]],
                     charged: Mapping[str, str]) -> list[TestResult]:
    """The random games stage (see the module's docstring): ``n_games`` games under the readings ``found``,
    one test a family.  ``charged``: family -> the scenario test that already failed on it (judged around)."""
    held = "; ".join(f"{ruling} = {' or '.join(sorted(found[ruling]))}" for ruling in SWITCHES)
    if session.client is None:
        return [TestResult(test_id(f), GROUP, _family_rules(f), 1.0, Verdict.NOT_RUN, kind="random",
                           message="Not run: the submission did not compile.", earned=0.0) for f in FAMILIES]
    batching = InBatches(session, variant_readings(found), set(charged))
    batched = BatchedGames(batching)
    games = [shown for _index, shown in batched.play(range(n_games))]
    results = [_family_result(f, games, charged.get(f), held, batching.dealt) for f in FAMILIES]
    if batched.kept_state:
        _note_kept_state(batching, batched.kept_state, results)
    return results


class InBatches:
    """The random games played several per child (``grader.core.batched_games``): a game a batch proved equal to
    the reference shows what a game the C observer saw agree shows (``agreed_game``); every other is played alone
    by ``session.play`` and judged (``judge_game``), with the families judged around when its turn came."""

    def __init__(self, session: PalaceSession, readings: tuple[Readings, ...], around: set[str]) -> None:
        self.session, self.readings, self.around = session, readings, around  # ``around``: the stage's, live
        self.dealt: dict[int, str] = {}  # game index -> the deck newGame was given, when rearranged (a wrong deal)
        self.differed: set[int] = set()  # games a batch saw differ: played alone, they go straight to the full run

    def request(self, index: int) -> dict[str, object]:
        game = random_plan(index, self.readings)
        dealt = self.session.dealt_as(game.setup) if "deal" in self.around else None
        return play_request(game.setup, game.moves, blind_cards=game.blind_cards, recheck=True, dealt_as=dealt)

    def ready(self, _index: int) -> bool:
        return self.session.batch_ready()

    def play_batch(self, indices: Sequence[int]) -> Sequence[Shown]:
        shown = self.session.play_batch([self.request(i) for i in indices])
        self.differed.update(i for i, s in zip(indices, shown) if s is Shown.DIFFERED)
        return shown

    def passed(self, index: int) -> GameShown:
        game = random_plan(index, self.readings)
        dealt = self.session.dealt_as(game.setup) if "deal" in self.around else None
        if dealt is not None:
            self.dealt[index] = str(dealt)
        return agreed_game(game)

    def alone(self, index: int) -> tuple[GameShown, bool]:
        game = random_plan(index, self.readings)  # observed only for a game the library did not play as the reference
        try:
            run = self.session.play(game.setup, game.moves, blind_cards=game.blind_cards, recheck=True,
                                    around_deal="deal" in self.around, native=index not in self.differed)
        except WorkerLost as lost:
            shown = GameShown(game)
            _charge(shown, 0, [Difference(game, 0, "trouble", "the sandbox", "to answer", str(lost),
                                       verdict=Verdict.WORKER_LOST)], self.around)
            return shown, False
        if run.dealt_as is not None:
            self.dealt[index] = str(run.dealt_as)
        if run.agreed is not None:
            return agreed_game(game), True
        shown = judge_game(random_game(index, self.readings, len(run.steps)), run, self.around)
        agreed = judge_run(run) is None and not (shown.charged or shown.again or shown.hidden)
        return shown, agreed  # (the full run agreeing at every step proves the game as the C observer would)


def _note_kept_state(batching: InBatches, kept: Sequence[KeptState[int]], results: list[TestResult]) -> None:
    """The note on state kept between games, on the test of the family the first such game differed in when played
    after the others again (the Python job showing every step), or on the first random test."""
    first = kept[0]
    index = first.game
    game = random_plan(index, batching.readings)
    label = f"random game {index + 1} ({game.setup.n_players} players, {len(game.moves)} moves)"
    run = batching.session.play_after([batching.request(i) for i in first.batch])
    family, what = "", ("stopped there" if first.shown is Shown.CRASHED else "did not agree with the reference")
    if run is not None:
        shown = judge_game(random_game(index, batching.readings, len(run.steps)), run, set())
        d = min(shown.charged.values(), key=lambda d: d.step, default=None)
        if d is not None:
            family, what = d.family, f"differed {after_words(d.step)} in {d.what}: expected {d.expected}, got {d.got}"
    note = kept_state_note(label, len(first.batch) - 1, what, len(kept) - 1)
    owner = next((r for r in results if r.id == test_id(family)), results[0] if results else None)
    if owner is not None:
        owner.notes.append(note)


def _family_result(family: str, games: Sequence[GameShown], charged_to: str | None, held: str,
                   dealt: Mapping[int, str]) -> TestResult:
    """The test of one family, from what every game showed of it (``GameShown``); ``dealt``: game index -> the
    deck newGame was given, for the games played around a wrong deal."""
    base = TestResult(test_id(family), GROUP, _family_rules(family), 1.0, Verdict.PASSED, kind="random")
    base.notes.append(f"Readings the random games held your code to (rules-palace.md §4.3): {held}.")
    if dealt:
        base.notes.append(explain.dealt_as(f"{len(dealt)} of the {len(games)} random games"))
    said = words(family)
    differing = [d for g in games if (d := g.differs_in(family)) is not None]
    shares = [s for g in games if (s := g.share(family)) is not None]
    seen, judged = sum(shares), len(shares)
    if charged_to is None and any(family in g.charged for g in games):
        shortest = min(differing, key=lambda d: (d.step, len(d.game.moves), d.game.index))
        base.dealt_as = dealt.get(shortest.game.index, "")
        return _failure(base, shortest, len(differing), len(games), held)
    base.earned = round(seen / judged, 4) if judged else 0.0
    if charged_to is not None:
        base.charged_to = charged_to
        if base.earned >= 1.0:
            base.notes.append(f"{charged_to} already failed on {said}; the random games judged around it (not "
                              f"charged twice), and it agreed at every step they judged")
            return base
        base.verdict = Verdict.NOT_SHOWN
        base.message = (f"Judged around here: {charged_to} already failed on {said} (it is not charged twice). "
                        + (f"In the {judged} random game(s) that judged it, a step where your game differed there "
                           f"again showed nothing, and a step where it agreed counts: this test earns the part of its "
                           f"steps that agreed, {share_words(base.earned)} of its marks."
                           if judged else _unseen(len(games))))
        return base
    if base.earned >= 1.0:
        base.notes.append(f"{judged} of {len(games)} random games judged {said}, and it agreed at every step")
        return base
    base.verdict = Verdict.NOT_SHOWN
    base.message = (f"In the {judged} random game(s) that judged {said}, some steps were hidden by differences "
                    f"other tests judge (not charged twice); where it was seen it agreed with the reference, so this "
                    f"earns the part of its steps that agreed, {share_words(base.earned)} of its marks." if judged else
                    f"This test could not see {said}. " + _unseen(len(games)))
    return base


def _unseen(played: int) -> str:
    return (f"Not one of the {played} random games got to a move that judges it before your game went another way "
            f"(see the failed tests), so nothing of it was seen to hold: it earns nothing here, and is not charged.")


def _failure(base: TestResult, d: Difference, differing: int, played: int, held: str) -> TestResult:
    """A family the random games charged: its shortest game, cut after the difference."""
    g = d.game
    base.verdict, base.earned = d.verdict, 0.0
    base.deck, base.moves = str(g.setup), format_moves(g.moves[:max(d.step, d.row["step"] if d.row else 0, 0)])
    base.failed_after, base.failed_on, base.rule_family = d.step, d.key, d.family
    base.difference = d.row or {"step": d.step, "what": d.what, "expected": d.expected, "got": d.got}
    if d.owners:
        base.rules = tuple(sort_rules(d.owners))
    head = (f"{differing} of {played} random games differ from the reference in {words(d.family)}. The shortest: "
            f"game {g.index + 1} ({g.setup.n_players} players, played under the readings found in your code: "
            f"{held}) differs {after_words(d.step)}.\nThe game: {g.setup}\n")
    from grader.games.palace.repro import random_scenario  # noqa: PLC0415 - the C programs' module, when needed

    base.repro = random_scenario(d, base.rules)  # its C program's game, when the format states the difference
    if d.key == "trouble":
        base.message = head + d.got
    else:
        base.message = (head + f"Moves up to there:\n{moves_text(g.setup, g.moves, d.step, g.readings[0])}\n"
                        f"{after_words(d.step, first=True)}: {d.what}: expected {d.expected}, got {d.got}."
                        + (f"\n(The rules of this: {', '.join(sort_rules(d.owners))}.)" if d.owners else ""))
    return base
