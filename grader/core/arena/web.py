"""``fcd-play --web``: play a seat yourself, in the browser, against baselines or students' players.

A local server (127.0.0.1 only) holds the game on the reference and the other players; the page
(``templates/play.html`` and ``play.js``, the replay's look made interactive) shows the game as the
replay does, your hand as cards to click, a colour picker for a D, and only the moves the reference
allows.  After your move the others play until it is your turn again, and the page shows their moves
one step at a time.  Every answer is JSON; the page draws every string as text.

What the page is sent is only what your seat may see (the game's ``Privacy``: ``seen_by``): the others'
hands as their sizes, not their cards, and no card of the draw pile -- held back on the server, since
anyone can read what a page receives -- until the game is over, when every card is sent.

    GET  /            the page
    POST /api/new     {"seed": n}: a new game on a seeded deck; you sit at seat 0
    GET  /api/state   the game so far: frames (as your seat sees them), your legal moves, the result
    POST /api/move    {"move": "5RH"}: your move (a legal one), then the others' until your turn
"""

from __future__ import annotations

import errno
import json
import random
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Sequence
from urllib.parse import urlsplit

from .match import places, turn
from .players import Player, Table

if TYPE_CHECKING:
    from grader.core.gamespec import GameSpec
    from grader.core.replay import Frame

    from .game import Privacy

HUMAN = 0  # the seat a person takes
MAX_BODY = 4096  # bytes of a request the server reads


def seen_by(frame: Frame, privacy: Privacy, viewer: int, names: Sequence[str], over: bool) -> dict[str, object]:
    """``frame`` as JSON for the page of the person at seat ``viewer``: a row or pile whose cards that seat may
    not see (``privacy``; one without a rule neither) is sent as its size alone, until the game is ``over``.
    Each row is labelled with its seat's name (``names``) and says whose it is.  The valid moves of a frame are
    not sent: the page needs only the person's own, which ``WebGame.view`` sends apart (``legal``)."""
    seats = []
    for i, seat in enumerate(frame.seats):
        row = privacy.rows[i] if i < len(privacy.rows) else None
        shown = over or (row is not None and (row.seen == "all" or (row.seen == "owner" and row.seat == viewer)))
        label = seat.name if row is None else names[row.seat] + (f": {row.part}" if row.part else "")
        seats.append({"label": label, "seat": -1 if row is None else row.seat, "current": seat.current,
                      "cards": list(seat.cards) if shown else [], "count": len(seat.cards), "hidden": not shown})
    piles = []
    for i, pile in enumerate(frame.piles):
        shown = over or (i < len(privacy.piles) and privacy.piles[i] == "all")
        piles.append({"name": pile.name, "cards": list(pile.cards) if shown else [], "size": pile.size,
                      "hidden": not shown})
    return {"step": frame.step, "move": frame.move, "seats": seats, "piles": piles,
            "facts": [list(fact) for fact in frame.facts]}


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
        """The game as the person's seat sees it (``seen_by``: everything once it is over)."""
        frames = self.spec.replay_frames(self.deck_text, " ".join(self.moves))
        finished = self.arena.finished(self.state)
        winner, placed = places(self.arena, self.state, []) if finished else (None, [])
        names = ["you", *(p.name for p in self.opponents)]
        return {
            "title": self.spec.title, "names": names,
            "frames": [seen_by(f, self.arena.privacy, HUMAN, names, finished) for f in frames],
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


def listen(port: int, further: int = 0) -> ThreadingHTTPServer:
    """A server bound to 127.0.0.1:``port`` (0: any free port) or, when that port is in use, to the first free
    one of the ``further`` ports after it; the last port's ``OSError`` when none is free."""
    for candidate in range(port, port + further):
        try:
            return ThreadingHTTPServer(("127.0.0.1", candidate), BaseHTTPRequestHandler)
        except OSError as err:
            if err.errno != errno.EADDRINUSE:
                raise
    return ThreadingHTTPServer(("127.0.0.1", port + further), BaseHTTPRequestHandler)


def serve(spec: GameSpec, opponents: Sequence[Player], port: int = 8765, further: int = 0) -> ThreadingHTTPServer:
    """A server on 127.0.0.1:``port`` (0: any free port; ``listen``), bound before the first game is dealt so
    that a busy port costs nothing; call ``serve_forever`` on it."""
    server = listen(port, further)
    try:
        server.RequestHandlerClass = handler(WebGame(spec, opponents), render_page())
    except BaseException:
        server.server_close()
        raise
    return server
