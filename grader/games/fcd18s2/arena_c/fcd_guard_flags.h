/* The 2018 edition's settings of the family's guard (grader/games/fcd/arena_c/fcd_guard.c).  Its Game.h can
 * show another player's hand (getHandCard, which arena.py's RENAMED hands to the guard): the looks are counted. */
#define FCD_GUARD_OTHER_HANDS 1
