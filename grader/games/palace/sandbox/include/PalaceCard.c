/*
 * PalaceCard.c -- the course's card module for the Palace edition (PalaceCard.h),
 * handed out with the assignment; the grader links this copy when a submission
 * has none of its own.
 *
 * A card is a small malloc'd record that never changes after newCard: its rank
 * and suit are fixed.  Whoever creates a card owns it until it gives it to
 * something that takes ownership (a Game owns the cards it makes in newGame).
 */
#include <stdlib.h>
#include "PalaceCard.h"

struct _card {
    rank rank;
    suit suit;
};

/* A new card.  Precondition: r in TWO..ACE, s in HEARTS..SPADES.  NULL only
 * when memory has run out. */
Card newCard(rank r, suit s) {
    Card card = malloc(sizeof(struct _card));
    if (card == NULL) {
        return NULL;
    }
    card->rank = r;
    card->suit = s;
    return card;
}

void destroyCard(Card card) {
    free(card);
}

rank cardRank(Card card) {
    return card->rank;
}

suit cardSuit(Card card) {
    return card->suit;
}
