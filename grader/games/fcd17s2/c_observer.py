"""The 2017 C observer: a whole 2017 game played and observed natively, in one foreign call.

``source()`` writes it from the 2017 observation table, around the family's common part
(``grader.games.fcd.c_observer``), as 2018's is written (``grader.games.fcd18s2.c_observer``): it makes
exactly the calls of ``grader.games.fcd17s2.sandbox.observe.Observer`` in the same order -- the int queries,
turnMoves and the history (every move read through ``pastMove`` and, when it holds a card, that card's
look), topDiscard, the hand by its count, the counts and points, then isValidMove of every card in hand,
of the first card of each other hand as last seen, of DRAW_CARD, END_TURN and the three words -- writes
the call in progress into the worker's call slot before each one, and writes every step in the packed form
of ``grader.games.fcd.packed`` (a move of the history as its notation, written as ``move_label`` writes
it, its numbers read as cffi reads the header's enums: unsigned).  Nothing in it ever sees an expected value.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from grader.games.fcd import c_observer as family
from grader.games.fcd.packed import NOT_DECLARED, WORD, word_code
from grader.games.fcd17s2.observations import BY_NAME, ORDER
from grader.games.fcd17s2.sandbox.interface import API_FUNCTIONS, INCLUDE_DIR
from grader.games.fcd17s2.sandbox.observe import (
    CALL_IDS,
    DECK_COUNT_PROBES,
    INT_PROBES,
    MOVES_CAP,
    PROBE_IDS,
    SAY_LABELS,
)
from reference.cards import COLOR_LETTERS, SUIT_LETTERS, VALUE_DIGITS
from reference.fcd17s2 import Action
from reference.fcd17s2.moves import WORDS

# Where the C observer keeps each observation of the table during a step (the C expressions its
# writer takes), and how each shape is written.  A new row of the table needs a line here.
_DECK_COUNT_AT = {name: sum(max(1, p[3]) for p in DECK_COUNT_PROBES[:k])
                  for k, (name, _c, _m, _n) in enumerate(DECK_COUNT_PROBES)}
_STORE: dict[str, tuple[str, ...]] = {
    **{name: (f"ints[{k}]",) for k, (name, _c, _m) in enumerate(INT_PROBES)},
    "turn_moves": ("turn_moves",),
    "past_moves": ("0",),
    "declarations": ("1",),
    "top_discard": ("top",),
    "hand_card_count": ("count",),
    "hand": ("hand_n", "hand"),
    "card_counts": ("counts",),
    "points": ("points",),
    "valid_play": ("play_n", "play"),
    "valid_foreign": ("foreign_n", "foreign"),
    "valid_draw": ("valid_draw",),
    "valid_say": (str(len(SAY_LABELS)), "says"),
    "valid_end": ("valid_end",),
    **{name: (f"deck_counts[{_DECK_COUNT_AT[name]}]" if n == 0 else f"deck_counts + {_DECK_COUNT_AT[name]}",)
       for name, _c, _m, n in DECK_COUNT_PROBES},
}
_WRITE = {
    "int": "put({0});", "bool": "put({0});", "card": "put_card({0});", "cards": "put_cards({0}, {1});",
    "four_ints": "put_ints({0}, 4);", "ints_5": "put_ints({0}, 5);", "ints_16": "put_ints({0}, 16);",
    "answers": "put_answers({0}, {1});", "history": "put_history({0});",
}

STATE = r'''/* One step's observations, kept until the step is written in the table's order. */
static int32_t cap, ints[@N_INTS@], turn_moves, count, counts[4], points[4], valid_draw, valid_end;
static int32_t deck_counts[@N_DECK_COUNTS@], says[@N_SAYS@][5];
static seen_card top, *hand;
static Card *hand_ptr;
static int32_t hand_n;
static int32_t (*play)[5], play_n, (*foreign)[5], foreign_n;
/* The history: the previous turn's moves and the current turn's, each in the notation. */
#define MOVES_CAP @MOVES_CAP@
static char history[2][MOVES_CAP][32];
static int32_t history_n[2];
/* The first card of each player's hand the last time they were current, by player, in increasing order. */
static int32_t *first_player, first_n, first_cap;
static Card *first_card;
static seen_card *first_look;

'''

OBSERVE = r'''static const char *const WORDS[] = {@WORDS@};

/* A move of the history as ``observe.move_label`` writes it; the numbers as cffi reads the enums (unsigned). */
static void move_label(char *out, uint32_t act, Card card, seen_card k, uint32_t next) {
    if (act != @PLAY_CARD@) {
        if (act < sizeof WORDS / sizeof WORDS[0] && WORDS[act][0]) strcpy(out, WORDS[act]);
        else snprintf(out, 25, "<action %u>", act);
        return;
    }
    if (!card) { strcpy(out, "<no card>"); return; }
    uint32_t v = (uint32_t)k.v, c = (uint32_t)k.c, s = (uint32_t)k.s;
    if (v < 16 && c < 5 && s < 5) {
        out[0] = "@VALUE_DIGITS@"[v]; out[1] = "@COLOR_LETTERS@"[c]; out[2] = "@SUIT_LETTERS@"[s]; out[3] = 0;
    }
    else snprintf(out, 25, "<%u,%u,%u>", v, c, s);
    if (v == @VALUE_D@) {
        size_t n = strlen(out);
        out[n] = '/'; out[n + 1] = next < 5 ? "@COLOR_LETTERS@"[next] : '?'; out[n + 2] = 0;
    }
}

static int declares(const char *label) { return label[0] == 'D' && strchr(label, '/') != NULL; }

/* The history of both turns (``which`` 0), or their DECLAREs only (1): per turn a count, then each label. */
static void put_history(int which) {
    for (int t = 0; t < 2; t++) {
        int32_t n = 0;
        for (int32_t i = 0; i < history_n[t]; i++) n += !which || declares(history[t][i]);
        put(n);
        for (int32_t i = 0; i < history_n[t]; i++) {
            if (which && !declares(history[t][i])) continue;
            int32_t len = (int32_t)strlen(history[t][i]);
            put(len);
            for (int32_t j = 0; j < len; j++) put((unsigned char)history[t][i][j]);
        }
    }
}

static int32_t upto(int32_t n, int32_t most) { return n < 0 ? 0 : n > most ? most : n; }

/* Observer._history: turnMoves of the previous turn, then every move of both turns through pastMove. */
static void read_history(Game g, int32_t turn) {
    for (int j = 0; j < 2; j++) {
        int64_t t = (int64_t)turn - 1 + j;
        history_n[j] = 0;
        if (t < 0) continue;
        int32_t n = turn_moves;
        if (j == 0) { at(@PROBE_past_moves@, @CALL_turnMoves@, (int32_t)t, 0); n = p_turnMoves(g, (int32_t)t); }
        history_n[j] = upto(n, MOVES_CAP);
        for (int32_t i = 0; i < history_n[j]; i++) {
            at(@PROBE_past_moves@, @CALL_pastMove@, (int32_t)t, i);
            playerMove m = p_pastMove(g, (int32_t)t, i);
            seen_card k = look(m.card);
            uint32_t act = (uint32_t)m.action;
            move_label(history[j][i], act, act == @PLAY_CARD@ ? m.card : NULL, k, (uint32_t)m.nextColor);
        }
    }
}

/* Remember card 0 of player p's hand (``Observer._first_cards``); -1 if out of memory. */
static int remember_first(int32_t p, Card c, seen_card k) {
    int32_t at_ = 0;
    while (at_ < first_n && first_player[at_] < p) at_++;
    if (at_ == first_n || first_player[at_] != p) {
        if (first_n == first_cap) {
            int32_t n = first_cap ? 2 * first_cap : 8;
            int32_t *ps = realloc(first_player, sizeof *ps * (size_t)n);
            if (ps) first_player = ps;
            Card *cs = realloc(first_card, sizeof *cs * (size_t)n);
            if (cs) first_card = cs;
            seen_card *ks = realloc(first_look, sizeof *ks * (size_t)n);
            if (ks) first_look = ks;
            int32_t (*fs)[5] = realloc(foreign, sizeof *fs * 5 * (size_t)n);
            if (fs) foreign = fs;
            if (!ps || !cs || !ks || !fs) return -1;
            first_cap = n;
        }
        memmove(first_player + at_ + 1, first_player + at_, sizeof *first_player * (size_t)(first_n - at_));
        memmove(first_card + at_ + 1, first_card + at_, sizeof *first_card * (size_t)(first_n - at_));
        memmove(first_look + at_ + 1, first_look + at_, sizeof *first_look * (size_t)(first_n - at_));
        first_n++;
    }
    first_player[at_] = p; first_card[at_] = c; first_look[at_] = k;
    return 0;
}

/* Observer.observe: every call in its order; then the step written in the table's order. */
static int observe(Game g, int first) {
@INT_CALLS@
    int32_t turn = ints[@INT_current_turn@];
    at(@PROBE_turn_moves@, @CALL_turnMoves@, turn, 0);
    turn_moves = p_turnMoves(g, turn);
    read_history(g, turn);

    at(@PROBE_top_discard@, @CALL_topDiscard@, 0, 0);
    Card t = p_topDiscard(g);
    top = named(t, look(t));

    at(@PROBE_hand_card_count@, @CALL_handCardCount@, 0, 0);
    count = p_handCardCount(g);
    hand_n = reads(count);
    for (int32_t i = 0; i < hand_n; i++) {
        at(@PROBE_hand@, @CALL_handCard@, i, count);
        hand_ptr[i] = p_handCard(g, i);
        hand[i] = look(hand_ptr[i]);
    }
    for (int32_t i = 0; i < hand_n; i++) hand[i] = named(hand_ptr[i], hand[i]);
    for (int p = 0; p < 4; p++) {
        at(@PROBE_card_counts@, @CALL_playerCardCount@, p, 0);
        counts[p] = p_playerCardCount(g, p);
    }
    for (int p = 0; p < 4; p++) {
        at(@PROBE_points@, @CALL_playerPoints@, p, 0);
        points[p] = p_playerPoints(g, p);
    }
    int32_t me = ints[@INT_current_player@];
    if (hand_n > 0 && hand_ptr[0] && remember_first(me, hand_ptr[0], hand[0])) return -1;

    play_n = 0;
    for (int32_t i = 0; i < hand_n; i++)
        if (hand_ptr[i]) answer(g, @PROBE_valid_play@, i, hand_ptr[i], hand[i], play, &play_n, 1);
    foreign_n = 0;
    for (int32_t f = 0; f < first_n; f++) {
        if (first_player[f] == me) continue;
        int twin = 0;
        for (int32_t i = 0; i < hand_n; i++) if (hand_ptr[i] && same_look(hand[i], first_look[f])) twin = 1;
        if (twin) continue;
        answer(g, @PROBE_valid_foreign@, (int32_t)((uint32_t)first_player[f] + 100u), first_card[f], first_look[f],
               foreign, &foreign_n, 0);
    }
    at(@PROBE_valid_draw@, @CALL_isValidMove@, @A_DRAW@, 0);
    valid_draw = isValid(g, @DRAW_CARD@, NULL, 0);
    at(@PROBE_valid_end@, @CALL_isValidMove@, @A_END@, 0);
    valid_end = isValid(g, @END_TURN@, NULL, 0);
@SAY_CALLS@
    if (first) {
@DECK_COUNT_CALLS@
    }
@WRITE_STEP@
    return overflow ? -1 : 0;
}

'''

REFUSED_AND_ENTRY = (
    "/* Did the submission's own isValidMove, in the step just observed, refuse move m? (play.refused) */\n"
    + r'''static int refused(const int32_t *m) {
    if (m[0] == @DRAW_CARD@) return !valid_draw;
    if (m[0] == @END_TURN@) return !valid_end;
@SAY_REFUSED@
    int32_t declared = m[1] == @VALUE_D@ ? m[4] : @NOT_DECLARED@;
    for (int32_t i = 0; i < play_n; i++)
        if (play[i][0] == m[1] && play[i][1] == m[2] && play[i][2] == m[3] && play[i][3] == declared)
            return !play[i][4];
    return 0;
}

/* Play and observe a whole game.  deck: value, colour, suit per card; moves: action, value, colour,
 * suit, declared colour per move; depths: unused (2017 shows no piles).  Returns how it ended;
 * *stopped: the move. */
EXPORT int @ENTRY@(void *const *api, int32_t deck_n, const int32_t *deck, int32_t n_moves, const int32_t *moves,
                    const int32_t *depths, int32_t *call_slot, int32_t *packed, int64_t packed_cap,
                    int64_t *packed_len, int32_t *stopped, int destroy) {
    (void)depths;
@SET_POINTERS@
    /* Each game starts from nothing, even with the observer kept loaded (several games to a child): a card's
     * identity is numbered from the first one this game meets, and no player's first card is known. */
    free(id_keys); free(id_vals); id_keys = NULL; id_vals = NULL; id_cap = id_n = 0;
    free(hand); free(hand_ptr); free(play); hand = NULL; hand_ptr = NULL; play = NULL;
    free(first_player); free(first_card); free(first_look); free(foreign);
    first_player = NULL; first_card = NULL; first_look = NULL; foreign = NULL; first_n = first_cap = 0;
    slot = call_slot; step_no = 0; out = packed; out_len = 0; out_cap = packed_cap; overflow = 0;
    *stopped = 0; *packed_len = 0;
    cap = deck_n + 1 < @HAND_CAP@ ? deck_n + 1 : @HAND_CAP@;
    hand = malloc(sizeof(seen_card) * (size_t)cap); hand_ptr = malloc(sizeof(Card) * (size_t)cap);
    play = malloc(sizeof *play * 5 * (size_t)cap);
    if (!hand || !hand_ptr || !play || grow_ids()) return @OVERFLOW@;
    value *vs = malloc(sizeof(value) * (size_t)deck_n); color *cs = malloc(sizeof(color) * (size_t)deck_n);
    suit *ss = malloc(sizeof(suit) * (size_t)deck_n);
    if (!vs || !cs || !ss) return @OVERFLOW@;
    for (int32_t i = 0; i < deck_n; i++) {
        vs[i] = (value)deck[3 * i]; cs[i] = (color)deck[3 * i + 1]; ss[i] = (suit)deck[3 * i + 2];
    }
    at(@NEW_GAME@, @CALL_newGame@, 0, 0);
    Game g = p_newGame(deck_n, vs, cs, ss);
    free(vs); free(cs); free(ss);
    if (!g) return @NULL_GAME@;
    if (observe(g, 1)) return @OVERFLOW@;
    for (int32_t i = 0; i < n_moves; i++) {
        const int32_t *m = moves + 5 * i;
        *stopped = i;
        if (refused(m)) { *packed_len = out_len; return @REFUSED@; }
        Card card = NULL;
        if (m[0] == @PLAY_CARD@ && !(card = find(g, i, m))) { *packed_len = out_len; return @NO_CARD@; }
        at(@PLAY_MOVE@, @CALL_playMove@, i, 0);
        playerMove move; memset(&move, 0, sizeof move);
        move.action = (action)m[0]; move.nextColor = (color)(m[0] == @PLAY_CARD@ ? m[4] : 0); move.card = card;
        p_playMove(g, move);
        step_no = i + 1;
        if (observe(g, 0)) return @OVERFLOW@;
    }
    *stopped = n_moves;
    *packed_len = out_len;
    if (destroy) { at(@DESTROY_GAME@, @CALL_destroyGame@, 0, 0); p_destroyGame(g); }
    return @DONE@;
}
''')

TEMPLATE = (family.HEAD.replace("#include <string.h>\n", "#include <stdio.h>\n#include <string.h>\n")
            + STATE + family.OUTPUT + OBSERVE + family.FIND + REFUSED_AND_ENTRY)


def _int_calls() -> str:
    return "\n".join(f"    at({PROBE_IDS[name]}, {CALL_IDS[cname]}, 0, 0); ints[{k}] = p_{cname}(g);"
                     for k, (name, cname, _m) in enumerate(INT_PROBES))


def _say_calls() -> str:
    """isValidMove of each word, in ``SAY_LABELS``' order: an answer about a word, as ``packed`` writes it."""
    return "\n".join(f"    at({PROBE_IDS['valid_say']}, {CALL_IDS['isValidMove']}, {-1 - int(word)}, 0); "
                     f"says[{k}][0] = {WORD}; says[{k}][1] = {word_code(label)}; says[{k}][2] = 0; "
                     f"says[{k}][3] = {NOT_DECLARED}; says[{k}][4] = isValid(g, {int(word)}, NULL, 0);"
                     for k, (label, word) in enumerate(SAY_LABELS.items()))


