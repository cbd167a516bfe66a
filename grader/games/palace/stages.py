"""Palace's stages after the scenarios: the probes of the LENIENT (switch) rulings, then random games.

Probes (rules-palace.md §4.3).  The probe scenarios (``probe = "C9"`` ...) have run with the others; the
readings each showed are in ``session.probed``.  The stage adds its own short probes (``CODE_PROBES``:
the §4.3 sequences, one per switch, each on a deck that keeps the other switches out of play) and, for
each switch, keeps the readings every conclusive probe allows.  A probe the library follows no reading
of says nothing (it is inconclusive, or the probe scenario already failed): the submission is then held
to nothing for that switch.

Random games.  ``games`` seeded setups from ``ENGINE.random_deck`` (2-5 players, every option, one or two
decks); the moves are chosen on the reference configured with the readings found -- one reference game
per combination of the readings still open, a move being taken only when every one of them allows it
and ends in the same state (so a switch the probes could not settle never decides a move) -- playing
preferred 4:1 over taking the pile, at most ``MAX_MOVES`` moves.  Each game is played on the library in
the worker (destroyGame is left to the memory stage), and every step's observation is compared with the
reference's by the same ``Observer``, once what a missing function cannot show is left out (``_judged``:
the build's API test judges it) and the freedoms the rules leave are put aside (``comparable``): the
orders of C37 (hands, rows, burnt cards, the cards of one set on the pile), face-down positions once a
seat has turned a card (C38: a blind move names its card, ``blind_cards``), the C13 answer on an empty
pile, the C29 value of a lone mirror three, what follows the end (C39, C42), and the answers the open
switches leave open.

One test, ``random_games/agree_with_the_reference``: it passes when every game agrees at every step; a
failure shows the game that differs soonest, cut after the first difference.  When a scenario already
failed on the same thing (the same cause, ``compare.mismatch_cause``) or on the rules of that difference
(``focus.effect_owners`` / ``validity_owners``), it costs nothing more (``charged_to``).

Before all that, ``charge_once``: one bug, one deduction among the scenarios too -- what a failure shows
costs marks in one group only (see its docstring).

The memory stage is Palace's ``memcheck`` (every scenario replayed under the sanitizers); marking.toml gives
it no marks by default.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
import time
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Mapping, Sequence, cast

import orjson

from grader.core.config import MarkingConfig
from grader.core.grade import guarded_many
from grader.core.results import DifferenceRow, TestResult, Verdict
from grader.core.worker_client import WorkerLost
from grader.games.palace.compare import (
    CALLS,
    after_words,
    changed_words,
    differing,
    lenient_keys,
    moves_text,
    state_view,
    value_words,
)
from grader.games.palace.engine import ENGINE, spec_of
from grader.games.palace.explain import where
from grader.games.palace.focus import (
    NO_CARD_CAUSE,
    SIDE_EFFECT_RULES,
    ask_relation,
    effect_owners,
    sort_rules,
    state_cause,
    validity_owners,
)
from grader.games.palace.frames import AskEntry
from grader.games.palace.observe import MISSING, Observation, Observer
from grader.games.palace.scenarios import Scenario
from grader.games.palace.session import GameRun, PalaceSession, Probed, ask_entry, judge_run, stopped_row
from reference.palace import (
    REFERENCE,
    SWITCHES,
    Action,
    Game,
    GameError,
    MoveSpec,
    Phase,
    PlayerMove,
    Readings,
    Setup,
    format_moves,
    parse_moves,
    switch_matters_now,
)

SEED = 20040  # the grading profile: the same games for every submission
MAX_MOVES = 600  # a random game is stopped after this many moves (C34: "stopped", never a verdict)
PLAY_BIAS = 0.8  # 4:1 for playing over taking the pile, when both are possible
TEST_ID = "random_games/agree_with_the_reference"
TEST_RULES = ("P1", "P5", "P6", "P8", "P9", "P13", "P14", "P15", "P16")

__all__ = ["CODE_PROBES", "CodeProbe", "RandomGame", "comparable", "detect", "later_stages", "random_game",
           "run_code_probes", "run_random_games"]


# ---- probes of the switch rulings (§4.3) --------------------------------------------------------------
@dataclass(frozen=True)
class CodeProbe:
    """A §4.3 probe: the moves, and isValidMove questions at a step; the readings follow from the states."""

    ruling: str
    name: str
    setup: Setup
    moves: tuple[MoveSpec, ...]
    asks: tuple[tuple[int, MoveSpec], ...] = ()


def _probe(ruling: str, name: str, setup: str, moves: str, asks: Sequence[tuple[int, str]] = ()) -> CodeProbe:
    return CodeProbe(ruling, name, Setup.parse(setup), tuple(parse_moves(moves)),
                     tuple((step, MoveSpec.parse(m)) for step, m in asks))


CODE_PROBES = (
    # C9: play a pair with a draw pile (hand 2 after one draw, 3 after refilling or one per card); then take a
    # pile and play one card (hand unchanged after one draw or one per card, one less when refilling to three)
    _probe("C9", "probe/draw_count", "2p basic: 9H 5H 9D 5D 4C 5C KH 6H KD 6D KC 6C AS QS AH QH AD QD 3S "
           "2H 2D 2C 2S 3H 3D", "up:KH,KD,KC up:6H,6D,6C 9H,9D pickup 4C 5H"),
    # C14: seat 0 ends with face-down cards only, facing a pile (no draw pile: nothing is drawn)
    _probe("C14", "probe/pickup_face_down", "2p basic: 4H KC 5H QC 6H JC 7H 2C 8H 3C 9H 4C AS KS AH KH AD KD 3S",
           "up:7H,8H,9H up:2C,3C,4C 4H pickup 5H pickup 6H pickup 7H pickup 8H pickup 9H KC", [(14, "pickup")]),
    # C15: seat 0 plays from a face-up row holding a pair, on an empty pile
    _probe("C15", "probe/face_up_pair", "2p basic: 4H KC 5H QC 6H JC 9H 2C 9D 3C KH 4C AS KS AH QS AD QD 3S",
           "up:9H,9D,KH up:2C,3C,4C 4H pickup 5H pickup 6H pickup", [(8, "9H,9D"), (8, "9H")]),
    # C21: a starting eight, then three eights from three seats: a bomb only if the starting card counts
    _probe("C21", "probe/start_card_in_run", "4p basic: 8H 8D 8C KH 2H 2D 2C KD 3H 3D 3C KC 4H 4D 4C KS 5H 5D 5C "
           "QH 6H 6D 6C QD AS JS QS 9S AH JH QC 9H AD JD JC 9D 8S",
           "up:4H,5H,6H up:4D,5D,6D up:4C,5C,6C up:KH,KD,KC 8H 8D 8C"),
)


def _combos(fixed: dict[str, str] | None = None) -> list[Readings]:
    """Every combination of readings, with some switches fixed."""
    return [r for r in Readings.every() if all(r.of(k) == v for k, v in (fixed or {}).items())]


def detect(probe: CodeProbe, steps: Sequence[object], answers: dict[int, list[object]],
           stop: tuple[str, int] | None = None) -> frozenset[str] | None:
    """The readings of ``probe.ruling`` the library's observations (and answers) agree with under some
    reading of the other switches; None when it agrees with none (or did not play the probe through)."""
    if len(steps) < len(probe.moves) + 1 or stop is not None or any(k > len(probe.moves) for k, _m in probe.asks):
        return None
    follows = set()
    for reading in SWITCHES[probe.ruling][1]:
        for readings in _combos({probe.ruling: reading}):
            if _agrees(probe, readings, steps, answers):
                follows.add(reading)
                break
    return frozenset(follows) or None


def _agrees(probe: CodeProbe, readings: Readings, steps: Sequence[object], answers: dict[int, list[object]]) -> bool:
    game = Game(probe.setup, readings)
    for k, obs in enumerate(steps):
        if differing(state_view(obs), game):
            return False
        questions = [m for step, m in probe.asks if step == k]
        if questions:
            got = answers.get(k)
            if not isinstance(got, list) or len(got) != len(questions):
                return False
            for spec, answer in zip(questions, got):
                if answer == "no_card" or bool(answer) != game.is_valid_move(game.resolve(spec)):
                    return False
        if k < len(probe.moves):
            try:
                game.play_move(game.resolve(probe.moves[k]))
            except GameError:
                return False
    return True


def run_code_probes(session: PalaceSession) -> list[Probed]:
    """The stage's own probes, played on the library; each finding is added to ``session.probed``."""
    found = []
    for probe in CODE_PROBES:
        asks: dict[int, list[AskEntry]] = {}
        for step, spec in probe.asks:
            asks.setdefault(step, []).append(ask_entry(spec))
        try:
            run = session.play(probe.setup, probe.moves, asks=sorted(asks.items()), battery=False)
        except WorkerLost:
            readings = None
        else:
            answers = {step: list(cast("Iterable[object]", f.get("answers") or [])) for step, f in run.asked.items()}
            readings = None if judge_run(run) else detect(probe, run.steps, answers, run.stop())
        finding = Probed(probe.ruling, probe.name, readings)
        session.probed.append(finding)
        found.append(finding)
    return found


