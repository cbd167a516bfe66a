/* The game runner's guard around decideMove (fcd_guard.c): declared for the sandbox side's cffi. */
void fcd_deciding(int on);
int fcd_refusals(void);
int fcd_refused_what(void);
int fcd_other_hands(void);
