"""The Palace replay: each seat's three zones, the pile, the draw pile and the burnt cards, step by step
as the reference plays the game (C2 deal, C5 choices, C20 bombs), and a packed round trip."""

from __future__ import annotations

from grader.core.replay import Replay
from grader.games.palace.replay import frames
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
