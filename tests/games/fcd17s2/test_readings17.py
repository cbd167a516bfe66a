"""2017 edition: every accepted reading differs from the reference only where its ruling allows.

A reading (fixtures/fcd17s2/submissions/readings.py) is the 2017 model taking
another reading of a LENIENT ruling of rules-17s2.md §3; it must get full
marks.  Each is built from its folder and played through the seeded games of
test_model17_agreement.py (the engine's moves, ``seeded_game``/``chosen``),
comparing every Game.h query after newGame and after every move as
``Pair.check`` does -- but a difference is allowed where
``reference.fcd17s2.rulings.leniency`` of the reference game in the state
compared leaves that observation open, and once the table says the games have
diverged only what it still lists (``all_but``) is compared.  As the 2018
grader does, a game stops when the reading refuses the engine's next move
(its validity was open in the state before it, or the difference was already
judged there) or reports a winner the table accepts in place of the
reference's.  Each reading must differ somewhere, and somewhere its own ruling
is what leaves the difference open (quiet games -- a plain first discard, no
words said -- let rulings show themselves before the first-card and call-out
rulings open the game); the model never may differ.
Each reading runs in a forked child of a ProcessPoolExecutor worker.
"""

from __future__ import annotations

import filecmp
import importlib.util
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path

import cffi
import pytest

from reference.fcd17s2 import DEALT, SAYS, Action, Value
from reference.fcd17s2.rulings import OBSERVATIONS, leniency
from reference.rulings import EVERY_OBSERVATION, Leniency

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_model17_agreement import INCLUDE, Pair, _declarations, chosen, in_forked_child, seeded_game  # noqa: E402, E501

SUBMISSIONS = Path(__file__).resolve().parents[3] / "fixtures" / "fcd17s2" / "submissions"
GAMES = 60
# Quiet games: a plain first discard and no words said, so that no first-card or call-out ruling (B6-B9,
# B42-B46) opens the game before the reading's own ruling can show itself.
QUIET_GAMES = 60
SPECIAL_FIRST = frozenset({Value.DRAW_TWO, Value.A, Value.B, Value.C, Value.D})
TIME_LIMIT = 40  # seconds for one submission's games
STRICT = Leniency({}, {}, None)  # nothing open: how the model is compared


def _load(name: str, path: Path) -> object:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_readings = _load("fcd17s2_make_readings", SUBMISSIONS / "make_readings.py")
READINGS = make_readings.load_readings()


