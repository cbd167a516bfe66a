"""Palace's messages in Palace's words: enums by their Palace.h names, every move with the seat that made it,
values of each seat as "seat 0: ...", never a Python repr; and the report says once how to read the notation.

Graded for real on mutants (fixtures/palace/submissions/mutants): one whose failures are an enum (the phase,
a rank), one whose random game fails after a long list of moves; the seats of a random game played under other
readings of the LENIENT switches than the reference's; the words of every kind of value; the notation's
examples, read back by the reference's own parsers.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from grader.core import results
from grader.core.grade import grade
from grader.core.report.gradescope import gradescope_json
from grader.core.report.html import render_html
from grader.core.results import SubmissionResult
from grader.games import get
from grader.games.palace.compare import moves_text, value_words
from grader.games.palace.stages import random_game
from reference.palace import REFERENCE, CardRef, Game, parse_cards, parse_moves
from reference.palace.cards import parse_rules

SUBMISSIONS = Path(__file__).resolve().parents[3] / "fixtures" / "palace" / "submissions"
MUTANTS = SUBMISSIONS / "mutants"
GAME = get("palace")
MOVE_LINE = re.compile(r"^\s+(\d+)\. (.*?): (\S+)$", re.M)  # "    12. seat 1: 5H" in a list of moves
REPRS = re.compile(r"[{}]|\bTrue\b|\bFalse\b|\bNone\b|\[\d+, |\(\d+, \d+|\['|'\w+':")  # what repr() would write


def graded(name: str, random_games: int = 0) -> SubmissionResult:
    return grade(MUTANTS / name, game=GAME, random_games=random_games, memory=False, own_tests=False)


def messages(result: SubmissionResult) -> list[str]:
    return [t.message for t in result.tests if t.message]


def assert_in_palace_words(text: str) -> None:
    """No Python repr, no seat left as "?", no enum as a bare number."""
    assert not REPRS.search(text), text
    assert all(who.startswith("seat ") or who == "after the end" for _, who, _ in MOVE_LINE.findall(text)), text
    assert not re.search(r"(currentPhase|effectiveTopRank)\(\): expected -?\d+, got", text), text


@pytest.fixture(scope="module")
def setup_never_ends() -> SubmissionResult:
    return graded("setup_never_ends")


def test_a_phase_failure_names_the_phases(setup_never_ends: SubmissionResult) -> None:
    said = "\n".join(messages(setup_never_ends))
    assert "currentPhase(): expected PLAY_PHASE (1), got SETUP_PHASE (0)" in said
    for message in messages(setup_never_ends):
        assert_in_palace_words(message)


def test_a_rank_failure_names_the_ranks() -> None:
    said = messages(graded("mirror_not_copied"))
    assert any(re.search(r"effectiveTopRank\(\): expected (ACE|EIGHT|NINE|SEVEN|TWO) \(\d+\), got THREE \(3\)", m)
               for m in said), said
    for message in said:
        assert_in_palace_words(message)


def random_failure(result: SubmissionResult) -> results.TestResult:
    """The test of the rule family the random games charged (``random/<family>``)."""
    return next(t for t in result.tests if t.kind == "random" and t.verdict.family == "fail")


def test_a_long_random_game_names_the_seat_of_every_move(tmp_path: Path) -> None:
    """The model refusing sets of more than four cards, a bug only random games see (held to C21 = counts): its
    random game differs after 59 moves; the message lists the last 40, each with its seat."""
    folder = tmp_path / "sets_of_five"
    shutil.copytree(SUBMISSIONS / "model", folder)
    source = (folder / "Palace.c").read_text()
    assert source.count("move->numCards > MAX_SET") == 1
    (folder / "Palace.c").write_text(source.replace("move->numCards > MAX_SET", "move->numCards > 4"))
    result = grade(folder, game=GAME, random_games=3, memory=False, own_tests=False)
    random = random_failure(result)
    assert random.id == "random/beating" and "C21 = counts" in random.message
    assert "earlier moves)" in random.message
    listed = MOVE_LINE.findall(random.message)
    assert len(listed) == 40 and all(re.fullmatch(r"seat \d", who) for _, who, _ in listed), random.message
    for message in messages(result):
        assert_in_palace_words(message)


def test_a_random_games_enum_is_named() -> None:
    """mirror_without_flag: its random game has a three copy the card below it without the option; the rank
    is said by name."""
    result = graded("mirror_without_flag", random_games=6)
    random = random_failure(result)
    assert "effectiveTopRank(): expected THREE (3), got TWO (2)." in random.message, random.message
    assert_in_palace_words(random.message)


def test_the_moves_of_a_game_under_other_readings_name_their_seats() -> None:
    """A random game played under C9 = refill: its moves are credited to the seats that made them under that
    reading, not lost ("?") where the reference's own reading could not make them."""
    readings = REFERENCE.with_(C9="refill")
    game = random_game(0, (readings,))
    text = moves_text(game.setup, game.moves, len(game.moves))
    reference = Game(game.setup, readings)
    seats = []
    for spec in game.moves:
        seats.append(reference.current_player())
        reference.play_move(reference.resolve(spec))
    listed = MOVE_LINE.findall(text)
    assert len(listed) == 40 and "?" not in text
    assert [who for _, who, _ in listed] == [f"seat {s}" for s in seats[-40:]]
    assert moves_text(game.setup, game.moves, len(game.moves), readings) == text


