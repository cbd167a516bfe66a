"""The sandbox side of a Palace game: play a move list on the student library in a child.

The worker (``grader.core.sandbox.worker``) imports this module by name, calls ``warm_up`` once before forking,
and ``run`` in each fresh child with the grader's request and the shared results area.  The request:
``lib`` (the library's path), ``setup`` (Setup notation, ``2p mirror: 5H 6D ...``), ``moves`` (move
tokens: ``up:5H,6D,KS``, ``5H,5D``, ``blind:1``, ``pickup``) and optionally ``destroy`` (default true).

Frames, as Final Card-Down's (``grader.games.fcd.sandbox.play``): ``{"t": "obs", "i": i, "obs": ...}`` after
newGame (i = 0) and after move i - 1 (``observe.Observer``); ``{"t": "moved", "i": i}`` once move i is
made; ``{"t": "refused", "i": i}`` when the library's own isValidMove refuses move i (playMove of an
invalid move is undefined, C41: the game stops there); ``{"t": "no_card", "i": i}`` when a card of move
i is not where the move says; ``{"t": "done"}`` after every move and destroyGame; ``{"t": "error",
"what": "load" | "missing" | "null_game", "detail": ...}`` when the game cannot start.  The call in
progress is written (``results.at``) before every call into student code, so a crash or a hang is
pinned on it.  Nothing here sees an expected result.

A written card is found in the mover's zone -- the hand (read as the game runner reads it,
getHandCard(currentPlayer(), n); handCard without getHandCard) for CHOOSE_FACE_UP and while the
hand has cards, else the face-up row (faceUpCard) -- as the first card of that rank and suit, lowest
position first, that the same move has not named already.  A card written with its identity
(``5H@12``, its deck index: the engine writes one when the zone holds a twin) is the card the deal put
there (C2), found by reading the deal right after newGame (``deck_map``).

Optional, for the grader's scenarios: ``ask``, a list of ``[step, entries]``.  After the observation of
that step (before the step's move; step = the number of moves made) each entry is asked of the library
and one frame ``{"t": "asked", "i": step, "answers": [...], "obs": ...}`` is sent, ``obs`` being a new
observation taken after the questions (isValidMove must not have changed anything, C46).  An entry is a
move ``{"action": a, "cards": [...], "count": n, "index": k}`` (cards: a written card -- looked up in the
mover's zone first, lowest deck index, then anywhere in the game by the deal (``deck_map``) --, ``null``
for a NULL entry, or an int j for the same pointer as entry j; ``count`` numCards when not
``len(cards)``; ``index`` faceDownIndex), answered with isValidMove's answer or ``"no_card"``; or the
string ``"index_ranges"``, answered with, for every Card getter of every seat, whether it gives NULL at
n = -1, at n = size, and a card at n = size - 1 (``[true, true, true]`` for a correct getter).
Optional too: ``blind_cards``, a list of ``[i, deck index]``: move i (a ``blind:k``) turns the position
where getFaceDownCard(current seat, p) is that card of the deal (C38: positions may be renumbered after a
card is turned), k when it is not found.  ``battery`` (default true): false leaves the isValidMove battery
out of every observation (its ``valid`` is then ``"skipped"``).  ``recheck`` (default false): after each
observation the game's counters are read again (``RECHECKED``), and when the battery's isValidMove calls
changed them (C46) a frame ``{"t": "recheck", "i": step, "counts": ...}`` says what they are now.
``dealt_as`` (Setup notation): the deck newGame is given instead of ``setup``'s -- ``setup``'s rearranged so the
library's own deal puts every card where C2 puts it in ``setup`` (``grader.games.palace.deal_map``); everything
else (the deal read by ``deck_map``, the observations' deck size) still follows ``setup``.
Without these keys the job is as before.

``batch`` (with ``observer`` and ``each``, the limits of one game): several games' requests, played one after the
other in this child, each from its own newGame through the C observer (``grader.core.batched_games``: a batch only
proves games equal to the reference; every other is played alone).  After each game one frame
``{"t": "packed", "game": i, "outcome": ..., "digest": ...}``: how it ended and the SHA-256 of its packed frames.
``then``: one more game's request, played after the batch through the Python observer, every frame sent as for a
game alone (what a game did after others in the same process: ``batched_games.kept_state_note``).

``observer`` (the C observer's path, ``c_observer``): when the library has every API function, the whole game
is played in one call into the C observer -- the same calls, in the same order, as ``play_game`` makes -- and
one frame ``{"t": "packed", "outcome": ..., "data": ...}`` carries every frame above in the packed form
(``observations.pack_frames``, base64).  ``play_game`` plays a made game of either engine, so the trusted side
packs the reference's frames with the very code the child runs.
"""

