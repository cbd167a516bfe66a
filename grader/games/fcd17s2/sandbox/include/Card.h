/*
 * Card.h -- the Card ADT of Final Card-Down (17s2 API, Card.h v1.1.0, 2017 names).
 *
 * Students include this file; the grader reads the very same file as its
 * cffi declaration, so what you compile against is what the grader calls.
 * Enum names and their numeric values are part of the interface: do not
 * renumber them.  (The 2018 Card.h, also labelled v1.1.0, calls values
 * 10..13 A, B, C, D; the numbers are the same, the names are not.)
 */
#ifndef CARD_H
#define CARD_H

typedef struct _card *Card;

/* The colours a card can have. */
typedef enum {
    RED,
    BLUE,
    GREEN,
    YELLOW,
    PURPLE
} color;

/* The suits a card can have. */
typedef enum {
    HEARTS,
    DIAMONDS,
    CLUBS,
    SPADES,
    QUESTIONS
} suit;

/* The values a card can have, 0x0..0xF.  ZERO is also called NULL;
 * DRAW_TWO makes the next player draw two cards (or play a 2), ADVANCE skips
 * the next player, BACKWARDS reverses the direction of play, CONTINUE lets
 * the player discard again, DECLARE names the colour of the next discard. */
typedef enum {
    ZERO,
    ONE,
    DRAW_TWO,
    THREE,
    FOUR,
    FIVE,
    SIX,
    SEVEN,
    EIGHT,
    NINE,
    ADVANCE,
    BACKWARDS,
    CONTINUE,
    DECLARE,
    E,
    F
} value;

/* A new card with the given value (0x0..0xF), colour and suit.
 * A card never changes once made. */
Card newCard(value value, color color, suit suit);

/* Free the memory of a card made by newCard. */
void destroyCard(Card card);

/* The card's suit (HEARTS, DIAMONDS, ...). */
suit cardSuit(Card card);

/* The card's value, 0x0..0xF. */
value cardValue(Card card);

/* The card's colour (RED, BLUE, ...). */
color cardColor(Card card);

#endif
