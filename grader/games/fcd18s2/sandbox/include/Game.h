/*
 * Game.h -- the Game ADT of Final Card-Down (18s2 API, Game.h v1.6).
 *
 * Students include this file; the grader reads the very same file as its
 * cffi declaration.  Signatures, enum names and enum values are part of the
 * interface.  The comments are this project's summary of the course API; the
 * full rules and the rulings on unclear points are in the grader's guide.
 */
#ifndef GAME_H
#define GAME_H

#include "Card.h"

#define NUM_PLAYERS 4
#define NOT_FINISHED -1
#define NO_WINNER 4

#define FALSE 0
#define TRUE (!FALSE)

typedef struct _game *Game;

typedef enum {
    DRAW_CARD,
    PLAY_CARD,
    END_TURN
} action;

typedef struct _playerMove {
    /* Which action the player takes. */
    action action;
    /* Only read when the card played is a D: the colour declared. */
    color nextColor;
    /* Only read for PLAY_CARD: the card, a pointer from the current hand. */
    Card card;
} playerMove;

/* ---- Functions a player may call ---------------------------------- */

/* A new game whose deck is exactly the deckSize cards described by the three
 * parallel arrays; index 0 is the top of the deck.  No shuffling.  Card i of
 * the first 28 goes to player i % 4; card 28 starts the discard pile; the rest
 * is the draw pile. */
Game newGame(int deckSize, value values[], color colors[], suit suits[]);

/* Free everything the game owns, cards included. */
void destroyGame(Game game);

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

/* The turn number: 0 at the start; goes up by one at each END_TURN. */
int currentTurn(Game game);

/* The card on top of the discard pile. */
Card topDiscard(Game game);

/* Turns so far, the current one included (currentTurn() + 1). */
int numTurns(Game game);

/* Actions (plays and draws) taken so far in the current turn. */
int currentTurnMoves(Game game);

/* How many cards of value 2 lie one on another at the top of the discard
 * pile; 0 when the top card is not a 2. */
int getNumberOfTwoCardsAtTop(Game game);

/* The colour the next card must match: the declared colour if the top card is
 * a D played with a declaration, else the top card's own colour. */
int getCurrentColor(Game game);

/* The player who played the previous turn (skipped players hold no turn);
 * -1 during turn 0. */
int getPreviousTurnPlayer(Game game);

/* The turn in which the top discard was played; -1 for the first card turned
 * up from the deck. */
int getTopDiscardTurnNumber(Game game);

/* How many 2s on top of the discard pile still oblige the current player to
 * draw (2 cards each) or play a 2; 0 once the penalty has been paid. */
int getActiveDrawTwos(Game game);

/* Number of cards in the current player's hand. */
int handCardCount(Game game);

/* The card at that index of the current player's hand (not a copy: do not
 * free it); NULL if there is no such card. */
Card handCard(Game game, int card);

/* TRUE if the current player may make this move now, else FALSE.
 * Never changes the game. */
int isValidMove(Game game, playerMove move);

/* ---- For testing only: a player must not call these --------------- */

/* Carry out a valid move for the current player; END_TURN passes the turn. */
void playMove(Game game, playerMove move);

/* NOT_FINISHED, the winning player 0..3, or NO_WINNER. */
int gameWinner(Game game);

/* The n-th card of the draw pile (0 = next to be drawn); NULL if none. */
Card getDeckCard(Game game, int n);

/* The n-th card of the discard pile (0 = top); NULL if none. */
Card getDiscardPileCard(Game game, int n);

/* The n-th card of that player's hand; NULL if none. */
Card getHandCard(Game game, int player, int n);

/* Number of cards in that player's hand. */
int playerCardCount(Game game, int player);

/* Sum of the values (0x0..0xF) of the cards in that player's hand. */
int playerPoints(Game game, int player);

#endif