# ---- random games -----------------------------------------------------------------------------------------
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
def random_game(index: int, readings: tuple[Readings, ...]) -> RandomGame:
    """Game ``index`` of the grading profile, its moves chosen on the reference games of ``readings`` (the
    combinations still open; the first is the one observed)."""
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

    def observe() -> None:
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
                          main.current_phase() == Phase.PLAY_PHASE and not pile))

    for o in observers[1:]:
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
        for g in games:
            g.play_move(move)
        observe()
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


def _by_ident(cards: object) -> object:
    if isinstance(cards, list) and all(isinstance(c, list) and len(c) == 3 for c in cards):
        return sorted(cards, key=lambda c: (c[2], c[0], c[1]))
    return cards


ORDER = ("num_players", "num_cards", "rules", "phase", "current_player", "current_turn", "winner", "hand_counts",
         "face_up_counts", "face_down_counts", "pile_size", "draw_pile_size", "burnt_count", "hands", "face_up",
         "face_down", "pile", "top_discard", "draw_pile", "burnt", "effective_top_rank", "seven_restriction",
         "hand_count", "hand", "out_of_range", "valid")


@dataclass
class Difference:
    """The first difference of one game."""

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


def _card(c: list[int]) -> str:
    from grader.games.palace.observe import look  # noqa: PLC0415

    try:
        return look(c[0], c[1])
    except (TypeError, ValueError):
        return repr(c)


