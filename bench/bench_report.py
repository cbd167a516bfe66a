"""The HTML report of the largest realistic case: how big it is and how soon it opens in headless Chromium.

    python bench/bench_report.py [--moves 1500] [--rounds 5]

A failing mutant (skip_ignored) is graded; then one of its failed tests is given the longest game a report
may carry: the full 800-card deck and ``--moves`` moves (players who play a card a third of the time they
can and otherwise draw, so hands grow to 60-80 cards), the difference at its last step.  The report is
written as grading writes it, and opened ``--rounds`` times; printed: its size, the time from navigation
until the replay shows its first difference (median, in the page's own clock), and the same figures for
the report as graded (the baseline, measured in the same run).  Targets (issue 18): under 2 MB, under 1 s.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.core.replay import replays_of  # noqa: E402
from grader.core.report.html import write_html  # noqa: E402
from grader.core.results import result_from_json  # noqa: E402
from grader.games import get  # noqa: E402
from reference import Deck, Game, MoveSpec  # noqa: E402
from reference.cards import traditional_deck  # noqa: E402
from reference.moves import Action  # noqa: E402

MUTANT = ROOT / "fixtures" / "submissions" / "mutants" / "skip_ignored"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def long_game(moves: int, seed: int = 0) -> tuple[str, str]:
    """The 800-card deck shuffled and ``moves`` moves of the reference's legal ones, or fewer if it ends."""
    rng = random.Random(seed)
    keys = traditional_deck().keys
    rng.shuffle(keys)
    deck = Deck.from_keys(keys)
    game, played = Game(deck), []
    while game.outcome() is None and len(played) < moves:
        legal = game.legal_moves()
        plays = [m for m in legal if m.action == Action.PLAY_CARD]
        others = [m for m in legal if m.action != Action.PLAY_CARD]
        move = rng.choice(plays) if plays and (rng.random() < 1 / 3 or not others) else rng.choice(others or legal)
        played.append(str(MoveSpec.parse(str(move))))
        game.play_move(move)
    return str(deck), " ".join(played)


def open_times(page_file: Path, rounds: int) -> list[float]:
    """Milliseconds from navigation start until the replays are drawn, each round in a fresh page."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    times = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for _ in range(rounds + 1):  # the first round warms the browser's caches of its own code
            page = browser.new_page()
            page.goto(page_file.as_uri(), wait_until="load")
            page.wait_for_function("document.querySelectorAll('div.replay .where').length === "
                                   "document.querySelectorAll('div.replay').length")
            times.append(page.evaluate("performance.now()"))
            if page.locator("div.replay .diff").count() == 0:
                sys.exit(f"bench_report: {page_file} opened at no difference")
            page.close()
        browser.close()
    return times[1:]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--moves", type=int, default=1500)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    if CHROMIUM is None:
        sys.exit("bench_report: no system Chromium (apt-get install chromium)")
    work = Path(tempfile.mkdtemp(prefix="fcd-bench-report-"))
    subprocess.run([sys.executable, "-m", "grader.core.cli", str(MUTANT), "--out", str(work / "graded"),
                    "--random-games", "24", "--no-memory", "--quiet"], check=False, capture_output=True)
    graded = result_from_json(json.loads((work / "graded" / "result.json").read_text()))
    game = get("fcd18s2")
    deck, moves = long_game(args.moves)
    n = len(moves.split())
    failed = next(t for t in graded.tests if t.verdict.family == "fail" and t.deck)
    long_test = dataclasses.replace(failed, deck=deck, moves=moves, difference={
        "step": n, "what": "currentPlayer()", "expected": "2", "got": "3"})
    largest = dataclasses.replace(graded, tests=[long_test if t is failed else t for t in graded.tests])
    rows = []
    for name, result in (("as graded", graded), (f"800 cards, {n} moves", largest)):
        page_file = work / name.replace(" ", "_").replace(",", "") / "report.html"
        page_file.parent.mkdir(parents=True)
        write_html(result, page_file, replays_of(result, game.replay_frames, game.title))
        times = open_times(page_file, args.rounds)
        rows.append((name, page_file.stat().st_size, statistics.median(times), max(times)))
        print(f"{name:<24} {page_file.stat().st_size / 1e6:6.2f} MB   opens in {statistics.median(times):6.0f} ms "
              f"(median of {args.rounds}; slowest {max(times):.0f} ms)", flush=True)
    (_, base_size, base_ms, _), (_, size, ms, _) = rows
    print(f"largest / as graded: {size / base_size:.1f}x the bytes, {ms / base_ms:.2f}x the time to open; "
          f"targets: under 2 MB ({'met' if size < 2e6 else 'NOT met'}), "
          f"under 1000 ms ({'met' if ms < 1000 else 'NOT met'})")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
