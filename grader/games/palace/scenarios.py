"""Palace rule scenarios (fixtures/palace/scenarios/*.toml): the typed loader and the check on the reference.

A scenario file holds one rule group::

    group = "tens"
    title = "The ten: playable on anything, burns the pile, free play (P16, C22)"

    [[scenario]]
    id = "ten_on_an_ace"                   # unique over every file
    rules = ["P16", "C22"]                 # rules (P1-P20) and rulings (C1-C47) of rules-palace.md it shows
    weight = 1                             # optional, default 1
    says = "Seat 0 may play TH on the starting AS ..."   # the rule in plain words, naming this deal's cards
    setup = "2p basic: ..."                # Setup notation (reference.palace.cards), deck top first
    moves = "up:9H,JH,QH up:9D,JD,QD TH"   # move notation (reference.palace.moves), from newGame on
    [[scenario.expect]]
    after = 3                              # moves made so far (0 = right after newGame)
    current_player = 0
    burnt_count = 2
    valid = ["5H"]                         # isValidMove TRUE for the seat to move
    invalid = ["pickup"]                   # isValidMove FALSE

Expectation keys (every value is the reference's view after ``after`` moves):

- ``phase`` ("SETUP_PHASE", "PLAY_PHASE", "GAME_OVER"), ``current_player``, ``current_turn``, ``winner``,
  ``effective_top_rank`` (int, 0 on an empty pile), ``seven_restriction`` (bool);
- ``hand_counts``, ``face_up_counts``, ``face_down_counts`` (a list, one entry per seat), ``draw_pile_size``,
  ``discard_pile_size``, ``burnt_count``;
- ``top_discard`` (a card, or "none"), ``pile`` (cards, top first; compared in order unless
  ``pile_as_set = true``), ``draw_pile`` (cards, next drawn first, in order);
- ``hand`` and ``face_up`` (seat -> cards, compared as multisets: ``hand = { 0 = ["5H", "6D"] }``),
  ``face_down`` (seat -> cards by position 0, 1, 2: in order);
- ``valid`` / ``invalid`` (moves in move notation, asked of isValidMove for the seat to move); ``malformed``
  (C40's broken moves in the notation below, each asked of isValidMove and expected FALSE);
- ``index_ranges = true``: every Card getter returns NULL (None) at n = -1 and at n = the zone's size (C43);
- ``same_cards = true``: handCard(n) gives the very Cards getHandCard(currentPlayer(), n) gives, and topDiscard()
  the Card getDiscardPileCard(0) gives (C4: a card is one Card wherever it is read).

A card in an expectation is ``5H`` (compared by rank and suit) or ``5H@12`` (that very card, C4).  A card of a
``valid``/``invalid``/``malformed`` move is looked up in the mover's current zone first (the hand, or the
face-up row once the hand is empty; the hand for a choice), then anywhere in the game (a card of another
seat, of the pile, of the draw pile: the lowest deck index not named already).  Every isValidMove call is
also checked to leave the whole state unchanged (C46).

Malformed moves (``malformed = [...]``), all expected FALSE without a state change (C40, C46):

- ``action=K`` -- an action K outside the enum (K not 0..3), no cards;
- ``blind=K`` -- PLAY_FACE_DOWN at position K (out of range: -1, or the face-down count);
- ``numCards=K`` or ``numCards=K:CARDS`` -- PLAY_CARDS claiming K cards, the listed cards first and NULL
  entries after them (K <= 0 or K > MAX_SET, or more than the cards listed);
- ``null`` or ``null:CARDS`` -- PLAY_CARDS with the listed cards then one NULL entry;
- ``repeat:CARDS`` -- PLAY_CARDS with the listed cards then the first of them again (the same pointer twice);
- ``up:`` before any of the last three -- the same for CHOOSE_FACE_UP (``up:numCards=2:5H,6H``).

Probes (§4.3) carry ``probe = "C9"`` (a LENIENT (switch) ruling) and ``[[scenario.expect_by_reading]]``
blocks instead of ``expect``: each has ``after``, keys that hold under every reading, and one sub-table
per reading of the switch (``[scenario.expect_by_reading.one]`` ...) with that reading's values.

``load_scenarios`` reads and checks the files (a ``ScenarioError`` names the file, the scenario and the
key); ``check_on_reference`` replays a scenario on the reference engine and lists every expectation it
breaks; ``lenient_dependencies`` lists anything a scenario asserts that a LENIENT ruling leaves open.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections import Counter
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from reference.palace import (
    BY_ID,
    REFERENCE,
    RULE_SEVEN_LOWER,
    SWITCHES,
    Action,
    Card,
    CardRef,
    Game,
    GameError,
    MoveSpec,
    Phase,
    PlayerMove,
    Rank,
    Readings,
    Setup,
    Suit,
    parse_moves,
)

SCENARIO_DIR = Path(__file__).resolve().parents[3] / "fixtures" / "palace" / "scenarios"
RULE_IDS = frozenset(f"P{i}" for i in range(1, 21)) | frozenset(BY_ID)

__all__ = [
    "SCENARIO_DIR", "Expect", "Malformed", "Probe", "ProbeBlock", "Scenario", "ScenarioError", "check_on_reference",
    "lenient_dependencies", "load_file", "load_scenarios", "run_scenario",
]


class ScenarioError(ValueError):
    """A scenario file that does not say what it means (a bug in our data)."""


# ---- the typed scenario ------------------------------------------------------------------------------
SeatCards = tuple[tuple[int, tuple[CardRef, ...]], ...]


@dataclass(frozen=True, slots=True)
class Malformed:
    """One C40 move as written in ``malformed``; ``build`` makes the PlayerMove in a game."""

    text: str
    action: int
    form: str  # "action", "blind", "count", "null", "repeat"
    cards: tuple[CardRef, ...] = ()
    number: int = 0  # the action, the face-down position or numCards

    @classmethod
    def parse(cls, token: str) -> Malformed:
        text = token.strip()
        body, action = text, int(Action.PLAY_CARDS)
        if body.lower().startswith("up:"):
            body, action = body[3:], int(Action.CHOOSE_FACE_UP)
        head, _colon, rest = body.partition(":")
        name, eq, value = head.partition("=")
        cards = tuple(CardRef.parse(c) for c in rest.split(",")) if rest else ()
        try:
            if eq and name in ("action", "blind", "numCards"):
                number = int(value)
                if name == "action":
                    if action != Action.PLAY_CARDS or cards or 0 <= number <= 3:
                        raise ValueError("action=K takes a K outside the enum 0..3 and nothing else")
                    return cls(text, number, "action", (), number)
                if name == "blind":
                    if action != Action.PLAY_CARDS or cards:
                        raise ValueError("blind=K takes a position and nothing else")
                    return cls(text, int(Action.PLAY_FACE_DOWN), "blind", (), number)
                return cls(text, action, "count", cards, number)
            if not eq and name == "null":
                return cls(text, action, "null", cards)
            if not eq and name == "repeat" and cards:
                return cls(text, action, "repeat", cards)
        except ValueError as err:
            raise ScenarioError(f"malformed move {token!r}: {err}") from err
        raise ScenarioError(f"malformed move {token!r}: expected action=K, blind=K, numCards=K[:CARDS], "
                            "null[:CARDS] or repeat:CARDS, optionally after up:")

    def build(self, cards: tuple[Card, ...]) -> PlayerMove:
        if self.form == "action":
            return PlayerMove(self.number)
        if self.form == "blind":
            return PlayerMove(self.action, (), self.number)
        if self.form == "count":
            return PlayerMove(self.action, cards, num_cards=self.number)
        if self.form == "null":
            return PlayerMove(self.action, cards + (None,))
        return PlayerMove(self.action, cards + cards[:1])  # repeat


@dataclass(frozen=True, slots=True)
class Expect:
    """The values expected after ``after`` moves; None (or empty) = not asserted."""

    after: int
    phase: str | None = None
    current_player: int | None = None
    current_turn: int | None = None
    winner: int | None = None
    effective_top_rank: int | None = None
    seven_restriction: bool | None = None
    hand_counts: tuple[int, ...] | None = None
    face_up_counts: tuple[int, ...] | None = None
    face_down_counts: tuple[int, ...] | None = None
    draw_pile_size: int | None = None
    discard_pile_size: int | None = None
    burnt_count: int | None = None
    top_discard: CardRef | str | None = None  # "none" for an empty pile
    pile: tuple[CardRef, ...] | None = None
    pile_as_set: bool = False
    draw_pile: tuple[CardRef, ...] | None = None
    hand: SeatCards | None = None
    face_up: SeatCards | None = None
    face_down: SeatCards | None = None
    valid: tuple[MoveSpec, ...] = ()
    invalid: tuple[MoveSpec, ...] = ()
    malformed: tuple[Malformed, ...] = ()
    index_ranges: bool = False
    same_cards: bool = False  # C4: handCard(n) and topDiscard() give the very Cards getHandCard and the pile give

    def asserted(self) -> list[str]:
        """The keys this expectation asserts."""
        out = []
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in ("after", "pile_as_set") or v is None or v == () or v is False and f.name in _FLAGS:
                continue
            out.append(f.name)
        return out


@dataclass(frozen=True, slots=True)
class ProbeBlock:
    """One ``expect_by_reading`` block: values for every reading, and each reading's own."""

    after: int
    shared: Expect
    by_reading: tuple[tuple[str, Expect], ...]

    def for_reading(self, reading: str) -> Expect:
        return dict(self.by_reading)[reading]