def _reference_at(game: RandomGame, step: int) -> tuple[Game | None, PlayerMove | None, Game]:
    """The reference before the move that led to ``step``, that move, and the reference after it."""
    g = Game(game.setup, game.readings[0])
    before, move = None, None
    for k, spec in enumerate(game.moves[:step]):
        if k == step - 1:
            before = g.copy()
            move = g.resolve(spec)
        g.play_move(g.resolve(spec))
    return before, move, g


def first_difference(game: RandomGame, run: GameRun) -> Difference | None:
    """Where the library's game first differs from the reference's (None: every step agrees)."""
    trouble = judge_run(run)
    for k, step in enumerate(game.steps):
        if k >= len(run.steps):
            break
        mine, theirs = _judged(comparable(run.steps[k], step), comparable(step.obs, step))
        changed = run.rechecked.get(k)
        side_effects = isinstance(changed, dict) and changed
        if mine != theirs and not (side_effects and _only_answers_differ(mine, theirs)):
            return _difference(game, k, mine, theirs)
        # the battery's isValidMove calls changed the game (and so, maybe, their own answers)
        if isinstance(changed, dict) and changed:
            return Difference(game, k, "side_effects", "the game after the grader's isValidMove() calls", "unchanged",
                              changed_words(sorted(changed)), SIDE_EFFECT_RULES,
                              cause="isValidMove changed the game")
    if trouble is not None:
        return Difference(game, max(0, len(run.steps) - 1), "trouble", "your code", "to keep running",
                          f"{trouble[1]}\n{where(game.setup, game.moves, run, run.report.call)}", frozenset(),
                          trouble[0], row=stopped_row(run, trouble[0], game.moves))
    stop = run.stop()
    if stop is not None and 0 <= stop[1] < len(game.moves):
        k = stop[1]
        _before, _move, ref = _reference_at(game, k)
        move = ref.resolve(game.moves[k])
        refused = stop[0] == "refused"
        return Difference(game, k, "valid", f"isValidMove({game.moves[k]})", "TRUE",
                          "FALSE" if refused else "its cards are not in the mover's zone",
                          validity_owners(ref, move) | (frozenset() if refused else frozenset({"C4", "C16"})),
                          cause=ask_relation(ref, move, True)[0] if refused else NO_CARD_CAUSE)
    if len(run.steps) < len(game.steps):
        return Difference(game, len(run.steps), "trouble", "your code", "to keep running", "the game stopped early",
                          frozenset(), Verdict.PROTOCOL)
    return None


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