def _say_refused() -> str:
    return "\n".join(f"    if (m[0] == {int(word)}) return !says[{k}][4];"
                     for k, word in enumerate(SAY_LABELS.values()))


def _deck_count_calls() -> str:
    lines, at_ = [], 0
    for name, cname, _m, n in DECK_COUNT_PROBES:
        if n == 0:
            lines.append(f"        at({PROBE_IDS[name]}, {CALL_IDS[cname]}, 0, 0); deck_counts[{at_}] = p_{cname}(g);")
        else:
            lines.append(f"        for (int k = 0; k < {n}; k++) {{ at({PROBE_IDS[name]}, {CALL_IDS[cname]}, k, 0); "
                         f"deck_counts[{at_} + k] = p_{cname}(g, k); }}")
        at_ += max(1, n)
    return "\n".join(lines)


def _write_step() -> str:
    lines = []
    first_only = {p[0] for p in DECK_COUNT_PROBES}
    for name in ORDER:
        if name not in _STORE:
            raise KeyError(f"the C observer does not keep {name!r}: add it to c_observer._STORE")
        line = _WRITE[BY_NAME[name].shape].format(*_STORE[name])
        lines.append(f"    {'if (first) ' if name in first_only else ''}{line}  /* {name} */")
    return "\n".join(lines)


