"""The side-by-side page of one pair (``similarity/<n>.html``): both documents, the matched regions highlighted.

Each region (``compare.regions``: the same normalised code on both sides) has one colour and one number on
both sides; its number, at its start, links to the same region on the other side, so no fact is told by
colour alone.  The page is one file that fetches nothing (its styles inline, no script), and everything a
student wrote -- the sources, file and folder names -- is text: through ``clean_text`` and Jinja's
autoescape, never markup.  Regions are found in copydetect's normalised text and mapped back to the
source by ``fingerprint.raw_spans``.

A page is a pure function of what it shows, so ``similarity/pages.json`` keeps the key of each page written
and a rerun copies a page it already has (the ranking may have moved it) instead of lexing both files again.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from grader.core.report.escape import clean_text
from grader.core.report.html import JINJA, TEMPLATES
from grader.core.similarity.check import Pair, SimilarityReport
from grader.core.similarity.compare import regions
from grader.core.similarity.documents import MAX_CHARS, Document
from grader.core.similarity.fingerprint import Ints, raw_spans

TEMPLATE = "similarity_pair.html"
COLOURS = 8  # region colours, in turn (``r0``..``r7`` of the template)
SHOWN = 4 * MAX_CHARS  # bytes of a segment shown, at most: all of it (a document is cut at MAX_CHARS already)


@dataclass(frozen=True)
class Segment:
    text: str
    region: int | None = None  # its region's number (from 1), None outside every region
    first: bool = False  # the region starts here: its number is shown, linked to the other side
    file: str = ""  # a file of the document starts here: its name


@dataclass(frozen=True)
class Side:
    id: str  # "a" or "b": the prefix of its regions' anchors
    name: str  # the submission
    files: str
    share: str  # of its code matched in the other: "87%"
    segments: list[Segment]
    mapped: bool  # the regions could be placed in the source (else the source is shown plain)

    @property
    def other(self) -> str:
        return "b" if self.id == "a" else "a"


def percent(x: float) -> str:
    return f"{100 * x:.0f}%"


def _segments(doc: Document, spans: Ints | None, parts: list[tuple[tuple[int, int], int]]) -> list[Segment]:
    """``doc``'s text cut at each region (``parts``: (normalised span, its number)) and at each of its files'
    starts; with no ``spans`` (the walk did not match), at its files' starts only."""
    cuts = [(int(spans[s][0]), int(spans[e - 1][1]), n) for (s, e), n in parts] if spans is not None else []
    starts = {at: name for name, at in doc.files}
    points = sorted({0, len(doc.text), *starts, *(c for s, e, _ in cuts for c in (s, e))})
    out: list[Segment] = []
    for lo, hi in zip(points, points[1:]):
        inside = next((n for s, e, n in cuts if s <= lo < e), None)
        first = inside is not None and any(s == lo and n == inside for s, _e, n in cuts)
        out.append(Segment(clean_text(doc.text[lo:hi], SHOWN), inside, first, clean_text(starts.get(lo, ""), 256)))
    return out


class Painter:
    """Draws the pages of one report, mapping each document to its source once."""

    def __init__(self, report: SimilarityReport, back: str) -> None:
        self.report, self.back = report, back
        self._spans: dict[str, Ints | None] = {}

    def spans(self, doc: Document) -> Ints | None:
        """Where each normalised character of ``doc`` lies in its source; None if the walk does not give
        copydetect's text (a newer copydetect or Pygments): then the page shows the source unmarked."""
        if doc.hash not in self._spans:
            walked, spans = raw_spans(doc.text)
            self._spans[doc.hash] = spans if len(walked) == self.report.prints[doc.hash].length else None
        return self._spans[doc.hash]

    def render(self, pair: Pair) -> str:
        winnowing, course = self.report.settings.winnowing, self.report.course
        first, second = (self.report.prints[d.hash].without(course) for d in (pair.a, pair.b))
        found = regions(first, second, winnowing.noise, winnowing.noise - 1)
        spans_a, spans_b = self.spans(pair.a), self.spans(pair.b)
        sides = [Side("a", clean_text(pair.a.submission, 256), clean_text(pair.a.names, 1024),
                      percent(pair.score.sim_a), _segments(pair.a, spans_a, [(r.a, n) for n, r in enumerate(found, 1)]),
                      spans_a is not None),
                 Side("b", clean_text(pair.b.submission, 256), clean_text(pair.b.names, 1024),
                      percent(pair.score.sim_b), _segments(pair.b, spans_b, [(r.b, n) for n, r in enumerate(found, 1)]),
                      spans_b is not None)]
        return JINJA.get_template(TEMPLATE).render(
            kind=pair.kind, sides=sides, regions=len(found), shared=min(pair.score.cover_a, pair.score.cover_b),
            noise=winnowing.noise, guarantee=winnowing.guarantee, back=self.back, colours=COLOURS,
            cut=pair.a.cut or pair.b.cut)

    def key(self, pair: Pair) -> str:
        """Everything a page shows and how it is drawn: the same key, the same page."""
        score = pair.score
        said = json.dumps([pair.kind, pair.a.submission, pair.b.submission, pair.a.hash, pair.b.hash, pair.a.names,
                           pair.b.names, [score.sim_a, score.sim_b, score.cover_a, score.cover_b],
                           self.report.settings.winnowing.key(), self.back, (TEMPLATES / TEMPLATE).read_text(),
                           Path(__file__).read_text()])
        h = hashlib.sha256(said.encode())
        h.update(np.ascontiguousarray(self.report.course).tobytes())
        return h.hexdigest()[:24]


def write_pages(report: SimilarityReport, folder: Path, back: str) -> list[str]:
    """``folder/<n>.html`` for each of the report's first ``pages`` pairs (n from 1, in rank order), written
    whole beside the old folder and swapped in; a page the old folder holds (by its key) is copied, not drawn
    again.  Returns the pages' names."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        before = json.loads((folder / "pages.json").read_text())
    except (OSError, ValueError):
        before = {}
    painter = Painter(report, back)
    new = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.new-"))
    keys: dict[str, str] = {}
    for n, pair in enumerate(report.pairs[:report.settings.pages], 1):
        name = f"{n}.html"
        key = painter.key(pair)
        old = before.get(key) if isinstance(before, dict) else None
        if isinstance(old, str) and old.endswith(".html") and "/" not in old and (folder / old).is_file():
            shutil.copyfile(folder / old, new / name)
        else:
            (new / name).write_text(painter.render(pair), encoding="utf-8")
        keys[key] = name
    (new / "pages.json").write_text(json.dumps(keys, indent=0, sort_keys=True))
    old_folder = None
    if folder.exists():
        old_folder = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.old-"))
        os.replace(folder, old_folder / "pages")
    os.replace(new, folder)
    if old_folder is not None:
        shutil.rmtree(old_folder, ignore_errors=True)
    return list(keys.values())
