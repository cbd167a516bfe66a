"""The Palace model C submission and the reference engine agree on every observation of every move.

The model (fixtures/palace/submissions/model) is built by the core's build, as a submission is, and
played by the sandboxed worker with the Palace job (``grader.games.palace.sandbox.play``); the same
``Observer`` is run on the reference ``Game`` step by step, and the two traces must be identical once
the orders C37 leaves free are put in one order (``observe.canonical``).  Seeded random games: random
setups from ``ENGINE.random_deck`` (2-5 players, every option combination, one or two decks), moves
from the reference's legal moves, playing preferred 4:1 over taking the pile, at most 600 moves.

There is no Palace ``GameSpec`` yet (grader/games/palace/__init__.py comes later): the build is
given a minimal one made here.
"""

from __future__ import annotations

import random
import subprocess
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

import orjson
import pytest

from grader.core.build import build
from grader.core.gamespec import GameSpec
from grader.core.sandbox.limits import Limits
from grader.core.worker_client import WorkerClient
from grader.games.palace.engine import ENGINE
from grader.games.palace.sandbox import play as palace_play
from grader.games.palace.sandbox.frames import max_frames
from grader.games.palace.sandbox.interface import API_FUNCTIONS, COURSE_HEADERS, HEADERS, INCLUDE_DIR
from grader.games.palace.sandbox.library import PalaceLibrary
from grader.games.palace.sandbox.observe import NULL_CARD, Observer, canonical
from grader.games.palace.sandbox.playing import resolve
from reference.palace import Action, Game, MoveSpec, Setup, standard_deck
from reference.palace.cards import format_key

ROOT = Path(__file__).resolve().parents[3]
MODEL = ROOT / "fixtures" / "palace" / "submissions" / "model"
JOB = "grader.games.palace.sandbox.play"
PACKAGES: tuple[str, ...] = ()  # the job is given the core's sandbox folder and its own, nothing else
LIMITS = Limits(cpu=30, wall=60, memory_mb=512, output_kb=4096, nproc=256)
GAMES, BLOCKS = 50, 5
MAX_MOVES = 600
PLAY_BIAS = 0.8  # 4:1 for playing over picking up, when both are legal


def _unused(*_args: Any, **_kwargs: Any) -> Any:
    raise NotImplementedError("not needed to build or play")


def palace_spec() -> GameSpec:
    """Just what ``build`` and the worker need of a Palace GameSpec."""
    return GameSpec(
        name="palace", title="Palace", engine=ENGINE, include_dir=INCLUDE_DIR, api_headers=HEADERS,
        course_headers=COURSE_HEADERS, api_functions=API_FUNCTIONS,
        course_sources={"PalaceCard.c": ("newCard", r"\bCard\s+newCard\s*\([^;{)]*\)\s*\{")},
        build_rules=(), marking_file=ROOT / "grader/games/palace/marking.toml", rulings={}, sandbox_job=JOB,
        sandbox_packages=PACKAGES, load_scenarios=_unused, open_session=_unused, owners=_unused,
        later_stages=_unused, write_repros=_unused, replay_frames=_unused)


@cache
def seeded_game(seed: int) -> tuple[Setup, tuple[MoveSpec, ...]]:
    rng = random.Random(seed)
    setup = ENGINE.random_deck(rng)
    game = ENGINE.new_game(setup)
    moves: list[MoveSpec] = []
    while len(moves) < MAX_MOVES and ENGINE.outcome(game) is None:
        legal = ENGINE.legal_moves(game)
        plays = [m for m in legal if m.action != Action.PICK_UP_PILE]
        pickups = [m for m in legal if m.action == Action.PICK_UP_PILE]
        move = rng.choice(plays if plays and (not pickups or rng.random() < PLAY_BIAS) else pickups)
        ENGINE.apply(game, move)
        moves.append(move)
    return setup, tuple(moves)


def reference_trace(setup: Setup, moves: tuple[MoveSpec, ...]) -> list[dict[str, Any]]:
    """The observer on the reference, moves resolved as the job resolves them on the library."""
    game = Game(setup)
    observer = Observer(game, setup.n_players, setup.n_cards)
    trace = [observer.observe()]
    for spec in moves:
        move = resolve(game, spec, setup.n_cards, game.card)
        assert move is not None, spec
        game.play_move(move)
        trace.append(observer.observe())
    return [orjson.loads(orjson.dumps(obs)) for obs in trace]  # as the frames arrive: plain JSON