def _words() -> str:
    """The words of the notation by action number ("" for PLAY_CARD): ``move_label``'s."""
    return ", ".join(f'"{WORDS.get(Action(a), "")}"' for a in range(max(int(a) for a in Action) + 1))


@cache
def source() -> str:
    """The observer's C source, from the table and the API list."""
    actions = {a.name: int(a) for a in Action}
    subs = {
        **family.common_subs("grader/games/fcd17s2/c_observer.py", API_FUNCTIONS, PROBE_IDS, CALL_IDS, actions),
        "N_INTS": str(len(INT_PROBES)),
        "N_DECK_COUNTS": str(sum(max(1, p[3]) for p in DECK_COUNT_PROBES)),
        "N_SAYS": str(len(SAY_LABELS)), "MOVES_CAP": str(MOVES_CAP), "WORDS": _words(),
        "VALUE_DIGITS": VALUE_DIGITS, "COLOR_LETTERS": COLOR_LETTERS, "SUIT_LETTERS": SUIT_LETTERS,
        "INT_CALLS": _int_calls(), "SAY_CALLS": _say_calls(), "SAY_REFUSED": _say_refused(),
        "DECK_COUNT_CALLS": _deck_count_calls(), "WRITE_STEP": _write_step(),
        **{f"INT_{name}": str(k) for k, (name, _c, _m) in enumerate(INT_PROBES)},
    }
    return family.fill(TEMPLATE, subs)


def library() -> Path:
    """The compiled observer (``c_observer.build``: once per source)."""
    return family.build(source(), INCLUDE_DIR)


def install(lib_dir: Path) -> Path:
    """A copy of the observer beside a submission's library (the folder the sandbox mounts)."""
    return family.install(library(), lib_dir)
