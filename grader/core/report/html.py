"""The HTML report: one self-contained page (inline CSS and script, nothing fetched) per submission.

A pure function of the ``SubmissionResult`` (which it never modifies), rendered
through ``grader/templates/report.html`` with Jinja2's autoescape on: every
string the page shows is HTML-escaped by Jinja, and every string that may come
from the student has first been through ``clean_text`` (illegal characters
shown as #xNN, lone surrogates gone so the page can be written as UTF-8, at
most 64 KiB each; the code's printing 512 KiB a page, ``OutputBudget``).  Tests that
did not pass come first; a hidden test shows
only its name and whether it passed.  A failed test with a game carries its
replay (``grader.core.replay``) as JSON in a ``<script type="application/json">``
(escaped by ``embed_json``), which the page's one script draws: it opens at the
first difference, steps with the arrow keys, Home and End or a slider, and
every step has an address (``#<test id>/step-<n>``).  The student's own tests and player are sections of
their own (marked apart), after the implementation's tests: what the implementation failed is read first; a
check of the student's that fails on correct implementations is one row, which counts them (``own_tests.fails_on``);
each game the player forfeited links to its replay page.  A note said several times is shown once
(``notes.folded``).  The page is titled by the game graded against (``result.game``) and, where tests did not
pass, says once how to read the game's moves (``GameSpec.notation``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import escape

from ..marks import mark_text as num  # (the dashboard takes it from here too)
from ..replay import Replay, embed_json
from ..results import PlayersResult, SubmissionResult, TestResult
from ..suite.judge import SuiteResult
from .escape import CAP, clean_text
from .notes import folded
from .own_tests import fails_on

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
BUILD_LINES = 60  # compiler output shown: its first lines...
BUILD_CAP = 16 * 1024  # ...and at most this many bytes
OUTPUT_BUDGET = 512 * 1024  # bytes of the code's printing one page shows in all (``OutputBudget``)
PASSED_CAP = 4 * 1024  # ...of which one passed test shows at most this many
INVALID_SHOWN = 10  # the student's checks that fail on a correct implementation listed open; the rest folded away

JINJA = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True, undefined=StrictUndefined,
                   trim_blocks=True, lstrip_blocks=True)
_ORDER = {"fail": 0, "error": 0, "skip": 1, "pass": 2}


def scripts(*names: str) -> str:
    """The page scripts ``names`` of the templates folder, in order (``table.js`` first: the others use it)."""
    return "\n".join((TEMPLATES / name).read_text() for name in names)


REPLAY_SCRIPTS = ("table.js", "replay.js")  # what a page with replays runs


@dataclass
class TestView:
    id: str
    passed: bool
    family: str
    verdict: str
    hidden: bool
    rules: list[str] = field(default_factory=list)
    message: str = ""
    notes: list[str] = field(default_factory=list)
    stdout: str = ""
    stderr: str = ""
    repro: str = ""
    seconds: float = 0.0
    replay: str = ""  # the replay as JSON safe inside a script element ('' when the test has none)


class OutputBudget:
    """What a page shows of the code's printing in all, counted as the page holds it (escaped): a program
    that prints 64 KiB in each of a hundred tests would otherwise make a page of megabytes.  The tests not
    passed come first, so their output is shown; a passed test shows at most ``PASSED_CAP`` of its own."""

    def __init__(self, total: int = OUTPUT_BUDGET) -> None:
        self.left = total

    def take(self, text: str, passed: bool) -> str:
        if not text:
            return ""
        cap = min(PASSED_CAP if passed else CAP, self.left)
        if cap < 256:
            return (f"[not shown: this page already shows {OUTPUT_BUDGET // 1024} KiB of what the code printed; "
                    "the output of every test is in junit.xml]")
        shown = clean_text(text, cap)
        self.left -= len(str(escape(shown)).encode("utf-8"))  # as the page holds it: "<" takes 4 bytes there
        return shown


def _test_view(t: TestResult, replays: dict[str, Replay], budget: OutputBudget) -> TestView:
    if t.hidden:
        ok = t.verdict.family == "pass"
        return TestView(id=clean_text(t.id, 1024), passed=ok, family=t.verdict.family,
                        verdict="passed" if ok else "not passed", hidden=True)
    verdict = t.verdict.value + (f" (already counted in {t.charged_to})" if t.charged_to else "")
    return TestView(
        id=clean_text(t.id, 1024), passed=t.verdict.family == "pass", family=t.verdict.family,
        verdict=clean_text(verdict, 1024),
        hidden=False, rules=[clean_text(r, 256) for r in t.rules], message=clean_text(t.message),
        notes=[clean_text(n, 4096) for n in folded(t.notes)], stdout=budget.take(t.stdout, t.passed),
        stderr=budget.take(t.stderr, t.passed),
        repro=clean_text(t.repro or ""), seconds=t.seconds,
        replay=embed_json(replays[t.id]) if t.id in replays else "",
    )


def hidden_label(index: int) -> str:
    """What a student's report calls the ``index``-th hidden mutant (from 1)."""
    return f"hidden mutant {index}"


