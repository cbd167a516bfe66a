"""A file's fingerprints, as copydetect makes them: tokens normalised, k-grams hashed, winnowed.

copydetect (MOSS's winnowing, Schleimer, Wilkerson and Aiken 2003) does the
work: ``filter_code`` lexes the C with Pygments and writes each token as
itself, except that a name becomes ``V`` (a function's name ``F``, a type's
``O``), a string ``S``, a preprocessor line ``P``, and whitespace and
comments vanish; so renamed identifiers, reformatting and new comments leave
the normalised text as it was.  Every ``noise`` characters of it make a k-gram,
and ``winnow`` keeps the smallest hash of each window of ``guarantee - noise
+ 1`` k-grams: any run of ``guarantee`` normalised characters two files share
is seen, none shorter than ``noise`` is.

One part is ours: the k-gram hash.  copydetect hashes with Python's ``hash``,
which each process salts afresh, so its fingerprints could not be stored for a
rerun nor made by several processes; ``kgram_hashes`` is a fixed polynomial
hash (numpy, the same everywhere), kept under 2**53 because copydetect's
winnowing compares hashes as floats.

``raw_spans`` maps each normalised character back to the source text (for the
side-by-side pages): copydetect's own offset table records a type's name
(``struct _game``) at the wrong place, so the spans are found by walking the
same tokens with the same rules; a test checks the walk writes copydetect's
text.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt
from copydetect.utils import filter_code, winnow

LANGUAGE = "c"  # every file compared is C (the headers too): no guessing from a file's name
HASH_VERSION = "poly64-v1"  # changes when ``kgram_hashes`` changes: part of every stored fingerprint's key
_BASE = np.uint64(0x100000001B3)  # FNV's prime, as the polynomial's base
_MIX = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: spreads the low bits a polynomial leaves alike
_MASK = np.uint64((1 << 53) - 1)

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Winnowing:
    """The fingerprinting settings: ``noise`` (k, the shortest match that counts, in normalised characters) and
    ``guarantee`` (the length of match always found)."""

    noise: int
    guarantee: int

    @property
    def window(self) -> int:
        return self.guarantee - self.noise + 1

    def key(self, window: int | None = None) -> str:
        """What a stored fingerprint was made with: the normaliser, the hash, k and the window."""
        return _made(self.noise, self.window if window is None else window)


@cache
def _made(noise: int, window: int) -> str:
    from importlib.metadata import version  # noqa: PLC0415

    said = f"copydetect {version('copydetect')} filter_code/{LANGUAGE}/{HASH_VERSION}/k{noise}/w{window}"
    return hashlib.sha256(said.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Fingerprint:
    """A document's winnowed fingerprints: ``hashes[i]`` is the k-gram starting at normalised character
    ``positions[i]`` (ascending); ``length``: the normalised text's length."""

    hashes: Ints
    positions: Ints
    length: int

    def without(self, boilerplate: Ints) -> Fingerprint:
        """These fingerprints less every hash of ``boilerplate`` (sorted, unique): code the course gave out."""
        if boilerplate.size == 0 or self.hashes.size == 0:
            return self
        keep = ~np.isin(self.hashes, boilerplate, assume_unique=False)
        return Fingerprint(self.hashes[keep], self.positions[keep], self.length)

    def to_bytes(self) -> tuple[bytes, bytes]:
        return self.hashes.astype("<i8").tobytes(), self.positions.astype("<i8").tobytes()

    @classmethod
    def from_bytes(cls, hashes: bytes, positions: bytes, length: int) -> Fingerprint:
        return cls(np.frombuffer(hashes, dtype="<i8").astype(np.int64),
                   np.frombuffer(positions, dtype="<i8").astype(np.int64), length)


def normalise(text: str) -> str:
    """copydetect's normalised text of C source: names as V/F/O, strings S, no whitespace or comments."""
    normalised, _offsets = filter_code(text, "source.c", LANGUAGE)
    return str(normalised)


def kgram_hashes(normalised: str, k: int) -> Ints:
    """The hash of every k-gram of ``normalised`` (a fixed hash: the same in every process and every run)."""
    n = len(normalised) - k + 1
    if n <= 0:
        return np.zeros(0, dtype=np.int64)
    codes = np.frombuffer(normalised.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    h = np.zeros(n, dtype=np.uint64)
    for j in range(k):  # k array operations, whatever the length
        h = h * _BASE + codes[j:j + n]
    h ^= h >> np.uint64(31)
    h *= _MIX
    h ^= h >> np.uint64(29)
    return (h & _MASK).astype(np.int64)


def fingerprint(text: str, settings: Winnowing, window: int | None = None) -> Fingerprint:
    """``text``'s fingerprints (``window`` 1: every k-gram, as copydetect takes boilerplate)."""
    normalised = normalise(text)
    hashes = kgram_hashes(normalised, settings.noise)
    if hashes.size == 0:
        return Fingerprint(hashes, np.zeros(0, dtype=np.int64), len(normalised))
    chosen, where = winnow(hashes, settings.window if window is None else window, remove_duplicates=False)
    return Fingerprint(np.asarray(chosen, dtype=np.int64), np.asarray(where, dtype=np.int64), len(normalised))


def coverage(positions: Ints, k: int) -> int:
    """How many normalised characters the k-grams at ``positions`` (ascending) cover: copydetect's
    ``get_token_coverage`` of them, and the length of its ``get_copied_slices``."""
    if positions.size == 0:
        return 0
    return int(k + np.minimum(np.diff(positions), k).sum())


@cache
def _lexer() -> object:
    from pygments.lexers import get_lexer_by_name  # noqa: PLC0415

    return get_lexer_by_name(LANGUAGE, stripnl=False, ensurenl=False)  # positions in the text as given


def raw_spans(text: str) -> tuple[str, npt.NDArray[np.int64]]:
    """The normalised text of ``text`` and, for each of its characters, the span of ``text`` it stands for
    (``spans[i] = (start, end)``): the rules of copydetect's ``filter_code``, walked with positions."""
    from pygments import token  # noqa: PLC0415

    names = {token.Name, token.Name.Variable, token.Name.Attribute}
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    for start, kind, value in _lexer().get_tokens_unprocessed(text):  # type: ignore[attr-defined]
        end = start + len(value)
        if kind in names:
            out.append("V")
        elif kind in token.Name.Function:
            out.append("F")
        elif kind in token.Name.Class:
            out.append("O")
        elif kind == token.Comment.Preproc or kind == token.Comment.Hashbang:
            out.append("P")
        elif kind in token.Text or kind in token.Comment:
            continue
        elif kind in token.Literal.String:
            out.append('"' if value in ("'", '"') else "S")
        else:
            out.extend(value)
            spans.extend((start + i, start + i + 1) for i in range(len(value)))
            continue
        spans.append((start, end))
    return "".join(out), np.array(spans, dtype=np.int64).reshape(-1, 2)
