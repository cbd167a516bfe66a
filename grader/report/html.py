"""The HTML report: a pure function of the result, through an autoescaped Jinja template."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from .escape import clean_text

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
_env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]))


def render_html(result: Any) -> str:
    tests = sorted(result.tests, key=lambda t: t.passed)  # failures first, order kept otherwise
    for t in tests:
        t.stdout, t.stderr = clean_text(t.stdout), clean_text(t.stderr)
    return _env.get_template("report.html").render(r=result, tests=tests,
                                                   failing=[t for t in tests if not t.passed])


def write_html(result: Any, path: Path) -> None:
    Path(path).write_text(render_html(result), encoding="utf-8")
