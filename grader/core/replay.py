"""A game to replay, step by step: the engine-generic data the HTML replay reads.

One ``Frame`` per step (the game as dealt, then after each move): the seats
with their cards (the current one marked), the piles (a name, the cards shown
first-to-come, the size), the facts a student checks (counters, colour, ...)
and the moves valid there -- plain strings in the game's own notation, so the
same replay serves every game (each game's ``GameSpec.replay_frames`` makes
them from its reference engine) and, later, games between players.
``Difference`` is what a test found at one step, expected against got.

A replay is embedded in a report as JSON (``embed_json``): escaped so that no
student-controlled text can end the ``<script>`` element it sits in.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Seat:
    name: str  # "player 0"
    cards: tuple[str, ...]  # in the game's notation, in hand order
    current: bool = False


@dataclass(frozen=True)
class Pile:
    name: str  # "draw pile", "discard pile"
    cards: tuple[str, ...]  # the cards shown, the next to come (or the top) first
    size: int  # how many the pile holds in all


@dataclass(frozen=True)
class Frame:
    step: int  # 0: as dealt; k: after move k
    move: str  # the move that led here, in the game's notation ("" at step 0)
    seats: tuple[Seat, ...]
    piles: tuple[Pile, ...]
    facts: tuple[tuple[str, str], ...]  # (what, value), in the order a student reads them
    valid: tuple[str, ...]  # the moves valid now, in the game's notation


@dataclass(frozen=True)
class Difference:
    step: int
    what: str  # the call a student recognises: "currentPlayer()"
    expected: str
    got: str


@dataclass(frozen=True)
class Replay:
    title: str  # "Final Card-Down (2018)"
    frames: tuple[Frame, ...]
    differences: tuple[Difference, ...] = field(default=())

    @property
    def first_difference(self) -> int | None:
        """The step a viewer opens at: the first one where a test found a difference."""
        return min((d.step for d in self.differences), default=None)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Replay:
        frames = tuple(
            Frame(f["step"], f["move"], tuple(Seat(s["name"], tuple(s["cards"]), s["current"]) for s in f["seats"]),
                  tuple(Pile(p["name"], tuple(p["cards"]), p["size"]) for p in f["piles"]),
                  tuple((str(a), str(b)) for a, b in f["facts"]), tuple(f["valid"]))
            for f in data["frames"])
        return cls(data["title"], frames, tuple(Difference(**d) for d in data.get("differences", ())))


def embed_json(replay: Replay) -> str:
    """The replay as JSON safe inside ``<script type="application/json">``: ``<``, ``>`` and ``&`` (so no
    ``</script>`` or comment opener) and the two line separators JavaScript once treated as newlines are
    written as escapes."""
    text = json.dumps(replay.to_json(), separators=(",", ":"), ensure_ascii=False)
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                         ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


MAX_FRAMES = 2000  # a replay shows at most this many steps (a game is cut after its first difference anyway)


def replays_of(result: Any, frames_of: Any, title: str) -> dict[str, Replay]:
    """The replays of a result's failed tests that played a game (test id -> replay), made with the game's
    ``replay_frames``.  A test whose game the reference cannot replay gets none (its message still shows)."""
    out: dict[str, Replay] = {}
    for t in result.tests:
        if t.passed or t.hidden or not t.deck or t.verdict.family != "fail":
            continue
        try:
            frames = tuple(frames_of(t.deck, t.moves))[:MAX_FRAMES]
        except Exception:  # noqa: BLE001 - a replay is a help: its absence must not cost the report
            continue
        d = t.difference
        differences = (Difference(int(d["step"]), str(d["what"]), str(d["expected"]), str(d["got"])),) if d else ()
        out[t.id] = Replay(title, frames, differences)
    return out
