"""``fcd-play --web``: play a seat yourself, in the browser, against baselines or students' players.

A local server (127.0.0.1 only) holds the game on the reference and the other players; the page
(``templates/play.html`` and ``play.js``, the replay's look made interactive) shows the game as the
replay does, your hand as cards to click, a colour picker for a D, and only the moves the reference
allows.  After your move the others play until it is your turn again, and the page shows their moves
one step at a time.  Every answer is JSON; the page draws every string as text.

    GET  /            the page
    POST /api/new     {"seed": n}: a new game on a seeded deck; you sit at seat 0
    GET  /api/state   the game so far: frames, your legal moves, the result
    POST /api/move    {"move": "5RH"}: your move (a legal one), then the others' until your turn
"""

from __future__ import annotations

import json
import random
import threading
from dataclasses import asdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Sequence
from urllib.parse import urlsplit

from .match import places, turn
from .players import Player, Table

if TYPE_CHECKING:
    from grader.core.gamespec import GameSpec

HUMAN = 0  # the seat a person takes
MAX_BODY = 4096  # bytes of a request the server reads


class WebGame:
    """One game at a time: a person at seat 0 and ``opponents`` at the others."""

    def __init__(self, spec: GameSpec, opponents: Sequence[Player]) -> None:
        self.spec, self.arena, self.opponents = spec, spec.arena_game(), list(opponents)
        self.lock = threading.Lock()
        self.new(0)

    def new(self, seed: int) -> None:
        self.deck = self.arena.random_deck(random.Random(seed))
        self.deck_text = self.arena.format_deck(self.deck)
        self.state = self.arena.new_state(self.deck)
        self.moves: list[str] = []
        self.forfeits: list[str] = []
        self._others_play()

    def _others_play(self) -> None:
        """The other seats move until it is the person's turn or the game is over (a forfeit: its stand-in)."""
        while not self.arena.finished(self.state) and self.arena.to_move(self.state) != HUMAN \
                and len(self.moves) < 3000:
            seat = self.arena.to_move(self.state)
            player = self.opponents[seat - 1]
            move, _, _ = turn(self.arena, self.state, player, self.arena.legal(self.state),
                              Table(self.deck_text, tuple(self.moves), seat), player.name in self.forfeits)
            if move is None:
                self.forfeits.append(player.name)
                continue
            self.arena.apply(self.state, move)
            self.moves.append(move)

    def play(self, move: str) -> str:
        """The person's move ('' when it was applied, else why not)."""
        if self.arena.finished(self.state) or self.arena.to_move(self.state) != HUMAN:
            return "it is not your turn"
        if move not in self.arena.legal(self.state):
            return f"{move[:20]} is not a legal move now"
        self.arena.apply(self.state, move)
        self.moves.append(move)
        self._others_play()
        return ""

    def view(self) -> dict[str, object]:
        frames = self.spec.replay_frames(self.deck_text, " ".join(self.moves))
        finished = self.arena.finished(self.state)
        winner, placed = places(self.arena, self.state, []) if finished else (None, [])
        names = ["you", *(p.name for p in self.opponents)]
        return {
            "title": self.spec.title, "names": names,
            "frames": [asdict(f) for f in frames],
            "legal": self.arena.legal(self.state) if not finished and self.arena.to_move(self.state) == HUMAN else [],
            "finished": finished, "winner": names[winner] if winner is not None else None,
            "places": placed, "forfeits": list(self.forfeits),
        }


def handler(game: WebGame, page: str) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # quiet: a person is playing
            pass

        def _send(self, code: int, body: bytes, kind: str) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, data: object, code: int = 200) -> None:
            self._send(code, json.dumps(data).encode(), "application/json")

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            path = urlsplit(self.path).path
            if path == "/":
                self._send(200, page.encode(), "text/html; charset=utf-8")
            elif path == "/api/state":
                with game.lock:
                    self._json(game.view())
            else:
                self._json({"error": "no such page"}, 404)

        def do_POST(self) -> None:  # noqa: N802
            length = min(int(self.headers.get("Content-Length") or 0), MAX_BODY)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self._json({"error": "not JSON"}, 400)
                return
            with game.lock:
                if self.path == "/api/new":
                    game.new(int(body.get("seed", 0)))
                    self._json(game.view())
                elif self.path == "/api/move":
                    why = game.play(str(body.get("move", "")))
                    self._json({**game.view(), "refused": why}, 200 if not why else 409)
                else:
                    self._json({"error": "no such action"}, 404)

    return Handler


def render_page() -> str:
    from grader.core.report.html import JINJA, scripts  # noqa: PLC0415

    return JINJA.get_template("play.html").render(script=scripts("table.js", "play.js"))


def serve(spec: GameSpec, opponents: Sequence[Player], port: int = 8765) -> ThreadingHTTPServer:
    """A server on 127.0.0.1:``port`` (0: any free port); call ``serve_forever`` on it."""
    return ThreadingHTTPServer(("127.0.0.1", port), handler(WebGame(spec, opponents), render_page()))
