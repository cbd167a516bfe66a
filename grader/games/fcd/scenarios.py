"""Scenarios: rule cases as data (fixtures/scenarios/*.toml), and their loader.

A scenario file holds one rule group::

    group = "draw_two"
    title = "Draw-two stacking"

    [[scenario]]
    id = "stack_two_needs_four"          # unique within the group
    rules = ["R7", "A7"]                 # clauses of rules.md it checks
    weight = 1                           # optional, default 1
    says = "Two stacked 2s make the next player draw four cards."  # the rule in plain words
    moves = "2RH end 2BH end draw draw draw draw end"
    [scenario.deal]                      # or: deck = "..." (the raw order, index 0 on top)
    p0 = "2RH 5GC 5GC 5GC 5GC 5GC 5GC"   # 7 cards each; CARD*N repeats a card
    p1 = "2BH 5GC*6"
    p2 = "7YS*7"
    p3 = "7YS*7"
    discard = "3RH"
    draw = "9PQ*12"
    [[scenario.expect]]
    after = 4                            # moves made so far (0 = right after newGame)
    current_player = 2
    active_draw_twos = 2
    valid = ["draw"]
    invalid = ["end"]

Expectations are worked out by hand and checked against the reference engine,
so the suite tests the oracle too; submissions are compared with the reference
move by move (``grader.games.fcd.compare``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from grader.games.fcd.edition import Edition, G, WrittenMove
from grader.games.fcd.focus import validity_field
from grader.games.fcd.sandbox.observations import Table
from grader.games.fcd.sandbox.observe import CardObs, Obs, card_label
from reference.cards import COLOR_LETTERS, Deck, NotationError, parse_key

# A51: the smallest deck the grader ever deals (scenarios and random games); a course implementation
# refuses decks under 30 cards, which the rules leave undefined.
SMALLEST_DECK = 30

# Expectation keys whose value is written as a word, not a number: a colour as its letter, the direction
# of play (2017) as "clockwise" or "anticlockwise".
WORD_KEYS = {"current_color": COLOR_LETTERS, "play_direction": ("clockwise", "anticlockwise")}


def expect_keys(table: Table) -> dict[str, frozenset[str]]:
    """Expectation keys named after an edition's observations, by the shape the table gives them."""
    obs = table.observations
    keys = {
        "int": frozenset(o.name for o in obs if o.shape == "int") - set(WORD_KEYS),
        "list": frozenset(o.name for o in obs if o.shape == "four_ints" or o.shape.startswith("ints_")),
        "card": frozenset(o.name for o in obs if o.shape == "card"),
        "multiset": frozenset(o.name for o in obs if o.shape == "cards" and o.change != "pile"),
        "history": frozenset(o.name for o in obs if o.shape == "history"),
        "word": frozenset(o.name for o in obs if o.name in WORD_KEYS),
        "hands": frozenset(o.name for o in obs if o.shape == "four_hands"),
        "pile_tops": frozenset({"deck_top", "discard_top"} if table.piles else ()),
    }
    keys["all"] = frozenset().union(*keys.values()) | {"after", "valid", "invalid"}
    return keys


class ScenarioError(ValueError):
    """A scenario file that does not say what it means (a bug in our data)."""


@dataclass(frozen=True, slots=True)
class Expectation:
    after: int
    values: dict[str, object]  # expectation key -> its value as the file writes it (a number, a word, cards, ...)


@dataclass(frozen=True, slots=True)
class Scenario:
    group: str
    name: str
    rules: tuple[str, ...]
    says: str
    deck: Deck
    moves: tuple[WrittenMove, ...]  # the edition's MoveSpecs
    expectations: tuple[Expectation, ...] = ()
    weight: float = 1.0
    hidden: bool = False
    source: str = ""
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.group}/{self.name}"


def expand(cards: str) -> list[str]:
    """``"5GC*3 1RH"`` -> ``["5GC", "5GC", "5GC", "1RH"]``."""
    out: list[str] = []
    for tok in cards.split():
        card, star, count = tok.partition("*")
        parse_key(card)
        out.extend([card] * (int(count) if star else 1))
    return out


