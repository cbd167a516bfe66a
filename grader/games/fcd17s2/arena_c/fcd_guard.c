/* Linked into a student's 2017 player with the course's 2017 model Game.c, whose playMove, newGame and
 * destroyGame are compiled under other names (fcdModel_...).  These stand in for them: outside decideMove
 * they are the model's; inside it (fcd_deciding(1) .. fcd_deciding(0)) they do nothing and are counted, so
 * a player can only look at the game, as player.h says.  (The 2017 Game.h has no way to read another
 * player's hand -- handCard reads the current player's -- so, unlike 2018's guard, there is nothing to
 * count there.) */
#include <stddef.h>
#include "Game.h"

Game fcdModel_newGame(int deckSize, value values[], color colors[], suit suits[]);
void fcdModel_destroyGame(Game game);
void fcdModel_playMove(Game game, playerMove move);

static int deciding;
static int refusals;
static int refusedWhat;  /* 1 playMove, 2 newGame, 4 destroyGame: which were called */

void fcd_deciding(int on) {
    deciding = on;
}

int fcd_refusals(void) {
    return refusals;
}

int fcd_refused_what(void) {
    return refusedWhat;
}

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
