"""The packed form of a trace: every observation of every step as one array of 32-bit integers.

An edition's C observer (``grader.games.fcd.c_observer``) writes a whole
game in this form with one foreign call; the reference's trace is packed the
same way here, once, and cached.  Equal arrays mean every step's observations
are equal, so a game that matches is accepted without one Python operation per
step; any difference sends the game down the full, field-by-field comparison,
which explains it.  The form is self-delimiting (every list carries its
length), so equal arrays can only come from equal observations.

Per step, the observations in the edition's table's order, by shape:
``int`` and ``bool`` one integer; ``card`` four (value, colour, suit, ident;
NULL is -1, -1, -1, 0); ``cards`` a count, then four per card;
``four_hands`` four such lists; ``four_ints`` and ``ints_n`` their integers;
``answers`` a count, then per answer value, colour, suit, the colour declared
(-1 but for a D) and the answer (an answer about a word of the notation, 2017's
``uno``: -2, the word's code, 0, -1 and the answer); ``history`` (2017's turns of
moves in the notation) per turn a count, then per move its length and its
characters.  The counts over the initial deck come after newGame only.
"""

from __future__ import annotations

from array import array
from typing import Iterable, Sequence, cast

from grader.games.fcd.sandbox.observations import Table
from grader.games.fcd.sandbox.observe import CardObs, Obs
from reference.cards import COLOR_LETTERS, parse_key

NULL_CARD = (-1, -1, -1, 0)
NOT_DECLARED = -1  # the colour slot of an answer about a card that is not a D
WORD = -2  # the value slot of an answer about a word of the notation (``word_code``)


def word_code(word: str) -> int:
    """A word of the notation (``uno``: a move that is no card) as one integer: its letters a-z, 5 bits
    each, the first lowest.  Words are all lower-case letters, cards never are: the two cannot meet."""
    if not (word.isascii() and word.isalpha() and word.islower() and len(word) <= 6):
        raise ValueError(f"no packed form for the label {word!r}")
    return sum((ord(ch) - ord("a") + 1) << (5 * i) for i, ch in enumerate(word))


def _look(label: str) -> tuple[int, int, int]:
    """The card of an answer's label, as ``observe.card_label`` writes it (``5RH``, ``NULL``, ``<v,c,s>``), or
    the word it is (``uno``)."""
    if label.islower():
        return WORD, word_code(label), 0
    if label == "NULL":
        return -1, -1, -1
    if label.startswith("<"):
        v, c, s = (int(x) for x in label[1:-1].split(","))
        return v, c, s
    v, c, s = parse_key(label)
    return int(v), int(c), int(s)


def _answer(label: str, answer: bool) -> tuple[int, ...]:
    card, _, declared = label.partition("/")
    return (*_look(card), COLOR_LETTERS.index(declared) if declared else NOT_DECLARED, int(answer))


def _cards(cards: Sequence[CardObs]) -> list[int]:
    out = [len(cards)]
    for card in cards:
        out += card
    return out


def _packed_value(shape: str, value: object) -> Iterable[int]:
    """One of the reference's values, of the shape its table's row gives it."""
    if shape in ("int", "bool"):
        return (int(cast(int, value)),)
    if shape == "card":
        return NULL_CARD if value is None else cast(CardObs, value)
    if shape == "cards":
        return _cards(cast("list[CardObs]", value))
    if shape == "four_hands":
        return [x for hand in cast("list[list[CardObs]]", value) for x in _cards(hand)]
    if shape in ("four_ints", "ints_5", "ints_16"):
        return cast("list[int]", value)
    if shape == "history":
        return [x for moves in cast("list[list[str]]", value)
                for x in (len(moves), *(y for move in moves for y in (len(move), *map(ord, move))))]
    if shape == "answers":
        answers = cast("dict[str, bool]", value)
        return [len(answers), *(x for label, answer in answers.items() for x in _answer(label, answer))]
    raise ValueError(f"no packed form for shape {shape!r}")


def pack_step(obs: Obs, table: Table) -> list[int]:
    """One reference observation, packed (the counts over the deck only if it has them: step 0)."""
    out: list[int] = []
    for name in table.order:
        if name in obs:
            out += _packed_value(table.by_name[name].shape, obs[name])
    return out


def pack_trace(observations: Iterable[Obs], table: Table) -> bytes:
    """A whole trace, as the C observer writes it: int32, native byte order."""
    packed = array("i")
    for obs in observations:
        packed.extend(pack_step(obs, table))
    return packed.tobytes()
