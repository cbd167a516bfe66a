"""``fcd-play --web`` sends the page only what the person's seat may see: during a game, the JSON of
``/api/state`` holds the other seats' hand sizes but not their cards (nor the draw pile's, nor, in Palace,
any face-down card), for every game with players; once the game is over it holds every card.  What is hidden
is written here by hand for each game, apart from the games' ``Privacy`` tables, and checked against the
reference's own frames of the same game."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from grader.core.arena.players import BotPlayer
from grader.core.arena.web import WebGame
from grader.games import get

# game -> (opponents, the frame rows the person at seat 0 may not see in play, the piles no one sees)
HIDDEN = {
    "fcd18s2": (("greedy", "cautious", "random"), {1, 2, 3}, {0}),  # the others' hands; the draw pile
    # each seat: hand, face up, face down; the others' hands and every face-down row; the draw pile
    "palace": (("greedy", "random", "greedy"), {3, 6, 9, 2, 5, 8, 11}, {1}),
}


def _game(name: str) -> WebGame:
    spec = get(name)
    arena = spec.arena_game()
    opponents, _, _ = HIDDEN[name]
    return WebGame(spec, [BotPlayer(f"{n}{i}", arena.bots[n], i) for i, n in enumerate(opponents)])


def _truth(game: WebGame) -> list[Any]:
    """The reference's frames of the game so far, every card in them."""
    return list(game.spec.replay_frames(game.deck_text, " ".join(game.moves)))


def _tokens(data: object) -> set[str]:
    """Every word of every string in ``data`` (a card name stands alone, or inside a move: ``up:4C@0,AC@4``)."""
    return set(re.findall(r"[A-Za-z0-9]+", json.dumps(data)))


def _my_move(game: WebGame, rng: random.Random) -> str:
    """The person's move: the greedy baseline's choice."""
    arena = game.arena
    return arena.bots["greedy"](game.state, arena.legal(game.state), rng)


def _secret(name: str, truth: list[Any]) -> set[str]:
    """The cards the person's seat never sees in ``truth``: in hidden rows and piles, and never shown elsewhere
    (a card played later is seen then; a deck may hold two of the same card)."""
    _, rows, piles = HIDDEN[name]
    hidden, seen = set(), set()
    for frame in truth:
        for i, seat in enumerate(frame.seats):
            (hidden if i in rows else seen).update(seat.cards)
        for i, pile in enumerate(frame.piles):
            (hidden if i in piles else seen).update(pile.cards)
        seen.update(_tokens(frame.move))
    return hidden - seen


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_mid_game_the_json_holds_only_what_seat_0_may_see(name: str) -> None:
    game, rng = _game(name), random.Random(1)
    while len(game.moves) < 12:  # a few turns in: every seat has moved
        assert game.play(_my_move(game, rng)) == ""
    view = game.view()
    assert not view["finished"]
    truth = _truth(game)
    _, rows, piles = HIDDEN[name]
    assert len(view["frames"]) == len(truth) > 12
    for sent, real in zip(view["frames"], truth):
        assert "valid" not in sent  # the others' valid moves name their cards
        for i, (row, seat) in enumerate(zip(sent["seats"], real.seats)):
            assert row["count"] == len(seat.cards)
            assert (row["cards"], row["hidden"]) == (([], True) if i in rows else (list(seat.cards), False)), i
        for i, (pile, real_pile) in enumerate(zip(sent["piles"], real.piles)):
            assert pile["size"] == real_pile.size
            assert (pile["cards"], pile["hidden"]) == (([], True) if i in piles else (list(real_pile.cards), False))
    secret = _secret(name, truth)
    assert secret, "the others hold cards seat 0 has not seen"
    assert not secret & _tokens(view), "a card seat 0 may not see was sent"
    labels = [row["label"] for row in view["frames"][-1]["seats"]]
    assert labels[0].startswith("you") and all(label.split(":")[0] in view["names"] for label in labels)


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_once_the_game_is_over_every_card_is_sent(name: str) -> None:
    game, rng = _game(name), random.Random(2)
    while not game.view()["finished"]:
        assert len(game.moves) < 3000, "the game should have ended"
        assert game.play(_my_move(game, rng)) == ""
    view = game.view()
    truth = _truth(game)
    for sent, real in zip(view["frames"], truth):
        assert [row["cards"] for row in sent["seats"]] == [list(s.cards) for s in real.seats]
        assert [pile["cards"] for pile in sent["piles"]] == [list(p.cards) for p in real.piles]
        assert not any(row["hidden"] for row in sent["seats"])
    assert any(real.cards for real in truth[-1].seats[1:]), "someone still holds cards at the end"
