"""Frames between the grader and the worker: length-prefixed JSON, size-capped.

JSON is written and read with orjson: strict (no NaN, no invalid UTF-8, no
integer beyond 64 bits as an integer) and several times faster than the
standard library on the observations a game sends after every move (a quarter
of the worker's CPU per game went to the standard library's JSON; ``bench/bench_isolation.py``).

The worker is assumed compromised once it has loaded student code, so what it
sends is data, never a verdict: every frame is size-checked and every
observation is schema-checked (``valid_observation``) before the grader
compares it with anything.
"""

from __future__ import annotations

import orjson
import os
import struct
from typing import Any

HEADER = struct.Struct(">I")
MAX_FRAME = 64 * 1024 * 1024


class ProtocolError(Exception):
    """A frame that is too large, cut short, or not the JSON object we expect."""


def loads(body: bytes) -> Any:
    """One frame's JSON; ValueError when it is not JSON."""
    return orjson.loads(body)


def encode(obj: Any) -> bytes:
    data = orjson.dumps(obj)
    if len(data) > MAX_FRAME:
        raise ProtocolError(f"frame of {len(data)} bytes is over the {MAX_FRAME}-byte cap")
    return HEADER.pack(len(data)) + data


def write_frame(fd: int, obj: Any) -> None:
    write_raw(fd, encode(obj))


def write_raw(fd: int, framed: bytes) -> None:
    data = memoryview(framed)
    while data:
        n = os.write(fd, data)
        data = data[n:]


def read_exact(fd: int, n: int) -> bytes | None:
    chunks = []
    while n:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int) -> Any:
    """The next frame from ``fd``; None at a clean end of stream."""
    head = read_exact(fd, HEADER.size)
    if head is None:
        return None
    (size,) = HEADER.unpack(head)
    if size > MAX_FRAME:
        raise ProtocolError(f"frame announces {size} bytes, over the cap")
    body = read_exact(fd, size)
    if body is None:
        raise ProtocolError("frame cut short")
    try:
        return loads(body)
    except ValueError as err:
        raise ProtocolError(f"frame is not JSON: {err}") from err


class FrameBuffer:
    """Splits a byte stream read in pieces into frames (for the non-blocking side)."""

    def __init__(self, cap: int = MAX_FRAME) -> None:
        self.buf = bytearray()
        self.cap = cap
        self.total = 0

    def feed(self, data: bytes, decode: bool = True) -> list[Any]:
        """Complete frames so far: decoded, or as raw JSON bytes with ``decode=False``."""
        self.total += len(data)
        if self.total > self.cap:
            raise ProtocolError("result stream over its size cap")
        self.buf += data
        frames = []
        while len(self.buf) >= HEADER.size:
            (size,) = HEADER.unpack_from(self.buf)
            if size > self.cap:
                raise ProtocolError(f"frame announces {size} bytes, over the cap")
            if len(self.buf) < HEADER.size + size:
                break
            body = bytes(self.buf[HEADER.size:HEADER.size + size])
            del self.buf[:HEADER.size + size]
            if not decode:
                frames.append(body)
                continue
            try:
                frames.append(loads(body))
            except ValueError as err:
                raise ProtocolError(f"frame is not JSON: {err}") from err
        return frames


# ---- schema checks for what a worker sends -------------------------------------

def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and -(2**63) <= x < 2**64


def _is_card(x: Any) -> bool:
    return x is None or (isinstance(x, list) and len(x) == 4 and all(_is_int(v) for v in x))


def _is_cards(x: Any) -> bool:
    return isinstance(x, list) and all(_is_card(c) and c is not None for c in x)


def _missing_or(check):  # noqa: ANN001, ANN202
    """A value, or the word for a function the submission lacks or a probe left out."""
    return lambda x: x in ("missing", "skipped") or check(x)


def _four(x: Any) -> bool:
    return isinstance(x, list) and len(x) == 4 and all(v in ("missing", "skipped") or _is_int(v) for v in x)


INT_FIELDS = ("current_player", "current_turn", "num_turns", "current_turn_moves",
              "previous_turn_player", "top_discard_turn_number", "number_of_two_cards_at_top",
              "active_draw_twos", "current_color", "hand_card_count", "winner")
SCHEMA = {
    **{f: _missing_or(_is_int) for f in INT_FIELDS},
    "top_discard": _missing_or(_is_card),
    "hand": _missing_or(_is_cards),
    "hand_end_null": _missing_or(lambda x: isinstance(x, bool)),
    "hands": _missing_or(lambda x: isinstance(x, list) and len(x) == 4 and all(_is_cards(h) for h in x)),
    "card_counts": _four,
    "points": _four,
    "deck_pile": _missing_or(_is_cards),
    "discard_pile": _missing_or(_is_cards),
    "valid_play": _missing_or(lambda x: isinstance(x, dict) and all(isinstance(k, str) and isinstance(v, bool) for k, v in x.items())),
    "valid_foreign": _missing_or(lambda x: isinstance(x, dict) and all(isinstance(k, str) and isinstance(v, bool) for k, v in x.items())),
    "valid_draw": _missing_or(lambda x: isinstance(x, bool)),
    "valid_end": _missing_or(lambda x: isinstance(x, bool)),
}
FIRST_STEP_SCHEMA = {
    "num_cards": _missing_or(_is_int),
    "num_of_suit": _missing_or(lambda x: isinstance(x, list) and len(x) == 5 and all(v == "missing" or _is_int(v) for v in x)),
    "num_of_color": _missing_or(lambda x: isinstance(x, list) and len(x) == 5 and all(v == "missing" or _is_int(v) for v in x)),
    "num_of_value": _missing_or(lambda x: isinstance(x, list) and len(x) == 16 and all(v == "missing" or _is_int(v) for v in x)),
}


def valid_observation(obs: Any, first: bool = False) -> str | None:
    """None if ``obs`` has exactly the expected shape, else what is wrong."""
    if not isinstance(obs, dict):
        return "an observation is not an object"
    schema = {**SCHEMA, **FIRST_STEP_SCHEMA} if first else SCHEMA
    if set(obs) != set(schema):
        return f"observation fields differ: {sorted(set(obs) ^ set(schema))}"
    for name, check in schema.items():
        if not check(obs[name]):
            return f"observation field {name!r} has the wrong shape"
    return None
