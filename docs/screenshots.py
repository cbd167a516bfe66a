"""Make the README's screenshots: a failed game's replay, and the dashboard of a small class.

    python docs/screenshots.py      (needs the system Chromium and Playwright: pip install -e '.[test]')

Grades the bundled class below with ``fcd-grade batch`` and photographs, in headless Chromium, the replay
of the mutant ``skip_ignored`` (where it opens: its first difference) and the top of the dashboard.
Writes docs/images/replay.png and docs/images/dashboard.png.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "fixtures" / "submissions"
IMAGES = ROOT / "docs" / "images"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CLASS = {  # student -> the bundled submission they hand in
    "alice": "model", "bob": "mutants/skip_ignored", "carol": "mutants/d_is_wild",
    "dave": "mutants/counts_over_hands", "erin": "hostile/crash_in_new_game", "frank": "readings/combined",
    "gina": "mutants/penalty_only_one_draw", "hugo": "hostile/warning_flood",
    "ines": "mutants/any_card_after_the_penalty", "jack": "readings/a1_play_after_draw",
}


def main() -> None:
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    if CHROMIUM is None:
        sys.exit("screenshots: no system Chromium (apt-get install chromium)")
    work = Path(tempfile.mkdtemp(prefix="fcd-screenshots-"))
    for name, sub in CLASS.items():
        shutil.copytree(SUBMISSIONS / sub, work / "class" / name)
    subprocess.run([sys.executable, "-m", "grader.core.cli", "batch", str(work / "class"), "--out", str(work / "out"),
                    "--random-games", "24", "--no-memory"], check=False, capture_output=True)
    IMAGES.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 980, "height": 900}, device_scale_factor=1)
        page.goto((work / "out" / "reports" / "bob" / "report.html").as_uri())
        page.locator("div.test").first.screenshot(path=str(IMAGES / "replay.png"))
        page = browser.new_page(viewport={"width": 1200, "height": 1250}, device_scale_factor=1)
        page.goto((work / "out" / "dashboard.html").as_uri())
        page.screenshot(path=str(IMAGES / "dashboard.png"))
        browser.close()
    shutil.rmtree(work)
    for name in ("replay.png", "dashboard.png"):
        print(f"{IMAGES / name}: {(IMAGES / name).stat().st_size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