@dataclass(frozen=True, slots=True)
class Probe:
    """A §4.3 probe: the switch ruling it detects and the expected values by reading."""

    ruling: str
    blocks: tuple[ProbeBlock, ...]

    @property
    def readings(self) -> tuple[str, ...]:
        return SWITCHES[self.ruling][1]


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    group: str
    title: str
    rules: tuple[str, ...]
    says: str
    setup: Setup
    moves: tuple[MoveSpec, ...]
    weight: float = 1.0
    expects: tuple[Expect, ...] = ()
    probe: Probe | None = None
    source: str = ""

    @property
    def is_probe(self) -> bool:
        return self.probe is not None


# ---- loading -------------------------------------------------------------------------------------------
_INT = ("current_player", "current_turn", "winner", "effective_top_rank", "draw_pile_size", "discard_pile_size",
        "burnt_count")
_INT_LISTS = ("hand_counts", "face_up_counts", "face_down_counts")
_FLAGS = ("index_ranges", "same_cards")  # checks asked for by ``true``; ``false`` asserts nothing
_BOOLS = ("seven_restriction", "pile_as_set", *_FLAGS)
_CARD_LISTS = ("pile", "draw_pile")
_SEAT_CARDS = ("hand", "face_up", "face_down")
_MOVE_LISTS = ("valid", "invalid")
EXPECT_KEYS = frozenset(f.name for f in fields(Expect))
SCENARIO_KEYS = frozenset({"id", "rules", "says", "setup", "moves", "weight", "expect", "probe", "expect_by_reading"})
FILE_KEYS = frozenset({"group", "title", "scenario"})