def first_difference(setup: Setup, moves: tuple[MoveSpec, ...], got: list[dict[str, Any]],
                     ref: list[dict[str, Any]]) -> str | None:
    """Where the model's trace first differs from the reference's, in words (None: identical)."""
    for i, (mine, theirs) in enumerate(zip(got, ref)):
        a, b = canonical(mine), canonical(theirs)
        if a == b:
            continue
        fields = []
        for key in sorted(set(a) | set(b)):
            if a.get(key) == b.get(key):
                continue
            if key == "valid" and isinstance(a.get(key), dict) and isinstance(b.get(key), dict):
                labels = sorted(label for label in set(a[key]) | set(b[key]) if a[key].get(label) != b[key].get(label))
                fields.append("valid: " + "; ".join(f"{label} model {a[key].get(label)} reference "
                                                      f"{b[key].get(label)}" for label in labels[:8]))
            else:
                fields.append(f"{key}: model {a.get(key)} reference {b.get(key)}")
        return (f"setup {setup}\nmoves {ENGINE.format_moves(moves[:i])}\n"
                f"after {'newGame' if i == 0 else f'move {i} ({moves[i - 1]})'}:\n  " + "\n  ".join(fields))
    if len(got) != len(ref):
        return f"setup {setup}: {len(got)} observations from the model, {len(ref)} from the reference"
    return None


@pytest.fixture(scope="module")
def model_client():
    result = build(MODEL, palace_spec())
    assert result.ok, result.output
    assert not result.missing and not result.sources.course_sources_used
    try:
        with WorkerClient(result.library, JOB, PACKAGES) as client:
            yield client
    finally:
        result.cleanup()


def run_game(client: WorkerClient, setup: Setup, tokens: list[str]) -> Any:
    return client.run({"setup": str(setup), "moves": tokens}, LIMITS, max_frames(len(tokens)))


def test_the_seeds_reach_the_rare_rules() -> None:
    """The seeds of the agreement test are worth something only if they reach bombs, mirror threes,
    the seven's bound, blind cards (failed ones too), face-up play, twins named by identity and wins."""
    seen: dict[str, int] = dict.fromkeys(("ten", "four", "mirror", "seven", "blind", "failed_blind", "face_up",
                                          "identity", "won", "two_decks"), 0)
    for seed in range(GAMES):
        setup, moves = seeded_game(seed)
        game = Game(setup)
        seen["two_decks"] += setup.n_cards > 52
        for spec in moves:
            seat, stage, burnt = game.current_player(), game.stage(game.current_player()), game.burnt_count()
            hand_before = len(game.hand(seat))
            seen["identity"] += any(ref.ident is not None for ref in spec.cards)
            game.play_move(game.resolve(spec))
            if game.burnt_count() > burnt:
                seen["ten" if game.burnt()[-1].rank == 10 else "four"] += 1
            seen["face_up"] += stage == "face_up" and spec.action == Action.PLAY_CARDS
            seen["blind"] += spec.action == Action.PLAY_FACE_DOWN
            seen["failed_blind"] += spec.action == Action.PLAY_FACE_DOWN and len(game.hand(seat)) > hand_before
            seen["seven"] += game.seven_restriction()
            top = game.top_discard()
            seen["mirror"] += top is not None and top.rank == 3 and game.effective_top_rank() != 3
        seen["won"] += game.outcome() is not None
    assert all(count >= 10 for count in seen.values()), seen