from __future__ import annotations

import base64
import hashlib
from typing import cast

from grader.core.sandbox.clocks import each_game
from grader.core.sandbox.native import open_library
from grader.games.palace.sandbox.frames import Event
from grader.games.palace.sandbox.interface import API
from grader.games.palace.sandbox.library import PalaceLibrary
from grader.games.palace.sandbox.library import warm_up as _warm_up
from grader.games.palace.sandbox.notation import Setup
from grader.games.palace.sandbox.observe import CALL_IDS, NEW_GAME
from grader.games.palace.sandbox.observer_call import CAPACITY, OUTCOMES, request_words
from grader.games.palace.sandbox.playing import NEEDED, BatchRequest, PlayedGame, PlayRequest, Results, play_game


def warm_up() -> None:
    _warm_up(API)


def run(request: PlayRequest | BatchRequest, results: Results) -> None:
    """Play one Palace game on the student library; every step is a frame sent to ``results`` (with ``observer``
    and every API function there, the whole game in one call into the C observer: one ``packed`` frame); or a
    batch of games (``batch``)."""
    lib = open_library(lambda: PalaceLibrary(request["lib"]), results.send, Event.ERROR.value, NEEDED)
    if lib is None:
        return
    if "batch" in request:
        _run_batch(lib, cast(BatchRequest, request), results)
        return
    request = cast(PlayRequest, request)
    observer = request.get("observer")
    if observer and not lib.missing:
        _run_packed(lib, observer, request, results)
        return
    _play_frames(lib, request, results)


def _play_frames(lib: PalaceLibrary, request: PlayRequest, results: Results) -> None:
    """One game through the Python observer: every step a frame."""
    send, trace = results.send, results.at
    setup = Setup.parse(request["setup"])
    given = Setup.parse(request["dealt_as"]) if request.get("dealt_as") else setup
    trace(NEW_GAME, CALL_IDS["newGame"], 0, 0)
    made = lib.new_game(given.n_players, given.ranks, given.suits, given.rules)
    if made is None:
        send({"t": Event.ERROR.value, "what": "null_game", "detail": "newGame returned NULL"})
        return
    # NEEDED is there; the other methods are called only once the library is seen to have them
    play_game(cast(PlayedGame, made), setup, request, send, trace, lambda step: setattr(results, "step", step),
              lib.has)

def _run_batch(lib: PalaceLibrary, request: BatchRequest, results: Results) -> None:
    """A batch's games one after the other on one load of the library, each within its own limits
    (``clocks.each_game``); a library the C observer cannot play (it lacks an API function) sends an error
    frame instead, and its games are all played alone."""
    if lib.missing or not request.get("observer"):
        results.send({"t": Event.ERROR.value, "what": "batch", "detail": "no C observer to play a batch with"})
        return
    each = request["each"]
    for i, game in enumerate(request["batch"]):
        with each_game(each["cpu"], each["wall"]):
            outcome, data = lib.play_packed(request["observer"], request_words(game), results.call_slot(), CAPACITY)
        results.send({"t": Event.PACKED.value, "game": i, "outcome": OUTCOMES.get(outcome, "?"),
                      "digest": hashlib.sha256(data).hexdigest()})
    then = request.get("then")
    if then is not None:
        with each_game(each["cpu"], each["wall"]):
            _play_frames(lib, cast(PlayRequest, {**then, "lib": request["lib"]}), results)


def _run_packed(lib: PalaceLibrary, observer: str, request: PlayRequest, results: Results) -> None:
    """The whole game in one call into the C observer; one frame back with every frame packed."""
    outcome, data = lib.play_packed(observer, request_words(request), results.call_slot(), CAPACITY)
    results.send({"t": Event.PACKED.value, "outcome": OUTCOMES.get(outcome, "?"),
                  "data": base64.b64encode(data).decode("ascii")})
