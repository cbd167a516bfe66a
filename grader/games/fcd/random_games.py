"""Random games, compared move by move with the reference; one deduction per rule family.

Hand-written scenarios cover the cases someone thought of; random games find
the orderings nobody did (a recycle in the middle of a draw-two, a declared
colour surviving three draws, a skip landing on the winner).  Each game is
made by a seeded generator through the reference's legal moves
(``random_generation``: weighted so that 2s, A, D and recycling come up
often), then played on the submission in the worker.  The games are played
several to a child (``grader.core.batched_games``, ``InBatches``): a game whose
observations came back exactly the reference's passes; every other is played
again alone, in a fresh child, and that run is its verdict -- so a game is
judged as if it had a child of its own, and state a submission keeps from one
game to the next (a game that passes alone but not after others) is a note.

Every game is played.  A game's first difference is classified by the rule
family of what differed (``grader.games.fcd.sandbox.observations.FAMILIES``); the stage is one
test per family, so a bug costs its family once however many games show it.
A family's failure shows its shortest game, shrunk (cut after the first
difference, and every run of moves it can do without left out),
in the scenario format, ready to paste into fixtures/scenarios/ as a
regression case.

Profiles: ``grading`` is seed 0 and a fixed number of games, so a submission
gets the same verdict on every run; ``explore`` plays many more games from a
fresh seed, for the team.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from grader.core.batched_games import BatchedGames, Shown, kept_state_note
from grader.core.cache import cached, key_of
from grader.core.grade import guarded
from grader.core.marks import share_words
from grader.core.results import TestResult, Verdict
from grader.games.fcd import random_generation
from grader.games.fcd.edition import Edition, G, WrittenMove
from grader.games.fcd.random_families import FAMILIES, Family, RandomGame
from grader.games.fcd.random_generation import generate
from grader.games.fcd.reference_trace import ScenarioMoveError, trace_version
from grader.games.fcd.reference_trace import play as play_reference
from reference import Deck

if TYPE_CHECKING:
    from grader.games.fcd.session import FcdSession

SHRINK_RUNS = 40  # games a failing random game's shrinking may play on the submission (about a second)
# The generator's own text is part of the cached games' key: a change to it makes other games.
GENERATOR_VERSION = key_of(Path(random_generation.__file__).read_text(encoding="utf-8"))


def as_scenario(test_id: str, game: RandomGame, result: TestResult) -> str:
    """The failing game in the scenario format, to paste into fixtures/scenarios/."""
    name = test_id.replace("/", "_")
    rules = ", ".join(f'"{r}"' for r in result.rules)
    return (
        f"# Found by {test_id}; paste under a group file in fixtures/scenarios/ as a regression case.\n"
        f"[[scenario]]\n"
        f'id = "{name}_regression"\n'
        f"rules = [{rules}]\n"
        f'says = "A random game that once showed a difference from the reference."\n'
        f'deck = "{game.deck}"\n'
        f'moves = "{" ".join(str(m) for m in game.moves)}"\n'
    )


def _cost(result: TestResult, game: RandomGame) -> tuple[int, int]:
    """Shorter is better: moves up to the first difference, then the deck."""
    return (result.failed_after if result.failed_after is not None else len(game.moves), len(game.deck))


def generated_games(family: Family, count: int, edition: Edition[G], profile: str = "grading") -> list[RandomGame]:
    """The ``count`` games of ``family`` the seeded generator makes (``random_generation``), in order.  Under the
    grading profile they are the same for every submission, so they are made once per version of the reference
    and of the generator (``grader.core.cache``)."""
    def decode(data: list[list[Any]]) -> list[RandomGame]:  # [deck, [move, ...]] as ``encode`` writes
        return [RandomGame(Deck.parse(d), tuple(edition.parse_move(m) for m in ms)) for d, ms in data]

    if profile != "grading":
        return generate(family, count, edition, profile)
    key = key_of(trace_version(edition), edition.name, GENERATOR_VERSION, family.name, count, profile)
    return cached("random_games", key, lambda: generate(family, count, edition, profile),
                  lambda gs: [[str(g.deck), [str(m) for m in g.moves]] for g in gs], decode)


def run_random_games(session: FcdSession[G], total: int, profile: str = "grading",
                     charged: Mapping[str, str] | None = None) -> list[TestResult]:
    """The random-games stage: ``total`` games shared among the deck families; one test per rule family.

    A family earns from the games in which it was judged and agreed: games that started (newGame gave
    a game and a move was observed) and ran to their end, or to where a difference already charged
    stopped them.  ``charged``: what a scenario already failed on (an observation, or ``crashes``) ->
    that test: judged around, never charged again; a family all of whose observations a scenario
    charged is judged step by step (it earns the share of the steps where it agreed), and a game a
    charged crash stopped in newGame shows nothing (it is not counted).  A family a game differs in is
    charged once, and judged around in the games after.  Every game of the budget is played; a family's
    failure shows its shortest game, shrunk (``shrunk``)."""
    edition = session.edition
    charged = dict(charged or {})
    families = edition.table.families
    if not session.build.ok:  # no game can be played: no family can be said to agree with the reference
        return [TestResult(f"random/{rf}", "random", (edition.rules_span,), 1.0, Verdict.NOT_RUN, kind="random",
                           message="Not run: the submission did not compile.", earned=0.0) for rf in families]
    members = {rf: {n for n, o in edition.table.by_name.items() if o.family == rf} or {rf} for rf in families}
    hidden_by = {rf: next((charged[n] for n in sorted(names) if n in charged), None)
                 for rf, names in members.items() if names <= set(charged)}  # nothing of it left to judge
    per = max(1, total // len(FAMILIES))
    played = judged = 0  # games played; of them, those that could show anything
    masked: set[str] = set(charged)
    evidence = {rf: 0.0 for rf in families}
    shortest: dict[str, tuple[RandomGame, TestResult, Family, frozenset[str]]] = {}
    failing: dict[str, int] = {}
    faults: list[TestResult] = []
    games = [Numbered(n, family, game) for n, (family, game) in enumerate(
        ((f, g) for f in FAMILIES for g in generated_games(f, per, edition, profile)), 1)]
    batched = BatchedGames(InBatches(session, masked, charged))
    for numbered, result in batched.play(games):
        played += 1
        game, family, around = numbered.game, numbered.family, frozenset(masked)  # (as the game was played)
        if result.verdict is Verdict.ERROR:  # a fault of ours in one game: that game's error, the rest stand
            faults.append(result)
            continue
        seen = session.last_game
        if not seen.shown:
            continue
        judged += 1
        for i, rf in enumerate(seen.failed):
            failing[rf] = failing.get(rf, 0) + 1
            before = around.union(*(members[f] for f in seen.failed[:i]))
            if rf not in shortest or _cost(result, game) < _cost(shortest[rf][1], shortest[rf][0]):
                shortest[rf] = (game, result, family, before)
        for rf in evidence:
            if rf in hidden_by and seen.started:  # judged around step by step
                evidence[rf] += seen.shares.get(rf, 1.0 if seen.ran else 0.0)
            elif seen.ran and rf not in hidden_by and rf not in seen.failed and not members[rf] <= around:
                evidence[rf] += 1
        masked.update(*(members[rf] for rf in seen.failed))
    results = [_family_result(session, rf, judged, failing.get(rf, 0), shortest.get(rf), evidence[rf],
                              hidden_by.get(rf), played - judged, charged.get("crashes", "")) for rf in families]
    if batched.kept_state:
        _note_kept_state(session, batched, results)
    return results + faults


@dataclass(frozen=True)
class Numbered:
    """A random game of the stage: its number (1, 2, ... over the stage) and its deck family."""

    number: int
    family: Family
    game: RandomGame


class InBatches:
    """The random games played several per child (``grader.core.batched_games``): a game a batch proved
    equal passes as its own native run would have it pass; every other is played alone by ``run_game``,
    with what was masked when its turn came."""

    def __init__(self, session: FcdSession[G], masked: set[str], charged: Mapping[str, str]) -> None:
        self.session, self.masked, self.charged = session, masked, charged  # ``masked``: the stage's, live

    def ready(self, numbered: Numbered) -> bool:
        return self.session.native_ready(numbered.game.deck, frozenset(self.masked))

    def play_batch(self, games: Sequence[Numbered]) -> Sequence[Shown]:
        return self.session.play_batch([(n.game.deck, n.game.moves) for n in games]).shown

    def passed(self, numbered: Numbered) -> TestResult:
        return self.session.passed_in_batch(f"random/{numbered.family.name}")

    def alone(self, numbered: Numbered) -> tuple[TestResult, bool]:
        session, game, family, around = self.session, numbered.game, numbered.family, frozenset(self.masked)

        def run() -> TestResult:
            return session.run_game(f"random/{family.name}", "", (), game.deck, game.moves, kind="random",
                                    masked=around, charged=self.charged)

        result = guarded(f"random/{family.name}_{numbered.number}", "random", (), "random", run)
        return result, result.verdict is Verdict.PASSED and session.proven_natively


def _note_kept_state(session: FcdSession[G], batched: BatchedGames[Numbered, TestResult],
                     results: list[TestResult]) -> None:
    """The note on state kept between games, on the test of the rule family of what the first such game
    did differently (or on the first random test): the game, what it did, that alone it agreed."""
    first = batched.kept_state[0]
    what, differed_in = session.what_differed([(n.game.deck, n.game.moves) for n in first.batch], first.shown)
    numbered = first.game
    label = (f"random game {numbered.number} ({numbered.family.name}, {len(numbered.game.moves)} moves on a "
             f"{len(numbered.game.deck)}-card deck)")
    note = kept_state_note(label, len(first.batch) - 1, what, len(batched.kept_state) - 1)
    by_name = session.edition.table.by_name
    family = (by_name[differed_in].family if differed_in in by_name else differed_in
              or ("crashes" if first.shown is Shown.CRASHED else ""))
    owner = next((r for r in results if r.id == f"random/{family}"), results[0] if results else None)
    if owner is not None:
        owner.notes.append(note)


def shrunk(session: FcdSession[G], test_id: str, game: RandomGame, result: TestResult, around: frozenset[str],
           budget: int = SHRINK_RUNS) -> tuple[RandomGame, TestResult]:
    """The failing ``game`` shrunk: cut after its first difference (later moves show nothing more), then each run
    of moves whose removal leaves a game the reference still accepts and the submission still fails in the same
    rule family left out -- halves first, then quarters, down to single moves -- and cut again after the new first
    difference.  At most ``budget`` games are played on the submission; what it finds is deterministic (the same
    candidates in the same order), so a submission's report shows the same game every run."""
    family = result.rule_family
    edition = session.edition

    def tried(moves: Sequence[WrittenMove]) -> TestResult | None:
        again = session.run_game(test_id, "", (), game.deck, moves, kind="random", masked=around)
        return again if not again.passed and again.rule_family == family else None

    def cut(moves: Sequence[WrittenMove], failing: TestResult) -> list[WrittenMove]:
        after = failing.failed_after
        return list(moves[:max(after, 1)]) if after is not None and after < len(moves) else list(moves)

    moves, runs = cut(game.moves, result), 0
    if len(moves) < len(game.moves):
        runs += 1
        again = tried(moves)
        if again is None:  # (cut, it no longer fails the same way: the game as played stands)
            return game, result
        result = again
    chunk = max(1, (len(moves) - 1) // 2)
    while chunk >= 1 and runs < budget:
        start = 0
        while start + chunk < len(moves) and runs < budget:  # the last move, where it differs, stays
            candidate = moves[:start] + moves[start + chunk:]
            if not _legal(edition, game.deck, candidate):
                start += chunk
                continue
            runs += 1
            again = tried(candidate)
            if again is None:
                start += chunk
                continue
            moves, result = cut(candidate, again), again  # (the same start: what follows moved up)
        chunk //= 2
    return RandomGame(game.deck, tuple(moves)), result


def _legal(edition: Edition[G], deck: Deck, moves: Sequence[WrittenMove]) -> bool:
    """Does the reference accept every move of ``moves`` on ``deck``, in order?"""
    try:
        play_reference(deck, moves, None, edition)
    except ScenarioMoveError:
        return False
    return True


def _family_result(session: FcdSession[G], rule_family: str, played: int, failed: int,
                   worst: tuple[RandomGame, TestResult, Family, frozenset[str]] | None, agreed: float,
                   charged_to: str | None, unshown: int = 0, crash_owner: str = "") -> TestResult:
    """The test of one rule family from ``played`` games that could show it (``unshown`` others a crash
    already charged, to ``crash_owner``, stopped in newGame) of which ``agreed`` (in shares of games, for a
    family judged around step by step) showed it agreeing.  A family no game could show is not shown: a test
    that judged nothing never reads "passed"."""
    test_id = f"random/{rule_family}"
    edition = session.edition
    words = edition.table.families[rule_family]
    base = TestResult(test_id, "random", (edition.rules_span,), 1.0, Verdict.PASSED, kind="random")
    if unshown and played:
        base.notes.append(f"{unshown} random game(s) could not start: newGame() crashed on their deck, which a "
                          f"scenario was already charged for; they are not counted here")
    if worst is None and not played:
        base.verdict, base.earned, base.charged_to = Verdict.NOT_SHOWN, 0.0, charged_to or ""
        why = (f"newGame() crashed on the deck of every one of the {unshown} random games, and "
               f"{crash_owner or 'a scenario'} was already charged for that crash" if unshown else
               "no random game got far enough to show it")
        base.message = (f"No random game could show {words}: {why}. Nothing of it was seen to hold, so this test "
                        f"earns nothing here, and it is not charged either.")
        return base
    if charged_to is not None:
        base.earned, base.charged_to = round(agreed / played, 4), charged_to
        if base.earned >= 1.0:
            base.notes.append(f"{charged_to} already failed on {words}; the random games judged around it (not "
                              f"charged twice), and it agreed at every step they judged")
            return base
        base.verdict = Verdict.NOT_SHOWN
        base.message = (f"Judged around here: {charged_to} already failed on {words} (it is not charged twice). "
                        f"In the {played} random game(s) that judged it, a step where your game differed there "
                        f"again showed nothing, and a step where it agreed counts: this test earns the part of its "
                        f"steps that agreed, {share_words(base.earned)} of its marks.")
        return base
    if worst is None:
        base.earned = agreed / played
        base.notes.append(f"{agreed:g} of {played} random games showed {words} agreeing with the reference")
        if agreed < played:
            base.verdict = Verdict.NOT_SHOWN
            base.message = (f"{agreed:g} of {played} random games showed {words} agreeing with the reference; the "
                            f"others could not show it (the game did not start, or a difference in something "
                            f"another test judges stopped it), so this earns {agreed:g} of {played} shares.")
        return base
    game, result, family, around = worst
    again = session.run_game(test_id, "", (), game.deck, game.moves, kind="random", masked=around)
    if not again.passed and again.rule_family == rule_family:
        result = again
    game, result = shrunk(session, test_id, game, result, around)
    result.id, result.group, result.kind, result.earned = test_id, "random", "random", 0.0
    result.message = (f"{failed} of {played} random games differ from the reference in {words}. "
                      f"The shortest, shrunk: {family.says[:-1].lower()}, {len(game.moves)} moves on a "
                      f"{len(game.deck)}-card deck.\n" + result.message)
    result.repro = as_scenario(test_id, game, result)
    return result
