"""The 2017 observation table: everything the 2017 Game.h lets a tester see, and which clauses govern it.

The rows have the meaning of the 2018 table (``grader.games.fcd.sandbox.observations``):
``meaning`` clauses define the query at any time, ``at_start`` ones fix its value
after newGame, ``on_moves`` ones fix how moves change it; clause ids are those of
rules-17s2.md (S1-S28, B1-B60).  Names are those of the 2017 rulings table
(``reference.fcd17s2.rulings.OBSERVATIONS``), which says what each LENIENT
ruling leaves open.  2017 shows no piles and no counters: it shows the direction
and the history of moves instead (``past_moves``: the previous turn's moves and
the current turn's so far, read through ``turnMoves`` and ``pastMove``), and
isValidMove of the three words (``valid_say``).  Cards of other hands are only
seen when their owner is current, so ``valid_foreign`` tries the first card of
each other hand as it was the last time that player was current (a hand only
gains cards between its owner's turns).

The rows only (what the sandbox's observer reads of them: their names, calls and shapes, in order);
the scopes and the table as the trusted side judges with it are ``grader.games.fcd17s2.observations``.
"""

from __future__ import annotations

from grader.games.fcd.sandbox.observations import Observation, Table

FAMILIES: dict[str, str] = {
    "turn_order": "whose turn it is, the direction and the turn counters (S4-S6, S12, S13, B26-B30, B60)",
    "hands": "the cards in the hands, their counts and points (S2, S9-S11, S17, S22, B12, B43, B44)",
    "discard": "the top of the discard pile (S3, S9, B3, B54)",
    "history": "the moves each turn holds: turnMoves and pastMove (S23, B50-B52)",
    "validity": "isValidMove: which plays, draws, words and END_TURNs are allowed (S6-S18, B13-B48)",
    "end": "the end of the game: a winner (S19, B53, B56)",
    "deck_counts": "numCards and the numOf* counts of the initial deck (B11)",
    "crashes": "the program crashed, hung or exited in playMove, newGame or destroyGame",
}

