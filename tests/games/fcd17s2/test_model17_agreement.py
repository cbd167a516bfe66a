"""2017 edition: the C model and the Python reference engine agree on everything Game.h shows.

Two implementations written apart from the same specification (rules-17s2.md):
seeded random games of legal moves -- small decks that force recycling and the
no-winner end, mid-sized decks, the 800-card deck -- are played on both, and
after newGame and after every move every query of the 2017 Game.h is compared:
the counters, the direction, the top card, every hand, the points, the whole
move history (turnMoves, pastMove), the winner, and isValidMove for every card
in hand (a DECLARE once per colour), the draw, the end of the turn and the
three words.  The model runs in this process: it is our
own fixture, never a student's.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
from functools import cache
from pathlib import Path
from typing import Callable

import cffi
import pytest

from reference.cards import traditional_deck
from reference.fcd17s2 import NO_WINNER, SAYS, Action, Color, Deck, Game, PlayerMove, Value

ROOT = Path(__file__).resolve().parents[3]
INCLUDE = ROOT / "grader" / "games" / "fcd17s2" / "include"
MODEL = ROOT / "fixtures" / "fcd17s2" / "submissions" / "model"


def _declarations() -> str:
    parts = []
    for name in ("Card.h", "Game.h"):
        text = re.sub(r"/\*.*?\*/|//[^\n]*", "", (INCLUDE / name).read_text(), flags=re.S)
        parts.append("\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")))
    return "\n".join(parts)


@cache
def model(tmp: Path) -> tuple[cffi.FFI, object]:
    ffi = cffi.FFI()
    ffi.cdef(_declarations())
    library = tmp / "libmodel17.so"
    subprocess.run(["gcc", "-std=gnu11", "-O1", "-g", "-shared", "-fPIC", "-I", str(INCLUDE), "-o", str(library),
                    str(MODEL / "Game.c"), str(MODEL / "Card.c")], check=True)
    return ffi, ffi.dlopen(str(library))


@pytest.fixture(scope="module")
def c_model(tmp_path_factory: pytest.TempPathFactory) -> tuple[cffi.FFI, object]:
    return model(tmp_path_factory.mktemp("model17"))


def in_forked_child(work: Callable[[], str], seconds: int) -> str:
    """``work()`` in a forked child under an alarm, so a variant that crashes or loops fails only its own
    check: what it returned, or "crashed: ..." / "error: ..." (a failure of the harness itself)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into its caller
        os.close(read_end)
        try:
            signal.alarm(seconds)
            found = work()
        except BaseException as error:  # noqa: BLE001 - reported to the parent, whatever it is
            found = f"error: {type(error).__name__}: {error}"
        os.write(write_end, found.encode()[:6000])
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        said = pipe.read().decode()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return f"crashed: signal {os.WTERMSIG(status)}" + (" (time limit)" if os.WTERMSIG(status) == 14 else "")
    return said


def seeded_game(seed: int) -> tuple[Deck, list[int]]:
    """A deck, and the random choices (indices into the legal moves) of one game."""
    rng = random.Random(seed)
    if seed % 4 == 3:
        keys = traditional_deck().keys
        rng.shuffle(keys)
    else:
        size = rng.randint(30, 40) if seed % 4 < 2 else rng.randint(41, 120)
        pool = [(rng.randrange(16), rng.randrange(5), rng.randrange(5)) for _ in range(12)]
        keys = [rng.choice(pool) if rng.random() < 0.5 else (rng.randrange(16), rng.randrange(5), rng.randrange(5))
                for _ in range(size)]
    return Deck.from_keys(keys), [rng.randrange(1 << 30) for _ in range(400)]