def _difference(game: RandomGame, k: int, mine: Comparable, theirs: Comparable) -> Difference:
    if mine is None:
        return Difference(game, k, "phase", "the game", "a readable game", "nothing readable")
    assert theirs is not None  # the reference's observation is always readable
    keys = [key for key in ORDER if mine.get(key) != theirs.get(key)]
    keys += sorted(key for key in set(mine) | set(theirs) if key not in ORDER and mine.get(key) != theirs.get(key))
    key = keys[0]
    before, move, ref = _reference_at(game, k)
    a, b = mine.get(key), theirs.get(key)
    if key == "valid" and isinstance(a, dict) and isinstance(b, dict):
        label = next(lb for lb in list(b) + list(a) if a.get(lb) != b.get(lb))
        candidates = dict(_candidates(game, k))
        owners = validity_owners(ref, candidates[label]) if label in candidates else frozenset({"C40"})
        cause = ask_relation(ref, candidates[label], bool(b.get(label)))[0] if label in candidates else label
        return Difference(game, k, "valid", f"isValidMove({label})", value_words("valid", b.get(label, "not asked")),
                          value_words("valid", a.get(label, "not asked")), owners, cause=cause)
    if key in ("out_of_range",):
        owners = frozenset({"C43"})
    elif key in ("hand", "hand_count"):
        owners = frozenset({"C4", "C43"}) | effect_owners(before, move, ref, "hands")
    elif key in ("num_players", "num_cards", "rules"):
        owners = frozenset({"C2", "P2"})
    else:
        owners = effect_owners(before, move, ref, "pile" if key == "top_discard" else key)
    return Difference(game, k, key, CALLS.get(key, key), value_words(key, theirs.get(key)),
                      value_words(key, mine.get(key)), owners, cause=state_cause(before, move, ref))


def _candidates(game: RandomGame, k: int) -> list[tuple[str, PlayerMove]]:
    """The reference's battery at step k: label -> move (to ask the reference why it answers as it does)."""
    g = Game(game.setup, game.readings[0])
    observer = Observer(g, game.setup.n_players, game.setup.n_cards)
    observer.observe()
    for spec in game.moves[:k]:
        g.play_move(g.resolve(spec))
    return observer.candidates(observer.observe())


def variant_readings(found: dict[str, frozenset[str]]) -> tuple[Readings, ...]:
    """Every combination of the readings found (each switch's readings in the order SWITCHES lists them)."""
    choices = [[r for r in SWITCHES[ruling][1] if r in found[ruling]] for ruling in SWITCHES]
    return tuple(REFERENCE.with_(**dict(zip(SWITCHES, combo))) for combo in itertools.product(*choices))


def run_random_games(session: PalaceSession, n_games: int, found: dict[str, frozenset[str]]) -> list[TestResult]:
    """The random games stage: one test (see the module's docstring)."""
    readings = variant_readings(found)
    base = TestResult(TEST_ID, "random_games", TEST_RULES, 1.0, Verdict.NOT_RUN, kind="random")
    if session.client is None:
        base.message = "Not run: the submission did not compile."
        return [base]
    differences: list[Difference] = []
    played = 0
    for index in range(n_games):
        game = random_game(index, readings)
        try:
            run = session.play(game.setup, game.moves, blind_cards=game.blind_cards, recheck=True)
        except WorkerLost as lost:
            differences.append(Difference(game, 0, "trouble", "the sandbox", "to answer", str(lost), frozenset(),
                                          Verdict.WORKER_LOST))
            continue
        played += 1
        d = first_difference(game, run)
        if d is not None:
            differences.append(d)
    held = "; ".join(f"{ruling} = {' or '.join(sorted(found[ruling]))}" for ruling in SWITCHES)
    base.notes.append(f"Readings the random games held your code to (rules-palace.md §4.3): {held}.")
    if not differences:
        base.verdict = Verdict.PASSED
        return [base]
    d = min(differences, key=lambda x: (x.step, len(x.game.moves), x.game.index))
    g = d.game
    base.verdict = d.verdict
    base.deck, base.moves = str(g.setup), format_moves(g.moves[:max(d.step, d.row["step"] if d.row else 0, 0)])
    base.failed_after, base.failed_on = d.step, d.key
    base.difference = d.row or {"step": d.step, "what": d.what, "expected": d.expected, "got": d.got}
    base.rule_family = ",".join(sort_rules(d.owners))
    if d.cause:
        session.causes[TEST_ID] = [(d.cause, d.owners)]
    if d.owners:
        base.rules = tuple(sort_rules(d.owners))
    head = (f"{len(differences)} of the {n_games} random games differ from the reference (the readings held: "
            f"{held}). The one that differs soonest, game {g.index + 1}:\nThe game: {g.setup}\n")
    if d.key == "trouble":
        base.message = head + d.got
    else:
        base.message = (head + f"Moves up to there:\n{moves_text(g.setup, g.moves, d.step, g.readings[0])}\n"
                        f"{after_words(d.step, first=True)}: {d.what}: expected {d.expected}, got {d.got}."
                        + (f"\n(The rules of this: {', '.join(sort_rules(d.owners))}.)" if d.owners else ""))
    return [base]