OBSERVATIONS: tuple[Observation, ...] = (
    Observation("winner", "int", "gameWinner()", "who has won (-1 not finished)", "end",
                "The game ends the moment a player discards their last card; that player wins, no END_TURN "
                "needed; with nothing left to draw it ends with no winner (NO_WINNER, 4).",
                meaning=("S19", "S21", "B53", "B55", "B56"), on_moves=("B49",),
                depends_on=("hand", "card_counts"), change="value", names=((-1, "NOT_FINISHED"), (4, "NO_WINNER"))),
    Observation("current_player", "int", "currentPlayer()", "whose turn it is", "turn_order",
                "Only END_TURN passes the turn: to the next seat in the current direction, or the one after "
                "when an ADVANCE was played.", at_start=("S4", "B5"),
                on_moves=("S5", "S6", "S12", "S13", "B26", "B27", "B28", "B30", "B34"),
                depends_on=("play_direction",), change="seat"),
    Observation("current_turn", "int", "currentTurn()", "the turn number", "turn_order",
                "The turn number starts at 0 and goes up by one at each END_TURN (a skipped player holds no "
                "turn).", at_start=("S4",), on_moves=("S6", "B26", "B60"), change="counter"),
    Observation("num_turns", "int", "numTurns()", "the number of turns so far, this one included", "turn_order",
                "numTurns() is always currentTurn() + 1.", meaning=("S23", "B60"), change="counter"),
    Observation("play_direction", "int", "playDirection()", "the direction of play (0 CLOCKWISE, 1 ANTICLOCKWISE)",
                "turn_order", "Play starts CLOCKWISE; each BACKWARDS played turns it round.",
                at_start=("S4", "B5"), on_moves=("S13", "B28", "B30", "B34"), change="flag",
                names=((0, "CLOCKWISE"), (1, "ANTICLOCKWISE"))),
    Observation("turn_moves", "int", "turnMoves(currentTurn())", "the moves made so far this turn", "history",
                "Every action a player submits is a move of the turn: draws, plays, the words said, and the "
                "END_TURN that closes it.", meaning=("S23", "B50", "B51"), change="own_counter"),
    Observation("past_moves", "history", "pastMove(turn, i)", "the moves of the previous turn and of this one",
                "history", "pastMove(t, i) is the i-th move of turn t as it was made: its action, the card played "
                "and the colour a DECLARE declared; a finished turn ends with its END_TURN.",
                meaning=("S23", "B50", "B51", "B52"), depends_on=("current_turn",)),
    Observation("declarations", "history", "pastMove(turn, i).nextColor",
                "the DECLAREs of the previous turn and of this one, with the colour each declared", "history",
                "pastMove keeps the colour a DECLARE declared in nextColor.", meaning=("B37",),
                depends_on=("current_turn",)),
    Observation("hand_card_count", "int", "handCardCount()", "the size of the current player's hand", "hands",
                "A hand loses the card played and gains each card drawn.", meaning=("S24",),
                at_start=("S2", "B2", "B10"), on_moves=("S9", "S10", "S11", "B43", "B54"),
                depends_on=("current_player", "card_counts"), change="own_counter"),
    Observation("hand", "cards", "handCard(i)", "the cards in the current player's hand", "hands",
                "A hand loses the card played and gains each card drawn, taken from the top of the draw pile "
                "(after a recycle: the oldest discard).", at_start=("S1", "S2", "S24", "B2", "B10"),
                on_moves=("S3", "S9", "S10", "S20", "B2", "B54"), depends_on=("current_player",),
                change="own_cards"),
    Observation("card_counts", "four_ints", "playerCardCount(p)", "how many cards player p holds", "hands",
                "A hand loses the card played and gains each card drawn; a right call-out makes the previous "
                "player draw 2 cards, a wrong one leaves their hand as it is.", meaning=("S24",),
                at_start=("S2", "B2"), on_moves=("S9", "S10", "S11", "S17", "B42", "B43", "B44"),
                change="per_player"),
    Observation("points", "four_ints", "playerPoints(p)", "the sum of the values in player p's hand", "hands",
                "A player's points are the sum of the values in their hand (ADVANCE=10 ... F=15).",
                meaning=("S22", "B12"), depends_on=("card_counts", "hand"), change="per_player"),
    Observation("top_discard", "card", "topDiscard()", "the top card of the discard pile", "discard",
                "The card discarded becomes the top of the discard pile; a recycle leaves the top where it is.",
                at_start=("S3", "B2"), on_moves=("S9", "B54"), change="value"),
    Observation("valid_play", "answers", "isValidMove(PLAY_CARD)", "whether the current player may discard this "
                "card now", "validity",
                "A card may be discarded if it is in the hand, no card was discarded or drawn yet this turn (or the "
                "card discarded just before was a CONTINUE), and it is a ZERO or shares value, suit or colour with "
                "the top discard (after a DECLARE: the declared colour); facing a 2, only a 2.",
                meaning=("S8", "S9", "S11", "S14", "S15", "S19", "S25", "B14", "B16", "B19", "B20", "B21", "B24",
                         "B25", "B31", "B35", "B36", "B45", "B53", "B57"),
                depends_on=("hand", "top_discard", "current_player", "turn_moves", "winner")),
    Observation("valid_foreign", "answers", "isValidMove(PLAY_CARD)",
                "a card from ANOTHER player's hand must never be playable", "validity",
                "A card from another player's hand can never be played.", meaning=("B19",),
                depends_on=("card_counts",)),
    Observation("valid_draw", "bool", "isValidMove(DRAW_CARD)", "whether the current player may draw now",
                "validity", "A player may draw once a turn before discarding, even holding a playable card, or, "
                "facing 2s, until all the cards owed are drawn.",
                meaning=("S10", "S11", "S25", "B15", "B17", "B18", "B22", "B23", "B25", "B32", "B45", "B53", "B57"),
                depends_on=("turn_moves", "winner", "current_player")),
    Observation("valid_say", "answers", "isValidMove(SAY_UNO / SAY_DUO / SAY_TRIO)",
                "whether the current player may say UNO, DUO, TRIO now", "validity",
                "A word may be said right after a discard that leaves exactly 1, 2 or 3 cards (a claim), or at "
                "the start of the turn, before drawing or discarding, once each (a call-out); anywhere else it "
                "is invalid.",
                meaning=("S16", "S17", "S18", "B33", "B38", "B39", "B40", "B41", "B46", "B47", "B48", "B49", "B53"),
                depends_on=("turn_moves", "winner", "current_player", "hand_card_count")),
    Observation("valid_end", "bool", "isValidMove(END_TURN)", "whether the current player may end the turn now",
                "validity", "END_TURN is valid only once a card has been discarded or drawn this turn, and after "
                "all the cards a 2 owes have been drawn.",
                meaning=("S6", "S25", "B13", "B23", "B45", "B53", "B57"),
                depends_on=("turn_moves", "winner", "current_player")),
    Observation("num_cards", "int", "numCards()", "the size of the initial deck", "deck_counts",
                "numCards() is the size of the initial deck.", meaning=("B11",), at_start=("S1",)),
    Observation("num_of_suit", "ints_5", "numOfSuit(s)", "cards of each suit in the initial deck", "deck_counts",
                "numOfSuit() counts over the initial deck.", meaning=("B11",), at_start=("S1",)),
    Observation("num_of_color", "ints_5", "numOfColor(c)", "cards of each colour in the initial deck",
                "deck_counts", "numOfColor() counts over the initial deck.", meaning=("B11",), at_start=("S1",)),
    Observation("num_of_value", "ints_16", "numOfValue(v)", "cards of each value in the initial deck",
                "deck_counts", "numOfValue() counts over the initial deck.", meaning=("B11",), at_start=("S1",)),
)

# Not a field of a step: the identity rule (B3) is checked between steps (the played card is the new top).
IDENTITY = Observation("identity", "none", "topDiscard() / handCard(i)", "the very card played, not a copy",
                       "hands", "The card discarded becomes the top discard: the same Card, not a copy.",
                       meaning=("B3",))

ROWS = Table(OBSERVATIONS, IDENTITY, FAMILIES, {})  # the rows as a table, no scopes: the observer's probes
ORDER: tuple[str, ...] = ROWS.order
