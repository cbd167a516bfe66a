"""One unambiguous encoding of what a hash covers: every part's length before its bytes.

A key made by feeding names and contents to a hash one after another, with no
separators, gives the same stream for different file sets (``a.c`` holding
``bX`` and ``a.cb`` holding ``X``), and a stored result could then be served to
a submission that was never graded.  Every content key of the grader (the
store's source hash and grader version, the cache's source version) is made
here: each part is a tag (what it is), then as many ``(name, bytes)`` pairs as
it holds, every field prefixed by its length, so two different inputs never
give one stream (``tests/core/test_digest.py`` shows it with Hypothesis).
"""

from __future__ import annotations

import hashlib
import struct
from typing import Iterable

_LENGTH = struct.Struct("<Q")
Part = tuple[str, bytes]  # a name (a file's path, a field's name) and what it holds


def encode(parts: Iterable[Part]) -> bytes:
    """The stream a digest hashes: ``len(name) name len(data) data`` for each part, then the number of parts."""
    out = bytearray()
    count = 0
    for name, data in parts:
        raw = name.encode("utf-8", "surrogateescape")
        out += _LENGTH.pack(len(raw)) + raw + _LENGTH.pack(len(data)) + data
        count += 1
    return bytes(out + _LENGTH.pack(count))


def digest(parts: Iterable[Part], length: int = 20) -> str:
    """The first ``length`` hex digits of the SHA-256 of ``encode(parts)``."""
    return hashlib.sha256(encode(parts)).hexdigest()[:length]