def _int(key: str, v: object) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise ScenarioError(f"{key} = {v!r}: expected a whole number")
    return v


def _cards(key: str, v: object) -> tuple[CardRef, ...]:
    if not isinstance(v, list) or not all(isinstance(c, str) for c in v):
        raise ScenarioError(f"{key} = {v!r}: expected a list of cards like [\"5H\", \"9S@20\"]")
    return tuple(CardRef.parse(c) for c in v)


def _expect(raw: Mapping[str, object], after: int, n_players: int, n_moves: int, *,
            allow: Iterable[str] = ()) -> Expect:
    unknown = set(raw) - EXPECT_KEYS - set(allow)
    if unknown:
        raise ScenarioError(f"unknown expectation key(s) {sorted(unknown)} (known: {sorted(EXPECT_KEYS)})")
    if not 0 <= after <= n_moves:
        raise ScenarioError(f"after = {after}: the scenario has {n_moves} moves")
    values: dict[str, Any] = {"after": after}  # Expect's keyword arguments, each checked below
    for key, v in raw.items():
        if key in ("after",) or key in allow:
            continue
        if key == "phase":
            if v not in Phase.__members__:
                raise ScenarioError(f"phase = {v!r}: one of {', '.join(Phase.__members__)}")
            values[key] = v
        elif key in _INT:
            values[key] = _int(key, v)
        elif key in _BOOLS:
            if not isinstance(v, bool):
                raise ScenarioError(f"{key} = {v!r}: expected true or false")
            values[key] = v
        elif key in _INT_LISTS:
            if not isinstance(v, list) or len(v) != n_players:
                raise ScenarioError(f"{key} = {v!r}: expected one number per seat ({n_players})")
            values[key] = tuple(_int(key, x) for x in v)
        elif key == "top_discard":
            if not isinstance(v, str):
                raise ScenarioError(f"top_discard = {v!r}: a card or \"none\"")
            values[key] = "none" if v.lower() == "none" else CardRef.parse(v)
        elif key in _CARD_LISTS:
            values[key] = _cards(key, v)
        elif key in _SEAT_CARDS:
            if not isinstance(v, dict):
                raise ScenarioError(f"{key} = {v!r}: expected a table seat -> cards, like {{ 0 = [\"5H\"] }}")
            seats = []
            for seat, cards in v.items():
                if not (str(seat).isdigit() and int(seat) < n_players):
                    raise ScenarioError(f"{key}: seat {seat!r} is not 0..{n_players - 1}")
                seats.append((int(seat), _cards(f"{key}.{seat}", cards)))
            values[key] = tuple(sorted(seats))
        elif key in _MOVE_LISTS:
            if not isinstance(v, list) or not all(isinstance(m, str) for m in v):
                raise ScenarioError(f"{key} = {v!r}: expected a list of moves in move notation")
            values[key] = tuple(MoveSpec.parse(m) for m in v)
        elif key == "malformed":
            if not isinstance(v, list) or not all(isinstance(m, str) for m in v):
                raise ScenarioError(f"malformed = {v!r}: expected a list of malformed-move tokens")
            values[key] = tuple(Malformed.parse(m) for m in v)
    if values.get("pile_as_set") and "pile" not in values:
        raise ScenarioError("pile_as_set without a pile")
    return Expect(**values)


