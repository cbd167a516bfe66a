/* The 2017 edition's settings of the family's guard (grader/games/fcd/arena_c/fcd_guard.c).  Its Game.h has no
 * way to read another player's hand (handCard reads the current player's): there is nothing to count. */
#define FCD_GUARD_OTHER_HANDS 0
