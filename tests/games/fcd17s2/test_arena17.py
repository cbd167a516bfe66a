"""2017 edition at the table (``grader.games.fcd17s2.arena`` in ``grader.core.arena``): the baselines play legal
games on the 2017 engine; the bundled players (fixtures/fcd17s2/players) get their verdicts -- ``simple`` plays
legally, ``illegal`` forfeits naming the move; a tournament is the same with the same seed; the ``--web`` game
shows the 2017 frames and words.  The qualification of ``simple`` (places above random, by the sequential test)
and the page in a browser are ``slow``."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any, cast

import pytest

from grader.core.arena.match import play_match
from grader.core.arena.players import BotPlayer
from grader.core.arena.tournament import Entrant, Settings, Tournament, run_tournament
from grader.core.arena.web import WebGame
from grader.core.config import MarkingConfig
from grader.games import get
from reference.cards import format_key
from reference.fcd17s2 import SAYS, Action, Deck, Game, MoveSpec

ROOT = Path(__file__).resolve().parents[3]
PLAYERS = ROOT / "fixtures" / "fcd17s2" / "players"
GAME = get("fcd17s2")
ARENA = GAME.arena_game()
CONFIG = MarkingConfig.load(game=GAME)
SETTINGS = Settings(int(CONFIG.players["max_moves"]), CONFIG.player_limits.as_dict(), "allowed")
CARD = re.compile(r"[0-9A-F][RBGYP][HDCSQ](/[RBGYP])?")


def _replayed(deck: str, moves: list[str]) -> Game:
    """Every move again on a fresh 2017 reference game, each one of the legal moves where it was made."""
    game = Game(Deck.parse(deck))
    for move in moves:
        assert move in [str(m) for m in game.legal_moves()], move
        game.play_move(game.resolve(MoveSpec.parse(move)))
    return game


@pytest.mark.parametrize("seed", range(6))
def test_baseline_games_are_legal_from_start_to_end(seed: int) -> None:
    names = ["random", "greedy", "cautious", "greedy"]
    players = [BotPlayer(name, ARENA.bots[name], seed + i) for i, name in enumerate(names)]
    record = play_match(ARENA, ARENA.random_deck(random.Random(seed)), players)
    assert not record.forfeits and not record.stopped
    game = _replayed(record.deck, record.moves)
    outcome = game.outcome()
    assert outcome is not None and record.winner == outcome.winner
    assert sorted(record.places)[0] == 1.0 and (record.winner is None or record.places[record.winner] == 1.0)


def test_the_baselines_use_the_2017_words() -> None:
    """Over four games: greedy and cautious claim their counts, greedy calls out only when it is right, cautious
    never, random wrongly too (the reference's record of each call-out says whether it was right)."""
    claims: Counter[str] = Counter()
    calls: Counter[tuple[str, bool]] = Counter()
    names = ["random", "greedy", "cautious", "random"]
    for seed in range(4):
        players = [BotPlayer(name, ARENA.bots[name], seed + i) for i, name in enumerate(names)]
        record = play_match(ARENA, ARENA.random_deck(random.Random(seed)), players)
        game = _replayed(record.deck, record.moves)
        for turn in range(game.num_turns()):
            who = names[game.turn_player(turn)]
            moves = [game.past_move(turn, m).action for m in range(game.turn_moves(turn))]
            claims[who] += sum(word in SAYS and before == Action.PLAY_CARD for before, word in zip(moves, moves[1:]))
            calls.update((who, right) for _, right in game.call_outs(turn))
    assert claims["greedy"] > 0 and claims["cautious"] > 0
    assert calls[("greedy", False)] == 0 and calls[("cautious", True)] + calls[("cautious", False)] == 0
    assert calls[("random", False)] > 0


# --- the bundled players ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tournament() -> Tournament:
    """simple, illegal, random and greedy at one table: one deck, four rotations."""
    entrants = [Entrant(name, "student", str(PLAYERS / name)) for name in ("simple", "illegal")] + [
        Entrant(name, "bot", name) for name in ("random", "greedy")]
    return run_tournament("fcd17s2", entrants, SETTINGS, rounds=1, seats=4, seed=3, jobs=1)


def test_simple_plays_every_game_legally(tournament: Tournament) -> None:
    simple = next(s for s in tournament.standings if s.name == "simple")
    assert (simple.games, simple.forfeits) == (4, 0), simple.forfeit_reasons
    for record in tournament.records:
        _replayed(record.deck, record.moves)  # the moves of every seat, the stand-in's included


def test_illegal_forfeits_every_game_naming_the_illegal_move(tournament: Tournament) -> None:
    illegal = next(s for s in tournament.standings if s.name == "illegal")
    assert (illegal.games, illegal.forfeits) == (4, 4)
    for record in tournament.records:
        (forfeit,) = record.forfeits
        assert record.players[forfeit.seat] == "illegal"
        assert record.places[forfeit.seat] == 4.0 and record.winner != forfeit.seat
        found = re.fullmatch(r"made an illegal move: (\S+) \(legal: (.*)\)", forfeit.why)
        assert found is not None, forfeit.why
        move, said_legal = found.groups()
        game = _replayed(record.deck, record.moves[:forfeit.move])  # the game where it was asked
        legal = [str(m) for m in game.legal_moves()]
        assert game.current_player() == forfeit.seat and said_legal == " ".join(legal)[:200]
        assert CARD.fullmatch(move) and move not in legal  # a card of its hand, which it may not play there
        assert move[:3] in [str(c) for c in game.player_hand(forfeit.seat)]


def test_a_tournament_is_the_same_with_the_same_seed() -> None:
    entrants = [Entrant(name, "bot", name) for name in ("random", "greedy", "cautious")]
    first, again, other = (run_tournament("fcd17s2", entrants, SETTINGS, rounds=2, seats=4, seed=seed, jobs=1)
                           for seed in (5, 5, 6))
    assert [r.to_json() for r in first.records] == [r.to_json() for r in again.records]
    assert [s.places for s in first.standings] == [s.places for s in again.standings]
    assert [r.deck for r in first.records] != [r.deck for r in other.records]


# --- the game in the browser's terms --------------------------------------------------------------------------------

def test_the_web_game_shows_2017_frames_and_takes_its_words() -> None:
    """Seat 0 first (as dealt: 7 cards each, card 28 of the deck turned up, nothing moved yet): the others' hands
    and the draw pile as sizes; a call-out on turn 0 is a legal move (wrong: the caller draws 4), and the frame
    after it says so; the same word again is refused."""
    opponents = [BotPlayer(n, ARENA.bots[n], i) for i, n in enumerate(("greedy", "cautious", "random"))]
    web = WebGame(GAME, opponents)  # (seed 0's deck)
    turned_up = Deck.parse(web.deck_text).keys[28]
    assert turned_up[0] not in (0x2, 0xA, 0xB)  # (so seat 0 moves first, clockwise)
    view: dict[str, Any] = web.view()
    (first,) = view["frames"]
    assert view["names"] == ["you", "greedy", "cautious", "random"] and not view["finished"]
    assert [(s["label"], s["count"], s["hidden"]) for s in first["seats"]] == [
        ("you", 7, False), ("greedy", 7, True), ("cautious", 7, True), ("random", 7, True)]
    draw_pile, discards = first["piles"]
    assert draw_pile["hidden"] and draw_pile["cards"] == [] and draw_pile["size"] == len(Deck.parse(web.deck_text)) - 29
    assert discards["cards"] == [format_key(turned_up)] and not discards["hidden"]
    assert dict(map(tuple, first["facts"]))["direction"] == "clockwise"
    assert {"uno", "duo", "trio", "draw"} <= set(view["legal"])
    assert web.play("uno") == ""
    after = cast(dict[str, Any], web.view())["frames"][1]
    assert after["move"] == "uno" and after["seats"][0]["count"] == 11
    assert dict(map(tuple, after["facts"]))["moves this turn"] == "uno"
    assert web.play("uno") == "uno is not a legal move now"  # once a turn


# --- slow: the qualification, the page --------------------------------------------------------------------------------

@pytest.mark.slow
def test_simple_qualifies_legal_and_above_random(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "grader.core.arena.cli", "--game", "fcd17s2", "--qualify",
                           str(PLAYERS / "simple"), "--out", str(tmp_path)], capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    marks = {m["what"]: m["marks"] for m in json.loads((tmp_path / "standings.json").read_text())["marks"]}
    assert marks["legal"] == 4 and marks["beats_random"] == 3


@pytest.mark.slow
def test_the_web_page_plays_a_2017_word(tmp_path: Path) -> None:
    import threading  # noqa: PLC0415

    sys.path.append(str(ROOT / "tests"))  # (appended: tests/reference must not hide the project's reference)
    from headless import CHROMIUM, browser_page  # noqa: PLC0415

    from grader.core.arena.web import serve  # noqa: PLC0415

    if CHROMIUM is None:
        pytest.skip("no system Chromium")
    opponents = [BotPlayer(n, ARENA.bots[n], i) for i, n in enumerate(("greedy", "cautious", "random"))]
    httpd = serve(GAME, opponents, port=0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        with browser_page(tmp_path, allow=(base + "/",)) as (page, errors):
            page.goto(base + "/?speed=0")
            page.wait_for_function("['yours', 'over'].includes(document.getElementById('status').dataset.state)")
            assert page.locator("#moves button").all_text_contents() == ["uno", "duo", "trio"]
            page.locator("#moves button", has_text="uno").click()
            page.wait_for_function("document.querySelectorAll('#log .entry').length > 0")
            assert page.locator("#log .entry").first.text_content() == "step 1: you: uno"
            assert errors == []
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_fcd_play_names_the_2017_edition_as_fcd_grade_does(tmp_path: Path) -> None:
    """``fcd-play --edition 17s2``: a student's player and the 2017 baselines at one table, one round (a deck
    played once per rotation: each of the four takes every seat once)."""
    from grader.core.arena.cli import main  # noqa: PLC0415

    code = main(["--edition", "17s2", str(PLAYERS / "simple"), "random", "greedy", "cautious", "--rounds", "1",
                 "--out", str(tmp_path)])
    summary = json.loads((tmp_path / "standings.json").read_text())
    assert code == 0 and summary["game"] == "Final Card-Down (2017)" and summary["rounds"] == 1
    assert {(s["name"], s["kind"], s["games"], s["forfeits"]) for s in summary["standings"]} == {
        ("simple", "student", 4, 0), ("random", "bot", 4, 0), ("greedy", "bot", 4, 0), ("cautious", "bot", 4, 0)}
