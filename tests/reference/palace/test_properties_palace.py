"""Random Palace games over 2-5 players, all four option combinations and every switch reading, with the
invariants of rules-palace.md §4.4 checked after every move (Hypothesis; the project profile in
tests/conftest.py is derandomized, so the run is the same everywhere).

Checked after every move, against the C-style getters and a small model of the pile written from §1.4
(not the engine's own code):

- I1 conservation of cards, I2 of identity (every id in exactly one zone, the (rank, suit) multiset of
  the deck, the game's own Card objects);
- I3 monotone counters (draw pile, face-down rows, burnt cards, face-up rows; one turn per move);
- I5 consistent views (handCard / getHandCard, topDiscard / getDiscardPileCard(0), counts and getters);
- I6 an empty hand implies an empty draw pile in the play phase;
- I7 the pile is a legal sequence, holds no ten and no run of four (C47), and effectiveTopRank /
  sevenRestriction agree with it (C29, C39);
- I8 someone can always move (C36); I9 the end state (C32, C42); I10 determinism (a replay gives the same
  observations); I4/C46 isValidMove changes nothing (every tenth state);
- and what each move did: C5 the chosen cards face up; C9/C10 the cards drawn per reading; C12 a pick-up
  takes exactly the pile; C17-C19 the turned card; C20, C22, C23 a bomb exactly when the model says so,
  with the same seat to move; P5/C24 the next seat otherwise.  Games stop at 5,000 moves (C34).
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from reference.palace import (
    MAX_SET,
    NOT_FINISHED,
    TABLE_CARDS,
    Action,
    Card,
    Game,
    Phase,
    PlayerMove,
    Readings,
    Setup,
    standard_deck,
)

MAX_MOVES = 5_000
READINGS = list(Readings.every())
SPECIAL_RANKS = (2, 3, 7, 10, 8, 5, 14)


def make_setup(n: int, rules: int, kind: str, size_pick: float, seed: int) -> Setup:
    rng = random.Random(seed)
    if kind == "specials":  # rich in twos, threes, sevens and tens (MAX_SET of each rank)
        pool = [(r, rng.randrange(4)) for r in SPECIAL_RANKS for _ in range(MAX_SET)]
    else:
        pool = standard_deck() * (1 if kind == "one" else 2)
    rng.shuffle(pool)
    low = 9 * n + 1
    return Setup(n, rules, tuple(pool[:low + int(size_pick * (len(pool) - low))]))


# ---- observation through the C-style getters -----------------------------------------------------------------
def zone(getter, count: int) -> list[Card]:  # noqa: ANN001
    cards = [getter(k) for k in range(count)]
    assert None not in cards and getter(count) is None and getter(-1) is None  # I5, C43
    return cards  # type: ignore[return-value]


def observe(g: Game) -> dict:
    n = g.num_players()
    return {
        "hands": [zone(lambda k, s=s: g.get_hand_card(s, k), g.player_card_count(s)) for s in range(n)],
        "up": [zone(lambda k, s=s: g.face_up_card(s, k), g.face_up_count(s)) for s in range(n)],
        "down": [zone(lambda k, s=s: g.get_face_down_card(s, k), g.face_down_count(s)) for s in range(n)],
        "pile": zone(g.get_discard_pile_card, g.discard_pile_size()),  # top first
        "draw": zone(g.get_deck_card, g.draw_pile_size()),
        "burnt": zone(g.get_burnt_card, g.burnt_count()),
        "phase": g.current_phase(), "player": g.current_player(), "turn": g.current_turn(),
        "winner": g.game_winner(),
    }


# ---- the pile model (§1.4, C29) -------------------------------------------------------------------------------------
def playable(rank: int, eff: list[int], res: list[bool], mirror: bool) -> bool:
    if not eff:
        return True
    if res[-1]:
        return rank <= 7
    if rank in (2, 10) or (rank == 3 and mirror):
        return True
    return rank >= eff[-1]


def lay(cards: list[Card], eff: list[int], res: list[bool], mirror: bool, seven: bool, start: bool) -> None:
    """Add cards (bottom first) to the model; ``start``: the first is the turned starting card (C31 (a))."""
    for i, c in enumerate(cards):
        if mirror and c.rank == 3 and eff:
            eff.append(eff[-1])
            res.append(res[-1])
        else:
            eff.append(int(c.rank))
            res.append(seven and c.rank == 7 and not (start and i == 0))


def run_length(eff: list[int], start_unmoved: bool, counts: bool) -> int:
    k = 0
    for r in reversed(eff):
        if r != eff[-1]:
            break
        k += 1
    return k - 1 if (k == len(eff) and start_unmoved and not counts) else k


class Checker:
    def __init__(self, g: Game, setup: Setup, readings: Readings) -> None:
        self.setup, self.readings = setup, readings
        self.n = setup.n_players
        self.mirror, self.seven = setup.mirror_three, setup.seven_lower
        self.start_id = 9 * self.n
        self.start_unmoved = True
        self.chosen = [False] * self.n
        self.prev = observe(g)
        self.model(g, self.prev)

    def model(self, g: Game, obs: dict) -> tuple[list[int], list[bool]]:
        """I7: rebuild the pile bottom up, each card playable on those beneath; compare the queries."""
        pile = list(reversed(obs["pile"]))
        eff: list[int] = []
        res: list[bool] = []
        over = obs["phase"] == Phase.GAME_OVER
        for i, c in enumerate(pile):
            is_start = i == 0 and self.start_unmoved
            if is_start:
                assert c.ident == self.start_id
            else:
                assert playable(int(c.rank), eff, res, self.mirror), f"I7: {c!r} at {i}\n{g.describe()}"
                assert c.rank != 10 or (over and i == len(pile) - 1), f"I7/C47: a ten on the pile\n{g.describe()}"
            lay([c], eff, res, self.mirror, self.seven, is_start)
        if eff and not over:
            assert run_length(eff, self.start_unmoved, self.readings.start_card_run == "counts") < 4, (
                f"I7/C47: a run of four on top\n{g.describe()}")
        assert g.effective_top_rank() == (eff[-1] if eff else 0)  # C29, C39
        assert g.seven_restriction() == (bool(res) and res[-1])  # C26, C27, C39
        return eff, res

    def check(self, g: Game, move: PlayerMove, turned: Card | None) -> None:
        prev, obs = self.prev, observe(g)
        seat = prev["player"]
        # I1, I2
        every = [c for zs in ("hands", "up", "down") for z in obs[zs] for c in z]
        every += obs["pile"] + obs["draw"] + obs["burnt"]
        assert len(every) == g.num_cards() == self.setup.n_cards
        assert sorted(c.ident for c in every) == list(range(self.setup.n_cards))
        assert all(g.card(c.ident) is c for c in every)
        assert Counter(c.key for c in every) == Counter(self.setup.deck)
        # I3
        assert obs["turn"] == prev["turn"] + 1 == g.current_turn()
        assert len(obs["draw"]) <= len(prev["draw"]) and len(obs["burnt"]) >= len(prev["burnt"])
        assert obs["burnt"][:len(prev["burnt"])] == prev["burnt"]
        for s in range(self.n):
            assert len(obs["down"][s]) <= len(prev["down"][s])
            if not self.chosen[s]:
                assert len(obs["up"][s]) == (TABLE_CARDS if s == seat and move.action == Action.CHOOSE_FACE_UP else 0)
            else:
                assert len(obs["up"][s]) <= len(prev["up"][s])
        # I5
        cur = g.current_player()
        assert g.hand_card_count() == g.player_card_count(cur)
        assert [g.hand_card(k) for k in range(g.hand_card_count() + 1)] == obs["hands"][cur] + [None]
        assert g.top_discard() is (obs["pile"][0] if obs["pile"] else None)
        # I6
        if obs["phase"] == Phase.PLAY_PHASE:
            assert all(obs["hands"][s] or not obs["draw"] for s in range(self.n))
        # what the move did
        self.effects(g, prev, obs, move, turned)
        if not obs["pile"]:
            self.start_unmoved = False
        self.model(g, obs)
        # I8, I9
        over = obs["phase"] == Phase.GAME_OVER
        assert (obs["winner"] == NOT_FINISHED) is (not over)
        if over:
            w = obs["winner"]
            assert not (obs["hands"][w] or obs["up"][w] or obs["down"][w])
            assert g.legal_moves() == [] and g.outcome() is not None and g.outcome().winner == w  # type: ignore[union-attr]
        else:
            legal = g.legal_moves()
            assert legal and all(g.is_valid_move(m) for m in legal)
            assert g.outcome() is None
        self.prev = obs

    def effects(self, g: Game, prev: dict, obs: dict, move: PlayerMove, turned: Card | None) -> None:
        seat, n = prev["player"], self.n
        action = move.action
        if action == Action.CHOOSE_FACE_UP:  # C5
            self.chosen[seat] = True
            assert set(obs["up"][seat]) == set(move.cards)
            assert obs["player"] == (seat + 1) % n
            assert obs["phase"] == (Phase.PLAY_PHASE if seat == n - 1 else Phase.SETUP_PHASE)
            return
        if action == Action.PICK_UP_PILE:  # C12
            assert set(obs["hands"][seat]) == set(prev["hands"][seat]) | set(prev["pile"])
            assert obs["pile"] == [] and obs["draw"] == prev["draw"] and obs["up"] == prev["up"]
            assert obs["player"] == (seat + 1) % n
            return
        eff, res = self._prev_model(prev)
        if action == Action.PLAY_FACE_DOWN:
            assert turned is not None and turned not in obs["down"][seat]  # C38: exactly that card
            if not playable(int(turned.rank), eff, res, self.mirror):  # C18
                assert set(obs["hands"][seat]) == set(prev["hands"][seat]) | set(prev["pile"]) | {turned}
                assert obs["pile"] == [] and obs["player"] == (seat + 1) % n and obs["burnt"] == prev["burnt"]
                return
            played, drawn = [turned], 0  # C19
        else:
            played = list(move.cards)  # type: ignore[arg-type]
            from_hand = bool(prev["hands"][seat])
            hand_left = len(prev["hands"][seat]) - len(played)
            wanted = {"one": 1, "refill": max(0, 3 - hand_left), "per_card": len(played)}[self.readings.draw]
            drawn = min(wanted, len(prev["draw"])) if from_hand else 0  # C9, C10
            assert obs["draw"] == prev["draw"][drawn:]
            assert set(prev["draw"][:drawn]) <= set(obs["hands"][seat])  # C4: the very pointers
        lay(played, eff, res, self.mirror, self.seven, False)
        out = not (obs["hands"][seat] or obs["up"][seat] or obs["down"][seat])
        bomb = played[-1].rank == 10 or run_length(
            eff, self.start_unmoved, self.readings.start_card_run == "counts") >= 4
        if out:  # C32: going out first, no free play
            assert obs["winner"] == seat and obs["phase"] == Phase.GAME_OVER and drawn == 0
        elif bomb:  # C20, C22, C23
            assert obs["pile"] == [] and obs["burnt"][len(prev["burnt"]):] == list(reversed(prev["pile"])) + played
            assert obs["player"] == seat
        else:  # P5, C24
            assert set(obs["pile"][:len(played)]) == set(played) and obs["pile"][len(played):] == prev["pile"]
            assert obs["player"] == (seat + 1) % n

    def _prev_model(self, prev: dict) -> tuple[list[int], list[bool]]:
        eff: list[int] = []
        res: list[bool] = []
        pile = list(reversed(prev["pile"]))
        lay(pile, eff, res, self.mirror, self.seven, self.start_unmoved)
        return eff, res


def play_game(setup: Setup, readings: Readings, seed: int) -> tuple[Game, list[PlayerMove], list[dict]]:
    rng = random.Random(seed)
    g = Game(setup, readings)
    checker = Checker(g, setup, readings)
    moves: list[PlayerMove] = []
    snapshots = [g.snapshot()]
    while g.outcome() is None and len(moves) < MAX_MOVES:
        legal = g.legal_moves()
        plays = [m for m in legal if m.action != Action.PICK_UP_PILE]
        move = rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(legal)
        if len(moves) % 10 == 0:  # I4, C46
            before = g.snapshot()
            for m in legal + [PlayerMove.pick_up(), PlayerMove.blind(-1), PlayerMove.blind(0), PlayerMove(9)]:
                g.is_valid_move(m)
            assert g.snapshot() == before
        turned = g.get_face_down_card(g.current_player(), move.face_down_index) \
            if move.action == Action.PLAY_FACE_DOWN else None
        g.play_move(move)
        moves.append(move)
        checker.check(g, move, turned)
        snapshots.append(g.snapshot())
    return g, moves, snapshots


@settings(max_examples=120)
@given(
    n=st.integers(2, 5), rules=st.integers(0, 3), readings=st.sampled_from(READINGS),
    kind=st.sampled_from(["one", "two", "specials"]), size_pick=st.floats(0, 1), seed=st.integers(0, 2**32 - 1),
)
def test_I1_to_I10_random_games(n: int, rules: int, readings: Readings, kind: str, size_pick: float, seed: int) -> None:
    """I1, I2, I3, I5, I6, I7 (C47), I8 (C36), I9 (C32), I10 (and I4, C46) after every move of a random game;
    C34: stop at 5,000."""
    setup = make_setup(n, rules, kind, size_pick, seed)
    g, moves, snapshots = play_game(setup, readings, seed)
    if g.outcome() is not None:  # I9: after the end nothing is valid and nothing changes
        before = g.snapshot()
        assert not any(g.is_valid_move(m) for m in (PlayerMove.pick_up(), PlayerMove.blind(0)))
        assert g.snapshot() == before
    replay = Game(setup, readings)  # I10: same deck, same moves, same observations
    assert replay.snapshot() == snapshots[0]
    for move, snap in zip(moves, snapshots[1:]):
        replay.play_move(replay.resolve(replay.written(move)))
        assert replay.snapshot() == snap


def test_I10_the_written_form_of_every_move_resolves_back() -> None:
    """C4: the move notation round-trips through real games -- written(m) parses, prints and resolves to the
    very cards of m (twins of two decks included)."""
    from reference.palace import MoveSpec

    setup = make_setup(3, 3, "two", 0.5, 7)
    g, moves, _ = play_game(setup, Readings(), 7)
    replay = Game(setup)
    for move in moves:
        text = str(replay.written(move))
        assert str(MoveSpec.parse(text)) == text and replay.resolve(text) == move
        replay.play_move(move)
