#include "Palace.h"

playerMove decideMove(Game game);
