/*
 * player.h -- the AI player of Final Card-Down (player.h v1.1.0, both editions).
 *
 * The course handed this header to students with Game.h and Card.h; a Game.c
 * may include it, so the grader provides it too.  The grader never calls
 * decideMove when it grades the Game ADT.
 */
#ifndef PLAYER_H
#define PLAYER_H

#include "Game.h"

/* Called by the game runner when it is this player's turn to act, again after
 * every action until it returns END_TURN; never for a skipped player.  It may
 * only look at the game (isValidMove and the queries), never change it. */
playerMove decideMove(Game game);

#endif