@pytest.mark.parametrize("block", range(BLOCKS))
def test_model_agrees_with_reference_through_the_worker(model_client: WorkerClient, block: int) -> None:
    seeds = range(block * GAMES // BLOCKS, (block + 1) * GAMES // BLOCKS)
    games = [seeded_game(seed) for seed in seeds]
    with ThreadPoolExecutor(max_workers=1) as pool:  # the worker plays while the reference is observed here
        runs = [pool.submit(run_game, model_client, setup, [str(m) for m in moves]) for setup, moves in games]
        traces = [reference_trace(setup, moves) for setup, moves in games]
        reports = [run.result() for run in runs]
    for seed, (setup, moves), ref, report in zip(seeds, games, traces, reports):
        assert report.exit_code == 0 and report.signal is None and report.enforced is None, (seed, report)
        tags = [f["t"] for f in report.frames]
        assert tags == ["obs"] + ["moved", "obs"] * len(moves) + ["done"], (seed, tags[-3:])
        got = [f["obs"] for f in report.frames if f["t"] == "obs"]
        problem = first_difference(setup, moves, got, ref)
        assert problem is None, f"seed {seed}: {problem}"


def test_a_move_the_model_refuses_is_not_played(model_client: WorkerClient) -> None:
    """PICK_UP_PILE during the setup phase: the model's isValidMove says FALSE, the game stops there (C41)."""
    setup, moves = seeded_game(0)
    first = str(moves[0])
    report = run_game(model_client, setup, [first, "pickup", str(moves[1])])
    assert [f["t"] for f in report.frames] == ["obs", "moved", "obs", "refused"]
    assert report.frames[-1]["i"] == 1 and report.frames[2]["obs"]["current_turn"] == 1
    assert model_client.pong["threading"] is False  # the job keeps the fork server single-threaded


def test_a_card_the_mover_does_not_hold_stops_the_game(model_client: WorkerClient) -> None:
    setup, _moves = seeded_game(1)
    missing = next(format_key(key) for key in standard_deck() if key not in setup.hand_of(0))
    report = run_game(model_client, setup, [f"up:{missing},{missing},{missing}"])
    assert [f["t"] for f in report.frames] == ["obs", "no_card"]


class FakeResults:
    """The results area, in this process, for the job's own robustness tests (no sandbox needed: the
    libraries below are ours)."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.calls: list[tuple[int, int, int, int]] = []
        self.step = 0

    def send(self, frame: dict[str, Any]) -> None:
        self.frames.append(orjson.loads(orjson.dumps(frame)))

    def at(self, probe: int, call: int, a: int, b: int) -> None:
        self.calls.append((probe, call, a, b))


HOSTILE_C = r"""
#include <stdlib.h>
#include "Palace.h"
struct _card { int r; };
struct _game { int n; };
static struct _game only;
Card newCard(rank r, suit s) { return NULL; }
void destroyCard(Card c) { }
rank cardRank(Card c) { return TWO; }
suit cardSuit(Card c) { return HEARTS; }
Game newGame(int nPlayers, int nCards, rank ranks[], suit suits[], int rules) {
    return nPlayers == 2 ? &only : NULL;  /* NULL for every other game */
}
void destroyGame(Game g) { }
int numPlayers(Game g) { return 1000000000; }
int numCards(Game g) { return -5; }
int gameRules(Game g) { return 77; }
phase currentPhase(Game g) { return (phase)9; }
int currentPlayer(Game g) { return 2000000000; }
int currentTurn(Game g) { return -1; }
int handCardCount(Game g) { return 2000000000; }
Card handCard(Game g, int n) { return NULL; }
int playerCardCount(Game g, int p) { return 2000000000; }
int faceUpCount(Game g, int p) { return -2000000000; }
Card faceUpCard(Game g, int p, int n) { return NULL; }
int faceDownCount(Game g, int p) { return 2000000000; }
int drawPileSize(Game g) { return 2000000000; }
int discardPileSize(Game g) { return 2000000000; }
Card topDiscard(Game g) { return NULL; }
Card getDiscardPileCard(Game g, int n) { return NULL; }
int burntCount(Game g) { return 2000000000; }
Card getBurntCard(Game g, int n) { return NULL; }
int effectiveTopRank(Game g) { return 99; }
int sevenRestriction(Game g) { return 42; }
int isValidMove(Game g, playerMove m) { return 7; }
void playMove(Game g, playerMove m) { }
int gameWinner(Game g) { return -1; }
Card getHandCard(Game g, int p, int n) { return NULL; }
Card getFaceDownCard(Game g, int p, int n) { return NULL; }
"""  # getDeckCard left out: a missing function


def test_the_job_survives_a_hostile_library(tmp_path: Path) -> None:
    """A NULL game, NULL cards, absurd counts and a missing function: every read is capped by the deck
    size, the game goes on as far as it can and stops at a card it cannot find."""
    source = tmp_path / "Hostile.c"
    source.write_text(HOSTILE_C)
    library = tmp_path / "libhostile.so"
    subprocess.run(["gcc", "-std=gnu11", "-shared", "-fPIC", "-w", "-I", str(INCLUDE_DIR), "-o", str(library),
                    str(source)], check=True, capture_output=True, timeout=60)
    loaded = PalaceLibrary(library)
    assert loaded.missing == ["getDeckCard"] and loaded.has("getHandCard") and len(loaded.functions) == 31
    setup3, _ = seeded_game(next(s for s in range(GAMES) if seeded_game(s)[0].n_players == 3))
    results = FakeResults()
    palace_play.run({"lib": str(library), "setup": str(setup3), "moves": ["pickup"]}, results)
    assert results.frames == [{"t": "error", "what": "null_game", "detail": "newGame returned NULL"}]

    setup2, moves2 = seeded_game(next(s for s in range(GAMES) if seeded_game(s)[0].n_players == 2))
    results = FakeResults()
    palace_play.run({"lib": str(library), "setup": str(setup2), "moves": ["pickup", str(moves2[0])]}, results)
    assert [f["t"] for f in results.frames] == ["obs", "moved", "obs", "no_card"]
    obs = results.frames[0]["obs"]
    n = setup2.n_cards
    assert obs["seven_restriction"] is True and obs["current_player"] == 2000000000
    assert obs["hand"] == [NULL_CARD] * n and obs["hands"] == [[NULL_CARD] * n] * 2
    assert obs["face_up"] == [[], []] and obs["draw_pile"] == "missing"
    assert obs["out_of_range"]["getDeckCard"] == "missing" and obs["out_of_range"]["handCard"] == [True]
    assert obs["valid"]["pickup"] is True and obs["valid"]["blind:0"] is True
    assert len(results.calls) < 40 * n  # capped reads: nothing near 2,000,000,000
    assert all(-10 <= probe < 100 for probe, *_rest in results.calls)


def test_a_library_that_does_not_load_is_one_error_frame() -> None:
    results = FakeResults()
    palace_play.run({"lib": "/nonexistent/libgame.so", "setup": str(seeded_game(0)[0]), "moves": []}, results)
    assert [(f["t"], f["what"]) for f in results.frames] == [("error", "load")]