def suite_view(suite: SuiteResult | None) -> dict[str, object] | None:
    """The student's own tests, as their report shows them: hidden mutants counted, not named."""
    if suite is None:
        return None
    functions = [clean_text(f, 256) for f in suite.functions()]
    rows: list[dict[str, object]] = []
    hidden = 0
    for m in suite.mutants:
        if m.hidden:
            hidden += 1
        rows.append({
            "name": hidden_label(hidden) if m.hidden else clean_text(m.name, 256),
            "says": "" if m.hidden else clean_text(m.says, 1024), "rules": "" if m.hidden else " ".join(m.rules),
            "caught": m.caught, "hidden": m.hidden,
            "by": [clean_text(b, 256) for b in m.by] if not m.hidden else [],
            "cells": [f in m.functions for f in suite.functions()] if not m.hidden else [None] * len(functions),
            "other": ", ".join(clean_text(b, 256) for b in m.by if ":" not in b) if not m.hidden else "",
        })
    output, trimmed = trim_output(suite.compiler_output or "")
    return {
        "test_file": clean_text(suite.test_file, 256), "compiled": suite.compiled,
        "problem": clean_text(suite.problem), "compiler_output": output, "compiler_trimmed": trimmed,
        "valid": suite.valid, "score": num(suite.score), "max_score": num(suite.max_score),
        "validity": num(suite.validity_marks), "validity_max": num(suite.validity_max),
        "thoroughness": num(suite.thoroughness_marks), "thoroughness_max": num(suite.thoroughness_max),
        "caught": suite.caught, "mutants": len(suite.mutants), "hidden": hidden,
        "invalid": [{"key": clean_text(c.key, 256), "detail": clean_text(c.detail, 1024),
                     "function": clean_text(c.function, 256),
                     "failed_on": clean_text(fails_on(c, suite.correct), 2048),
                     "why": clean_text(c.why, 2048)} for c in suite.invalid],
        "problems": [clean_text(p, 2048) for p in suite.problems],
        "notes": [clean_text(n, 2048) for n in folded(suite.notes)],
        "own": clean_text(suite.own, 2048), "functions": functions, "rows": rows,
        "missed": [r for r in rows if not r["caught"] and not r["hidden"]],
        "hidden_missed": sum(1 for r in rows if not r["caught"] and r["hidden"]),
        "never_checked": suite.rules_never_checked(),
    }