def chosen(legal: list[PlayerMove], choice: int) -> PlayerMove:
    """A legal move, a play four times in five when there is one (uniform choices almost never win)."""
    plays = [m for m in legal if m.action == Action.PLAY_CARD]
    pool = plays if plays and choice % 5 else legal
    return pool[(choice // 5) % len(pool)]


class Pair:
    """One game on both sides; ``check`` compares every query of Game.h."""

    def __init__(self, ffi: cffi.FFI, lib: object, deck: Deck) -> None:
        self.ffi, self.lib, self.ref = ffi, lib, Game(deck)
        self.c = lib.newGame(len(deck), ffi.new("value[]", list(deck.values)), ffi.new("color[]", list(deck.colors)),
                             ffi.new("suit[]", list(deck.suits)))
        assert self.c != ffi.NULL

    def look(self, card: object) -> tuple[int, int, int] | None:
        if card == self.ffi.NULL:
            return None
        return int(self.lib.cardValue(card)), int(self.lib.cardColor(card)), int(self.lib.cardSuit(card))

    def c_move(self, move: PlayerMove) -> object:
        m = self.ffi.new("playerMove *")
        m.action = int(move.action)
        m.nextColor = int(move.next_color or 0)
        if move.card is not None:  # the same card by its place in the current hand (B4: hand order)
            hand = self.ref.player_hand(self.ref.current_player())
            m.card = self.lib.handCard(self.c, next(i for i, c in enumerate(hand) if c is move.card))
        return m[0]

    def candidates(self) -> list[PlayerMove]:
        """Every card in hand (a DECLARE once per colour), draw, end, the three words.  (The 2017 API gives
        no way to reach a card of another hand, so none is offered.)"""
        ref = self.ref
        me = ref.current_player()
        moves = []
        for card in ref.player_hand(me):
            colours = list(Color) if card.value == Value.D else [None]
            moves += [PlayerMove(Action.PLAY_CARD, card, colour) for colour in colours]
        moves += [PlayerMove(Action.DRAW_CARD), PlayerMove(Action.END_TURN)] + [PlayerMove(w) for w in SAYS]
        return moves

    def check(self, where: str) -> None:
        ref, lib, c = self.ref, self.lib, self.c
        got = (lib.currentPlayer(c), lib.currentTurn(c), lib.numTurns(c), int(lib.playDirection(c)),
               lib.gameWinner(c), lib.handCardCount(c), self.look(lib.topDiscard(c)))
        want = (ref.current_player(), ref.current_turn(), ref.num_turns(), int(ref.play_direction()),
                ref.game_winner(), ref.hand_card_count(), ref.top_discard().key)
        assert got == want, f"{where}: (player, turn, numTurns, direction, winner, hand size, top)"
        for p in range(4):
            assert (lib.playerCardCount(c, p), lib.playerPoints(c, p)) == \
                (ref.player_card_count(p), ref.player_points(p)), f"{where}: player {p}"
        assert [self.look(lib.handCard(c, i)) for i in range(ref.hand_card_count())] == \
            [card.key for card in ref.player_hand(ref.current_player())], f"{where}: hand"
        for turn in range(ref.current_turn() + 1):
            assert lib.turnMoves(c, turn) == ref.turn_moves(turn), f"{where}: turnMoves({turn})"
            for i in range(ref.turn_moves(turn)):
                got_move, want_move = lib.pastMove(c, turn, i), ref.past_move(turn, i)
                assert int(got_move.action) == int(want_move.action), f"{where}: pastMove({turn}, {i})"
                if want_move.action == Action.PLAY_CARD:
                    assert self.look(got_move.card) == want_move.card.key, f"{where}: pastMove({turn}, {i}).card"
                    if want_move.card.value == Value.D:
                        assert int(got_move.nextColor) == int(want_move.next_color), f"{where}: declared colour"
        for move in self.candidates():
            assert bool(lib.isValidMove(c, self.c_move(move))) == ref.is_valid_move(move), \
                f"{where}: isValidMove({move})"

    def play(self, move: PlayerMove) -> None:
        c_move = self.c_move(move)
        self.ref.play_move(move)
        self.lib.playMove(self.c, c_move)


GAMES = 120


@pytest.mark.parametrize("block", range(6))
def test_model_and_engine_agree_on_every_query(c_model, block: int) -> None:  # noqa: ANN001
    ffi, lib = c_model
    for seed in range(block * GAMES // 6, (block + 1) * GAMES // 6):
        deck, choices = seeded_game(seed)
        pair = Pair(ffi, lib, deck)
        assert (lib.numCards(pair.c), [lib.numOfValue(pair.c, v) for v in range(16)]) == \
            (pair.ref.num_cards(), [pair.ref.num_of_value(v) for v in range(16)])
        pair.check(f"seed {seed}, after newGame")
        for k, choice in enumerate(choices):
            legal = pair.ref.legal_moves()
            if not legal:
                break
            move = chosen(legal, choice)
            pair.play(move)
            pair.check(f"seed {seed}, after move {k + 1} ({move})")
        lib.destroyGame(pair.c)


def test_the_seeded_games_reach_the_rare_rules(c_model) -> None:  # noqa: ANN001
    """Worth something only if the games recycle, end both ways and turn the direction."""
    recycles = no_winner = winner = reversed_ = 0
    for seed in range(GAMES):
        deck, choices = seeded_game(seed)
        game = Game(deck)
        turned = False
        for choice in choices:
            legal = game.legal_moves()
            if not legal:
                break
            game.play_move(chosen(legal, choice))
            turned |= int(game.play_direction()) == 1
        recycles += game.recycles() > 0
        no_winner += game.game_winner() == NO_WINNER
        winner += 0 <= game.game_winner() < 4
        reversed_ += turned
    assert recycles >= 10 and no_winner >= 3 and winner >= 10 and reversed_ >= 30, \
        (recycles, no_winner, winner, reversed_)


def test_the_model_passes_its_own_c_tests_under_sanitizers(tmp_path: Path) -> None:
    """testGame.c: hand-worked expectations per rule, with AddressSanitizer and UBSan watching."""
    program = tmp_path / "testGame17"
    subprocess.run(["gcc", "-std=gnu11", "-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                    "-I", str(INCLUDE), "-o", str(program), str(MODEL / "testGame.c"), str(MODEL / "Game.c"),
                    str(MODEL / "Card.c")], check=True)
    done = subprocess.run([str(program)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
