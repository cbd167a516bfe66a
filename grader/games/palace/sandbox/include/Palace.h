// Palace.h -- the Palace edition of the card-game ADT
#ifndef PALACE_H
#define PALACE_H

#include "PalaceCard.h"

#define MIN_PLAYERS 2
#define MAX_PLAYERS 5
#define HAND_DEAL 6
#define TABLE_CARDS 3
#define MAX_SET 8
#define NOT_FINISHED -1

#define RULES_BASIC 0
#define RULE_MIRROR_THREE 1
#define RULE_SEVEN_LOWER 2

#define FALSE 0
#define TRUE 1

typedef struct _game *Game;

typedef enum { SETUP_PHASE, PLAY_PHASE, GAME_OVER } phase;

typedef enum {
    CHOOSE_FACE_UP, PLAY_CARDS, PLAY_FACE_DOWN, PICK_UP_PILE
} action;

typedef struct _playerMove {
    action action;
    int numCards;
    Card cards[MAX_SET];
    int faceDownIndex;
} playerMove;

Game newGame(int nPlayers, int nCards, rank ranks[], suit suits[], int rules);
void destroyGame(Game game);

// May be called by a player (decideMove) and by tests.
int numPlayers(Game game);
int numCards(Game game);
int gameRules(Game game);
phase currentPhase(Game game);
int currentPlayer(Game game);
int currentTurn(Game game);
int handCardCount(Game game);
Card handCard(Game game, int n);
int playerCardCount(Game game, int player);
int faceUpCount(Game game, int player);
Card faceUpCard(Game game, int player, int n);
int faceDownCount(Game game, int player);
int drawPileSize(Game game);
int discardPileSize(Game game);
Card topDiscard(Game game);
Card getDiscardPileCard(Game game, int n);
int burntCount(Game game);
Card getBurntCard(Game game, int n);
int effectiveTopRank(Game game);
int sevenRestriction(Game game);
int isValidMove(Game game, playerMove move);

// Must NOT be called by a player: for the game runner and for tests.
void playMove(Game game, playerMove move);
int gameWinner(Game game);
Card getHandCard(Game game, int player, int n);
Card getFaceDownCard(Game game, int player, int n);
Card getDeckCard(Game game, int n);

#endif
