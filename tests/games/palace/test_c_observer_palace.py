"""The Palace C observer sends exactly what the Python job sends, packed, on every submission we have.

Each library is built by the core's build and played by the sandboxed worker twice per game: by the Python job
(``grader.games.palace.sandbox.play``: frames) and through the C observer (``grader.games.palace.c_observer``: one
packed frame).  The Python job's frames, packed (``observations.pack_frames``), must be the C observer's bytes: the same
observations, identity numbers, battery answers, asked answers and events -- or, when the library crashes, the
same crash.  The games: scenarios with the grader's questions (asks, index ranges, blind moves by card) and
random games of the grading profile (the battery, the counters read again).  The sweep over every mutant and
reading is ``slow``; the default run samples it.

The session's side: a game the C observer saw equal the reference's comes back as the reference's frames
(``GameRun.agreed``), and any other is the full Python run, unchanged.
"""

from __future__ import annotations

import base64
import subprocess
from functools import cache
from pathlib import Path
from typing import Any, Iterator

import pytest

from grader.core.build import BuildResult, build
from grader.core.isolation import library_path_inside
from grader.core.sandbox.limits import Limits
from grader.core.worker_client import WorkerClient
from grader.games import get
from grader.games.palace.c_observer import install, source
from grader.games.palace.random_games import random_game
from grader.games.palace.sandbox.interface import INCLUDE_DIR
from grader.games.palace.sandbox.observations import Unpackable, pack_frames
from grader.games.palace.sandbox.observer_call import BATTERY, DEAL_MAP, RECHECKING, request_words
from grader.games.palace.scenarios import load_scenarios
from grader.games.palace.session import (
    Asks,
    PalaceSession,
    _decoded,
    frame_budget,
    play,
    play_request,
    reference_frames,
)
from reference.palace import REFERENCE

ROOT = Path(__file__).resolve().parents[3]
SUBMISSIONS = ROOT / "fixtures" / "palace" / "submissions"
MODEL = SUBMISSIONS / "model"
MUTANTS = sorted(p for p in (SUBMISSIONS / "mutants").iterdir() if p.is_dir())
READINGS = sorted(p for p in (SUBMISSIONS / "readings").iterdir() if p.is_dir())
GAME = get("palace")
LIMITS = Limits(cpu=30, wall=60, memory_mb=512, output_kb=4096, nproc=256)
# Scenarios whose games ask every kind of question: index ranges, malformed moves and choices, cards of other
# zones, blind moves, a probe, two decks, the end of the game.
SCENARIO_IDS = ("getters_return_null_outside_their_range", "malformed_moves_are_refused_in_play",
                "back_to_the_hand_after_a_failed_card", "probe_c15_a_face_up_pair",
                "cards_outside_the_movers_zone_are_refused", "malformed_choices_are_refused_in_setup",
                "five_in_a_row_with_two_decks", "nothing_is_valid_after_the_end")


@cache
def scenario_requests() -> tuple[tuple[str, dict[str, object]], ...]:
    """Every scenario's game as the session asks for it (its questions at their steps, no battery)."""
    out = []
    for s in load_scenarios():
        asks = Asks()
        for e in (s.expects if s.probe is None
                  else [x for b in s.probe.blocks for x in (b.shared, *(b.for_reading(r) for r in s.probe.readings))]):
            asks.add_expect(e)
        out.append((s.id, play_request(s.setup, s.moves, asks=asks.request(), battery=False)))
    return tuple(out)


def sample_scenarios() -> list[tuple[str, dict[str, object]]]:
    every = dict(scenario_requests())
    chosen = [(sid, every[sid]) for sid in SCENARIO_IDS if sid in every]
    assert len(chosen) >= 5, sorted(every)[:20]  # the sample must keep asking every kind of question
    return chosen


def random_request(index: int, moves: int | None = None) -> tuple[str, dict[str, object]]:
    """Random game ``index`` of the grading profile, as the stage asks for it (its first ``moves`` only)."""
    g = random_game(index, (REFERENCE,))
    cut = len(g.moves) if moves is None else moves
    return f"random/{index}", play_request(g.setup, g.moves[:cut], blind_cards=[b for b in g.blind_cards if b[0] < cut],
                                           recheck=True)


@pytest.fixture(scope="module")
def built() -> Iterator[dict[Path, BuildResult]]:
    results: dict[Path, BuildResult] = {}
    yield results
    for r in results.values():
        r.cleanup()


def _client(folder: Path, built: dict[Path, BuildResult]) -> tuple[WorkerClient, str]:
    result = built.get(folder) or build(folder, GAME)
    built[folder] = result
    assert result.ok and result.library is not None and not result.missing, result.output
    observer = library_path_inside(install(result.library.parent))
    return WorkerClient(result.library, GAME.sandbox_job, GAME.sandbox_packages), observer


def _trouble(report: Any) -> tuple[object, ...]:
    """How a run went wrong (a NULL game is a frame of the game, packed like any other)."""
    return report.signal, report.enforced, report.error.what if report.error and report.error.what != "null_game" \
        else None


