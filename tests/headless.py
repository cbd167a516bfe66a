"""A headless Chromium page for the browser tests (Playwright driving the system Chromium: Playwright's own
browser download cannot work here, so ``.ci/run`` installs Debian's ``chromium``)."""

from __future__ import annotations

import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

playwright = pytest.importorskip("playwright.sync_api", reason="the browser tests need Playwright (.[test])")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
LOCAL = ("file:", "data:", "about:", "blob:")  # all a report may load: it works with no network


@contextmanager
def browser_page(shots: Path, width: int = 1200, allow: tuple[str, ...] = ()) -> Iterator[tuple[object, list[str]]]:
    """A headless page and what went wrong in it: console errors, uncaught exceptions and every request
    for something not in the page or its folder (or under one of the ``allow`` prefixes: a local server).
    If the block fails, a screenshot in ``shots``."""
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": width, "height": 900})
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: None if r.url.startswith(LOCAL + allow) else errors.append(f"fetched {r.url}"))
        try:
            yield page, errors
        except BaseException:
            page.screenshot(path=str(shots / "failure.png"), full_page=True)
            print(f"screenshot: {shots / 'failure.png'}")
            raise
        finally:
            browser.close()
