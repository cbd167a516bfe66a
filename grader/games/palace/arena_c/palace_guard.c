/* Linked into a student's Palace player with the course's model Palace.c, whose newGame, destroyGame,
 * playMove, gameWinner, getHandCard, getFaceDownCard and getDeckCard are compiled under other names
 * (palaceModel_...).  These stand in for them: outside decideMove they are the model's; inside it
 * (palace_deciding(1) .. palace_deciding(0)) they do nothing, answer nothing (NULL, NOT_FINISHED) and
 * are counted: player.h lets a player look only through the player-callable functions, and C44 says
 * the runner and test functions would show what a player must not see (face-down cards, the other
 * hands, the draw pile). */
#include <stddef.h>
#include "Palace.h"

Game palaceModel_newGame(int nPlayers, int nCards, rank ranks[], suit suits[], int rules);
void palaceModel_destroyGame(Game game);
void palaceModel_playMove(Game game, playerMove move);
int palaceModel_gameWinner(Game game);
Card palaceModel_getHandCard(Game game, int player, int n);
Card palaceModel_getFaceDownCard(Game game, int player, int n);
Card palaceModel_getDeckCard(Game game, int n);

/* which were called inside decideMove, one bit each */
enum { PLAY_MOVE = 1, NEW_GAME = 2, DESTROY_GAME = 4, GAME_WINNER = 8, GET_HAND_CARD = 16,
       GET_FACE_DOWN_CARD = 32, GET_DECK_CARD = 64 };

static int deciding;
static int refusals;
static int refusedWhat;

void palace_deciding(int on) {
    deciding = on;
}

int palace_refusals(void) {
    return refusals;
}

int palace_refused_what(void) {
    return refusedWhat;
}

static int refused(int what) {
    if (deciding) {
        refusals++;
        refusedWhat |= what;
    }
    return deciding;
}

Game newGame(int nPlayers, int nCards, rank ranks[], suit suits[], int rules) {
    return refused(NEW_GAME) ? NULL : palaceModel_newGame(nPlayers, nCards, ranks, suits, rules);
}

void destroyGame(Game game) {
    if (!refused(DESTROY_GAME)) {
        palaceModel_destroyGame(game);
    }
}

void playMove(Game game, playerMove move) {
    if (!refused(PLAY_MOVE)) {
        palaceModel_playMove(game, move);
    }
}

int gameWinner(Game game) {
    return refused(GAME_WINNER) ? NOT_FINISHED : palaceModel_gameWinner(game);
}

Card getHandCard(Game game, int player, int n) {
    return refused(GET_HAND_CARD) ? NULL : palaceModel_getHandCard(game, player, n);
}

Card getFaceDownCard(Game game, int player, int n) {
    return refused(GET_FACE_DOWN_CARD) ? NULL : palaceModel_getFaceDownCard(game, player, n);
}

Card getDeckCard(Game game, int n) {
    return refused(GET_DECK_CARD) ? NULL : palaceModel_getDeckCard(game, n);
}