def test_every_kind_of_value_is_said_in_palace_words() -> None:
    """What the random games show too: the observer's raw values (cards as [rank, suit, ident])."""
    assert value_words("phase", 2) == "GAME_OVER (2)"
    assert value_words("effective_top_rank", 13) == "KING (13)"
    assert value_words("effective_top_rank", 0) == "0 (the pile is empty)"
    assert value_words("winner", -1) == "NOT_FINISHED (-1)"
    assert value_words("rules", 3) == "RULE_MIRROR_THREE | RULE_SEVEN_LOWER (3)"
    assert value_words("seven_restriction", 1) == "TRUE"
    assert value_words("hand_counts", [7, 9]) == "seat 0: 7, seat 1: 9"
    assert value_words("face_down_counts", (3, 2)) == "seat 0: 3, seat 1: 2"
    assert value_words("hands", [[[5, 0, 1], [14, 3, 2]], []]) == "seat 0: [5H AS]; seat 1: [] (none)"
    assert value_words("pile", [[10, 1, 3], [-1, -1, 0], [99, 7, 4]]) == "[TD NULL <99,7>]"
    assert value_words("out_of_range", {"handCard": [True, True], "getBurntCard": [True, False]}) == \
        "getBurntCard gives a card at n = size"
    assert value_words("out_of_range", {"handCard": [True, True]}) == \
        "NULL at n = -1 and at n = size from every Card getter"
    for value in ({"a": [True, None]}, [[1, 2], (3, 4)], None, "text"):
        assert_in_palace_words(value_words("anything", value))


def test_the_report_explains_the_notation_once(setup_never_ends: SubmissionResult) -> None:
    page = render_html(setup_never_ends)
    assert page.count("How to read the moves") == 1 and "5H@12 is one particular card" in page
    assert gradescope_json(setup_never_ends)["output"].count("How to read the moves:") == 1


def test_the_notations_examples_are_read_by_the_reference() -> None:
    """Every example the notation gives is what the reference's parsers read (and would write back)."""
    text = GAME.notation
    assert str(CardRef.parse("5H@12")) == "5H@12" and "5H@12" in text
    assert parse_cards("3D*2") == [parse_cards("3D")[0]] * 2 and "3D*2" in text
    for rules in ("basic", "mirror", "seven", "mirror+seven"):
        assert parse_rules(rules) >= 0 and rules in text
    for move in ("up:5H,6D,KS", "5H", "5H,5D", "blind:1", "pickup"):
        assert str(parse_moves(move)[0]) == move and move in text