def _scenario(group: str, title: str, raw: Mapping[str, Any], source: str) -> Scenario:  # raw: TOML
    where = f"{source}: scenario {raw.get('id', '?')!r}"
    try:
        unknown = set(raw) - SCENARIO_KEYS
        if unknown:
            raise ScenarioError(f"unknown key(s) {sorted(unknown)} (known: {sorted(SCENARIO_KEYS)})")
        for key in ("id", "rules", "says", "setup"):
            if key not in raw:
                raise ScenarioError(f"missing {key!r}")
        sid = raw["id"]
        if not isinstance(sid, str) or not re.fullmatch(r"[a-z0-9_]+", sid):
            raise ScenarioError(f"id {sid!r}: lower-case letters, digits and _")
        rules = raw["rules"]
        if not isinstance(rules, list) or not rules or not all(isinstance(r, str) for r in rules):
            raise ScenarioError("rules: a non-empty list of rule ids like [\"P6\", \"C8\"]")
        bad = [r for r in rules if r not in RULE_IDS]
        if bad:
            raise ScenarioError(f"rules {bad}: not a rule P1-P20 or a ruling C1-C47")
        says = raw["says"]
        if not isinstance(says, str) or not says.strip():
            raise ScenarioError("says: the rule in plain words")
        setup = Setup.parse(raw["setup"])
        moves = tuple(parse_moves(raw.get("moves", "")))
        weight = raw.get("weight", 1)
        if not isinstance(weight, (int, float)) or isinstance(weight, bool) or weight <= 0:
            raise ScenarioError(f"weight = {weight!r}: a positive number")
        n, m = setup.n_players, len(moves)
        probe_id = raw.get("probe")
        expects: list[Expect] = []
        probe: Probe | None = None
        if probe_id is None:
            if "expect_by_reading" in raw:
                raise ScenarioError("expect_by_reading belongs to a probe (probe = \"C9\" ...)")
            raw_expects = raw.get("expect", [])
            if not raw_expects:
                raise ScenarioError("no [[scenario.expect]] block")
            for e in raw_expects:
                if "after" not in e:
                    raise ScenarioError("every expect block gives 'after'")
                expects.append(_expect(e, _int("after", e["after"]), n, m))
        else:
            if probe_id not in SWITCHES:
                raise ScenarioError(f"probe = {probe_id!r}: one of the switch rulings {', '.join(SWITCHES)}")
            if "expect" in raw:
                raise ScenarioError("a probe gives expect_by_reading, not expect")
            readings = SWITCHES[probe_id][1]
            blocks = []
            for b in raw.get("expect_by_reading", []):
                if "after" not in b:
                    raise ScenarioError("every expect_by_reading block gives 'after'")
                after = _int("after", b["after"])
                missing = [r for r in readings if r not in b]
                if missing:
                    raise ScenarioError(f"expect_by_reading after {after}: no values for reading(s) {missing}")
                shared = _expect(b, after, n, m, allow=readings)
                by = []
                for r in readings:
                    if not isinstance(b[r], dict):
                        raise ScenarioError(f"expect_by_reading.{r}: a table of expected values")
                    if "after" in b[r]:
                        raise ScenarioError(f"expect_by_reading.{r}: 'after' belongs to the block")
                    by.append((r, _expect(b[r], after, n, m)))
                blocks.append(ProbeBlock(after, shared, tuple(by)))
            if not blocks:
                raise ScenarioError("a probe needs [[scenario.expect_by_reading]] blocks")
            probe = Probe(probe_id, tuple(blocks))
        return Scenario(id=sid, group=group, title=title, rules=tuple(rules), says=" ".join(says.split()),
                        setup=setup, moves=moves, weight=float(weight), expects=tuple(expects), probe=probe,
                        source=source)
    except (GameError, ValueError, TypeError) as err:
        raise ScenarioError(f"{where}: {err}") from err