def players_view(players: PlayersResult | None) -> dict[str, object] | None:
    """The student's player, as their report shows it: its marks, the standings, and every forfeit, linked to its
    game's replay page (``players/games/<n>.html`` beside the report) when that game has one."""
    if players is None:
        return None
    output, trimmed = trim_output(players.compiler_output)
    return {
        "player": clean_text(players.player, 256), "compiled": players.compiled,
        "problem": clean_text(players.problem, 2048), "compiler_output": output, "compiler_trimmed": trimmed,
        "error": clean_text(players.error), "score": num(players.score), "max_score": num(players.max_score),
        "marks": [{"what": clean_text(m.what, 256), "earned": num(m.earned), "max": num(m.max),
                   "held": m.earned >= m.max, "why": clean_text(m.why, 2048)} for m in players.marks],
        "standings": [{"name": clean_text(s.name, 256), "mine": s.kind == "student", "games": s.games, "wins": s.wins,
                       "forfeits": s.forfeits, "place": f"{s.mean_place:.2f}"} for s in players.standings],
        "forfeits": [{"game": f.game, "step": f.step, "why": clean_text(f.why, 2048),
                      "href": f"{page}#game/step-{f.step}" if (page := players.page_of(f.game)) else ""}
                     for f in players.forfeits],
        "games": players.games_played, "rounds": players.rounds, "seconds": f"{players.seconds:.1f}",
        "notes": [clean_text(n, 2048) for n in folded(players.notes)],
    }


def trim_output(text: str, lines: int = BUILD_LINES, cap: int = BUILD_CAP) -> tuple[str, bool]:
    """The first ``lines`` lines of (cleaned) ``text``, at most ``cap`` bytes; and whether anything was cut."""
    all_lines = clean_text(text).splitlines()  # (a megabyte of output is already cut to 64 KiB here)
    head = "\n".join(all_lines[:lines])
    short = clean_text(head, cap)
    return short, len(all_lines) > lines or short != head


def title_of(result: SubmissionResult) -> str:
    """What a report of ``result`` is titled: the game and edition it was graded against."""
    return result.game or "fcd-grade"


def notation_of(result: SubmissionResult) -> list[str]:
    """How to read the moves of the game ``result`` was graded against, one point a line (none if unknown)."""
    from grader.games import titled  # noqa: PLC0415 - the registry: no game is imported here

    game = titled(result.game)
    return game.notation.splitlines() if game is not None else []


def context(result: SubmissionResult, replays: dict[str, Replay] | None = None) -> dict[str, object]:
    """Everything the template shows, cleaned."""
    tests = sorted(result.tests, key=lambda t: _ORDER.get(t.verdict.family, 0))  # stable: order kept otherwise
    budget = OutputBudget()
    views = [_test_view(t, replays or {}, budget) for t in tests]
    build_output, build_trimmed = trim_output(result.build_output or "")
    return {
        "submission": clean_text(result.submission, 1024),
        "score": num(result.score), "max_score": num(result.max_score),
        "status": result.status, "status_class": result.status.replace(" ", "-"),
        "profile": clean_text(result.profile, 1024), "sandbox": clean_text(result.sandbox, 1024),
        "game": clean_text(result.game, 256), "title": clean_text(title_of(result), 256),
        "notation": notation_of(result),
        "source_hash": clean_text(result.source_hash, 256), "seconds": f"{result.seconds:.1f}",
        "seed": result.seed,
        "build_ok": result.build_ok,
        "unreadable": clean_text(result.unreadable, 4096), "only": [clean_text(o, 256) for o in result.only],
        "build_notes": [clean_text(n, 4096) for n in folded(result.build_notes)],
        "build_command": clean_text(" ".join(result.build_command), 4096),
        "build_output": build_output, "build_trimmed": build_trimmed,
        "groups": [{"group": clean_text(g.group, 256), "passed": g.passed, "total": g.total, "failed": g.failed,
                    "not_shown": g.not_shown, "marks": num(g.marks), "max_marks": num(g.max_marks)}
                   for g in result.groups],
        "tests": views,
        "not_passed": sum(1 for v in views if not v.passed),
        "passed": sum(1 for v in views if v.passed),
        "viewer": scripts(*REPLAY_SCRIPTS) if any(v.replay for v in views) else "",
        "suite": suite_view(getattr(result, "suite", None)),
        "players": players_view(getattr(result, "players", None)),
        "invalid_shown": INVALID_SHOWN,
    }


def render_html(result: SubmissionResult, replays: dict[str, Replay] | None = None) -> str:
    return JINJA.get_template("report.html").render(**context(result, replays))


def write_html(result: SubmissionResult, path: Path | str, replays: dict[str, Replay] | None = None) -> None:
    Path(path).write_text(render_html(result, replays), encoding="utf-8")
