"""``fcd-play --web`` in headless Chromium: a person at seat 0 sees only the reference's legal moves enabled,
plays one, watches the others' moves, and declares a colour for a D with the picker; sees the others' hands
as card backs (as many as they hold) while the game is on, and every card once it is over."""

from __future__ import annotations

import json
import random
import threading
import urllib.error
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


# --- what the page shows of the others' hands ------------------------------------------------------------

def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as r:  # noqa: S310 - our own local server
        return json.load(r)


def truth(view: dict[str, Any]) -> list[Any]:
    """The reference's frames of the server's game, every card in them: its first game is dealt from seed 0."""
    deck = ARENA.format_deck(ARENA.random_deck(random.Random(0)))
    return list(GAME.replay_frames(deck, " ".join(f["move"] for f in view["frames"][1:])))


def seat_rows(page: Any) -> list[dict[str, Any]]:
    """Each seat's row on the page: whose, the card faces in it, its card backs, its text."""
    return page.locator("#table .seat").evaluate_all(
        "rows => rows.map(r => ({seat: Number(r.dataset.seat), text: r.textContent,"
        " cards: [...r.querySelectorAll('.card:not(.back)')].map(c => c.textContent),"
        " backs: r.querySelectorAll('.card.back').length}))")


def test_during_a_game_the_others_hands_are_card_backs_only(server: str, tmp_path: Path) -> None:
    with browser_page(tmp_path, allow=(server + "/",)) as (page, errors):
        page.goto(server + "/?speed=0")
        wait_for_turn(page)
        page.locator("#draw").click() if not enabled_cards(page) else page.locator(
            "button.card.mine:not([disabled])").first.click()
        if page.locator("#picker").is_visible():
            page.locator("#picker button").first.click()
        page.wait_for_function("document.querySelectorAll('#log .entry').length > 0")
        wait_for_turn(page)
        view = state(server)
        assert not view["finished"]
        real = truth(view)
        hands = [list(seat.cards) for seat in real[-1].seats]
        rows = seat_rows(page)
        assert [r["seat"] for r in rows] == [0, 1, 2, 3]
        assert rows[0]["cards"] == hands[0] and rows[0]["backs"] == 0
        for row in rows[1:]:
            held = len(hands[row["seat"]])
            assert row["cards"] == [] and row["backs"] == held > 0, row
            assert f"{held} cards" in row["text"]
        faces = set(page.locator(".card:not(.back)").all_text_contents())
        shown = set(hands[0]) | {card for frame in real for card in frame.piles[1].cards} | {
            f.move.split("/")[0] for f in real[1:]}  # the discards and the moves are seen by all
        secret = {card for hand in hands[1:] for card in hand} - shown
        assert secret and not secret & faces
        assert "face down" in page.locator("#table .pile").first.text_content()  # the draw pile: its size only
        assert errors == []


def test_once_the_game_is_over_every_hand_is_shown(server: str, tmp_path: Path) -> None:
    view = state(server)
    while not view["finished"]:  # seat 0 plays a card when it can, else draws, else ends its turn
        assert len(view["frames"]) < 3000, "the game should have ended"
        plays = [m for m in view["legal"] if m not in ("draw", "end")]
        view = post(server, "/api/move", {"move": (plays or [m for m in ("draw", "end") if m in view["legal"]])[0]})
    hands = [list(seat.cards) for seat in truth(view)[-1].seats]
    assert any(hands[1:]), "someone still holds cards at the end"
    with browser_page(tmp_path, allow=(server + "/",)) as (page, errors):
        page.goto(server + "/?speed=0")
        last = len(view["frames"]) - 1  # the page steps through the game from the deal: wait for its end
        page.wait_for_function(f"document.querySelector('#table .where')?.textContent.startsWith('step {last} (')")
        assert "Every card is shown now" in page.locator("#status").text_content()
        rows = seat_rows(page)
        assert [r["cards"] for r in rows] == hands and all(r["backs"] == 0 for r in rows)
        assert errors == []