def load_file(path: Path) -> list[Scenario]:
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as err:
        raise ScenarioError(f"{path.name}: {err}") from err
    unknown = set(data) - FILE_KEYS
    if unknown:
        raise ScenarioError(f"{path.name}: unknown top-level key(s) {sorted(unknown)} (known: {sorted(FILE_KEYS)})")
    group = data.get("group", path.stem)
    title = data.get("title")
    if not isinstance(title, str) or not title:
        raise ScenarioError(f"{path.name}: a title is needed")
    return [_scenario(group, title, raw, path.name) for raw in data.get("scenario", [])]


def load_scenarios(directory: Path = SCENARIO_DIR) -> tuple[Scenario, ...]:
    """Every scenario under ``directory``, file by file in name order; ids must be unique."""
    out: list[Scenario] = []
    for path in sorted(directory.glob("*.toml")):
        out.extend(load_file(path))
    seen: dict[str, str] = {}
    for s in out:
        if s.id in seen:
            raise ScenarioError(f"scenario id {s.id!r} is used in {seen[s.id]} and {s.source}")
        seen[s.id] = s.source
    return tuple(out)


# ---- replaying and checking on the reference -------------------------------------------------------------
def _zone(game: Game, action: int) -> tuple[Card, ...]:
    seat = game.current_player()
    hand = game.hand(seat)
    return hand if action == Action.CHOOSE_FACE_UP or hand else game.face_up(seat)


def find_cards(game: Game, refs: Iterable[CardRef], action: int) -> tuple[tuple[Card, ...], list[Card]]:
    """The cards a written move names: the mover's zone first, then anywhere (see the module docstring).

    Returns the cards and those found outside the zone.  Raises ScenarioError if a card is in no zone.
    """
    zone = _zone(game, action)
    taken: set[int] = set()
    out: list[Card] = []
    outside: list[Card] = []
    for ref in refs:
        if ref.ident is not None:
            if not 0 <= ref.ident < game.num_cards() or game.card(ref.ident).key != (ref.rank, ref.suit):
                raise ScenarioError(f"this game has no card {ref}")
            card = game.card(ref.ident)
        else:
            near = [c for c in zone if c.key == (ref.rank, ref.suit) and c.ident not in taken]
            far = [game.card(i) for i in range(game.num_cards())
                   if game.card(i).key == (ref.rank, ref.suit) and i not in taken]
            if not (near or far):
                raise ScenarioError(f"this game has no (further) card {ref}")
            card = min(near or far, key=lambda c: c.ident)
        if card not in zone:
            outside.append(card)
        taken.add(card.ident)
        out.append(card)
    return tuple(out), outside


def build_move(game: Game, spec: MoveSpec | Malformed) -> tuple[PlayerMove, list[Card]]:
    """The PlayerMove a valid/invalid/malformed entry stands for now, and its cards found outside the zone."""
    if isinstance(spec, Malformed):
        cards, outside = find_cards(game, spec.cards, spec.action)
        return spec.build(cards), outside
    if spec.action in (Action.PICK_UP_PILE, Action.PLAY_FACE_DOWN):
        return PlayerMove(spec.action, (), spec.face_down_index), []
    cards, outside = find_cards(game, spec.cards, spec.action)
    return PlayerMove(spec.action, cards), outside


def _names(cards: Iterable[Card]) -> list[str]:
    return [repr(c) for c in cards]


def _same_ordered(want: tuple[CardRef, ...], got: tuple[Card, ...]) -> bool:
    return len(want) == len(got) and all(_matches(w, g) for w, g in zip(want, got))


