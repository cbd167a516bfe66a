/*
 * Game.h -- the Game ADT of Final Card-Down (17s2 API, Game.h v1.2.1, 2017 text).
 *
 * Students include this file; the grader reads the very same file as its
 * cffi declaration.  Signatures, enum names and enum values are part of the
 * interface.  The comments are this project's summary of the course API; the
 * full rules and the rulings on unclear points are in the grader's guide.
 * As in every 2017 Game.h, Card.h is included before the include guard.
 */
#include "Card.h"

#ifndef GAME_H
#define GAME_H

#define NUM_PLAYERS 4
#define NOT_FINISHED -1
#define NO_WINNER 4

#define FALSE 0
#define TRUE (!FALSE)

typedef struct _game *Game;

typedef enum {
    /* Seats in the order 0 -> 1 -> 2 -> 3 -> 0 ... */
    CLOCKWISE,
    /* Seats in the order 0 -> 3 -> 2 -> 1 -> 0 ... */
    ANTICLOCKWISE
} direction;

typedef enum {
    /* Take one card from the draw pile into the hand. */
    DRAW_CARD,
    /* Put one card from the hand on the discard pile. */
    PLAY_CARD,
    /* Say "UNO". */
    SAY_UNO,
    /* Say "DUO". */
    SAY_DUO,
    /* Say "TRIO". */
    SAY_TRIO,
    /* Finish the turn. */
    END_TURN
} action;

typedef struct _playerMove {
    /* Which action the player takes. */
    action action;
    /* Only read when the card played is a DECLARE: the colour the next
     * discard must have. */
    color nextColor;
    /* Only read for PLAY_CARD: the card, a pointer from the current hand. */
    Card card;
} playerMove;

/* A new game whose deck is exactly the deckSize cards described by the three
 * parallel arrays, card i made from values[i], colors[i], suits[i]; index 0
 * is the top of the deck.  No shuffling.  Always 4 players, 7 cards each,
 * dealt one at a time from player 0: card i of the first 28 goes to player
 * i % 4.  The next card starts the discard pile; the rest is the draw pile. */
Game newGame(int deckSize, value values[], color colors[], suit suits[]);

/* Free everything the game owns, the players' data and the cards included. */
void destroyGame(Game game);

/* ---- Functions a player may call to learn about the game ------------ */

/* Number of cards in the initial deck. */
int numCards(Game game);

/* Number of cards of this suit in the initial deck. */
int numOfSuit(Game game, suit suit);

/* Number of cards of this colour in the initial deck. */
int numOfColor(Game game, color color);

/* Number of cards of this value in the initial deck. */
int numOfValue(Game game, value value);

/* Whose turn it is: 0..3. */
int currentPlayer(Game game);

/* The turn number: 0 when the game starts; goes up by one each time a
 * player ends their turn. */
int currentTurn(Game game);

/* For player 0..3: the sum of the values (0x0..0xF) of the cards in that
 * player's hand, at any moment of the game. */
int playerPoints(Game game, int player);

/* The current direction of play. */
direction playDirection(Game game);

/* The card on top of the discard pile. */
Card topDiscard(Game game);

/* Turns so far, the current one included: 1 on turn 0.  The turn given to
 * turnMoves and pastMove must be less than this. */
int numTurns(Game game);

/* Number of moves made in that turn.  Every action a player submitted is a
 * move: draws, plays, the words said, and the END_TURN that closed it. */
int turnMoves(Game game, int turn);

/* The move with that index (from 0) in that turn. */
playerMove pastMove(Game game, int turn, int move);

/* Number of cards in that player's hand. */
int playerCardCount(Game game, int player);

/* Number of cards in the current player's hand. */
int handCardCount(Game game);

/* The card at that index of the current player's hand, which must be less
 * than handCardCount.  Not a copy: the caller must not free it. */
Card handCard(Game game, int card);

/* TRUE if the current player may make this move now, else FALSE.  Never
 * changes the game.
 *
 * After a 2 (DRAW_TWO) the next player must play a 2 or draw two cards;
 * otherwise a card played must be a ZERO or share its colour, value or suit
 * with the top of the discard pile.  An ADVANCE skips the next player, a
 * BACKWARDS reverses the direction of play, after a CONTINUE the player may
 * play another card, and a DECLARE comes with the colour the next discard
 * must have.  Cards come only from the player's own hand; a player may draw
 * instead of discarding, and must draw when unable to discard.  In detail:
 *  - PLAY_CARD: the card is in the hand and matches the top discard, and
 *    the player has not played a card yet this turn, unless the card
 *    played just before was a CONTINUE;
 *  - after a 2, the player plays no card (but a 2) and draws the cards owed;
 *  - DRAW_CARD: no card drawn yet this turn, or, when the previous turn's
 *    player put down a 2, fewer cards drawn than are owed;
 *  - SAY_UNO, SAY_DUO, SAY_TRIO: either at the start of the turn (every
 *    earlier move of the turn is itself a SAY_*) and this word not said yet
 *    this turn, or right after playing a card, leaving exactly 1, 2 or 3
 *    cards in the hand respectively;
 *  - END_TURN: only once a card has been played or drawn this turn. */
int isValidMove(Game game, playerMove move);

/* ---- For the game runner and tests: a player must not call this ---- */

/* Carry out the move for the current player; END_TURN ends the turn and
 * play passes to the next player. */
void playMove(Game game, playerMove move);

/* NOT_FINISHED while the game runs, the winning player 0..3, or NO_WINNER
 * if the game ended without a winner. */
int gameWinner(Game game);

#endif