def deal_to_deck(deal: dict[str, str]) -> Deck:
    """Lay out a deck so that newGame deals these hands, this discard and draw pile."""
    hands = [expand(deal.get(f"p{p}", "")) for p in range(4)]
    for p, hand in enumerate(hands):
        if len(hand) != 7:
            raise ScenarioError(f"deal: p{p} must hold 7 cards, not {len(hand)}")
    discard = expand(deal.get("discard", ""))
    if len(discard) != 1:
        raise ScenarioError("deal: discard must be exactly one card")
    order = [hands[i % 4][i // 4] for i in range(28)] + discard + expand(deal.get("draw", ""))
    return Deck.parse(" ".join(order))


def _scenario(group: str, raw: dict[str, Any], source: str, edition: Edition[G]) -> Scenario:  # raw: the file's TOML
    where = f"{source}: scenario {raw.get('id', '?')!r}"
    try:
        if ("deal" in raw) == ("deck" in raw):
            raise ScenarioError("give exactly one of 'deal' and 'deck'")
        deck = deal_to_deck(raw["deal"]) if "deal" in raw else Deck.parse(" ".join(expand(raw["deck"])))
        if len(deck) < SMALLEST_DECK:
            raise ScenarioError(f"the deck has {len(deck)} cards; the grader uses at least {SMALLEST_DECK} (A51)")
        moves = tuple(edition.parse_move(token) for token in raw.get("moves", "").split())
        expectations = []
        known = expect_keys(edition.table)["all"]
        for e in raw.get("expect", []):
            unknown = set(e) - known
            if unknown:
                raise ScenarioError(f"unknown expectation(s) {sorted(unknown)}")
            after = int(e.get("after", len(moves)))
            if not 0 <= after <= len(moves):
                raise ScenarioError(f"expect after={after}: the scenario has {len(moves)} moves")
            expectations.append(Expectation(after, {k: v for k, v in e.items() if k != "after"}))
        rules = tuple(raw["rules"])
        if not rules or not raw.get("says"):
            raise ScenarioError("every scenario names its rules and says the rule in plain words")
        return Scenario(
            group=group, name=str(raw["id"]), rules=rules, says=str(raw["says"]).strip(), deck=deck,
            moves=moves, expectations=tuple(expectations), weight=float(raw.get("weight", 1)),
            hidden=bool(raw.get("hidden", False)), source=source,
        )
    except (KeyError, NotationError, ValueError) as err:
        raise ScenarioError(f"{where}: {err}") from err


def load_file(path: Path, edition: Edition[G]) -> list[Scenario]:
    data = tomllib.loads(path.read_text())
    group = data.get("group", path.stem)
    return [_scenario(group, raw, path.name, edition) for raw in data.get("scenario", [])]


def load_scenarios(directory: Path, edition: Edition[G]) -> list[Scenario]:
    """Every scenario under ``directory``, in file then file order; ids must be unique."""
    scenarios: list[Scenario] = []
    for path in sorted(directory.glob("*.toml")):
        scenarios.extend(load_file(path, edition))
    seen: set[str] = set()
    for s in scenarios:
        if s.id in seen:
            raise ScenarioError(f"duplicate scenario id {s.id}")
        seen.add(s.id)
    return scenarios


# ---- checking hand-worked expectations against an observation ---------------------

def _multiset(cards: list[CardObs] | None) -> list[str]:
    return sorted(card_label(c) for c in cards or [])


def _word(key: str, value: object) -> str:
    """A value of a word key as its word (``R``, ``anticlockwise``), given as the word or its number."""
    words = WORD_KEYS[key]
    if isinstance(value, str):
        return value.upper() if key == "current_color" else value.lower()
    return words[value] if isinstance(value, int) and 0 <= value < len(words) else str(value)


def check_expectation(values: dict[str, object], obs: Obs,
                      table: Table) -> list[tuple[str, object, object]]:
    """Mismatches ``(what, expected, got)`` between hand-worked values and an observation (the reference's:
    each value of its table's shape).  Each key's value is written as its kind of key says (``expect_keys``):
    cards as the notation (``"5GC*3 1RH"``), the hands as four of those, moves as a list of tokens."""
    bad: list[tuple[str, object, object]] = []
    keys = expect_keys(table)

    def want(name: str, expected: object, got: object) -> None:
        if expected != got:
            bad.append((name, expected, got))

    for key, expected in values.items():
        if key in keys["int"] or key in keys["list"]:
            want(key, expected, obs[key])
        elif key in keys["word"]:
            want(key, _word(key, expected), _word(key, obs[key]))
        elif key in keys["card"]:
            got = cast("CardObs | None", obs[key])
            want(key, expected, card_label(got) if got else None)
        elif key in keys["multiset"]:
            want(key, sorted(expand(cast(str, expected))), _multiset(cast("list[CardObs]", obs[key])))
        elif key in keys["history"]:
            want(key, [" ".join(t.split()) for t in cast("list[str]", expected)],
                 [" ".join(t) for t in cast("list[list[str]]", obs[key])])
        elif key == "hands":
            for p, cards in enumerate(cast("list[str]", expected)):
                want(f"hand of player {p}", sorted(expand(cards)),
                     _multiset(cast("list[list[CardObs]]", obs["hands"])[p]))
        elif key in ("deck_top", "discard_top"):
            pile = cast("list[CardObs]", obs["deck_pile" if key == "deck_top" else "discard_pile"])
            exp = expand(cast(str, expected))
            want(key, exp, [card_label(c) for c in pile[: len(exp)]])
        elif key in ("valid", "invalid"):
            for label in cast("list[str]", expected):
                valid = validity_of(obs, label)
                want(f"isValidMove({label})", key == "valid", valid)
    return bad


def validity_of(obs: Obs, label: str) -> bool | None:
    """isValidMove as observed for a move written in move notation (the reference's observation)."""
    name = validity_field(label)
    answer = obs[name]
    if name == "valid_say":
        return cast("dict[str, bool]", answer).get(label.lower())
    if name != "valid_play":
        return cast(bool, answer)
    label = label.upper()
    plays = cast("dict[str, bool]", answer)
    if label in plays:
        return plays[label]
    return cast("dict[str, bool]", obs["valid_foreign"]).get(label)