# ---- the stage ----------------------------------------------------------------------------------------------
def _timed(run: Callable[[], list[TestResult]]) -> list[TestResult]:
    start = time.monotonic()
    tests = run()
    for t in tests:
        t.seconds = (time.monotonic() - start) / max(1, len(tests))
    return tests


def later_stages(session: PalaceSession, config: MarkingConfig, played: Sequence[tuple[Scenario, TestResult]], *,
                 random_games: int | None = None, memory: bool = True) -> Iterator[TestResult]:
    """The probes (no test of their own: what they found is a note of the random games), then the random
    games' one test, charged to a scenario that already failed on the rules of its difference; then the
    memory stage (``grader.games.palace.memcheck``), with ``memory``."""
    charge_once(played, getattr(session, "causes", {}))
    n_games = config.random_games if random_games is None else random_games
    if n_games and session.client is not None:
        yield from _random_stage(session, played, n_games)
    if memory:
        from grader.games.palace.memcheck import run_memory_stage_palace  # noqa: PLC0415 - optional stage

        replayable = [s for s, t in played if t.verdict not in NOT_REPLAYED]
        not_replayed = [s.id for s, t in played if t.verdict in NOT_REPLAYED]
        failed = [s.id for s, t in played if t.verdict.family == "fail"]
        yield from _timed(lambda: guarded_many("memory/replays", "memory", "memory", lambda: run_memory_stage_palace(
            session, replayable, not_replayed, failed)))


NOT_REPLAYED = (Verdict.TIMED_OUT, Verdict.WORKER_LOST, Verdict.OUTPUT)


def charge_once(played: Sequence[tuple[Scenario, TestResult]],
                causes: dict[str, list[tuple[str, frozenset[str]]]]) -> None:
    """One bug, one deduction.  What a failure shows is its cause (``compare.mismatch_cause``: the same words in
    every test it shows in, with the rules of that).  Each cause is owned by the group whose scenarios show it
    and name most of its rules (then: where it shows most often), and costs marks in that group only: a scenario of
    another group that failed on nothing but causes owned elsewhere costs nothing more (``charged_to``).
    A crash or a hang always counts."""
    wrong = [(s, t) for s, t in played if t.verdict is Verdict.WRONG and causes.get(t.id)]
    owner: dict[str, TestResult] = {}
    for cause in dict.fromkeys(c for _s, t in wrong for c, _r in causes[t.id]):
        showing = [(s, t, len(rules & set(s.rules))) for s, t in wrong for c, rules in causes[t.id] if c == cause]
        by_group: dict[str, list[tuple[int, TestResult]]] = {}
        for _s, t, named in showing:
            by_group.setdefault(t.group, []).append((named, t))
        # the group whose scenarios name most of the cause's rules, then the one where it shows most often
        group = max(by_group.values(), key=lambda ts: (max(n for n, _t in ts), len(ts)))
        owner[cause] = max(group, key=lambda x: x[0])[1]
    for _s, t in wrong:
        owners = [owner[c] for c, _r in causes[t.id]]
        if all(o.group != t.group for o in owners):
            t.charged_to = owners[0].id
            t.notes.append(f"Not counted again: {t.charged_to} already failed on the same thing.")


def _random_stage(session: PalaceSession, played: Sequence[tuple[Scenario, TestResult]],
                  n_games: int) -> Iterator[TestResult]:
    run_code_probes(session)
    found = session.readings_found()
    causes = session.causes
    for t in _timed(lambda: guarded_many(TEST_ID, "random_games", "random",
                                         lambda: run_random_games(session, n_games, found))):
        if t.verdict.family == "fail" and t.rule_family:
            owners = set(t.rule_family.split(","))
            cause = next((c for c, _r in causes.get(TEST_ID, [])), None)
            failed = [(len(owners & set(s.rules)), s_t.id) for s, s_t in played if s_t.verdict.family == "fail"]
            same = next((s_t.id for _s, s_t in played if s_t.verdict.family == "fail"
                         and cause in [c for c, _r in causes.get(s_t.id, [])]), None)
            best = max(failed, key=lambda x: x[0], default=(0, None))
            owner = same or (best[1] if best[0] else None)
            if owner is not None:
                t.charged_to = owner
                t.notes.append(f"Not counted again: {owner} already failed on the rules of this difference.")
        yield t
