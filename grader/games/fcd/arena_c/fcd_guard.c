/* Linked into a student's player with the course's model Game.c of its edition, whose playMove, newGame,
 * destroyGame (and, where the edition can show another player's hand, getHandCard) are compiled under other
 * names (fcdModel_...).  These stand in for them: outside decideMove they are the model's; inside it
 * (fcd_deciding(1) .. fcd_deciding(0)) the first three do nothing and are counted, so a player can only
 * look at the game, as player.h says, and a look at another player's hand is counted (a course may forbid
 * it).  What differs between the editions is in the edition's fcd_guard_flags.h: FCD_GUARD_OTHER_HANDS is 1
 * where Game.h has getHandCard (2018), 0 where it cannot show another hand (2017: handCard reads the current
 * player's), and fcd_other_hands() then stays 0. */
#include <stddef.h>
#include "Game.h"
#include "fcd_guard_flags.h"

Game fcdModel_newGame(int deckSize, value values[], color colors[], suit suits[]);
void fcdModel_destroyGame(Game game);
void fcdModel_playMove(Game game, playerMove move);
#if FCD_GUARD_OTHER_HANDS
Card fcdModel_getHandCard(Game game, int player, int card);
#endif

static int deciding;
static int refusals;
static int refusedWhat;  /* 1 playMove, 2 newGame, 4 destroyGame: which were called */
static int otherHands;   /* getHandCard calls for a hand not the current player's */

void fcd_deciding(int on) {
    deciding = on;
}

int fcd_refusals(void) {
    return refusals;
}

int fcd_refused_what(void) {
    return refusedWhat;
}

int fcd_other_hands(void) {
    return otherHands;
}

#if FCD_GUARD_OTHER_HANDS
Card getHandCard(Game game, int player, int card) {
    if (deciding && player != currentPlayer(game)) {
        otherHands++;
    }
    return fcdModel_getHandCard(game, player, card);
}
#endif

Game newGame(int deckSize, value values[], color colors[], suit suits[]) {
    if (deciding) {
        refusals++;
        refusedWhat |= 2;
        return NULL;
    }
    return fcdModel_newGame(deckSize, values, colors, suits);
}

void destroyGame(Game game) {
    if (deciding) {
        refusals++;
        refusedWhat |= 4;
        return;
    }
    fcdModel_destroyGame(game);
}

void playMove(Game game, playerMove move) {
    if (deciding) {
        refusals++;
        refusedWhat |= 1;
        return;
    }
    fcdModel_playMove(game, move);
}