class Lenient(Pair):
    """``Pair`` whose ``compare`` sorts each query's difference into open (allowed) or not."""

    OBSERVED = ("num_cards", "num_of_suit", "num_of_color", "num_of_value", "current_player", "current_turn",
                "num_turns", "play_direction", "top_discard", "turn_moves", "past_moves", "declarations", "hand",
                "card_counts", "points", "winner")  # the names observe() gives, beside the valid_* of isValidMove

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.openers: set[str] = set()  # the rulings that left open a difference seen in this game

    def observe(self, full: bool) -> dict[str, tuple[object, object]]:
        """Every query of Game.h but the isValidMove ones: observation name -> (reading, reference).
        The history of turns before the previous one, which no move changes, only when ``full``."""
        ref, lib, c = self.ref, self.lib, self.c
        turns = range(0 if full else max(0, ref.current_turn() - 1), ref.current_turn() + 1)

        def moves(get_move, turn_moves) -> list:  # noqa: ANN001
            shown = []
            for turn in turns:
                for i in range(turn_moves(turn)):
                    m = get_move(turn, i)
                    shown.append(m)
            return shown

        def c_past(turn: int, i: int) -> tuple:
            m = lib.pastMove(c, turn, i)
            if int(m.action) != Action.PLAY_CARD:
                return (int(m.action),)
            card = self.look(m.card)
            return (int(m.action), card) + ((int(m.nextColor),) if card and card[0] == Value.D else ())

        def ref_past(turn: int, i: int) -> tuple:
            m = ref.past_move(turn, i)
            if m.action != Action.PLAY_CARD:
                return (int(m.action),)
            return (int(m.action), m.card.key) + ((int(m.next_color),) if m.card.value == Value.D else ())

        c_moves, ref_moves = moves(c_past, ref.turn_moves), moves(ref_past, ref.turn_moves)
        if not hasattr(self, "deck_counts"):  # the reference's never change (B11): asked once a game
            self.deck_counts = (ref.num_cards(), [ref.num_of_suit(s) for s in range(5)],
                                [ref.num_of_color(s) for s in range(5)], [ref.num_of_value(v) for v in range(16)])
        cards, suits, colors, values = self.deck_counts
        return {
            "num_cards": (lib.numCards(c), cards),
            "num_of_suit": ([lib.numOfSuit(c, s) for s in range(5)], suits),
            "num_of_color": ([lib.numOfColor(c, s) for s in range(5)], colors),
            "num_of_value": ([lib.numOfValue(c, v) for v in range(16)], values),
            "current_player": (lib.currentPlayer(c), ref.current_player()),
            "current_turn": (lib.currentTurn(c), ref.current_turn()),
            "num_turns": (lib.numTurns(c), ref.num_turns()),
            "play_direction": (int(lib.playDirection(c)), int(ref.play_direction())),
            "top_discard": (self.look(lib.topDiscard(c)), ref.top_discard().key),
            "turn_moves": ([lib.turnMoves(c, t) for t in turns], [ref.turn_moves(t) for t in turns]),
            "past_moves": (c_moves, ref_moves),
            "declarations": ([m for m in c_moves if len(m) == 3], [m for m in ref_moves if len(m) == 3]),
            "hand": ((lib.handCardCount(c), [self.look(lib.handCard(c, i)) for i in range(ref.hand_card_count())]),
                     (ref.hand_card_count(), [card.key for card in ref.player_hand(ref.current_player())])),
            "card_counts": ([lib.playerCardCount(c, p) for p in range(4)],
                            [ref.player_card_count(p) for p in range(4)]),
            "points": ([lib.playerPoints(c, p) for p in range(4)], [ref.player_points(p) for p in range(4)]),
            "winner": (lib.gameWinner(c), ref.game_winner()),
        }

    def compare(self, open_: Leniency, where: str, full: bool = False) -> tuple[list[str], list[str]]:
        """(differences outside what is open, differences allowed) in the current state."""
        bad, allowed = [], []

        def sort(name: str, what: str, key: tuple | None = None) -> None:
            is_open = open_.play_is_lenient(key) if key is not None else open_.field_is_lenient(name)
            (allowed if is_open else bad).append(f"{where}: {what} ({name}, open: {open_.why(name, key)})")
            if is_open:
                self.openers.update(open_.why(name, key))

        seen = self.observe(full)
        assert tuple(seen) == self.OBSERVED
        for name, (got, want) in seen.items():
            if got == want:
                continue
            if name in open_.offsets and all(g == w or g - w in open_.offsets[name].get(p, ())
                                             for p, (g, w) in enumerate(zip(got, want))):
                allowed.append(f"{where}: {name} {got!r} for {want!r} (a difference accepted)")
                self.openers.update(open_.why(EVERY_OBSERVATION))
                continue
            if name == "winner" and open_.winner_accepts and got in open_.winner_accepts:
                allowed.append(f"{where}: gameWinner {got} for {want} (accepted)")
                self.openers.update(open_.why("winner"))
                continue
            sort(name, f"{name} {got!r} for {want!r}")
        for move in self.candidates():
            got, want = bool(self.lib.isValidMove(self.c, self.c_move(move))), self.ref.is_valid_move(move)
            if got != want:
                name = {Action.PLAY_CARD: "valid_play", Action.DRAW_CARD: "valid_draw",
                        Action.END_TURN: "valid_end"}.get(move.action, "valid_say")
                sort(name, f"isValidMove({move}) {got} for {want}", move.card.key if move.card else None)
        return bad, allowed