# Mutants whose reads are undefined behaviour: what they show differs from run to run with what else was allocated
# (so the two paths can only be held to this: neither is ever taken for the reference's, and the full run judges).
UNDEFINED = {"use_after_free": "getBurntCard returns freed cards"}


def mismatches(folder: Path, requests: list[tuple[str, dict[str, object]]],
               built: dict[Path, BuildResult]) -> list[str]:
    """The games where the C observer's packed frames are not the Python job's, packed (with a word of why)."""
    undefined = folder.name in UNDEFINED
    client, observer = _client(folder, built)
    bad: list[str] = []
    with client:
        for name, request in requests:
            python = client.run(request, LIMITS, frame_budget(request))
            native = client.run({**request, "observer": observer}, LIMITS, frame_budget(request))
            if _trouble(python) != (None, None, None) or _trouble(native) != (None, None, None):
                if _trouble(python) != _trouble(native) or [f for f in native.frames if f["t"] == "packed"]:
                    bad.append(f"{name}: python {_trouble(python)}, C {_trouble(native)}")
                continue
            (frame,) = native.frames
            n_players = int(str(request["setup"]).split("p")[0])
            want = pack_frames(python.frames, n_players, bool(request["battery"]))
            got = _decoded(frame.get("data"))
            if undefined and got != want:
                reference = pack_frames(reference_frames(request, REFERENCE), n_players, bool(request["battery"]))
                if reference in (got, want):
                    bad.append(f"{name}: one path saw the reference's frames, the other did not")
                continue
            if frame.get("outcome") != "finished" or got != want:
                got = got or b""
                at = next((k // 4 for k in range(0, min(len(want), len(got)), 4) if want[k:k + 4] != got[k:k + 4]),
                          None)
                bad.append(f"{name}: {frame.get('outcome')}, {len(want)} vs {len(got)} bytes, first word {at}")
    return bad


def test_the_source_is_written_from_the_table() -> None:
    """Every placeholder filled, one read per row of the table, and the entry point the worker loads."""
    text = source()
    assert "palace_play_packed" in text and "@" not in text
    assert text.count("= read_card(p_getHandCard(g, s, i))") == 1  # hands: one read per card, in the zones' loop
    assert "(uint32_t)p_currentPhase(g)" in text and "(p_sevenRestriction(g) != 0)" in text


def test_the_model_is_observed_alike_on_both_paths(built: dict[Path, BuildResult]) -> None:
    assert mismatches(MODEL, [*sample_scenarios(), random_request(0), random_request(1, 120)], built) == []


SAMPLE = [SUBMISSIONS / "mutants" / name for name in ("use_after_free", "hand_card_copies", "getter_off_by_one",
                                                       "invalid_check_moves_cards")] + \
         [SUBMISSIONS / "readings" / name for name in ("c37_other_orders", "c40_junk_rejected")]


@pytest.mark.parametrize("folder", SAMPLE, ids=lambda p: p.name)
def test_a_sample_of_mutants_and_readings_is_observed_alike(folder: Path, built: dict[Path, BuildResult]) -> None:
    assert mismatches(folder, [*sample_scenarios()[:5], random_request(2, 80)], built) == []


@pytest.mark.slow
@pytest.mark.parametrize("folder", [MODEL, *MUTANTS, *READINGS], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_submission_is_observed_alike(folder: Path, built: dict[Path, BuildResult]) -> None:
    """Every scenario's game and three random games, on every mutant and reading."""
    requests = [*scenario_requests(), *(random_request(i) for i in range(3))]
    assert mismatches(folder, list(requests), built) == []


HOSTILE_C = r"""
#include <stdlib.h>
#include "Palace.h"
struct _card { int r; };
struct _game { int n; };
static struct _game only;
static struct _card cards[4];
Card newCard(rank r, suit s) { return NULL; }
void destroyCard(Card c) { }
rank cardRank(Card c) { return c == &cards[0] ? (rank)-1 : (rank)(2 + (c - cards)); }
suit cardSuit(Card c) { return (suit)(c - cards); }
Game newGame(int nPlayers, int nCards, rank ranks[], suit suits[], int rules) { return nPlayers == 2 ? &only : NULL; }
void destroyGame(Game g) { }
int numPlayers(Game g) { return 1000000000; }
int numCards(Game g) { return -5; }
int gameRules(Game g) { return 77; }
phase currentPhase(Game g) { return (phase)9; }
int currentPlayer(Game g) { return only.n++ % 3 == 0 ? 1 : 2000000000; }
int currentTurn(Game g) { return -1; }
int handCardCount(Game g) { return 2000000000; }
Card handCard(Game g, int n) { return n % 5 == 4 ? NULL : &cards[n % 4]; }
int playerCardCount(Game g, int p) { return 7; }
int faceUpCount(Game g, int p) { return -2000000000; }
Card faceUpCard(Game g, int p, int n) { return NULL; }
int faceDownCount(Game g, int p) { return 2000000000; }
int drawPileSize(Game g) { return 2000000000; }
int discardPileSize(Game g) { return 3; }
Card topDiscard(Game g) { return &cards[3]; }
Card getDiscardPileCard(Game g, int n) { return n >= 0 && n < 3 ? &cards[n] : NULL; }
int burntCount(Game g) { return 2000000000; }
Card getBurntCard(Game g, int n) { return NULL; }
int effectiveTopRank(Game g) { return 99; }
int sevenRestriction(Game g) { return 42; }
int isValidMove(Game g, playerMove m) { return m.numCards == 1 ? 7 : 0; }
void playMove(Game g, playerMove m) { }
int gameWinner(Game g) { return -1; }
Card getHandCard(Game g, int p, int n) { return &cards[(n + p) % 4]; }
Card getFaceDownCard(Game g, int p, int n) { return n < 3 ? &cards[n] : NULL; }
Card getDeckCard(Game g, int n) { return NULL; }
"""


def test_a_hostile_library_is_observed_alike(tmp_path: Path) -> None:
    """Absurd counts (capped by the deck), a current seat out of range half the time, garbage ranks read as cffi
    reads an enum (unsigned), twins of one pointer, NULLs: the two paths still see the same."""
    folder = tmp_path / "hostile"
    folder.mkdir()
    (folder / "Palace.c").write_text(HOSTILE_C)
    subprocess.run(["gcc", "-std=gnu11", "-fsyntax-only", "-w", "-I", str(INCLUDE_DIR), str(folder / "Palace.c")],
                   check=True, capture_output=True, timeout=60)
    two = next(r for name, r in scenario_requests() if str(r["setup"]).startswith("2p"))
    three = next(i for i in range(20) if random_game(i, (REFERENCE,)).setup.n_players > 2)
    requests = [("asked", {**two, "moves": two["moves"][:3]}),  # type: ignore[index]
                ("battery", {**two, "battery": True, "recheck": True}),
                ("null game", {**random_request(three)[1], "moves": []})]
    built: dict[Path, BuildResult] = {}
    try:
        assert mismatches(folder, requests, built) == []
    finally:
        for r in built.values():
            r.cleanup()


# ---- the session's side ----------------------------------------------------------------------------------------
def test_the_session_accepts_a_game_equal_to_the_reference() -> None:
    """The model's random game comes back agreed, holding exactly the frames a full run sends; a mutant's that
    differs is the full run itself."""
    g = random_game(0, (REFERENCE,))
    moves, blind = g.moves[:120], [b for b in g.blind_cards if b[0] < 120]
    with PalaceSession.open(MODEL) as session:
        assert session.observer
        fast = session.play(g.setup, moves, blind_cards=blind, recheck=True)
        assert fast.agreed == REFERENCE and fast.over and fast.stop() is None
        assert [f["t"] for f in fast.report.frames] == ["packed"]
        assert session.client is not None
        full = play(session.client, g.setup, moves, limits=session.limits, blind_cards=blind, recheck=True)
        assert full.agreed is None
        assert fast.steps == full.steps and fast.events == full.events and fast.rechecked == full.rechecked == {}
        assert len(fast.steps) == 121
    with PalaceSession.open(SUBMISSIONS / "mutants" / "strict_greater") as session:
        run = session.play(g.setup, moves, blind_cards=blind, recheck=True)
        assert run.agreed is None and any(f["t"] == "obs" for f in run.report.frames)


def test_the_reference_frames_are_the_random_games_steps() -> None:
    """What an agreed run holds (the reference's frames, by the job's own code) is what the random games stage
    computes of the reference: so a game agreed under its first readings agrees at every step."""
    g = random_game(1, (REFERENCE,))
    frames = reference_frames(play_request(g.setup, g.moves, blind_cards=g.blind_cards, recheck=True), REFERENCE)
    assert [f["obs"] for f in frames if f["t"] == "obs"] == [s.obs for s in g.steps]
    assert [f["t"] for f in frames[-2:]] == ["obs", "done"] and not any(f["t"] == "recheck" for f in frames)


def test_the_packed_form_refuses_what_the_c_observer_never_writes() -> None:
    """A missing function's value or an unknown frame has no packed words (the session then plays the full run);
    a blob that is not base64 text is no answer."""
    _name, request = random_request(0)
    frames = reference_frames({**request, "moves": request["moves"][:1]}, REFERENCE)  # type: ignore[index]
    n = int(str(request["setup"])[0])
    assert pack_frames(frames, n, True)
    broken = [{**frames[0], "obs": {**frames[0]["obs"], "draw_pile": "missing"}}]  # type: ignore[dict-item]
    for bad in (broken, [{"t": "error", "what": "load"}], [{"t": "obs", "i": True, "obs": {}}]):
        with pytest.raises(Unpackable):
            pack_frames(bad, n, True)
    assert _decoded("not base64!") is None and _decoded(123) is None
    assert _decoded(base64.b64encode(b"ok").decode()) == b"ok"
    assert request_words(request)[:4] == [n, len(random_game(0, (REFERENCE,)).setup.ranks),
                                          random_game(0, (REFERENCE,)).setup.rules, BATTERY | RECHECKING | DEAL_MAP]
