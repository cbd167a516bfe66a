"""The 2018 observation table: everything the 2018 Game.h lets a tester see, and which clauses of
rules.md govern it (the rows of ``grader.games.fcd.sandbox.observations.Table``).

The rows only (what the sandbox's observer reads of them: their names, calls and shapes, in order);
the scopes and the table as the trusted side judges with it are ``grader.games.fcd18s2.observations``.
"""

from __future__ import annotations

from grader.games.fcd.sandbox.observations import Observation, Table

FAMILIES: dict[str, str] = {
    "turn_order": "whose turn it is and the turn counters (R4, R8, A13, A14, A31-A33)",
    "hands": "the cards in the hands, their counts and points (R2, R5, R6, R14, A27, A46)",
    "discard": "the top of the discard pile: its card, turn, the 2s and the colour (R5, R7, R9, A9, A15)",
    "piles": "the order of the draw and discard piles (R3, R6, R11, A21)",
    "validity": "isValidMove: which plays, draws and END_TURNs are allowed (R4-R7, R15)",
    "end": "the end of the game: a winner or no winner (R12, R13)",
    "deck_counts": "numCards and the numOf* counts of the initial deck (A37)",
    "crashes": "the program crashed, hung or exited in playMove, newGame or destroyGame",
}

OBSERVATIONS: tuple[Observation, ...] = (
    Observation("winner", "int", "gameWinner()", "who has won (-1 not finished, 4 no winner)", "end",
                "The game ends the moment a player puts down their last card (that player wins); it ends with no "
                "winner when a player must draw and no card is left to draw.",
                meaning=("R12", "R13"), on_moves=("A23", "A24", "A30", "A50"),
                depends_on=("hands", "card_counts", "deck_pile", "discard_pile"),
                change="value", names=((-1, "NOT_FINISHED"), (4, "NO_WINNER"))),
    Observation("current_player", "int", "currentPlayer()", "whose turn it is", "turn_order",
                "Only END_TURN passes the turn, to the next player (or the one after, if an A was played).",
                at_start=("R3", "R10", "A13"), on_moves=("R4", "R8", "A33"),
                change="seat"),
    Observation("current_turn", "int", "currentTurn()", "the turn number", "turn_order",
                "The turn number starts at 0 and goes up by one at each END_TURN.",
                at_start=("R3", "A13"), on_moves=("R4", "R8", "A33"),
                change="counter"),
    Observation("num_turns", "int", "numTurns()", "the number of turns so far, this one included", "turn_order",
                "numTurns() is always currentTurn() + 1.",
                meaning=("A31",),
                change="counter"),
    Observation("current_turn_moves", "int", "currentTurnMoves()", "actions taken so far this turn", "turn_order",
                "currentTurnMoves() counts the plays and draws made so far this turn.",
                meaning=("A32",), on_moves=("R4",),
                change="counter"),
    Observation("previous_turn_player", "int", "getPreviousTurnPlayer()", "who played the previous turn", "turn_order",
                "getPreviousTurnPlayer() is the player who played the previous turn (skipped players hold no "
                "turn); -1 during turn 0.",
                meaning=("A14",), at_start=("A13",), on_moves=("R8", "A33"),
                depends_on=("current_player",),
                change="seat"),
    Observation("hand_card_count", "int", "handCardCount()", "the size of the current player's hand", "hands",
                "A hand loses the card played and gains each card drawn.",
                at_start=("R2",), on_moves=("R5", "R6", "R7", "R11"),
                depends_on=("current_player", "hands", "card_counts"),
                change="own_counter"),
    Observation("hand", "cards", "handCard(i)", "the cards in the current player's hand", "hands",
                "A hand loses the card played and gains each card drawn, taken from the top of the draw pile "
                "(after a recycle: the oldest discard).",
                at_start=("R2",), on_moves=("R5", "R6", "R7", "R11", "A21"),
                depends_on=("current_player", "hands"),
                change="own_cards", follows_the_piles=True),
    Observation("hands", "four_hands", "getHandCard(p, i)", "the cards in player p's hand", "hands",
                "A hand loses the card played and gains each card drawn.",
                at_start=("R1", "R2"), on_moves=("R5", "R6", "R7", "R11", "A21"),
                change="cards", follows_the_piles=True),
    Observation("card_counts", "four_ints", "playerCardCount(p)", "how many cards player p holds", "hands",
                "A hand loses the card played and gains each card drawn.",
                at_start=("R2",), on_moves=("R5", "R6", "R7"),
                change="per_player"),
    Observation("points", "four_ints", "playerPoints(p)", "the sum of the values in player p's hand", "hands",
                "A player's points are the sum of the values in their hand (A=10 ... F=15).",
                meaning=("R14",),
                depends_on=("hands",),
                change="per_player", follows_the_piles=True),
    Observation("hand_end_null", "bool", "handCard(handCardCount())", "one past the last card must be NULL", "hands",
                "Asking for the card one past the end of a hand gives NULL.", meaning=("A27",),
                depends_on=("current_player", "hand_card_count")),
    Observation("top_discard", "card", "topDiscard()", "the top card of the discard pile", "discard",
                "The card played becomes the top of the discard pile.",
                at_start=("R3", "R10"), on_moves=("R5", "R11"),
                change="value"),
    Observation("top_discard_turn_number", "int", "getTopDiscardTurnNumber()", "the turn the top discard was played in",
                "discard", "getTopDiscardTurnNumber() is the turn the top card was played in (-1 for the card "
                "turned up at the start).", meaning=("A15",), at_start=("R3",), on_moves=("R5",),
                depends_on=("current_turn",),
                change="counter"),
    Observation("number_of_two_cards_at_top", "int", "getNumberOfTwoCardsAtTop()",
                "how many 2s lie on top of the discard pile",
                "discard", "getNumberOfTwoCardsAtTop() counts the 2s lying one on another on top of the discard "
                "pile, paid or not.", meaning=("A9",), at_start=("R10", "A12"), on_moves=("R7",),
                change="counter"),
    Observation("active_draw_twos", "int", "getActiveDrawTwos()", "how many 2s on top still have to be answered",
                "discard",
                "Each 2 played adds one active 2; the next player must draw 2 cards per active 2 or play another "
                "2; once they have drawn, the 2s are no longer active.",
                at_start=("R10", "A12"), on_moves=("R7", "A6", "A7"),
                change="counter"),
    Observation("current_color", "int", "getCurrentColor()", "the colour the next card must match", "discard",
                "After a D, the colour to match is the colour declared with it, while that D is on top; "
                "otherwise it is the top card's own colour.",
                meaning=("R9", "A16"), at_start=("R3", "R10", "A18"), on_moves=("R5",),
                depends_on=("top_discard",),
                change="value", names=tuple(enumerate(("RED", "BLUE", "GREEN", "YELLOW", "PURPLE")))),
    Observation("deck_pile", "cards", "getDeckCard(n)", "the draw pile, next card first", "piles",
                "Cards are drawn from the top of the draw pile; when it is empty, the discard pile except its "
                "top card is turned over so the oldest card is drawn first.",
                at_start=("R1", "R3"), on_moves=("R6", "R11", "A21"),
                change="pile"),
    Observation("discard_pile", "cards", "getDiscardPileCard(n)", "the discard pile, top first", "piles",
                "Played cards go on top of the discard pile; a recycle leaves only the top card.",
                at_start=("R3",), on_moves=("R5", "R11", "A21"),
                change="pile"),
    Observation("valid_draw", "bool", "isValidMove(DRAW_CARD)", "whether the current player may draw now", "validity",
                "A player may draw once a turn before playing, or, facing active 2s, until 2 cards per active 2 "
                "have been drawn.",
                meaning=("R6", "R7", "R15", "A3", "A4", "A6", "A23", "A29", "A34"),
                depends_on=("active_draw_twos", "current_turn_moves", "winner", "current_player", "deck_pile")),
    Observation("valid_end", "bool", "isValidMove(END_TURN)", "whether the current player may end the turn now",
                "validity",
                "END_TURN is valid only after a play or a draw, and after the full penalty when 2s are active.",
                meaning=("R4", "R7", "R15", "A5", "A6", "A29", "A35"),
                depends_on=("active_draw_twos", "current_turn_moves", "winner", "current_player")),
    Observation("valid_play", "answers", "isValidMove(PLAY_CARD)", "whether the current player may play this card now",
                "validity", "A card may be played if it is in the hand, nothing was played or drawn yet this turn, "
                "and it is a ZERO or matches the top card's value, suit or current colour; facing active 2s only "
                "a 2 may be played.",
                meaning=("R5", "R7", "R9", "R10", "R15", "A1", "A2", "A10", "A11", "A12", "A16", "A17", "A18", "A19",
                         "A29", "A39", "A49"),
                depends_on=("hand", "top_discard", "current_color", "active_draw_twos", "current_turn_moves", "winner",
                            "current_player", "hands")),
    Observation("valid_foreign", "answers", "isValidMove(PLAY_CARD)",
                "a card from ANOTHER player's hand must never be playable",
                "validity", "A card from another player's hand can never be played.",
                meaning=("R5", "A25"),
                depends_on=("hands",)),
    Observation("num_cards", "int", "numCards()", "the size of the initial deck", "deck_counts",
                "numCards() is the size of the initial deck.", meaning=("A37",), at_start=("R1",)),
    Observation("num_of_suit", "ints_5", "numOfSuit(s)", "cards of each suit in the initial deck", "deck_counts",
                "numOfSuit() counts over the initial deck.", meaning=("A37",), at_start=("R1",)),
    Observation("num_of_color", "ints_5", "numOfColor(c)", "cards of each colour in the initial deck", "deck_counts",
                "numOfColor() counts over the initial deck.", meaning=("A37",), at_start=("R1",)),
    Observation("num_of_value", "ints_16", "numOfValue(v)", "cards of each value in the initial deck", "deck_counts",
                "numOfValue() counts over the initial deck.", meaning=("A37",), at_start=("R1",)),
)

# Not a field of a step: the identity rule (A46) is checked between steps.
IDENTITY = Observation("identity", "none", "topDiscard() / handCard(i)", "the very card played or drawn, not a copy",
                       "hands",
                       "The card played becomes the top discard, and a drawn card is the former top of the draw "
                       "pile: the same Card, not a copy.", meaning=("A46", "R18"))

ROWS = Table(OBSERVATIONS, IDENTITY, FAMILIES, {})  # the rows as a table, no scopes: the observer's probes
ORDER: tuple[str, ...] = ROWS.order
