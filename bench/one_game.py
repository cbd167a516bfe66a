"""A fresh-process grader's whole life for one game (bench_isolation's second way).

Reads one request frame on stdin -- library, deck, moves -- declares the API
to cffi, loads the library, plays, and writes every observation as a frame.
Run with ``python -S`` and only what it imports on the path, as lean as such a
grader can be.
"""

from __future__ import annotations

import os

from grader.core.sandbox import protocol
from grader.games.fcd.sandbox.loader import CLibrary
from grader.games.fcd.sandbox.play import resolve
from grader.games.fcd18s2.sandbox.interface import API
from grader.games.fcd18s2.sandbox.observe import Observer
from grader.games.fcd18s2.sandbox.play import JOB
from reference.moves import MoveSpec


def main() -> int:
    request = protocol.read_frame(0)
    lib = CLibrary(request["lib"], API)
    deck, moves, depths = request["deck"], request["moves"], request["depths"]
    game = lib.new_game(*zip(*deck))
    observer = Observer(game, len(deck))
    first = observer.observe(tuple(depths[0]))
    first.update(observer.deck_counts())
    out = [protocol.encode(first)]
    for i, token in enumerate(moves):
        game.play_move(resolve(game, MoveSpec.parse(token), len(deck) + 1, JOB))
        out.append(protocol.encode(observer.observe(tuple(depths[i + 1]))))
    game.destroy_game()
    os.write(1, b"".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