def _same_set(want: tuple[CardRef, ...], got: tuple[Card, ...]) -> bool:
    if Counter((w.rank, w.suit) for w in want) != Counter(g.key for g in got):
        return False
    idents = {g.ident for g in got}
    return all(w.ident is None or w.ident in idents for w in want)


def _matches(want: CardRef, got: Card | None) -> bool:
    return got is not None and (want.rank, want.suit) == got.key and (want.ident is None or want.ident == got.ident)


def _index_range_errors(game: Game) -> list[str]:
    n = game.num_players()
    getters: list[tuple[str, Callable[[int], Card | None], int]] = [
        ("handCard", game.hand_card, game.hand_card_count()),
        ("getDiscardPileCard", game.get_discard_pile_card, game.discard_pile_size()),
        ("getBurntCard", game.get_burnt_card, game.burnt_count()),
        ("getDeckCard", game.get_deck_card, game.draw_pile_size()),
    ]
    for s in range(n):
        getters += [
            (f"faceUpCard(seat {s})", functools.partial(game.face_up_card, s), game.face_up_count(s)),
            (f"getHandCard(seat {s})", functools.partial(game.get_hand_card, s), game.player_card_count(s)),
            (f"getFaceDownCard(seat {s})", functools.partial(game.get_face_down_card, s), game.face_down_count(s)),
        ]
    bad = []
    for name, get, size in getters:
        for i in (-1, size):
            if get(i) is not None:
                bad.append(f"{name}({i}) is not NULL (size {size})")
        if size and get(size - 1) is None:
            bad.append(f"{name}({size - 1}) is NULL inside the zone (size {size})")
    return bad


def check_expect(game: Game, exp: Expect) -> list[str]:
    """Mismatches between an expectation and the reference game as it stands."""
    bad: list[str] = []
    n = game.num_players()

    def want(key: str, expected: object, got: object) -> None:
        if expected != got:
            bad.append(f"{key}: expected {expected!r}, got {got!r}")

    scalars: dict[str, Callable[[], object]] = {
        "phase": lambda: game.current_phase().name,
        "current_player": game.current_player,
        "current_turn": game.current_turn,
        "winner": game.game_winner,
        "effective_top_rank": game.effective_top_rank,
        "seven_restriction": game.seven_restriction,
        "hand_counts": lambda: tuple(game.player_card_count(s) for s in range(n)),
        "face_up_counts": lambda: tuple(game.face_up_count(s) for s in range(n)),
        "face_down_counts": lambda: tuple(game.face_down_count(s) for s in range(n)),
        "draw_pile_size": game.draw_pile_size,
        "discard_pile_size": game.discard_pile_size,
        "burnt_count": game.burnt_count,
    }
    for key, get in scalars.items():
        expected = getattr(exp, key)
        if expected is not None:
            want(key, expected, get())
    if exp.top_discard is not None:
        top = game.top_discard()
        if exp.top_discard == "none" or top is None:
            want("top_discard", str(exp.top_discard), "none" if top is None else repr(top))
        elif not isinstance(exp.top_discard, str) and not _matches(exp.top_discard, top):
            bad.append(f"top_discard: expected {exp.top_discard}, got {top!r}")
    if exp.pile is not None:
        got = game.pile()
        same = _same_set(exp.pile, got) if exp.pile_as_set else _same_ordered(exp.pile, got)
        if not same:
            how = " (as a set)" if exp.pile_as_set else " (top first)"
            bad.append(f"pile{how}: expected {[str(c) for c in exp.pile]}, got {_names(got)}")
    if exp.draw_pile is not None and not _same_ordered(exp.draw_pile, game.draw_pile()):
        bad.append(f"draw_pile: expected {[str(c) for c in exp.draw_pile]}, got {_names(game.draw_pile())}")
    for key, zone, ordered in (("hand", game.hand, False), ("face_up", game.face_up, False),
                               ("face_down", game.face_down, True)):
        for seat, cards in getattr(exp, key) or ():
            got = zone(seat)
            same = _same_ordered(cards, got) if ordered else _same_set(cards, got)
            if not same:
                bad.append(f"{key} of seat {seat}: expected {[str(c) for c in cards]}, got {_names(got)}")
    for key, entries, expected in (("valid", exp.valid, True), ("invalid", exp.invalid, False),
                                   ("malformed", exp.malformed, False)):
        for entry in entries:
            label = entry.text if isinstance(entry, Malformed) else str(entry)
            try:
                move, _outside = build_move(game, entry)
            except ScenarioError as err:
                bad.append(f"{key} {label}: {err}")
                continue
            before = game.snapshot()
            said = game.is_valid_move(move)
            if game.snapshot() != before:
                bad.append(f"isValidMove({label}) changed the game (C46)")
            if said != expected:
                why = game.why_invalid(move)
                bad.append(f"isValidMove({label}): expected {expected}, got {said}" + (f" ({why})" if why else ""))
    if exp.index_ranges:
        bad.extend(_index_range_errors(game))
    if exp.same_cards:
        bad.extend(_same_card_errors(game))
    return bad


