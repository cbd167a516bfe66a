"""The Palace replay: each seat's three zones, the pile, the draw pile and the burnt cards, step by step
as the reference plays the game (C2 deal, C5 choices, C20 bombs), and a packed round trip; and a scenario whose
game the library stopped in (a hang, a crash: libraries built here from the C model) opens at the step of the
game the call in progress was made on, that call named."""

from __future__ import annotations

from pathlib import Path

from broken import edited

from grader.core.replay import Replay, replay_address
from grader.core.results import Verdict
from grader.games import get
from grader.games.palace.replay import frames
from grader.games.palace.scenarios import Scenario
from grader.games.palace.session import PalaceSession
from reference.palace import Setup, parse_cards, parse_moves
from reference.palace.cards import parse_key

# 2 players, the base game: the hands, face-down rows, starting card and draw pile as written (C2 lays the
# deck out so that the deal gives them).
SETUP = Setup.dealt(2, 0, hands=[parse_cards("5H 7H 9H JH KH 2H"), parse_cards("6D 8D TD QD AD 3D")],
                    face_down=[parse_cards("4C 5C 6C"), parse_cards("4S 5S 6S")], start=parse_key("3C"),
                    draw=parse_cards("8C 8S"))


def test_the_deal_the_choices_and_a_ten_bomb_step_by_step() -> None:
    moves = parse_moves("up:JH,KH,2H up:QD,AD,3D 5H TD")
    shown = frames(SETUP, moves)
    assert [f.step for f in shown] == [0, 1, 2, 3, 4]
    dealt = shown[0]
    assert [s.name for s in dealt.seats[:3]] == ["player 0: hand", "player 0: face up",
                                                 "player 0: face down (hidden in play)"]
    assert sorted(dealt.seats[0].cards) == sorted(["5H", "7H", "9H", "JH", "KH", "2H"])
    assert dealt.seats[2].cards == ("4C", "5C", "6C")  # C2: face-down positions as dealt
    assert dealt.piles[0].cards == ("3C",) and dealt.piles[1].cards == ("8C", "8S")
    assert dict(dealt.facts)["phase"] == "SETUP_PHASE" and dealt.seats[0].current
    chosen = shown[2]
    assert sorted(chosen.seats[1].cards) == ["2H", "JH", "KH"] and dict(chosen.facts)["phase"] == "PLAY_PHASE"
    played = shown[3]  # seat 0 plays 5H on 3C and draws 8C (C9 a)
    assert played.move == "5H" and played.piles[0].cards == ("5H", "3C") and "8C" in played.seats[0].cards
    bombed = shown[4]  # seat 1's ten burns the pile and seat 1 plays again (C22, C23)
    assert bombed.piles[0].size == 0 and sorted(bombed.piles[2].cards) == ["3C", "5H", "TD"]
    assert dict(bombed.facts)["player"] == "1" and bombed.seats[3].current
    assert dict(bombed.facts)["rank to beat"].startswith("none")


def test_a_palace_replay_packs_and_unpacks_exactly() -> None:
    replay = Replay("Palace", frames(SETUP, parse_moves("up:JH,KH,2H up:QD,AD,3D 5H TD")))
    assert Replay.from_json(replay.to_json()) == replay


# ---- a game the library stopped in opens at the call in progress (grader.core.replay.call_in_progress) ----------
PALACE_MODEL = Path(__file__).resolve().parents[3] / "fixtures" / "palace" / "submissions" / "model"
LIMITS = {"cpu": 1, "wall": 2.0}


def _scenario() -> Scenario:
    """A scenario of plain expectations whose game makes at least four moves."""
    return next(s for s in get("palace").load_scenarios() if s.probe is None and len(s.moves) >= 4)


def _edited(dest: Path, edits: list[tuple[str, str]]) -> Path:
    """The C model copied to ``dest`` with C inserted after each of these exact lines of its Palace.c."""
    return edited(PALACE_MODEL, dest, edits, "Palace.c")


def test_a_hang_in_the_third_play_move_opens_the_replay_before_move_3(tmp_path: Path) -> None:
    """A library that loops in its third playMove: move 3 is made on the game after 2 moves, so the row is at
    step 2 (where move 3 is one of the valid moves shown), naming playMove of move 3; the verdict is the hang's."""
    s = _scenario()
    loop = "    static int calls; if (++calls == 3) { for (volatile unsigned i = 0; ; i++) {} }\n"
    folder = _edited(tmp_path / "hang", [("void playMove(Game game, playerMove move) {\n", loop)])
    with PalaceSession.open(folder, limits=LIMITS) as session:
        hung = session.run_scenario(s)
    assert hung.verdict is Verdict.TIMED_OUT and hung.earns_marks == 0.0
    assert hung.difference is not None
    assert (hung.difference["step"], hung.difference["what"]) == (2, f"playMove ({s.moves[2]}) at move 3")
    assert str(hung.difference["got"]).startswith("did not return")
    shown = frames(s.setup, s.moves)
    assert shown[3].move in shown[2].valid
    assert replay_address(hung) == f"{hung.id}/step-2"


def test_a_crash_while_the_game_after_move_2_is_read_opens_at_step_2(tmp_path: Path) -> None:
    """A library that crashes in currentTurn() once two moves were made: the grader was reading the game after
    move 2, so the row is at step 2 -- not at the last step the library's game was seen at (1), where the row
    of a crash used to be -- and names currentTurn()."""
    s = _scenario()
    folder = _edited(tmp_path / "crash", [
        ('#include "Palace.h"\n', "static int fcdMoves;\n"),
        ("void playMove(Game game, playerMove move) {\n", "    fcdMoves++;\n"),
        ("int currentTurn(Game game) {\n", "    if (fcdMoves >= 2) { volatile int *p = 0; *p = 1; }\n")])
    with PalaceSession.open(folder, limits=LIMITS) as session:
        crashed = session.run_scenario(s)
    assert crashed.verdict is Verdict.CRASHED and crashed.failed_after == 1
    assert crashed.difference == {"step": 2, "what": "currentTurn()", "expected": "to return",
                                  "got": "crashed (segmentation fault)"}
