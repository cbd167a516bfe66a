"""The 2017 move notation: the 2018 tokens plus ``uno``, ``duo``, ``trio``; exact round trips."""

from __future__ import annotations

import pytest
from decks17 import game, move
from hypothesis import given
from hypothesis import strategies as st

from reference.cards import NotationError
from reference.fcd17s2 import Action, Color, MoveSpec, format_moves, parse_moves

CARD = st.tuples(st.integers(0, 15), st.integers(0, 4), st.integers(0, 4))


def card_token(key: tuple[int, int, int], colour: int) -> str:
    text = "0123456789ABCDEF"[key[0]] + "RBGYP"[key[1]] + "HDCSQ"[key[2]]
    return text + ("/" + "RBGYP"[colour] if key[0] == 13 else "")


TOKENS = st.sampled_from(["draw", "end", "uno", "duo", "trio"]) | st.builds(card_token, CARD, st.integers(0, 4))


@given(TOKENS)
def test_notation_round_trip_of_every_move(text: str) -> None:
    """str(MoveSpec.parse(t)) == t for every card (a DECLARE with each colour) and every word."""
    assert str(MoveSpec.parse(text)) == text


@given(st.lists(TOKENS, max_size=30))
def test_notation_round_trip_of_move_lists(texts: list[str]) -> None:
    line = " ".join(texts)
    assert format_moves(parse_moves(line)) == line
    assert parse_moves(format_moves(parse_moves(line))) == parse_moves(line)


def test_notation_words_and_actions() -> None:
    """Each word is its action; words are read in any case and written in lower case."""
    assert [MoveSpec.parse(w).action for w in ("draw", "5RH", "uno", "DUO", "Trio", "end")] == [
        Action.DRAW_CARD, Action.PLAY_CARD, Action.SAY_UNO, Action.SAY_DUO, Action.SAY_TRIO, Action.END_TURN]
    assert str(MoveSpec.parse("DUO")) == "duo"
    assert MoveSpec.parse("DRQ/g") == MoveSpec(Action.PLAY_CARD, (13, 0, 4), Color.GREEN)


@pytest.mark.parametrize("bad", ["DRQ", "5RH/G", "DRQ/X", "say", "GRH", "5R"])
def test_notation_refuses_what_it_cannot_read(bad: str) -> None:
    """A DECLARE needs a colour, only a DECLARE declares one, and unknown words or cards are refused."""
    with pytest.raises(NotationError):
        MoveSpec.parse(bad)


def test_notation_describe_in_plain_words() -> None:
    assert [MoveSpec.parse(t).describe() for t in ("trio", "DRH/B", "draw")] == [
        "says TRIO", "plays D red hearts declaring blue", "draws a card"]


def test_notation_a_resolved_move_writes_back_as_written() -> None:
    """resolve() finds the card in the current hand; PlayerMove.spec() and str() give the token back."""
    g = game("DRH 5RH", top="5RD")
    for token in ("DRH/Y", "5RH", "uno", "end", "draw"):
        m = move(g, token)
        assert str(m) == token and str(m.spec()) == token