def _same_card_errors(game: Game) -> list[str]:
    """C4 on the reference: the current seat's hand and the pile's top, each one object through both queries."""
    bad = []
    seat = game.current_player()
    mine = [game.hand_card(n) for n in range(game.hand_card_count())]
    theirs = [game.get_hand_card(seat, n) for n in range(game.player_card_count(seat))]
    if sorted(map(id, mine)) != sorted(map(id, theirs)):
        bad.append("same_cards: handCard(n) and getHandCard(currentPlayer(), n) are not the same cards")
    if game.top_discard() is not game.get_discard_pile_card(0):
        bad.append("same_cards: topDiscard() is not getDiscardPileCard(0)")
    return bad


def run_scenario(scenario: Scenario, readings: Readings, checks: Iterable[tuple[int, Expect]],
                 visit: Callable[[Game, int], None] | None = None) -> list[str]:
    """Replay the moves on a reference game with these readings, checking each expectation at its ``after``.

    ``visit(game, k)`` (optional) sees the game before move k and once more at the end (k = len(moves)).
    """
    game = Game(scenario.setup, readings=readings)
    bad: list[str] = []
    made = 0
    todo = sorted(checks, key=lambda c: c[0])
    for after, exp in todo:
        while made < after:
            if visit:
                visit(game, made)
            spec = scenario.moves[made]
            try:
                game.play_move(game.resolve(spec))
            except GameError as err:
                return bad + [f"move {made + 1} ({spec}) was refused: {err}"]
            made += 1
        bad.extend(f"after {after} move(s): {m}" for m in check_expect(game, exp))
    if visit:
        while made < len(scenario.moves):
            visit(game, made)
            try:
                game.play_move(game.resolve(scenario.moves[made]))
            except GameError as err:
                return bad + [f"move {made + 1} ({scenario.moves[made]}) was refused: {err}"]
            made += 1
        visit(game, made)
    return bad


def check_on_reference(scenario: Scenario, readings: Readings = REFERENCE) -> list[str]:
    """Every expectation the reference engine breaks, as strings; empty when the scenario holds.

    A probe is checked once per reading of its switch (the other switches as ``readings`` says), each against
    the values its table gives for that reading plus those shared by every reading.
    """
    if scenario.probe is None:
        return run_scenario(scenario, readings, [(e.after, e) for e in scenario.expects])
    ruling = scenario.probe.ruling
    bad: list[str] = []
    for reading in scenario.probe.readings:
        checks = []
        for block in scenario.probe.blocks:
            checks += [(block.after, block.shared), (block.after, block.for_reading(reading))]
        rd = readings.with_(**{ruling: reading})
        bad.extend(f"[{ruling}={reading}] {m}" for m in run_scenario(scenario, rd, checks))
    return bad


# ---- what a fair scenario must not assert ---------------------------------------------------------------
def _all_expects(scenario: Scenario) -> list[Expect]:
    if scenario.probe is None:
        return list(scenario.expects)
    return [e for b in scenario.probe.blocks for e in (b.shared, *(x for _r, x in b.by_reading))]


