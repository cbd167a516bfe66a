"""What staff read of the check: ``similarity.csv`` (every pair listed), the section of the class dashboard (or
``similarity.html`` when the check runs alone) and the side-by-side pages.  None of it is a student's: no
student report names another student or a score of this check.

``similarity.csv``, a row per pair at or over the threshold, most similar first: rank, kind (implementation,
tests or player), the two submissions (in name order), the share of A's code matched in B and of B's in A
(0 to 1), the shared tokens (the matched code in normalised tokens, counted in the file where it is
shorter), both documents' files, and the pair's page (blank past ``pages``).  Text cells a spreadsheet would
run as a formula get a leading apostrophe (as the class CSV's).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from grader.core.report.csv_report import spreadsheet_cell
from grader.core.report.escape import clean_text
from grader.core.report.html import JINJA, TEMPLATES
from grader.core.similarity.check import SimilarityReport
from grader.core.similarity.documents import IMPLEMENTATION, PLAYER, TESTS, Document
from grader.core.similarity.pages import percent, write_pages

CSV_COLUMNS = ["rank", "kind", "submission_a", "submission_b", "similarity_a_to_b", "similarity_b_to_a",
               "shared_tokens", "files_a", "files_b", "page"]
FOLDER = "similarity"  # the pages' folder, beside the CSV
WHAT = {IMPLEMENTATION: ("implementations", "implementation"), TESTS: ("test programs", "test program"),
        PLAYER: ("players", "player")}  # (many, one)


@dataclass(frozen=True)
class PairRow:
    rank: int
    kind: str
    a: str
    b: str
    a_to_b: float
    b_to_a: float
    shared: int
    href: str  # its side-by-side page, relative to the list ('' past ``pages``)

    @property
    def a_text(self) -> str:
        return percent(self.a_to_b)

    @property
    def b_text(self) -> str:
        return percent(self.b_to_a)


@dataclass
class SimilaritySection:
    rows: list[PairRow]  # the pairs shown, each with its page
    listed: int  # pairs at or over the threshold (all in similarity.csv)
    threshold: str
    noise: int
    guarantee: int
    compared: str  # what was compared: "40 implementations, 38 test programs, 12 players"
    submissions: int
    candidates: int  # pairs that shared any code (the only ones scored)
    scored: int
    from_store: int
    seconds: str
    boilerplate: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    csv: str = "similarity.csv"

    @property
    def more(self) -> int:
        return self.listed - len(self.rows)


def write_csv(report: SimilarityReport, path: Path, pages: int) -> None:
    cells: dict[tuple[str, str], tuple[str, str]] = {}  # (submission, kind) -> its cells (a student is in many rows)

    def cell(doc: Document) -> tuple[str, str]:
        key = (doc.submission, doc.kind)
        if key not in cells:
            cells[key] = (spreadsheet_cell(doc.submission), spreadsheet_cell(doc.names))
        return cells[key]

    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(CSV_COLUMNS)
        for n, p in enumerate(report.pairs, 1):
            (a, files_a), (b, files_b) = cell(p.a), cell(p.b)
            out.writerow([n, p.kind, a, b, f"{p.score.sim_a:.3f}", f"{p.score.sim_b:.3f}",
                          min(p.score.cover_a, p.score.cover_b), files_a, files_b,
                          f"{FOLDER}/{n}.html" if n <= pages else ""])


def write_similarity(report: SimilarityReport, out: Path, back: str) -> SimilaritySection:
    """``out/similarity.csv`` and ``out/similarity/<n>.html``; ``back``: the list the pages return to, from
    their folder.  Returns what the list shows."""
    out.mkdir(parents=True, exist_ok=True)
    pages = write_pages(report, out / FOLDER, back)
    write_csv(report, out / "similarity.csv", len(pages))
    rows = [PairRow(n, p.kind, clean_text(p.a.submission, 256), clean_text(p.b.submission, 256), p.score.sim_a,
                    p.score.sim_b, min(p.score.cover_a, p.score.cover_b), f"{FOLDER}/{name}")
            for n, (p, name) in enumerate(zip(report.pairs, pages), 1)]
    settings = report.settings
    return SimilaritySection(
        rows=rows, listed=len(report.pairs), threshold=percent(settings.threshold), noise=settings.winnowing.noise,
        guarantee=settings.winnowing.guarantee,
        compared=", ".join(f"{n} {WHAT[kind][n == 1]}" for kind, n in report.documents.items() if n),
        submissions=report.submissions, candidates=report.candidates, scored=report.scored,
        from_store=report.from_store, seconds=f"{report.seconds:.1f}",
        boilerplate=[clean_text(Path(p).name, 256) for p in report.boilerplate],
        skipped=[clean_text(s, 1024) for s in report.skipped])


def write_list(section: SimilaritySection, out: Path, title: str) -> Path:
    """``out/similarity.html``: the list alone, for ``fcd-grade similarity`` (the batch puts it in its dashboard)."""
    path = out / "similarity.html"
    path.write_text(JINJA.get_template("similarity.html").render(
        s=section, title=clean_text(title, 256), sortable=(TEMPLATES / "sortable.js").read_text()), encoding="utf-8")
    return path


def summary(report: SimilarityReport) -> str:
    """One line of what the check did (``fcd-grade similarity``, the batch)."""
    return (f"similarity: {report.submissions} submissions, {report.candidates} pairs shared code "
            f"({report.scored} scored, {report.from_store} from the store; {report.fingerprinted} files "
            f"fingerprinted), {len(report.pairs)} at or over {percent(report.settings.threshold)}, "
            f"in {report.seconds:.1f} s")
