"""Frames between the grader and the worker: length-prefixed JSON, size-capped.

JSON is written and read with orjson: strict (no NaN, no invalid UTF-8, no
integer beyond 64 bits as an integer) and several times faster than the
standard library on the observations a game sends after every move (a quarter
of the worker's CPU per game went to the standard library's JSON; ``bench/bench_isolation.py``).

The worker is assumed compromised once it has loaded student code, so what it
sends is data, never a verdict: every frame is size-checked here, and a game
checks the shape of every observation (for Final Card-Down,
``grader.games.fcd.schema``) before the grader compares it with anything.
"""

from __future__ import annotations

import os
import struct
from typing import Any

import orjson

HEADER = struct.Struct(">I")
MAX_FRAME = 64 * 1024 * 1024
LOADING = -5  # the call slot's probe before the job's first call: the library is being loaded
ERROR_TAG = "error"  # a frame ``{"t": "error", "what": ..., "detail": ...}``: the child could not go on


class ProtocolError(Exception):
    """A frame that is too large, cut short, or not the JSON object we expect."""


def loads(body: bytes) -> Any:
    """One frame's JSON, of a shape the reader checks (JSON of unknown shape from the worker: typed as such);
    ValueError when it is not JSON."""
    return orjson.loads(body)


def encode(obj: object) -> bytes:
    data = orjson.dumps(obj)
    if len(data) > MAX_FRAME:
        raise ProtocolError(f"frame of {len(data)} bytes is over the {MAX_FRAME}-byte cap")
    return HEADER.pack(len(data)) + data


def write_frame(fd: int, obj: object) -> None:
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
