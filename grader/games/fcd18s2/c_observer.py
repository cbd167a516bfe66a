"""The 2018 C observer: a whole game played and observed natively, in one foreign call.

``source()`` writes it from the observation table, around the family's common part
(``grader.games.fcd.c_observer``): it makes exactly the calls of
``grader.games.fcd.sandbox.observe.Observer`` in the same order (so a buggy submission sees the same sequence of
calls as on the Python path), writes the call in progress into the worker's call slot before each one (so
a crash or a hang is pinned on the same call), and writes every step in the packed form of
``grader.games.fcd.packed``.  ``library()`` compiles it (``c_observer.build``), ``install()`` puts a copy
next to a submission's built library.  Nothing in it ever sees an expected value.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from grader.games.fcd import c_observer as family
from grader.games.fcd.sandbox.observe import FOREIGN_PROBES
from grader.games.fcd18s2.observations import BY_NAME, ORDER
from grader.games.fcd18s2.sandbox.interface import API_FUNCTIONS, INCLUDE_DIR
from grader.games.fcd18s2.sandbox.observe import CALL_IDS, DECK_COUNT_PROBES, INT_PROBES, PILE_PROBES, PROBE_IDS
from reference import Action

# Where the C observer keeps each observation of the table during a step (the C expressions its
# writer takes), and how each shape is written.  A new row of the table needs a line here.
_DECK_COUNT_AT = {name: sum(max(1, p[3]) for p in DECK_COUNT_PROBES[:k])
                  for k, (name, _c, _m, _n) in enumerate(DECK_COUNT_PROBES)}
_STORE: dict[str, tuple[str, ...]] = {
    **{name: (f"ints[{k}]",) for k, (name, _c, _m) in enumerate(INT_PROBES)},
    "top_discard": ("top",),
    "hand": ("hand_n", "hand"),
    "hands": ("hands_n", "hands"),
    "card_counts": ("counts",),
    "points": ("points",),
    "hand_end_null": ("hand_end_null",),
    "deck_pile": ("pile_n[0]", "pile[0]"),
    "discard_pile": ("pile_n[1]", "pile[1]"),
    "valid_draw": ("valid_draw",),
    "valid_end": ("valid_end",),
    "valid_play": ("play_n", "play"),
    "valid_foreign": ("foreign_n", "foreign"),
    **{name: (f"deck_counts[{_DECK_COUNT_AT[name]}]" if n == 0 else f"deck_counts + {_DECK_COUNT_AT[name]}",)
       for name, _c, _m, n in DECK_COUNT_PROBES},
}
_WRITE = {
    "int": "put({0});", "bool": "put({0});", "card": "put_card({0});", "cards": "put_cards({0}, {1});",
    "four_hands": "for (int p = 0; p < 4; p++) put_cards({0}[p], {1}[p]);",
    "four_ints": "put_ints({0}, 4);", "ints_5": "put_ints({0}, 5);", "ints_16": "put_ints({0}, 16);",
    "answers": "put_answers({0}, {1});",
}

STATE = r'''/* One step's observations, kept until the step is written in the table's order. */
static int32_t cap, ints[@N_INTS@], counts[4], points[4], hand_end_null, valid_draw, valid_end;
static int32_t deck_counts[@N_DECK_COUNTS@];
static seen_card top, *hand, *hands[4], *pile[2];
static Card *hand_ptr;
static int32_t hand_n, hands_n[4], pile_n[2], pile_cap[2];
static int32_t (*play)[5], play_n, foreign[@FOREIGN_MAX@][5], foreign_n;

'''

OBSERVE = r'''static int grow_pile(int which, int32_t depth) {
    if (depth <= pile_cap[which]) return 0;
    seen_card *p = realloc(pile[which], sizeof(seen_card) * (size_t)depth);
    if (!p) return -1;
    pile[which] = p; pile_cap[which] = depth;
    return 0;
}

/* Observer.observe: every call in its order; then the step written in the table's order. */
static int observe(Game g, const int32_t *depths, int first) {
@INT_CALLS@
    at(@PROBE_top_discard@, @CALL_topDiscard@, 0, 0);
    Card t = p_topDiscard(g);
    top = named(t, look(t));

    int32_t count = ints[@INT_hand_card_count@];
    hand_n = reads(count);
    for (int32_t i = 0; i < hand_n; i++) {
        at(@PROBE_hand@, @CALL_handCard@, i, count);
        hand_ptr[i] = p_handCard(g, i);
        hand[i] = look(hand_ptr[i]);
    }
    for (int32_t i = 0; i < hand_n; i++) hand[i] = named(hand_ptr[i], hand[i]);
    at(@PROBE_hand_end_null@, @CALL_handCard@, count, count);
    hand_end_null = 0;
    if (count >= 0 && count <= cap) {
        Card past = p_handCard(g, count);
        look(past);
        hand_end_null = past == NULL;
    }

    for (int p = 0; p < 4; p++) {
        at(@PROBE_card_counts@, @CALL_playerCardCount@, p, 0);
        counts[p] = p_playerCardCount(g, p);
    }
    for (int p = 0; p < 4; p++) {
        at(@PROBE_points@, @CALL_playerPoints@, p, 0);
        points[p] = p_playerPoints(g, p);
    }
    for (int p = 0; p < 4; p++) {
        hands_n[p] = reads(counts[p]);
        for (int32_t i = 0; i < hands_n[p]; i++) {
            at(@PROBE_hands@, @CALL_getHandCard@, p, i);
            Card c = p_getHandCard(g, p, i);
            hands[p][i] = named(c, look(c));
        }
    }
@PILE_CALLS@
    play_n = 0;
    for (int32_t i = 0; i < hand_n; i++)
        if (hand_ptr[i]) answer(g, @PROBE_valid_play@, i, hand_ptr[i], hand[i], play, &play_n, 1);
    foreign_n = 0;
    int32_t me = ints[@INT_current_player@], found = 0;
    Card found_card[@FOREIGN_PROBES@]; seen_card found_look[@FOREIGN_PROBES@]; int32_t found_player[@FOREIGN_PROBES@];
    for (int p = 0; p < 4 && found < @FOREIGN_PROBES@; p++) {
        if (p == me) continue;
        at(@PROBE_valid_foreign@, @CALL_playerCardCount@, p, 0);
        if (p_playerCardCount(g, p) <= 0) continue;
        at(@PROBE_valid_foreign@, @CALL_getHandCard@, p, 0);
        Card c = p_getHandCard(g, p, 0);
        seen_card k = look(c);
        int twin = 0;
        for (int32_t i = 0; i < hand_n; i++) if (hand_ptr[i] && same_look(hand[i], k)) twin = 1;
        if (c && !twin) { found_card[found] = c; found_look[found] = k; found_player[found] = p; found++; }
    }
    for (int32_t f = 0; f < found; f++)
        answer(g, @PROBE_valid_foreign@, 100 + found_player[f], found_card[f], found_look[f], foreign, &foreign_n, 0);
    at(@PROBE_valid_draw@, @CALL_isValidMove@, @A_DRAW@, 0);
    valid_draw = isValid(g, @DRAW_CARD@, NULL, 0);
    at(@PROBE_valid_end@, @CALL_isValidMove@, @A_END@, 0);
    valid_end = isValid(g, @END_TURN@, NULL, 0);
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
    int32_t declared = m[1] == @VALUE_D@ ? m[4] : @NOT_DECLARED@;
    for (int32_t i = 0; i < play_n; i++)
        if (play[i][0] == m[1] && play[i][1] == m[2] && play[i][2] == m[3] && play[i][3] == declared)
            return !play[i][4];
    return 0;
}

/* Play and observe a whole game.  deck: value, colour, suit per card; moves: action, value, colour,
 * suit, declared colour per move; depths: two per step.  Returns how it ended; *stopped: the move. */
EXPORT int @ENTRY@(void *const *api, int32_t deck_n, const int32_t *deck, int32_t n_moves, const int32_t *moves,
                    const int32_t *depths, int32_t *call_slot, int32_t *packed, int64_t packed_cap,
                    int64_t *packed_len, int32_t *stopped, int destroy) {
@SET_POINTERS@
    /* Each game starts from nothing, even with the observer kept loaded (several games to a child): a card's
     * identity is numbered from the first one this game meets. */
    free(id_keys); free(id_vals); id_keys = NULL; id_vals = NULL; id_cap = id_n = 0;
    free(hand); free(hand_ptr); free(play); hand = NULL; hand_ptr = NULL; play = NULL;
    for (int p = 0; p < 4; p++) { free(hands[p]); hands[p] = NULL; }
    slot = call_slot; step_no = 0; out = packed; out_len = 0; out_cap = packed_cap; overflow = 0;
    *stopped = 0; *packed_len = 0;
    cap = deck_n + 1 < @HAND_CAP@ ? deck_n + 1 : @HAND_CAP@;
    hand = malloc(sizeof(seen_card) * (size_t)cap); hand_ptr = malloc(sizeof(Card) * (size_t)cap);
    play = malloc(sizeof *play * 5 * (size_t)cap);
    for (int p = 0; p < 4; p++) hands[p] = malloc(sizeof(seen_card) * (size_t)cap);
    if (!hand || !hand_ptr || !play || !hands[3] || grow_ids()) return @OVERFLOW@;
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
    if (grow_pile(0, depths[0]) || grow_pile(1, depths[1]) || observe(g, depths, 1)) return @OVERFLOW@;
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
        const int32_t *d = depths + 2 * (i + 1);
        if (grow_pile(0, d[0]) || grow_pile(1, d[1]) || observe(g, d, 0)) return @OVERFLOW@;
    }
    *stopped = n_moves;
    *packed_len = out_len;
    if (destroy) { at(@DESTROY_GAME@, @CALL_destroyGame@, 0, 0); p_destroyGame(g); }
    return @DONE@;
}
''')

TEMPLATE = family.HEAD + STATE + family.OUTPUT + OBSERVE + family.FIND + REFUSED_AND_ENTRY


def _int_calls() -> str:
    return "\n".join(f"    at({PROBE_IDS[name]}, {CALL_IDS[cname]}, 0, 0); ints[{k}] = p_{cname}(g);"
                     for k, (name, cname, _m) in enumerate(INT_PROBES))


def _pile_calls() -> str:
    lines = []
    for which, (name, cname, _m) in enumerate(PILE_PROBES):
        lines += [f"    pile_n[{which}] = depths[{which}];",
                  f"    for (int32_t i = 0; i < depths[{which}]; i++) {{",
                  f"        at({PROBE_IDS[name]}, {CALL_IDS[cname]}, i, depths[{which}]);",
                  f"        Card c = p_{cname}(g, i);",
                  f"        pile[{which}][i] = named(c, look(c));",
                  "    }"]
    return "\n".join(lines)


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


@cache
def source() -> str:
    """The observer's C source, from the table and the API list."""
    actions = {a: int(getattr(Action, a)) for a in ("DRAW_CARD", "PLAY_CARD", "END_TURN")}
    subs = {
        **family.common_subs("grader/games/fcd18s2/c_observer.py", API_FUNCTIONS, PROBE_IDS, CALL_IDS, actions),
        "N_INTS": str(len(INT_PROBES)),
        "N_DECK_COUNTS": str(sum(max(1, p[3]) for p in DECK_COUNT_PROBES)),
        "FOREIGN_MAX": str(FOREIGN_PROBES * 5),
        "FOREIGN_PROBES": str(FOREIGN_PROBES),
        "INT_CALLS": _int_calls(), "PILE_CALLS": _pile_calls(), "DECK_COUNT_CALLS": _deck_count_calls(),
        "WRITE_STEP": _write_step(),
        **{f"INT_{name}": str(k) for k, (name, _c, _m) in enumerate(INT_PROBES)},
    }
    return family.fill(TEMPLATE, subs)


def library() -> Path:
    """The compiled observer (``c_observer.build``: once per source)."""
    return family.build(source(), INCLUDE_DIR)


def install(lib_dir: Path) -> Path:
    """A copy of the observer beside a submission's library (the folder the sandbox mounts)."""
    return family.install(library(), lib_dir)
