/*
 * Card.c -- the course's Card ADT (2017 names), used by the grader when a
 * submission has no Card.c of its own (the course handed this file out).
 */
#include <stdlib.h>
#include "Card.h"

struct _card {
    value value;
    color color;
    suit suit;
};

Card newCard(value value, color color, suit suit) {
    Card card = malloc(sizeof(struct _card));
    if (card == NULL) {
        return NULL;
    }
    card->value = value;
    card->color = color;
    card->suit = suit;
    return card;
}

void destroyCard(Card card) {
    free(card);
}

suit cardSuit(Card card) {
    return card->suit;
}

value cardValue(Card card) {
    return card->value;
}

color cardColor(Card card) {
    return card->color;
}
