"""A C file disguised as a copier would: its names renamed, its functions reordered, its comments rewritten.

What the check must see through, made on purpose: its tests build a class with it and its benchmark
(``bench/bench_similarity.py``) a thousand submissions.  Names the course's headers declare (the API, its
types and constants), the C library's and the file's own macros are kept, so the file still reads as the
same program; every other name becomes another, chosen by ``seed``.
"""

from __future__ import annotations

import random
import re
from typing import Iterable

from grader.core.similarity.fingerprint import LANGUAGE

LIBRARY = frozenset({"malloc", "calloc", "realloc", "free", "assert", "printf", "fprintf", "puts", "putchar",
                     "exit", "abort", "memcpy", "memset", "strcmp", "strlen", "stderr", "stdout", "size_t",
                     "NULL", "sizeof", "main", "rand", "srand", "abs", "bool", "true", "false"})
WORDS = ("item", "count", "node", "deck", "pile", "slot", "state", "next", "turn", "seat", "card", "cards",
         "total", "index", "cursor", "owner", "player", "round", "hand", "top", "tally", "store", "kept", "buffer")
_WORD = re.compile(r"[A-Za-z_]\w*")
_MACRO = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)", re.M)


def declared(texts: Iterable[str]) -> frozenset[str]:
    """Every identifier in ``texts`` (the course's headers): what a disguise keeps."""
    return frozenset(w for text in texts for w in _WORD.findall(text))


def _tokens(text: str) -> list[tuple[object, str]]:
    from pygments.lexers import get_lexer_by_name  # noqa: PLC0415

    lexer = get_lexer_by_name(LANGUAGE, stripnl=False, ensurenl=False)
    return [(kind, value) for _start, kind, value in lexer.get_tokens_unprocessed(text)]


def disguise(text: str, seed: int, keep: frozenset[str] = frozenset(), *, rename: bool = True,
             reorder: bool = True, comments: bool = True) -> str:
    """``text`` with its own names renamed, its top-level definitions after the first reordered, and its
    comments replaced by others (each as asked), the same way for the same ``seed``."""
    from pygments import token  # noqa: PLC0415

    rng = random.Random(seed)
    names: dict[str, str] = {}
    kept = keep | LIBRARY | frozenset(_MACRO.findall(text))
    out: list[str] = []
    for kind, value in _tokens(text):
        if comments and kind in token.Comment and kind not in token.Comment.Preproc and \
                kind is not token.Comment.PreprocFile:
            continue
        if rename and kind in token.Name and kind not in token.Name.Builtin and value not in kept:
            if value not in names:
                names[value] = f"{rng.choice(WORDS)}{rng.choice(('', '_'))}{rng.choice(WORDS).title()}{len(names)}"
            value = names[value]
        out.append(value)
    result = "".join(out)
    if reorder:
        result = _reordered(result, rng)
    if comments:
        result = _commented(result, rng)
    return result


def _top_level(text: str) -> list[str]:
    """``text`` cut after each function's body (a top-level ``{...}`` that follows a ``)``): its preamble, then
    one part per function (with what stands between it and the one before)."""
    from pygments import token  # noqa: PLC0415

    parts: list[str] = []
    depth, start, at, before, body = 0, 0, 0, "", False
    for kind, value in _tokens(text):
        at += len(value)
        if kind in token.Text or kind in token.Comment:
            continue
        if value == "{":
            body = body or (depth == 0 and before == ")")
            depth += 1
        elif value == "}":
            depth -= 1
            if depth == 0 and body:
                parts.append(text[start:at])
                start, body = at, False
        before = value
    parts.append(text[start:])
    return parts


def _reordered(text: str, rng: random.Random) -> str:
    parts = _top_level(text)
    if len(parts) < 4:
        return text
    head, body, tail = parts[:2], parts[2:-1], parts[-1:]  # the types and the first definition stay first
    rng.shuffle(body)
    return "".join(head + body + tail)


def _commented(text: str, rng: random.Random) -> str:
    """A comment of the disguise's own before each top-level definition."""
    parts = _top_level(text)
    said = ("helper", "does the work", "see the spec", "checked", "TODO tidy", "the main part", "edge cases")
    return "".join(f"{part}\n/* {rng.choice(said)} {i} */" if i < len(parts) - 1 else part
                   for i, part in enumerate(parts))