def play(folder: Path, workdir: Path, strict: bool) -> tuple[list[str], list[str], set[str]]:
    """Build the submission and play the seeded games: (differences not open, differences allowed, the
    rulings that left those open)."""
    library = workdir / f"lib{folder.name}.so"
    subprocess.run(["gcc", "-std=gnu11", "-O1", "-g", "-shared", "-fPIC", "-I", str(INCLUDE), "-o", str(library),
                    str(folder / "Game.c"), str(folder / "Card.c")], check=True, capture_output=True)
    ffi = cffi.FFI()
    ffi.cdef(_declarations())
    lib = ffi.dlopen(str(library))
    bad: list[str] = []
    allowed: list[str] = []
    openers: set[str] = set()  # the rulings that left open some difference that was seen

    def lenient_now(pair: Lenient) -> Leniency:
        return STRICT if strict else leniency(pair.ref, frozenset())

    for seed, quiet in [(s, False) for s in range(GAMES)] + [(s, True) for s in range(GAMES, GAMES + QUIET_GAMES)]:
        deck, choices = seeded_game(seed)
        if quiet and deck.values[DEALT] in SPECIAL_FIRST:
            continue
        pair = Lenient(ffi, lib, deck)
        for k in range(len(choices) + 1):
            now = lenient_now(pair)  # once the readings have diverged, only all_but is compared (the table's)
            where = f"seed {seed}, " + (f"after move {k}" if k else "after newGame")
            b, a = pair.compare(now, where, full=k % 25 == 0)
            bad += b
            allowed += a
            if b:
                break  # the first difference not open ends the game, as it would a test
            got_winner, want_winner = lib.gameWinner(pair.c), pair.ref.game_winner()
            if got_winner != want_winner:
                break  # a winner the table accepts: the games end differently, nothing more to compare
            legal = pair.ref.legal_moves()
            if k == len(choices) or not legal:
                break
            move = chosen([m for m in legal if m.action not in SAYS] or legal if quiet else legal, choices[k])
            if not lib.isValidMove(pair.c, pair.c_move(move)):
                # refused: its validity was open in this state (else compare() has just reported it)
                allowed.append(f"{where}: refused the next move ({move}); the rest of the game not compared")
                openers.update(pair.openers)
                break
            pair.play(move)
        openers.update(pair.openers)
        lib.destroyGame(pair.c)
    return bad, allowed, openers


def verdict(folder: str, workdir: str, strict: bool) -> str:
    """In a forked child: "bad: ...", "allowed under B..: N: ...", "same", or "error: ..." / "crashed: ..."."""
    def work() -> str:
        bad, allowed, openers = play(Path(folder), Path(workdir), strict)
        if bad:
            return f"bad: {len(bad)}: " + " | ".join(bad[:5])
        if allowed:
            return f"allowed under {','.join(sorted(openers))}: {len(allowed)}: " + " | ".join(allowed[:3])
        return "same"

    return in_forked_child(work, TIME_LIMIT)


@cache
def verdicts(workdir: Path) -> dict[str, str]:
    """The model's verdict (compared strictly) and every reading's, two at a time."""
    folders = {"model": (SUBMISSIONS / "model", True)} | {
        m.name: (SUBMISSIONS / "readings" / m.name, False) for m in READINGS}
    with ProcessPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(verdict, str(folder), str(workdir), strict)
                   for name, (folder, strict) in folders.items()}
        return {name: future.result() for name, future in futures.items()}


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return verdicts(tmp_path_factory.mktemp("readings17"))


def test_the_model_shows_no_difference_at_all(found: dict[str, str]) -> None:
    assert found["model"] == "same"


@pytest.mark.parametrize("reading", READINGS, ids=lambda m: m.name)
def test_a_reading_differs_only_where_its_ruling_allows(found: dict[str, str], reading) -> None:  # noqa: ANN001
    said = found[reading.name]
    assert said.startswith("allowed under "), f"{reading.name} ({', '.join(reading.rules)}: {reading.says}): {said}"


@pytest.mark.parametrize("reading", READINGS, ids=lambda m: m.name)
def test_a_reading_shows_a_difference_its_own_ruling_leaves_open(found: dict[str, str], reading) -> None:  # noqa: ANN001
    said = found[reading.name]
    openers = set(said.removeprefix("allowed under ").split(":")[0].split(","))
    assert openers & set(reading.rules), f"{reading.name}: no difference left open by its own rulings: {said}"


def test_every_observation_of_the_rulings_table_is_compared() -> None:
    observed = {"valid_play", "valid_draw", "valid_say", "valid_end"} | set(Lenient.OBSERVED)
    assert observed == set(OBSERVATIONS)


def test_the_table_covers_lenient_rulings_only() -> None:
    from reference.fcd17s2.rulings import BY_ID  # noqa: PLC0415

    names = [m.name for m in READINGS]
    assert len(set(names)) == len(names) and "combined" in names
    for m in READINGS:
        assert m.says and m.rules and all(BY_ID[r].lenient for r in m.rules), m.name
        assert m.name == "combined" or m.name.startswith(m.rules[0].lower() + "_"), m.name


def test_the_reading_folders_are_what_the_table_makes(tmp_path: Path) -> None:
    made = make_readings.write_all(tmp_path / "readings")
    committed = SUBMISSIONS / "readings"
    assert sorted(p.name for p in committed.iterdir()) == sorted(p.name for p in made)
    for folder in made:
        assert sorted(filecmp.cmpfiles(folder, committed / folder.name, make_readings.SOURCES, shallow=False)[0]) == \
            sorted(make_readings.SOURCES), folder.name
        assert (folder / "Game.c").read_text().startswith(f"/* ACCEPTED READING {folder.name} ("), folder.name
