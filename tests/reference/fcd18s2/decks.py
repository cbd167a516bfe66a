"""Deck builders and small drivers for the reference-engine tests.

A test describes a deal the way a person reads it -- four hands, the card
turned up as the first discard, the draw pile from the top -- and ``deal``
lays those cards out in the order ``newGame`` takes them (R2, R3):

    card i < 28  -> player i % 4 (so hand p is cards p, p+4, ..., p+24)
    card 28      -> the first discard
    card 29 ...  -> the draw pile, 29 drawn first

Cards are written as in ``reference.cards`` (``5RH`` = red 5 of hearts), and
``TOKEN*n`` repeats a card n times.  A hand given with fewer than 7 cards is
padded with ``FILL`` (9PQ, the purple 9 of questions): tests keep purple,
questions and 9 out of the cards they reason about, so the fillers never match
anything that matters.

Every expected value in these tests is worked out by hand from the deal; the
helpers here only build decks and apply written moves.
"""

from __future__ import annotations

from reference import (
    Action,
    Card,
    Color,
    Deck,
    Game,
    MoveSpec,
    PlayerMove,
    Suit,
    Value,
)

FILL = "9PQ"
HAND_SIZE = 7


def expand(text: str) -> list[str]:
    """``"5RH 7RS*3"`` -> ``["5RH", "7RS", "7RS", "7RS"]``."""
    out: list[str] = []
    for tok in text.split():
        card, star, count = tok.partition("*")
        out.extend([card.upper()] * (int(count) if star else 1))
    return out


def deal(p0: str = "", p1: str = "", p2: str = "", p3: str = "", *, top: str,
         draw: str = "", fill: str = FILL) -> Deck:
    """The deck whose deal gives these hands, this first discard and this draw pile."""
    hands = [expand(h) for h in (p0, p1, p2, p3)]
    for p, h in enumerate(hands):
        if len(h) > HAND_SIZE:
            raise ValueError(f"hand {p} has {len(h)} cards; a hand is {HAND_SIZE}")
        h.extend([fill] * (HAND_SIZE - len(h)))
    order = [hands[i % 4][i // 4] for i in range(4 * HAND_SIZE)]
    (first,) = expand(top)
    return Deck.parse(" ".join(order + [first] + expand(draw)))


def game(p0: str = "", p1: str = "", p2: str = "", p3: str = "", *, top: str,
         draw: str = "", fill: str = FILL) -> Game:
    return Game(deal(p0, p1, p2, p3, top=top, draw=draw, fill=fill))


def move(g: Game, token: str) -> PlayerMove:
    """A written move (``draw``, ``end``, ``5RH``, ``DRH/G``) with the card from the current hand."""
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
    """Player's hand as sorted tokens (hand order is unspecified, A27)."""
    return sorted(str(g.get_hand_card(player, i)) for i in range(g.player_card_count(player)))


def tokens(text: str) -> list[str]:
    """Sorted expansion, to compare with ``hand``."""
    return sorted(expand(text))


def hand_cards(g: Game, player: int) -> list[Card]:
    return [g.get_hand_card(player, i) for i in range(g.player_card_count(player))]


def deck_pile(g: Game) -> list[Card]:
    """The draw pile, next card first, read with getDeckCard until NULL."""
    out = []
    while (c := g.get_deck_card(len(out))) is not None:
        out.append(c)
    return out


def discard_pile(g: Game) -> list[Card]:
    """The discard pile, top first, read with getDiscardPileCard until NULL."""
    out = []
    while (c := g.get_discard_pile_card(len(out))) is not None:
        out.append(c)
    return out


def snapshot(g: Game) -> tuple:
    """Every query of Game.h (and the engine's extra read-only ones) in one value.

    Cards appear as ``id`` so the snapshot sees identity, not just looks.
    """
    hands = tuple(tuple(id(c) for c in hand_cards(g, p)) for p in range(4))
    current = tuple(id(g.hand_card(i)) for i in range(g.hand_card_count() + 1))
    return (
        g.num_cards(),
        tuple(g.num_of_suit(s) for s in Suit),
        tuple(g.num_of_color(c) for c in Color),
        tuple(g.num_of_value(v) for v in Value),
        g.current_player(), g.current_turn(), g.num_turns(), g.current_turn_moves(),
        id(g.top_discard()), g.get_number_of_two_cards_at_top(), g.get_current_color(),
        g.get_previous_turn_player(), g.get_top_discard_turn_number(), g.get_active_draw_twos(),
        g.hand_card_count(), current, hands,
        tuple(g.player_card_count(p) for p in range(4)),
        tuple(g.player_points(p) for p in range(4)),
        tuple(map(id, deck_pile(g))), tuple(map(id, discard_pile(g))),
        g.game_winner(), g.outcome(),
        g.cards_drawn_this_turn(), g.card_played_this_turn(), g.declared_color(), g.penalty(),
    )


DRAW = PlayerMove(Action.DRAW_CARD)
END = PlayerMove(Action.END_TURN)
