/*
 * Card.h -- the Card ADT of Final Card-Down (18s2 API, Card.h v1.1.0).
 *
 * Students include this file; the grader reads the very same file as its
 * cffi declaration, so what you compile against is what the grader calls.
 * Enum names and their numeric values are part of the interface: do not
 * renumber them.
 */
#ifndef CARD_H
#define CARD_H

typedef enum {
    RED,
    BLUE,
    GREEN,
    YELLOW,
    PURPLE
} color;

typedef enum {
    HEARTS,
    DIAMONDS,
    CLUBS,
    SPADES,
    QUESTIONS
} suit;

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
    A,
    B,
    C,
    D,
    E,
    F
} value;

typedef struct _card *Card;

/* A new card with the given value (0x0..0xF), colour and suit.
 * A card never changes once made. */
Card newCard(value value, color color, suit suit);

/* Free the memory of a card made by newCard. */
void destroyCard(Card card);

/* The card's suit. */
suit cardSuit(Card card);

/* The card's value, 0x0..0xF. */
value cardValue(Card card);

/* The card's colour. */
color cardColor(Card card);

#endif