def lenient_dependencies(scenario: Scenario) -> list[str]:
    """What the scenario asserts (or plays) that a LENIENT ruling leaves open, replayed on the reference.

    - C31: a starting TEN, or SEVEN under RULE_SEVEN_LOWER;
    - C13: isValidMove(PICK_UP_PILE) asked on an empty pile;
    - C29: effectiveTopRank asserted while the pile holds only threes (mirror rule);
    - §1.5 against C47: the pile or burnt cards asserted after a game won with a bomb card (§1.5 leaves the card on
      the pile, C47 says no ten lies there between moves);
    - C37: the order of one set's cards (an ordered ``pile``, or ``top_discard``, where a set of different cards lies);
    - C38: face-down positions after the seat turned a card (``face_down`` asserted, or a blind move among cards that
      differ);
    - C39/C42: effectiveTopRank, sevenRestriction or currentPlayer asserted after GAME_OVER;
    - C4: a move naming a card outside the mover's zone while a card equal in rank and suit is in it.

    The four switch rulings are not looked for here: running a scenario under every ``Readings`` does that.
    """
    out: list[str] = []
    setup = scenario.setup
    start_rank = setup.start[0]
    if start_rank == Rank.TEN or (start_rank == Rank.SEVEN and setup.rules & RULE_SEVEN_LOWER):
        out.append(f"C31: the starting card {Card(Rank(setup.start[0]), Suit(setup.start[1]))} acts or not")
    by_after: dict[int, list[Expect]] = {}
    for e in _all_expects(scenario):
        by_after.setdefault(e.after, []).append(e)
    placed: dict[int, int] = {}  # card ident -> the move that put it on the pile (-1: the starting card)
    turned: set[int] = set()  # seats that have turned a face-down card

    def visit(game: Game, k: int) -> None:
        pile = game.pile()
        for c in pile:
            placed.setdefault(c.ident, -1)
        over = game.current_phase() == Phase.GAME_OVER
        seat = game.current_player()
        for e in by_after.get(k, ()):
            where = f"after {k}"
            if over:
                for key in ("effective_top_rank", "seven_restriction", "current_player"):
                    if getattr(e, key) is not None:
                        out.append(f"C39/C42: {key} asserted {where}, after GAME_OVER")
            if over and pile and (pile[0].rank == Rank.TEN or game.run_on_top() >= 4):
                for key in ("pile", "top_discard", "discard_pile_size", "burnt_count"):
                    if getattr(e, key) is not None:
                        out.append(f"§1.5/C47: {key} asserted {where}, after a game won by a bomb card")
            if (e.effective_top_rank is not None and game.setup.mirror_three and pile
                    and all(c.rank == Rank.THREE for c in pile)):
                out.append(f"C29: effective_top_rank asserted {where} on a pile of threes only")
            if not over and game.current_phase() == Phase.PLAY_PHASE and not pile:
                if any(m.action == Action.PICK_UP_PILE for m in (*e.valid, *e.invalid)):
                    out.append(f"C13: PICK_UP_PILE asked {where} on an empty pile")
            groups: dict[int, set[tuple[int, int]]] = {}
            for c in pile:
                groups.setdefault(placed[c.ident], set()).add(c.key)
            if e.pile is not None and not e.pile_as_set and any(len(g) > 1 for g in groups.values()):
                out.append(f"C37: pile asserted in order {where} though one set of different cards lies there")
            if (e.top_discard not in (None, "none") and pile and placed[pile[0].ident] >= 0
                    and len(groups[placed[pile[0].ident]]) > 1):
                out.append(f"C37: top_discard asserted {where}: the top set's order is free")
            for s, _cards in e.face_down or ():
                if s in turned:
                    out.append(f"C38: face_down of seat {s} asserted {where} after it turned a card")
            if not over:
                zone = _zone(game, Action.PLAY_CARDS)
                entries: tuple[MoveSpec | Malformed, ...] = (*e.valid, *e.invalid, *e.malformed)
                for entry in entries:
                    if isinstance(entry, MoveSpec) and entry.action not in (Action.PLAY_CARDS,
                                                                            Action.CHOOSE_FACE_UP):
                        continue
                    try:
                        _move, outside = build_move(game, entry)
                    except ScenarioError:
                        continue
                    zone = _zone(game, entry.action)
                    keys = {c.key for c in zone}
                    if any(c.key in keys for c in outside):
                        out.append(f"C4: {entry} {where} names a twin of a card in the mover's zone")
        if k < len(scenario.moves):
            spec = scenario.moves[k]
            if spec.action == Action.PLAY_FACE_DOWN:
                down = game.face_down(seat)
                if seat in turned and len({c.key for c in down}) > 1:
                    out.append(f"C38: move {k + 1} turns position {spec.face_down_index} of seat {seat} after "
                               "renumbering, among cards that differ")
                turned.add(seat)
            before = {c.ident for c in pile}
            try:
                after_game = game.copy()
                after_game.play_move(after_game.resolve(spec))
            except GameError:
                return
            for c in after_game.pile():
                if c.ident not in before:
                    placed[c.ident] = k

    run_scenario(scenario, REFERENCE, [], visit=visit)
    return sorted(set(out))
