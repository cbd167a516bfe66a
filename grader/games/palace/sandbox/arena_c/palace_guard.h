/* The game runner's guard around decideMove (palace_guard.c): declared for the sandbox side's cffi. */
void palace_deciding(int on);
int palace_refusals(void);
int palace_refused_what(void);
