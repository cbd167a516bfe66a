"""The Palace rulings table (rules-palace.md §3, C1-C47): one row per ruling, the reference's reading first.

``kind`` is the spec's own label: ``STRICT``, ``STRICT (header)`` (fixed by Palace.h, which students
receive), ``LENIENT`` (every listed reading accepted; the reference takes the first) or
``LENIENT (switch)`` (the readings make different games: the grader probes the submission's reading,
§4.3, and configures the reference with ``Readings``; ``switch`` names the ``Readings`` field).
A STRICT ruling with a part the spec leaves open says so in ``lenient_part``; a switch ruling with a
STRICT part says so in ``strict_part``.

``refines`` lists the rules (P-) a ruling makes precise; ``touches`` the observations it shows in
(names of ``OBSERVATIONS``: the keys of ``Game.snapshot`` plus the isValidMove kinds); ``queries`` the
Palace.h functions that reveal it (§4.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .game import Game
from .header import Phase
from .readings import SWITCHES

SNAPSHOT = ("phase", "current_player", "current_turn", "winner", "effective_top_rank", "seven_restriction",
            "hands", "face_up", "face_down", "pile", "draw_pile", "burnt")
VALIDITY = ("valid_choose", "valid_play", "valid_face_down", "valid_pick_up")
CONSTANTS = ("constants",)  # numPlayers, numCards, gameRules
OBSERVATIONS = CONSTANTS + SNAPSHOT + VALIDITY
KINDS = ("STRICT", "STRICT (header)", "LENIENT", "LENIENT (switch)")
ZONES = ("hands", "face_up", "face_down", "pile", "draw_pile", "burnt")


@dataclass(frozen=True, slots=True)
class Ruling:
    """One ruling of rules-palace.md §3."""

    id: str
    title: str
    kind: str
    readings: tuple[str, ...]  # the reference's first; one when the ruling leaves no choice
    refines: tuple[str, ...] = ()  # rules P- it makes precise
    touches: tuple[str, ...] = ()  # observations (OBSERVATIONS) it shows in
    queries: tuple[str, ...] = ()  # Palace.h functions that reveal it
    switch: str | None = None  # the Readings field, for LENIENT (switch)
    lenient_part: str = ""  # the part of a STRICT ruling left open
    strict_part: str = ""  # the part of a LENIENT ruling held strictly
    note: str = field(default="")
    # what the ruling leaves open (its readings, or its lenient_part), as a question: a student's test that
    # assumes one answer is told it (grader.core.suite.judge); "" where the ruling leaves nothing open
    question: str = ""

    @property
    def reference(self) -> str:
        return self.readings[0]

    @property
    def is_strict(self) -> bool:
        return self.kind.startswith("STRICT")

    @property
    def is_switch(self) -> bool:
        return self.kind == "LENIENT (switch)"


_VALID_ALL = VALIDITY
_PLAY_Q = ("isValidMove", "playMove")

RULINGS: tuple[Ruling, ...] = (
    # 3.1 Interface facts fixed by the header
    Ruling("C1", "Seats, dealer, direction", "STRICT (header)",
           ("seats 0..N-1, dealer N-1, seat 0 first, then (s+1) mod N in setup and play",),
           ("P5",), ("current_player",), ("currentPlayer",)),
    Ruling("C2", "Deck order and deal layout", "STRICT (header)",
           ("card i<6N to hand i mod N; card 6N+j face down at seat j mod N, position j div N; card 9N starts "
            "the pile; 9N+1.. the draw pile, getDeckCard(0) = card 9N+1; never shuffled",),
           ("P2", "P4"), ("hands", "face_down", "pile", "draw_pile"),
           ("getHandCard", "getFaceDownCard", "faceDownCount", "playerCardCount", "topDiscard",
            "discardPileSize", "getDeckCard", "drawPileSize"),
           note="face-down positions are fixed at the start only (C38)"),
    Ruling("C3", "Rank order", "STRICT (header)",
           ("TWO < THREE < ... < TEN < JACK < QUEEN < KING < ACE by enum value; suits never matter",),
           ("P6",), ("valid_play",), ("isValidMove",)),
    Ruling("C4", "Card identity and ownership", "STRICT",
           ("cards are pointers: a played, drawn or picked-up card keeps its pointer; a pointer not held "
            "(a twin elsewhere, a newCard of the tester's) is invalid",
            "a pointer equal in fields to a held card is accepted"),
           ("P7", "P8", "P9"), ZONES + ("valid_choose", "valid_play"),
           ("getHandCard", "getDiscardPileCard", "getDeckCard", "isValidMove"),
           lenient_part="isValidMove of a pointer equal in fields but not held (do not test)",
           question="Does a card equal in rank and suit to a held card, but not that card, stand for it in a move?"),
    Ruling("C5", "The face-up choice", "STRICT (header)",
           ("seat by seat 0..N-1, exactly three different cards of the chooser's hand, any three; no swapping",),
           ("P3",), ("phase", "current_player", "current_turn", "hands", "face_up", "valid_choose", "valid_play"),
           ("faceUpCard", "faceUpCount", "getHandCard", "currentPlayer", "currentTurn", "currentPhase",
            "isValidMove")),
    Ruling("C6", "Turns", "STRICT (header)",
           ("currentTurn counts accepted moves, setup included: play starts at turn N; a free play is a new turn",),
           ("P5",), ("current_turn",), ("currentTurn",)),
    Ruling("C7", "Decks and player counts outside the contract", "LENIENT",
           ("undefined: the reference raises DeckError", "newGame returns NULL", "anything"),
           (), CONSTANTS, ("numPlayers", "numCards", "gameRules"),
           note="the grader never builds such a game",
           question="What does newGame do with a deck or a player count outside its contract?"),
    # 3.2 Playing and drawing
    Ruling("C8", "Equal is enough", "STRICT", ("a card of equal rank may always be played",),
           ("P6", "P13"), ("valid_play",), ("isValidMove",)),
    Ruling("C9", "How many cards are drawn after a play", "LENIENT (switch)", SWITCHES["C9"][1],
           ("P8",), ("hands", "draw_pile", "valid_play", "valid_face_down", "valid_pick_up", "pile", "burnt",
                     "face_up", "face_down", "phase", "winner", "current_player", "current_turn",
                     "effective_top_rank", "seven_restriction"),
           ("playerCardCount", "drawPileSize", "getHandCard", "getDeckCard"), switch="draw",
           strict_part="a single card played from a three-card hand draws one card in every reading",
           note="one = exactly one card per play from the hand; refill = until the hand holds three; "
                "per_card = one per card played",
           question="How many cards does a player draw after a play from the hand?"),
    Ruling("C10", "When draws happen", "STRICT",
           ("only after a play from the hand, at once, before a bomb's free play; never after a pick-up, "
            "in setup, or in the face-up and face-down stages",),
           ("P8",), ("hands", "draw_pile"), ("getHandCard", "drawPileSize", "getDeckCard")),
    Ruling("C11", "No recycling", "STRICT", ("the draw pile never grows; pile and burnt cards never return",),
           ("P8",), ("draw_pile",), ("drawPileSize",)),
    Ruling("C12", "Taking the pile", "STRICT",
           ("exactly the pile's cards go to the taker's hand; pile empty; the next seat moves and leads anything",),
           ("P9",), ("hands", "pile", "current_player"),
           ("isValidMove", "playMove", "getHandCard", "discardPileSize", "currentPlayer")),
    Ruling("C13", "Taking an empty pile", "LENIENT", ("invalid", "allowed as a pass"),
           ("P9",), ("valid_pick_up",), ("isValidMove",), note="never played by the grader",
           question="May a player take an empty pile?"),
    Ruling("C14", "Taking the pile in the face-down stage", "LENIENT (switch)", SWITCHES["C14"][1],
           ("P9", "P12"), ("valid_pick_up",), ("isValidMove",), switch="face_down_pickup",
           strict_part="allowed in the hand and face-up stages (C36)",
           question="May a player with only face-down cards left take the pile?"),
    Ruling("C15", "Sets from the face-up row", "LENIENT (switch)", SWITCHES["C15"][1],
           ("P7", "P10"), ("valid_play",), ("isValidMove",), switch="face_up_sets",
           strict_part="single face-up cards",
           question="May face-up cards be played as a set, several at once?"),
    Ruling("C16", "Stage order", "STRICT",
           ("face-up cards only with an empty hand; face-down only with hand and face-up empty; a set never "
            "mixes hand and face-up cards; a pick-up returns the seat to the hand stage",),
           ("P10", "P12"), ("valid_play", "valid_face_down"), ("isValidMove",)),
    Ruling("C17", "Blind play", "STRICT",
           ("one face-down position per move, valid whatever the hidden card; failure is an outcome",),
           ("P12", "P13"), ("valid_face_down",), ("isValidMove", "getFaceDownCard")),
    Ruling("C18", "Failed blind card", "STRICT",
           ("the turned card and the whole pile go to the hand; the next seat moves; it never bombs or counts",),
           ("P13",), ("hands", "pile", "face_down", "current_player"),
           ("getFaceDownCard", "getHandCard", "discardPileSize", "currentPlayer")),
    Ruling("C19", "Successful blind card", "STRICT",
           ("played with every effect of a hand card of its rank; can win; any card succeeds on an empty pile",),
           ("P13",), ("pile", "burnt", "current_player", "winner", "effective_top_rank", "seven_restriction"),
           ("getDiscardPileCard", "burntCount", "currentPlayer", "gameWinner")),
    # 3.3 Bombs, twos, tens
    Ruling("C20", "Four of a kind", "STRICT",
           ("the top four or more cards share one effective rank, however they got there: burn, same seat again",),
           ("P15",), ("pile", "burnt", "current_player", "current_turn"),
           ("burntCount", "discardPileSize", "currentPlayer", "currentTurn")),
    Ruling("C21", "Does the starting card count toward four of a kind?", "LENIENT (switch)", SWITCHES["C21"][1],
           ("P4", "P15"), ("pile", "burnt", "current_player", "hands", "valid_play", "valid_pick_up",
                           "effective_top_rank", "seven_restriction"),
           ("burntCount", "discardPileSize", "currentPlayer"), switch="start_card_run",
           note="strict scenarios avoid it; probe: a starting eight and three eights from three seats",
           question="Does the turned starting card count toward four of a kind?"),
    Ruling("C22", "Does a ten give a free play?", "STRICT", ("yes: a ten burns the pile and the same seat leads",),
           ("P16",), ("pile", "burnt", "current_player", "valid_play"),
           ("burntCount", "discardPileSize", "currentPlayer", "isValidMove"),
           note="contentious: reported by name so a course can relax it"),
    Ruling("C23", "What a free play is", "STRICT",
           ("the same seat moves on an empty pile: any card or set of its stage, or any face-down card; no free "
            "play when the bomb was the last card",),
           ("P15", "P16"), ("current_player", "current_turn", "valid_play", "valid_face_down"),
           ("currentPlayer", "currentTurn", "isValidMove")),
    Ruling("C24", "The two as a skip", "STRICT", ("the turn passes to the next seat, which may play anything",),
           ("P17",), ("current_player", "valid_play"), ("currentPlayer", "isValidMove")),
    Ruling("C25", "More on twos", "STRICT",
           ("a two is playable on anything, under the seven too; anything follows a two; four twos bomb",),
           ("P17", "P19"), ("valid_play", "burnt"), ("isValidMove", "burntCount")),
    # 3.4 The optional rules
    Ruling("C26", "The seven's bound", "STRICT", ("after a seven the next card is SEVEN or lower",),
           ("P19",), ("valid_play", "valid_face_down", "seven_restriction"), ("isValidMove", "sevenRestriction")),
    Ruling("C27", "How long the seven's restriction lasts", "STRICT",
           ("until the next card lands: a non-seven ends it, a seven renews it, a pick-up or bomb ends it",),
           ("P19",), ("seven_restriction", "valid_play"), ("sevenRestriction", "isValidMove")),
    Ruling("C28", "What may go on a seven", "STRICT",
           ("TWO..SEVEN, a THREE included; never TEN, never EIGHT..ACE; such a blind card fails",),
           ("P19", "P16"), ("valid_play", "hands", "pile"), ("isValidMove",)),
    Ruling("C29", "What a mirror three copies", "STRICT",
           ("the effective rank of the card below, restriction included; a plain THREE on an empty pile or on "
            "threes only: effectiveTopRank THREE", "effectiveTopRank 0 there"),
           ("P18",), ("effective_top_rank", "valid_play", "seven_restriction"),
           ("effectiveTopRank", "isValidMove", "sevenRestriction"),
           lenient_part="the value of effectiveTopRank for a three on an empty pile or on threes only (THREE or 0)",
           question="What is effectiveTopRank when mirror threes lie on an empty pile or on threes only?"),
    Ruling("C30", "Mirror threes and bombs", "STRICT",
           ("threes count as the rank they copy in runs; threes on an empty pile are threes and four bomb",),
           ("P18", "P15"), ("burnt", "pile", "current_player"), ("burntCount", "discardPileSize")),
    Ruling("C31", "A special starting card", "LENIENT",
           ("just a rank: a turned ten stays and must be matched or beaten, a turned seven imposes nothing",
            "acts as if played: a turned ten burns at once, a turned seven restricts seat 0"),
           ("P4", "P16", "P19"), ("pile", "burnt", "effective_top_rank", "seven_restriction", "valid_play"),
           ("topDiscard", "burntCount", "sevenRestriction", "isValidMove"),
           note="the grader's deck generators never turn up a ten, nor a seven with RULE_SEVEN_LOWER",
           question="Does a ten or a seven turned as the starting card act as if it had been played?"),
    # 3.5 End of the game
    Ruling("C32", "Going out", "STRICT",
           ("the first seat with no card in any zone wins at once (also with a bomb or a two, no free play); "
            "GAME_OVER; every later move invalid",),
           ("P14",), ("winner", "phase") + _VALID_ALL, ("gameWinner", "currentPhase", "isValidMove")),
    Ruling("C33", "No ranking of the others", "STRICT", ("the game ends at its first winner",),
           ("P14",), ("winner", "phase"), ("gameWinner", "currentPhase")),
    Ruling("C34", "Endless games", "STRICT", ("no move limit: NOT_FINISHED however long",),
           ("P9",), ("winner",), ("gameWinner",), note="the grader stops random games at 5,000 moves"),
    Ruling("C35", "Nothing out of turn, nothing extra", "STRICT",
           ("only the current seat moves; no out-of-turn completion, no try-the-deck, no other specials",),
           ("P5",), ("current_player",) + _VALID_ALL, ("currentPlayer", "isValidMove")),
    Ruling("C36", "Playing is never compulsory", "STRICT",
           ("with cards on the pile a seat may take it instead of playing; on an empty pile it must play",),
           ("P9",), ("valid_pick_up",), ("isValidMove",)),
    # 3.6 Queries and contracts
    Ruling("C37", "Orders the header leaves free", "LENIENT",
           ("hand: dealt order, new cards appended; face-up row as chosen; a set's cards as given; burnt in "
            "burning order, each pile bottom first", "any order (compared as sets)"),
           (), ("hands", "face_up", "pile", "burnt"), ("getHandCard", "faceUpCard", "getDiscardPileCard",
                                                      "getBurntCard"),
           question="In what order do the hands, the face-up rows, the pile and the burnt cards list their cards?"),
    Ruling("C38", "Face-down positions", "STRICT",
           ("at the start position j of seat s holds card 6N+jN+s; after a turn the later positions move down by "
            "one", "any renumbering"),
           ("P12",), ("face_down",), ("getFaceDownCard",),
           lenient_part="renumbering after a card is turned",
           question="Which positions do the face-down cards take once one of them is turned?"),
    Ruling("C39", "effectiveTopRank and sevenRestriction", "STRICT", ("as defined in §1.3, in setup and play",),
           ("P18", "P19"), ("effective_top_rank", "seven_restriction"), ("effectiveTopRank", "sevenRestriction"),
           lenient_part="the C29 value; after GAME_OVER",
           question="What do effectiveTopRank and sevenRestriction answer once the game is over?"),
    Ruling("C40", "Malformed moves", "STRICT (header)",
           ("isValidMove FALSE without crashing or changing anything",),
           (), _VALID_ALL, ("isValidMove",), lenient_part="junk in fields the action ignores (the grader zeroes them)",
           question="Is a move with junk in the fields its action ignores valid?"),
    Ruling("C41", "playMove with an invalid move", "LENIENT",
           ("undefined: the reference raises IllegalMoveError", "anything"), (), (), ("playMove",),
           note="never tested",
           question="What does playMove do with an invalid move?"),
    Ruling("C42", "After the end", "STRICT",
           ("isValidMove FALSE for everything, gameWinner unchanged; the winner's zones empty",),
           ("P14",), ("winner", "hands", "face_up", "face_down") + _VALID_ALL,
           ("isValidMove", "gameWinner", "playerCardCount", "faceUpCount", "faceDownCount"),
           lenient_part="currentPlayer after GAME_OVER (the reference keeps the winner)",
           question="Whose turn does currentPlayer say it is once the game is over?"),
    Ruling("C43", "Index ranges", "STRICT (header)", ("every Card getter returns NULL for n < 0 and n >= size",),
           (), ZONES, ("handCard", "faceUpCard", "getDiscardPileCard", "getBurntCard", "getHandCard",
                       "getFaceDownCard", "getDeckCard")),
    Ruling("C44", "Hidden information", "STRICT",
           ("player-callable functions never reveal a face-down card or another seat's hand cards",),
           ("P2", "P11"), (), ("handCard", "faceUpCard", "getHandCard", "getFaceDownCard", "getDeckCard"),
           note="held in AI grading (§4.5)"),
    Ruling("C45", "decideMove", "STRICT", ("called in setup and for every move of the seat; returns a valid move",),
           (), (), (), note="a property of AI players, not of the game"),
    Ruling("C46", "isValidMove has no side effects", "STRICT", ("no state change, whatever the answer",),
           (), SNAPSHOT, ("isValidMove",)),
    Ruling("C47", "Eager resolution", "STRICT",
           ("draws, bombs and pick-ups complete inside playMove: between moves no ten and no run of four on the "
            "pile (starting card aside)",),
           ("P8", "P15", "P16"), ("pile", "burnt", "hands", "draw_pile"), ("getDiscardPileCard", "burntCount")),
)

BY_ID: dict[str, Ruling] = {r.id: r for r in RULINGS}
STRICT_IDS: tuple[str, ...] = tuple(r.id for r in RULINGS if r.is_strict)
LENIENT_IDS: tuple[str, ...] = tuple(r.id for r in RULINGS if not r.is_strict)
SWITCH_IDS: tuple[str, ...] = tuple(r.id for r in RULINGS if r.is_switch)


# ---- small predicates: where a switch's readings differ, in the state being observed ----------------------
def switch_matters_now(ruling_id: str, game: Game) -> bool:
    """Could the readings of this switch ruling give a different answer in this state (before any divergence)?

    C9: the seat to move holds a hand that a set or a hand other than three would make the readings
    disagree on, while the draw pile has cards; C14: the seat is in the face-down stage facing a pile;
    C15: the seat plays from its face-up row and holds two of a rank there; C21: the starting card is
    still on the pile and the run on top reaches down to it.
    """
    if game.current_phase() != Phase.PLAY_PHASE:
        return False
    seat = game.current_player()
    if ruling_id == "C9":
        hand = game.hand(seat)
        ranks = [c.rank for c in hand]
        return game.draw_pile_size() > 0 and (len(hand) != 3 or len(set(ranks)) < len(ranks))
    if ruling_id == "C14":
        return game.stage(seat) == "face_down" and game.discard_pile_size() > 0
    if ruling_id == "C15":
        ranks = [c.rank for c in game.face_up(seat)]
        return game.stage(seat) == "face_up" and len(set(ranks)) < len(ranks)
    if ruling_id == "C21":
        return game.start_card_in_run()
    raise KeyError(f"{ruling_id} is not a switch ruling ({', '.join(SWITCH_IDS)})")


__all__ = ["BY_ID", "KINDS", "LENIENT_IDS", "OBSERVATIONS", "RULINGS", "STRICT_IDS", "SWITCH_IDS", "Ruling",
           "switch_matters_now"]
