// PalaceCard.h -- cards of the Palace edition
#ifndef PALACE_CARD_H
#define PALACE_CARD_H

typedef enum {
    TWO = 2, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT,
    NINE, TEN, JACK, QUEEN, KING, ACE
} rank;

typedef enum { HEARTS, DIAMONDS, CLUBS, SPADES } suit;

typedef struct _card *Card;

Card newCard(rank r, suit s);
void destroyCard(Card card);
rank cardRank(Card card);
suit cardSuit(Card card);

#endif
