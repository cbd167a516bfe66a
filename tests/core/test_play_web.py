"""``fcd-play --web`` in headless Chromium: a person at seat 0 sees only the reference's legal moves enabled,
plays one, watches the others' moves, and declares a colour for a D with the picker."""

from __future__ import annotations

import json
import random
import threading
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest
from headless import CHROMIUM, browser_page

from grader.core.arena.players import BotPlayer
from grader.core.arena.web import serve
from grader.games import get

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no system Chromium (.ci/run installs the apt package)")
GAME = get("fcd18s2")
ARENA = GAME.arena_game()


@pytest.fixture
def server() -> Iterator[str]:
    opponents = [BotPlayer(n, ARENA.bots[n], i) for i, n in enumerate(("greedy", "cautious", "random"))]
    httpd = serve(GAME, opponents, port=0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def state(base: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + "/api/state") as r:  # noqa: S310 - our own local server
        return json.load(r)


def wait_for_turn(page: Any) -> None:
    page.wait_for_function("['yours', 'over'].includes(document.getElementById('status').dataset.state)")


def enabled_cards(page: Any) -> set[str]:
    return set(page.locator("button.card.mine:not([disabled])").evaluate_all("bs => bs.map(b => b.dataset.card)"))


def test_only_legal_moves_are_enabled_and_a_move_lets_the_others_play(server: str, tmp_path: Path) -> None:
    with browser_page(tmp_path, allow=(server + "/",)) as (page, errors):
        page.goto(server + "/?speed=0")
        wait_for_turn(page)
        view = state(server)
        legal = view["legal"]
        assert legal, "seat 0 moves first on a plain deck"
        assert enabled_cards(page) == {m.split("/")[0] for m in legal if m not in ("draw", "end")}
        assert page.locator("#draw").is_enabled() == ("draw" in legal)
        assert page.locator("#end").is_enabled() == ("end" in legal)
        before = len(view["frames"])
        if enabled_cards(page):
            page.locator("button.card.mine:not([disabled])").first.click()
            if page.locator("#picker").is_visible():
                page.locator("#picker button").first.click()
        else:
            page.locator("#draw").click()
        page.wait_for_function(f"document.querySelectorAll('#log .entry').length > {before - 1}")
        wait_for_turn(page)
        after = state(server)
        assert len(after["frames"]) > before and after["frames"][before]["move"] in legal
        entries = page.locator("#log .entry").all_text_contents()
        assert entries[before - 1].startswith(f"step {before}: you: ")
        assert len(entries) == len(after["frames"]) - 1  # every move, the others' included
        assert errors == []


def _seed_with_a_d_to_play(base: str) -> tuple[int, list[str]]:
    for seed in range(300):
        deck = ARENA.random_deck(random.Random(seed))
        game = ARENA.new_state(deck)
        if ARENA.to_move(game) == 0 and any("/" in m for m in ARENA.legal(game)):
            return seed, [m for m in ARENA.legal(game) if "/" in m]
    raise AssertionError("no deck in 300 lets seat 0 open with a D")


def test_a_d_asks_for_the_colour_and_plays_the_one_picked(server: str, tmp_path: Path) -> None:
    seed, d_moves = _seed_with_a_d_to_play(server)
    card = d_moves[0].split("/")[0]
    with browser_page(tmp_path, allow=(server + "/",)) as (page, errors):
        page.goto(server + "/?speed=0")
        wait_for_turn(page)
        page.fill("#seed", str(seed))
        page.click("#new")
        page.wait_for_function(f"document.querySelector('button.card.mine[data-card=\"{card}\"]:not([disabled])')")
        page.locator(f"button.card.mine[data-card='{card}']").first.click()
        picker = page.locator("#picker button")
        offered = picker.evaluate_all("bs => bs.map(b => b.dataset.move)")
        assert offered == [m for m in d_moves if m.startswith(card)]
        picker.nth(2).click()
        wait_for_turn(page)
        assert state(server)["frames"][1]["move"] == offered[2]
        assert errors == []
