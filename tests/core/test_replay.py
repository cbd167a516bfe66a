"""Replay frames (``grader.core.replay``): what each edition's replay shows is the reference's game, and
the JSON a report embeds round-trips and can never end its script element."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from grader.core.replay import MAX_FRAMES, Difference, Frame, Pile, Replay, Seat, embed_json, replays_of
from grader.core.results import TestResult as Result  # (a Test* name would be collected)
from grader.core.results import Verdict
from grader.games import get
from grader.games.fcd.reference_trace import reference_trace
from grader.games.fcd.sandbox.observe import card_label
from grader.games.fcd17s2.edition import FCD17
from grader.games.fcd17s2.scenarios import load_scenarios as load17
from grader.games.fcd18s2.edition import FCD18
from grader.games.fcd18s2.scenarios import load_scenarios as load18

SCENARIOS18 = load18()
SCENARIOS17 = load17()


def _labels(cards: list[list[int]]) -> list[str]:
    return [card_label(c) for c in cards]


@pytest.mark.parametrize("scenario", SCENARIOS18[::7], ids=lambda s: s.id)
def test_each_2018_frame_shows_the_hands_piles_and_counters_the_api_shows(scenario) -> None:  # noqa: ANN001
    """Read against the observer's view of the same reference game: every hand, the draw pile's next cards and
    the discard pile's top ones, whose turn it is, and the moves valid there (a valid move is one the
    observation's isValidMove battery says TRUE for)."""
    frames = get("fcd18s2").replay_frames(str(scenario.deck), " ".join(str(m) for m in scenario.moves))
    trace = reference_trace(scenario.deck, scenario.moves, full_piles=True, edition=FCD18)
    assert [f.step for f in frames] == list(range(len(scenario.moves) + 1))
    assert [f.move for f in frames] == [""] + [str(m) for m in scenario.moves]
    for frame, step in zip(frames, trace):
        obs = step.obs
        assert [list(s.cards) for s in frame.seats] == [_labels(h) for h in obs["hands"]]
        assert [s.current for s in frame.seats] == [p == obs["current_player"] for p in range(4)]
        draw, discard = frame.piles
        assert list(draw.cards) == _labels(obs["deck_pile"])[:len(draw.cards)] and draw.size == len(obs["deck_pile"])
        assert list(discard.cards) == _labels(obs["discard_pile"])[:len(discard.cards)]
        facts = dict(frame.facts)
        assert (facts["turn"], facts["player"], facts["active 2s"]) == \
            (str(obs["current_turn"]), str(obs["current_player"]), str(obs["active_draw_twos"]))
        plays = {label for label, ok in obs["valid_play"].items() if ok}
        assert {m for m in frame.valid if m not in ("draw", "end")} <= plays
        assert ("draw" in frame.valid) == obs["valid_draw"] and ("end" in frame.valid) == obs["valid_end"]


@pytest.mark.parametrize("scenario", SCENARIOS17[::6], ids=lambda s: s.id)
def test_each_2017_frame_shows_the_current_hand_the_counts_and_the_direction(scenario) -> None:  # noqa: ANN001
    frames = get("fcd17s2").replay_frames(str(scenario.deck), " ".join(str(m) for m in scenario.moves))
    trace = reference_trace(scenario.deck, scenario.moves, edition=FCD17)
    assert len(frames) == len(scenario.moves) + 1
    for frame, step in zip(frames, trace):
        obs = step.obs
        current = next(s for s in frame.seats if s.current)
        assert current.name == f"player {obs['current_player']}"
        assert sorted(current.cards) == sorted(_labels(obs["hand"]))
        assert [len(s.cards) for s in frame.seats] == obs["card_counts"]
        facts = dict(frame.facts)
        assert facts["direction"] == ("clockwise", "anticlockwise")[obs["play_direction"]]
        assert facts["moves this turn"] == (" ".join(obs["past_moves"][1]) or "none")
        says = {w for w, ok in obs["valid_say"].items() if ok}
        assert {m for m in frame.valid if m in ("uno", "duo", "trio")} == says


HOSTILE = "</script><script>window.pwned = 1</script><!-- \u2028 & \"quotes\""


def test_a_replay_round_trips_through_json_and_its_embedding_cannot_end_a_script_element() -> None:
    frame = Frame(1, HOSTILE, (Seat("player 0", ("5RH", HOSTILE), True),), (Pile("draw pile", (), 0),),
                  (("turn", HOSTILE),), ("draw", "end"))
    replay = Replay("Final Card-Down (2018)", (frame,), (Difference(1, "currentPlayer()", "2", HOSTILE),))
    assert Replay.from_json(json.loads(json.dumps(replay.to_json()))) == replay
    embedded = embed_json(replay)
    assert not any(c in embedded for c in "<>&\u2028")
    assert Replay.from_json(json.loads(embedded)) == replay
    assert replay.first_difference == 1 and Replay("x", (frame,)).first_difference is None


def test_the_packed_form_writes_each_string_once_and_an_unchanged_part_as_null() -> None:
    """A 2018 scenario played on the reference: after a draw only the drawer's hand and the draw pile change,
    so the other three hands (and the valid moves when they are the same) are written as null, every card
    name appears once in ``strings``, and the whole game reads back frame for frame."""
    scenario = next(s for s in SCENARIOS18 if any(str(m) == "draw" for m in s.moves))
    frames = get("fcd18s2").replay_frames(str(scenario.deck), " ".join(str(m) for m in scenario.moves))
    replay = Replay("Final Card-Down (2018)", frames)
    packed = replay.to_json()
    assert packed["format"] == "replay/1"
    assert len(packed["strings"]) == len(set(packed["strings"]))
    assert all(part is not None for part in packed["frames"][0][3])  # as dealt: every hand written
    k = next(i for i, m in enumerate(scenario.moves, 1) if str(m) == "draw")
    drawer = next(i for i, s in enumerate(frames[k - 1].seats) if s.current)
    seats = packed["frames"][k][3]
    assert [i for i, s in enumerate(seats) if s is not None] == [drawer]
    assert Replay.from_json(json.loads(json.dumps(packed))) == replay


def test_a_replay_of_another_format_is_refused() -> None:
    with pytest.raises(ValueError, match="replay/1"):
        Replay.from_json({"format": "replay/0", "title": "", "strings": [], "frames": []})


def test_a_very_long_game_keeps_the_steps_that_lead_to_its_difference() -> None:
    """A replay holds at most MAX_FRAMES steps: those that end at the difference, so the viewer can open there."""
    def frames_of(deck: str, moves: str) -> list[Frame]:
        return [Frame(k, "draw" if k else "", (), (), (), ()) for k in range(len(moves.split()) + 1)]

    def result(step: int) -> SimpleNamespace:
        test = Result("random/hands", "random", (), 1.0, Verdict.WRONG, deck="5RH", moves=" ".join(["draw"] * 3000),
                          difference={"step": step, "what": "handCardCount()", "expected": "1", "got": "2"})
        return SimpleNamespace(tests=[test])

    late = replays_of(result(2700), frames_of, "t")["random/hands"]
    assert len(late.frames) == MAX_FRAMES and (late.frames[0].step, late.frames[-1].step) == (701, 2700)
    early = replays_of(result(12), frames_of, "t")["random/hands"]
    assert (early.frames[0].step, early.frames[-1].step) == (0, MAX_FRAMES - 1)
