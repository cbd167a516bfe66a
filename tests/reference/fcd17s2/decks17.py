"""Deck builders and small drivers for the 2017 reference-engine tests.

A test describes a deal the way a person reads it -- four hands, the card
turned up as the first discard, the draw pile from the top -- and ``deal``
lays those cards out in the order ``newGame`` takes them (S2, S3):

    card i < 28  -> player i % 4 (so hand p is cards p, p+4, ..., p+24)
    card 28      -> the first discard
    card 29 ...  -> the draw pile, 29 drawn first

Cards are written as in ``reference.cards`` (``5RH`` = red 5 of hearts; A, B,
C, D are ADVANCE, BACKWARDS, CONTINUE, DECLARE), and ``TOKEN*n`` repeats a card
n times.  A hand given with fewer than 7 cards is padded with ``FILL`` (9PQ,
the purple 9 of questions): tests keep purple, questions and 9 out of the
cards they reason about, so the fillers never match anything that matters.

Every expected value in these tests is worked out by hand from the deal; the
helpers here only build decks, apply written moves and read the C API.
"""

from __future__ import annotations

from reference.fcd17s2 import Action, Card, Color, Deck, Game, MoveSpec, PlayerMove, Suit, Value

FILL = "9PQ"
HAND_SIZE = 7


def expand(text: str) -> list[str]:
    """``"5RH 7RS*3"`` -> ``["5RH", "7RS", "7RS", "7RS"]``."""
    out: list[str] = []
    for tok in text.split():
        card, star, count = tok.partition("*")
        out.extend([card.upper()] * (int(count) if star else 1))
    return out


def deal(p0: str = "", p1: str = "", p2: str = "", p3: str = "", *, top: str, draw: str = "") -> Deck:
    """The deck whose deal gives these hands, this first discard and this draw pile."""
    hands = [expand(h) for h in (p0, p1, p2, p3)]
    for p, h in enumerate(hands):
        if len(h) > HAND_SIZE:
            raise ValueError(f"hand {p} has {len(h)} cards; a hand is {HAND_SIZE}")
        h.extend([FILL] * (HAND_SIZE - len(h)))
    order = [hands[i % 4][i // 4] for i in range(4 * HAND_SIZE)]
    (first,) = expand(top)
    return Deck.parse(" ".join(order + [first] + expand(draw)))


def game(p0: str = "", p1: str = "", p2: str = "", p3: str = "", *, top: str, draw: str = "") -> Game:
    return Game(deal(p0, p1, p2, p3, top=top, draw=draw))


def move(g: Game, token: str) -> PlayerMove:
    """A written move (``draw``, ``end``, ``uno``, ``5RH``, ``DRH/G``) with the card from the current hand."""
    return g.resolve(MoveSpec.parse(token))


def valid(g: Game, token: str) -> bool:
    return g.is_valid_move(move(g, token))


def play(g: Game, moves: str) -> None:
    """Apply written moves in order; each must be valid first."""
    for token in moves.split():
        m = move(g, token)
        assert g.is_valid_move(m), f"{token} should be valid here:\n{g.describe()}"
        g.play_move(m)


def hand(g: Game, player: int) -> list[str]:
    """Player's hand as sorted tokens (hand order is unspecified, B4)."""
    return sorted(str(c) for c in g.player_hand(player))


def tokens(text: str) -> list[str]:
    """Sorted expansion, to compare with ``hand``."""
    return sorted(expand(text))


def history(g: Game, turn: int) -> list[str]:
    """That turn's moves as written, read through turnMoves and pastMove only."""
    return [str(g.past_move(turn, m)) for m in range(g.turn_moves(turn))]


def seats(g: Game, turns: int) -> list[int]:
    """Who plays each of the next ``turns`` turns when everyone draws and ends (moves the game on)."""
    out = []
    for _ in range(turns):
        out.append(g.current_player())
        play(g, "draw end")
    return out


def current_hand(g: Game) -> list[Card]:
    """The current hand through handCardCount/handCard."""
    return [g.hand_card(i) for i in range(g.hand_card_count())]


def snapshot(g: Game, history_from: int = 0) -> tuple:
    """Every query of Game.h (and the engine's read-only extras) in one value; cards by identity.

    The history is read from turn ``history_from`` on (all of it by default).
    """
    return (
        g.num_cards(),
        tuple(g.num_of_suit(s) for s in Suit),
        tuple(g.num_of_color(c) for c in Color),
        tuple(g.num_of_value(v) for v in Value),
        g.current_player(), g.current_turn(), g.num_turns(), g.play_direction(), id(g.top_discard()),
        tuple(g.player_points(p) for p in range(4)),
        tuple(g.player_card_count(p) for p in range(4)),
        g.hand_card_count(), tuple(map(id, current_hand(g))),
        tuple(tuple(map(id, g.player_hand(p))) for p in range(4)),
        tuple((g.turn_moves(t), tuple(g.past_move(t, m) for m in range(g.turn_moves(t))))
              for t in range(history_from, g.num_turns())),
        tuple(map(id, g.draw_pile())), tuple(map(id, g.discard_pile())),
        g.game_winner(), g.outcome(), g.declared_color(), g.owed_twos(), g.owed_cards(),
        tuple(g.call_outs(t) for t in range(history_from, g.num_turns())),
    )


DRAW = PlayerMove(Action.DRAW_CARD)
END = PlayerMove(Action.END_TURN)
UNO, DUO, TRIO = (PlayerMove(a) for a in (Action.SAY_UNO, Action.SAY_DUO, Action.SAY_TRIO))
