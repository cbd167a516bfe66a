"""Compare a submission's trace with the reference's, move by move.

Strictness comes from the rulings table only (``reference.rulings``): an
observation a LENIENT ruling covers in the state at hand is never held against
the submission; the difference is recorded as a note instead.  Hands are
compared as multisets (the rules fix no order).  Only the observations in the
test's focus can fail it; the first such difference is the verdict (put in
words for the student by ``grader.games.fcd.explain``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence, cast

from grader.core.results import DifferenceRow
from grader.games.fcd.edition import RefusalRulings, WrittenMove
from grader.games.fcd.focus import Focus, everything, reason_of, validity_field
from grader.games.fcd.reference_trace import Step
from grader.games.fcd.sandbox.frames import Event
from grader.games.fcd.sandbox.observations import Table
from grader.games.fcd.sandbox.observe import MISSING, SKIPPED, CardObs, Obs, card_label
from grader.games.fcd.schema import valid_observation
from reference.cards import COLOR_LETTERS, CardKey
from reference.game import NOT_FINISHED
from reference.rulings import EVERY_OBSERVATION

# The values of an observation's fields, by the shape its table's row gives it (``schema``): the reference's are
# of that shape; a submission's, once ``valid_observation`` has checked them, too (or MISSING, SKIPPED).
Hand = list[CardObs]
History = Sequence[Sequence[str]]  # the previous turn's moves and this turn's, in the notation (2017)


@dataclass
class Divergence:
    step: int  # observation index: 0 after newGame, k after move k
    field: str
    expected: object
    got: object
    label: str = ""  # for valid_play: the move tried; for hands: the player
    change: bool = False  # compared as what the move changed (the values had differed before)
    table: Table = dataclasses.field(kw_only=True)  # the edition's observations, for the words (``field``: a name)
    reason: tuple[str, ...] = dataclasses.field(default=(), kw_only=True)  # the clauses behind the reference's answer

    def row(self) -> DifferenceRow:
        """What differed as the replay shows it: the step, the call, expected and got in words."""
        o = self.table.by_name[self.field]
        what = answer_call(self.field, self.label) if o.shape == "answers" else (
            o.call.replace("(p", f"({self.label}") if self.label else o.call)
        return {"step": self.step, "what": what, "expected": _show(self.expected), "got": _show(self.got)}

    def describe(self) -> str:
        o = self.table.by_name[self.field]
        call, meaning = o.call, o.meaning_words
        if o.shape == "answers":
            call = answer_call(self.field, self.label)
        elif o.shape in ("four_hands", "four_ints") and self.label:
            call = call.replace("(p", f"({self.label}")
        what = (f"{call}  -- {meaning}\n    (it already differed before this move, so what this move changed "
                f"is compared)") if self.change else f"{call}  -- {meaning}"
        return f"{what}\n    expected: {_show(self.expected)}\n    got:      {_show(self.got)}"


@dataclass
class Comparison:
    """What one test saw of its rule: the difference it holds against the submission (if any), and the
    evidence -- the steps where its rule was judged and agreed, and those where a difference owned
    by another test hid it (neither charged nor paid)."""

    divergence: Divergence | None
    identity_problem: str | None = None
    notes: list[str] = field(default_factory=list)
    compared_steps: int = 0
    cut_at: int | None = None  # step after which readings differ and comparing stops
    not_shown: list[str] = field(default_factory=list)  # why this test could not see all of its rule
    agreed: float = 0.0  # steps where the test's rule was judged and held (evidence), a step's part for a part
    hidden: float = 0.0  # steps where its rule was hidden by a difference another test owns
    hidden_steps: int = 0  # the steps where any of it was hidden (in whole steps: what a student is told)
    forced_at: int | None = None  # the first move the submission refused and the grader made anyway (2018's A28)
    lenient_forced: bool = False  # ... a refusal the rules allow (a reading): what follows is judged where it agrees
    judges_nothing: bool = False  # no observation is this test's at any step: the game running is its evidence

    @property
    def passed(self) -> bool:
        return self.divergence is None and self.identity_problem is None

    @property
    def judged_steps(self) -> int:
        """The steps that judge this test's rule (each one seen to hold, hidden, or part of each)."""
        return round(self.agreed + self.hidden)

    @property
    def seen(self) -> float:
        """The share of the steps that judge this test's rule where it was seen to hold."""
        judged = self.agreed + self.hidden
        return self.agreed / judged if judged else 0.0


def answer_call(name: str, label: str) -> str:
    """The isValidMove call behind one answer of a battery: ``isValidMove(PLAY_CARD 5RH)``, ``isValidMove(SAY_UNO)``."""
    return f"isValidMove(SAY_{label.upper()})" if name == "valid_say" else f"isValidMove(PLAY_CARD {label})"


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, list) and value and isinstance(value[0], str):
        return " ".join(value) if value else "(none)"
    if value is None:
        return "NULL"
    if value == []:
        return "(none)"
    return str(value)


def _keys(cards: Sequence[CardObs]) -> list[str]:
    return [card_label(c) for c in cards]


def _multiset(cards: Sequence[CardObs]) -> list[str]:
    return sorted(_keys(cards))


def _absent(value: object) -> bool:
    """A function the submission lacks, or a probe left out: nothing to compare."""
    if isinstance(value, str):
        return value in (MISSING, SKIPPED)
    return isinstance(value, list) and any(isinstance(v, str) and v in (MISSING, SKIPPED) for v in value)


def _hand_difference(expected: list[str], got: list[str]) -> tuple[str, str]:
    e, g = Counter(expected), Counter(got)
    missing, extra = e - g, g - e
    exp = " ".join(expected) or "(empty)"
    gotten = " ".join(got) or "(empty)"
    if missing or extra:
        gotten += (f"   [missing: {' '.join(missing.elements()) or '-'}; "
                   f"unexpected: {' '.join(extra.elements()) or '-'}]")
    return exp, gotten


class _StepJudge:
    """Compares one game's steps in order, remembering which observations have already differed."""

    def __init__(self, ref: list[Step], got: Sequence[object], focus: Focus,
                 owners: dict[tuple[str, bool], str] | None, table: Table, refusal: RefusalRulings,
                 charged: Mapping[str, str] | None = None) -> None:
        self.ref, self.got, self.focus, self.owners, self.table = ref, got, focus, owners or {}, table
        self.refusal = refusal
        self.charged = charged or {}  # observations whose differences another test was already charged for
        self.by_name = table.by_name
        self.tainted: set[str] = set()  # observations that have differed (outside the focus, or leniently)
        self.notes: list[str] = []
        self.not_shown: list[str] = []
        self._noted: set[str] = set()
        self.hidden_here: Counter[str] = Counter()  # this step: how much of each observation was hidden
        self.forced: int | None = None  # after this move, made though the submission refused it, nothing is charged
        self.forced_lenient = False  # ... and the refusal was a reading the rules allow (nothing hidden either)

    def owner(self, name: str, k: int, label: str = "") -> str:
        """Which test judges ``name`` (an answer: the one whose rule the reference named for it)."""
        reason = reason_of(self.ref[k].obs, name, label) if name in self.table.validity else ()
        test = next((t for c in reason if (t := self.owners.get((c, k > 0)))), None) \
            or self.owners.get((name, k > 0))
        rule = f" (its rule {', '.join(reason)} decided the reference's answer)" if reason else ""
        return f"the test {test} judges it{rule}" if test else "another test judges it"

    def _outside(self, k: int, name: str, d: Divergence, why: str = "") -> None:
        """A difference this test does not judge: a note (once per observation), never a failure."""
        if name not in self.table.validity:
            self.tainted.add(name)
        if name in self._noted:
            return
        self._noted.add(name)
        where = "right after newGame" if k == 0 else f"after move {k}"
        call = self.by_name[name].call if not d.label or self.by_name[name].shape != "answers" \
            else answer_call(name, d.label)
        self.notes.append(f"{where}: {call} differs ({_brief(d.expected)} expected, {_brief(d.got)} got); "
                          f"{why or 'not the rule of this test'}: {self.owner(name, k, d.label)}")

    def _hide(self, k: int, name: str, why: str) -> None:
        """This test's rule, at step ``k``, could not be seen: neither charged nor paid (an answer of a
        battery is one part of it; any other observation is one part)."""
        self.hidden_here[name] += 1
        line = f"after move {k}: {self.by_name[name].call} {why}"
        if line in self.not_shown or len(set(self.not_shown)) < 8:  # eight reasons at most, each counted in full
            self.not_shown.append(line)

    def causes(self, k: int, name: str, d: Divergence) -> list[str]:
        """The earlier differences (owned elsewhere) that may explain this one, judged on the reference's
        state and on what the submission claims: a card held in both hands is answered whatever else the
        hands hold; a game the submission claims is over explains only a FALSE (A29)."""
        causes = [c for c in self.table.depends_on.get(name, ()) if c in self.tainted]
        if name in self.table.validity:
            if d.label and name == "valid_play":  # the card is in both hands: the rest of the hand is no cause
                causes = [c for c in causes if c not in ("hand", "hands")]
            if "winner" in causes and not (d.got is False and self._claims_over(k)):
                causes.remove("winner")
        return causes

    def _claims_over(self, k: int) -> bool:
        """Does the submission say the game is over where the reference plays on?"""
        return _claims_over(self.ref[k], self.got[k])

    def judge(self, k: int, name: str, d: Divergence) -> Divergence | None:
        """The divergence if this test holds it against the submission, else None (noted, or hidden)."""
        by_name = self.by_name
        label = d.label if by_name[name].shape == "answers" else ""
        covered = self.focus.covers(name, k, self.ref[k].obs, label)
        causes = self.causes(k, name, d)
        if causes:
            self._outside(k, name, d, f"it follows from {by_name[causes[0]].call}, which differed before")
            if covered:
                self._hide(k, name, f"could not be judged because {by_name[causes[0]].call} differed before "
                                    f"({self.owner(causes[0], k)})")
            return None
        if covered and name in self.charged:  # the known bug again: its steps are hidden, the others judged
            self._outside(k, name, d, f"{self.charged[name]} was already charged for it")
            self._hide(k, name, f"differed again ({self.charged[name]} was already charged for it)")
            return None
        if covered and self.forced is not None and k > self.forced:
            if name not in self.table.validity:
                self.tainted.add(name)
            if not self.forced_lenient:
                self._hide(k, name, f"could not be judged: move {self.forced + 1} was made although your "
                                    f"isValidMove() refused it, so what your game did after it is undefined "
                                    f"({self.refusal.undefined})")
            return None
        if covered:
            if name in self.table.validity:
                d.reason = reason_of(self.ref[k].obs, name, label)
            return d
        self._outside(k, name, d)
        return None

    def covered(self, k: int) -> dict[str, int]:
        """What this test judges at step ``k``: the observations its focus covers there, each with its parts
        (an isValidMove battery: one part per answer the focus covers; anything else: one)."""
        obs, out = self.ref[k].obs, {}
        for name, value in obs.items():
            if name not in self.by_name:
                continue
            if self.by_name[name].shape == "answers" and isinstance(value, dict):
                if n := sum(1 for label in value if self.focus.covers(name, k, obs, label)):
                    out[name] = n
            elif self.focus.covers(name, k, obs):
                out[name] = 1
        if k > 0 and self.focus.covers("identity", k, obs):
            out["identity"] = 1
        return out

    def covers_any(self, k: int) -> bool:
        return bool(self.covered(k))

    def _accepted(self, k: int, what: str, why: tuple[str, ...], text: str) -> None:
        """A difference a LENIENT ruling accepts: a note, once per observation where a ruling leaves every
        observation open (the readings have led to different games; nothing new is shown at each step)."""
        if EVERY_OBSERVATION in self.ref[k].lenient.fields:
            if f"accepted {what}" in self._noted:
                return
            self._noted.add(f"accepted {what}")
        self.notes.append(f"after move {k}: {text}; accepted ({', '.join(why)})")

    def _offsets_accepted(self, k: int, name: str, e: list[int], g: list[object],
                          accepted: dict[int, tuple[int, ...]], why: tuple[str, ...]) -> list[object]:
        """``g`` with each player's entry that differs from ``e`` by an accepted difference taken as equal."""
        out = list(g)
        for p, diffs in accepted.items():
            if not 0 <= p < len(out):
                continue
            got = out[p]
            if isinstance(got, int) and got != e[p] and got - e[p] in diffs:
                self._accepted(k, f"{name} {p}", why, f"{self.by_name[name].call.replace('(p', f'({p}')} is "
                               f"{got}, the reference's {e[p]}")
                out[p] = e[p]
        return out

    def step(self, k: int) -> Divergence | None:
        """Judge step ``k`` (a submission's observation there ``valid_observation`` has checked)."""
        exp, len_, obs = self.ref[k].obs, self.ref[k].lenient, cast(Obs, self.got[k])
        by_name = self.by_name
        # What agrees again at this step explains nothing here, whichever order the observations are judged in.
        self.tainted -= {n for n in self.tainted if n in exp and n in obs and _same(self.table, n, exp[n], obs[n])}
        for name in self.table.order:
            if name not in exp:
                continue
            e, g = exp[name], obs.get(name, MISSING)
            if _absent(g):
                continue  # the API-completeness tests report missing functions; crashed probes are charged apart
            if by_name[name].shape == "answers":
                answers, got_answers = cast("dict[str, bool]", e), cast("dict[str, bool]", g)
                for label, ev in answers.items():
                    gv = got_answers.get(label)
                    if gv is None or ev == gv:
                        continue  # a card not in the submission's hand: 'hand' reports that
                    if name == "valid_play" and len_.play_is_lenient(_card_key(label)):
                        self._accepted(k, f"{name} {label}", len_.why(name, _card_key(label)),
                                       f"{answer_call(name, label)} gave {_show(gv)}, the reference {_show(ev)}")
                        continue
                    if name not in ("valid_play", "valid_foreign") and len_.field_is_lenient(name):
                        self._accepted(k, f"{name} {label}", len_.why(name),
                                       f"{answer_call(name, label)} gave {_show(gv)}, the reference {_show(ev)}")
                        continue
                    if name == "valid_foreign" and len_.field_is_lenient(name):
                        continue
                    d = self.judge(k, name, Divergence(k, name, ev, gv, label, table=self.table))
                    if d:
                        return d
                continue
            if name == "winner" and e != g and len_.winner_accepts and g in len_.winner_accepts:
                self.notes.append(f"after move {k}: gameWinner() {g} accepted (a LENIENT ruling leaves the end of "
                                  f"the game open here)")
                continue
            if name in len_.offsets and isinstance(g, list):
                g = self._offsets_accepted(k, name, cast("list[int]", e), g, len_.offsets[name],
                                           len_.why(EVERY_OBSERVATION))
            if _same(self.table, name, e, g):
                self.tainted.discard(name)
                continue
            if len_.field_is_lenient(name):
                self._accepted(k, name, len_.why(name), f"{by_name[name].call} differs ({_brief(e)} vs {_brief(g)})")
                continue
            piles = set(self.table.piles)
            seated = by_name[name].change in _PER_SEAT and "current_player" in self.tainted
            if k > 0 and (name in self.tainted or (name in self.table.follow_the_piles and self.tainted & piles)
                          or seated):
                change = _change(self.table, name, self.ref[k - 1].obs, exp, cast(Obs, self.got[k - 1]), obs,
                                 self.tainted)
                if change is None:
                    self.tainted.add(name)  # it differed before; this move changed it as it should
                    continue
                d = self.judge(k, name, change)
            else:
                d = self.judge(k, name, _divergence(self.table, k, name, e, g))
            if d:
                return d
        return None


def _brief(v: object) -> str:
    if isinstance(v, list) and len(v) == 2 and all(isinstance(t, list) and all(isinstance(m, str) for m in t)
                                                   for t in v):
        return history_text(v)  # a history: two turns of moves
    if isinstance(v, list) and v and isinstance(v[0], list):
        if any(isinstance(h, list) and h and isinstance(h[0], list) for h in v) or any(h == [] for h in v):
            return "other hands"  # four hands (some may be empty)
        return " ".join(_keys(v)) if len(v) < 12 else f"{len(v)} cards"
    return _show(v)


def _card_key(label: str) -> tuple[int, int, int]:
    return (int(label[0], 16), COLOR_LETTERS.index(label[1]), "HDCSQ".index(label[2]))


def _same(table: Table, name: str, e: object, g: object) -> bool:
    if e == g:
        return True
    o = table.by_name[name]
    if o.shape == "card":
        return (e is None and g is None) or (e is not None and g is not None
                                             and cast(CardObs, e)[:3] == cast(CardObs, g)[:3])
    if o.shape == "cards" and o.change == "pile":
        return _keys(cast(Hand, e)) == _keys(cast(Hand, g))  # piles: order matters
    if o.shape == "cards":
        return _multiset(cast(Hand, e)) == _multiset(cast(Hand, g))  # a hand: the rules fix no order
    if o.shape == "four_hands":
        eh, gh = cast("list[Hand]", e), cast("list[Hand]", g)
        return len(eh) == len(gh) and all(_multiset(a) == _multiset(b) for a, b in zip(eh, gh))
    return False


def _cards_change(before: Sequence[CardObs], after: Sequence[CardObs]) -> tuple[Counter[str], Counter[str]]:
    b, a = Counter(_keys(before)), Counter(_keys(after))
    return b - a, a - b  # lost, gained


def _change(table: Table, name: str, ep: Obs, en: Obs, gp: Obs, gn: Obs, tainted: set[str]) -> Divergence | None:
    """Judge move k by what it changed, for an observation whose values differ: None if the
    change is right (the difference came from before), else the divergence of the change."""
    e0, e1, g0, g1 = ep.get(name), en[name], gp.get(name), gn[name]
    if _absent(g0) or name not in ep:
        return None
    faces_unknown = bool(tainted & set(table.piles))  # drawn cards may rightly differ
    o = table.by_name[name]
    player_changed = ep.get("current_player") != en.get("current_player")

    def diff(exp_change: object, got_change: object) -> Divergence | None:
        if exp_change == got_change:
            return None
        return Divergence(-1, name, exp_change, got_change, change=True, table=table)

    kind = o.change
    if kind in ("own_counter", "own_cards") and player_changed:
        return None  # another player's hand: nothing to compare it with
    if kind in ("counter", "own_counter"):
        x0, x1, y0, y1 = cast("tuple[int, int, int, int]", (e0, e1, g0, g1))
        return diff(f"{x1 - x0:+d}", f"{y1 - y0:+d}")
    if kind == "seat":
        x0, x1, y0, y1 = cast("tuple[int, int, int, int]", (e0, e1, g0, g1))
        return diff(f"{(x1 - x0) % 4:+d} seat(s)", f"{(y1 - y0) % 4:+d} seat(s)")
    if kind == "value":
        show: Callable[[object], str] = ((lambda c: "NULL" if c is None else card_label(cast(CardObs, c)))
                                         if o.shape == "card" else _show)
        same0 = _same(table, name, e0, e1)
        return diff("unchanged" if same0 else f"becomes {show(e1)}",
                    "unchanged" if _same(table, name, g0, g1) else f"becomes {show(g1)}")
    if kind == "flag":
        return diff("changed" if e0 != e1 else "unchanged", "changed" if g0 != g1 else "unchanged")
    if kind in _PER_SEAT and "current_player" in tainted and isinstance(g0, list) and isinstance(g1, list):
        if kind == "per_player" and o.follows_the_piles and faces_unknown:
            return None
        # Whose turn it is differed before (another test owns that): the move changed some player's hand as
        # the reference's changed its player's -- compare the players' changes whoever made them.
        return diff(sorted(_seat_changes(kind, cast("list[object]", e0), cast("list[object]", e1), faces_unknown)),
                    sorted(_seat_changes(kind, g0, g1, faces_unknown)))
    if kind in ("cards", "own_cards"):
        pairs = ([cast("tuple[Hand, Hand, Hand, Hand]", (e0, e1, g0, g1))] if kind == "own_cards"
                 else list(zip(*cast("tuple[list[Hand], list[Hand], list[Hand], list[Hand]]", (e0, e1, g0, g1)))))
        for p, (a0, a1, b0, b1) in enumerate(pairs):
            lost_e, gained_e = _cards_change(a0, a1)
            lost_g, gained_g = _cards_change(b0, b1)
            exp_gain = f"{sum(gained_e.values())} card(s)" if faces_unknown else " ".join(sorted(gained_e.elements()))
            got_gain = f"{sum(gained_g.values())} card(s)" if faces_unknown else " ".join(sorted(gained_g.elements()))
            d = diff(f"lost {' '.join(sorted(lost_e.elements())) or 'nothing'}, gained {exp_gain or 'nothing'}",
                     f"lost {' '.join(sorted(lost_g.elements())) or 'nothing'}, gained {got_gain or 'nothing'}")
            if d:
                d.label = "" if kind == "own_cards" else str(p)
                return d
        return None
    if kind == "per_player":
        if o.follows_the_piles and faces_unknown:
            return None
        counts = cast("tuple[list[int], list[int], list[int], list[int]]", (e0, e1, g0, g1))  # b0, b1: or absent
        for p, (x0, x1, y0, y1) in enumerate(zip(*counts)):
            if _absent(y0) or _absent(y1):
                continue
            if x1 - x0 != y1 - y0:
                return Divergence(-1, name, f"{x1 - x0:+d}", f"{y1 - y0:+d}", str(p), change=True, table=table)
        return None
    return None  # piles, validity, deck counts: once they have differed, nothing new (``CHANGES``)


_PER_SEAT = ("cards", "per_player")  # a value per player, changed by the move of whoever's turn it is


def _seat_changes(kind: str, before: list[object], after: list[object], faces_unknown: bool) -> list[str]:
    """What a move changed for each player, in words, in no player's order."""
    out = []
    for b, a in zip(before, after):
        if _absent(b) or _absent(a):
            continue
        if kind == "cards":
            lost, gained = _cards_change(cast(Hand, b), cast(Hand, a))
            got = f"{sum(gained.values())} card(s)" if faces_unknown else " ".join(sorted(gained.elements()))
            out.append(f"lost {' '.join(sorted(lost.elements())) or 'nothing'}, gained {got or 'nothing'}")
        elif isinstance(a, int) and isinstance(b, int):
            out.append(f"{a - b:+d}")
    return out


def _divergence(table: Table, k: int, name: str, e: object, g: object) -> Divergence:
    o = table.by_name[name]
    if o.shape == "cards" and o.change == "pile":
        return Divergence(k, name, " ".join(_keys(cast(Hand, e))) or "(empty)", " ".join(_keys(cast(Hand, g)))
                          or "(empty)", table=table)
    if o.shape == "cards":
        exp, got = _hand_difference(_multiset(cast(Hand, e)), _multiset(cast(Hand, g)))
        return Divergence(k, name, exp, got, table=table)
    if o.shape == "four_hands":
        for p, (hand_e, hand_g) in enumerate(zip(cast("list[Hand]", e), cast("list[Hand]", g))):
            if _multiset(hand_e) != _multiset(hand_g):
                exp, got = _hand_difference(_multiset(hand_e), _multiset(hand_g))
                return Divergence(k, name, exp, got, label=str(p), table=table)
    if o.shape == "four_ints" or o.shape.startswith("ints_"):
        for p, (a, b) in enumerate(zip(cast("list[object]", e), cast("list[object]", g))):
            if a != b:
                return Divergence(k, name, a, b, label=str(p), table=table)
    if o.shape == "card":
        return Divergence(k, name, card_label(cast(CardObs, e)) if e else None,
                          card_label(cast(CardObs, g)) if g else None, table=table)
    if o.shape == "history":
        return Divergence(k, name, history_text(cast(History, e)), history_text(cast(History, g)), table=table)
    return Divergence(k, name, o.value_words(e), o.value_words(g), table=table)


def history_text(turns: History) -> str:
    """The previous turn's moves and this turn's, as a student reads them."""
    previous, current = turns
    return f"previous turn: {' '.join(previous) or '(none)'}; this turn: {' '.join(current) or '(none)'}"


def validity_label(spec: WrittenMove) -> tuple[str, str]:
    """Which observation holds isValidMove for this move (a move of either edition), and under which label."""
    name = validity_field(str(spec))
    return name, (str(spec) if name in ("valid_play", "valid_say") else "")


def _move_is_lenient(spec: WrittenMove, step: Step) -> bool:
    """Does a LENIENT ruling leave this move's validity open in the state before it?"""
    name, _label = validity_label(spec)
    if name == "valid_play":
        return step.lenient.play_is_lenient(cast(CardKey, spec.card_key))  # a card's move: it names the card
    return step.lenient.field_is_lenient(name)


def _identity_problem(k: int, spec: WrittenMove, before: Obs, after: Obs) -> str | None:
    """A46 (B3 in 2017): the played card is the new top discard; a drawn card is the former top of the
    draw pile (where the edition shows the draw pile)."""
    if validity_field(str(spec)) == "valid_play":
        hand, top = before.get("hand"), after.get("top_discard")
        if _absent(hand) or hand is None or _absent(top) or top is None:
            return None
        top = cast(CardObs, top)
        played = next((c for c in cast(Hand, hand) if tuple(c[:3]) == spec.card_key), None)
        if played is not None and top[3] != played[3]:
            return (f"after move {k} the top discard looks like {card_label(top)} but is not the very card "
                    f"that was played (a different Card pointer). topDiscard() must return the played card "
                    f"itself, not a copy (A46).")
    elif str(spec) == "draw":
        pile, hand = before.get("deck_pile"), after.get("hand")
        if _absent(pile) or not pile or _absent(hand) or hand is None:
            return None
        if after.get("current_player") != before.get("current_player"):
            return None
        drawn = cast(Hand, pile)[0]
        if all(c[3] != drawn[3] for c in cast(Hand, hand)):
            return (f"after move {k} the card drawn is not the very card that was on top of the draw pile "
                    f"(getDeckCard(0) before the draw, {card_label(drawn)}): the hand must receive that "
                    f"Card pointer, not a copy (A46).")
    return None


def _recycled(table: Table, exp: Obs, got: Obs) -> bool:
    """Do the piles show a recycle the reference has not made yet (A22's eager reading)?"""
    return any(not _absent(got[p]) and not _same(table, p, exp[p], got[p]) for p in table.piles)


def _claims_over(ref: Step, got: object) -> bool:
    """Does the submission say the game is over where the reference plays on?"""
    won = got.get("winner") if isinstance(got, dict) else None
    return (ref.obs.get("winner") == NOT_FINISHED and isinstance(won, int) and not isinstance(won, bool)
            and won != NOT_FINISHED)


def _judged_on(moves: Sequence[WrittenMove], ref: list[Step], got: Sequence[object], i: int,
               refusal: RefusalRulings) -> bool:
    """Is the game judged on after the submission refused move ``i`` (made anyway)?  Yes where its refusal
    follows from its own claimed end of the game (gameWinner() said the game was over where the reference
    plays on: the end tests own that), or where a ruling keeps the outcome of that move strict (2018's A23 (b)
    may refuse a draw with nothing to draw, but gameWinner() after that attempted draw is NO_WINNER under every
    reading)."""
    if not (0 <= i < min(len(ref), len(got), len(moves))):
        return False
    name, _ = validity_label(moves[i])
    ruling = refusal.strict_after.get(name)
    return _claims_over(ref[i], got[i]) or (ruling is not None and ruling in ref[i].lenient.why(name))


def forced_move(moves: Sequence[WrittenMove], ref: list[Step], got: Sequence[object],
                events: Sequence[object], refusal: RefusalRulings) -> int | None:
    """The first move the submission's isValidMove refused and the worker made anyway, after which nothing
    is charged (``refusal.undefined``: 2018's A28) -- unless the game is judged on after that refusal
    (``_judged_on``)."""
    refused = sorted({e["i"] for e in events if isinstance(e, dict) and e.get("t") == Event.REFUSED.value
                      and isinstance(e.get("i"), int) and not isinstance(e.get("i"), bool)})
    return next((i for i in refused if not _judged_on(moves, ref, got, i, refusal)), None)


def compare(moves: Sequence[WrittenMove], ref: list[Step], got: Sequence[object],
            events: Sequence[Mapping[str, object]] | None = None, *, table: Table, refusal: RefusalRulings,
            focus: Focus | None = None, owners: dict[tuple[str, bool], str] | None = None,
            follow: Mapping[str, list[Step]] | None = None, charged: Mapping[str, str] | None = None) -> Comparison:
    """The first difference this test holds against the submission, or none; and the evidence.

    Only observations in ``focus`` can fail the test; other differences are notes
    naming the test that owns them (``owners``).  An observation that has differed
    is judged afterwards on what each move changed, so a bug is not counted again.
    Every step whose observations the focus covers is evidence (``agreed``) or, where a
    difference owned elsewhere hides the rule, ``hidden``.  A move the submission refused
    was made anyway by the worker (``refused`` events): after it nothing is charged.
    ``follow``: the reference's traces under other readings the submission may take
    (``"A22"``: eager recycling), followed from the step the submission shows it.
    ``charged``: observations another test was already charged for (-> that test): judged around step
    by step -- where they differ the step is hidden, where they agree it is evidence.
    ``focus`` None: everything in the edition's table (a random game).
    """
    judge = _StepJudge(ref, got, focus if focus is not None else everything(table), owners, table, refusal, charged)
    stops: dict[int, Event] = {}  # the first stop event at each step (frames are the student's side: checked)
    for e in events or []:
        i = e.get("i") if isinstance(e, dict) else None
        if isinstance(i, int) and not isinstance(i, bool) and e.get("t") in (Event.REFUSED.value, Event.NO_CARD.value):
            stops.setdefault(i, Event(e["t"]))
    agreed = hidden = 0.0
    hidden_steps = 0
    forced_at: int | None = None

    def result(d: Divergence | None = None, *, identity_problem: str | None = None, compared_steps: int = 0,
               cut_at: int | None = None) -> Comparison:
        if d is not None:
            d.table = table
        return Comparison(d, notes=judge.notes, not_shown=judge.not_shown, agreed=agreed, hidden=hidden,
                          hidden_steps=hidden_steps,
                          forced_at=forced_at, lenient_forced=forced_at is not None and judge.forced_lenient,
                          judges_nothing=not (agreed or hidden)  # anything seen or hidden was judged: no rescan
                          and not any(judge.covers_any(j) for j in range(len(ref))),
                          identity_problem=identity_problem, compared_steps=compared_steps, cut_at=cut_at)

    def rest_hidden(k: int, why: str) -> int:
        """The steps after ``k`` this test would have judged: not shown (the game could not go on)."""
        n = sum(1 for j in range(k + 1, len(judge.ref)) if judge.covers_any(j))
        if n:
            judge.not_shown.append(why)
        return n

    for k, sent in enumerate(got):
        if k >= len(judge.ref):
            break
        ref = judge.ref
        judge.hidden_here = Counter()
        obs = cast(Obs, sent)  # the reference's own observation, or else one ``valid_observation`` checks first
        if obs == ref[k].obs:  # the whole step as the reference has it: nothing differs, nothing to note
            judge.tainted -= obs.keys()
        else:
            problem = valid_observation(obs, first=(k == 0), table=table)
            if problem:
                return result(Divergence(k, "winner", "a readable observation", problem, table=table), compared_steps=k)
            d = judge.step(k)
            if d:
                d.step = k
                return result(d, compared_steps=k)
        if k > 0:
            ident = _identity_problem(k, moves[k - 1], cast(Obs, got[k - 1]), obs)
            if ident and judge.focus.covers("identity", k, ref[k].obs):
                if forced_at is None or k <= forced_at:
                    return result(None, identity_problem=ident, compared_steps=k)
                if not judge.forced_lenient:
                    judge.hidden_here["identity"] += 1
            if ident and "identity" not in judge._noted:
                judge._noted.add("identity")
                judge.notes.append(f"{ident} Not the rule of this test: {judge.owner('identity', k)}")
        covered = judge.covered(k)
        if covered:  # each part the test judges here is a share of the step: seen, or hidden
            shut = sum(min(n, judge.hidden_here[name]) for name, n in covered.items()) / sum(covered.values())
            agreed, hidden, hidden_steps = agreed + 1 - shut, hidden + shut, hidden_steps + (shut > 0)
        if ref[k].lenient.winner_accepts and obs["winner"] != ref[k].obs["winner"]:
            return result(None, compared_steps=k, cut_at=k)
        if "A22" in ref[k].lenient.why("deck_pile") and _recycled(table, ref[k].obs, obs):
            other = (follow or {}).get("A22")
            if other is not None and len(other) > k and not _recycled(table, other[k].obs, obs):
                judge.ref = ref[:k] + other[k:]
                judge.notes.append(f"after move {k}: your draw pile was refilled as soon as it ran out (A22, "
                                   f"accepted); from here your game is compared with the reference playing that "
                                   f"reading")
            else:
                judge.notes.append(f"after move {k}: your draw pile was refilled as soon as it ran out (A22, "
                                   f"accepted), but not the way that reading refills it; from here the two games "
                                   f"hold different cards, so the rest was not compared")
                return result(None, compared_steps=k, cut_at=k)
        if k in stops and k < len(moves):
            spec = moves[k]
            lenient = _move_is_lenient(spec, ref[k])
            if stops[k] is Event.NO_CARD:
                why = (f"move {k + 1} ({spec}) needs a card your game did not put in that player's hand "
                       f"({judge.owner('hands', k)}), so the rest of this test was not played")
                if judge.forced is None or not judge.forced_lenient:
                    rest = rest_hidden(k, why)
                    hidden, hidden_steps = hidden + rest, hidden_steps + rest
                return result(None, compared_steps=k, cut_at=k)
            if forced_at is None and _judged_on(moves, judge.ref, got, k, refusal):
                judge.notes.append(f"your isValidMove() refused move {k + 1} ({spec}); it was made anyway, and the "
                                   f"game is judged on: " + ("your game had said it was over "
                                                            f"({judge.owner('winner', k)})" if judge._claims_over(k)
                                                            else "what that move does is still a rule ("
                                                            + refusal.strict_after[validity_label(spec)[0]] + ")"))
            elif forced_at is None:
                forced_at = k
                judge.forced, judge.forced_lenient = k, lenient
                if lenient:
                    judge.notes.append(f"your isValidMove() refused move {k + 1} ({spec}), which the rules leave "
                                       f"open; it was made anyway, and what your game did after it is only "
                                       f"counted where it agrees")
                else:
                    name, _ = validity_label(spec)
                    judge.not_shown.append(
                        f"your isValidMove() refused move {k + 1} ({spec}), which this test needs "
                        f"({judge.owner(name, k)}); it was made anyway, and what your game did after it is "
                        f"only counted where it agrees ({refusal.undefined})")
    if len(got) < len(judge.ref) and forced_at is not None and not judge.forced_lenient:
        rest = rest_hidden(len(got) - 1, "your game stopped after a move it had refused")
        hidden, hidden_steps = hidden + rest, hidden_steps + rest
    return result(None, compared_steps=len(got))


def step_runs(steps: Sequence[int]) -> str:
    """``[0, 1, 2, 3, 7]`` -> ``"0-3,7"``: steps written short (``TestResult.differed``)."""
    out: list[str] = []
    for k in sorted(set(steps)):
        if out and (last := out[-1].split("-")[-1]) and int(last) == k - 1:
            out[-1] = f"{out[-1].split('-')[0]}-{k}"
        else:
            out.append(str(k))
    return ",".join(out)


def parse_step_runs(text: str) -> frozenset[int]:
    """``"0-3,7"`` -> {0, 1, 2, 3, 7} (``step_runs`` read back)."""
    out: set[int] = set()
    for part in filter(None, text.split(",")):
        first, _, last = part.partition("-")
        out.update(range(int(first), int(last or first) + 1))
    return frozenset(out)


def differed(table: Table, moves: Sequence[WrittenMove], ref: Sequence[Step], got: Sequence[object],
             until: int, failed: tuple[str, str] | None = None) -> dict[str, str]:
    """Where the submission's observations differed from the reference's at steps 0 .. ``until``: each
    observation (an answer of a battery as ``"valid_play 5RH"``, the identity rule as ``"identity"``) ->
    its steps (``step_runs``).  ``failed``: the difference the test failed on at ``until`` (observation,
    label), left out.  A repro program leaves these unchecked where they differed: the grader judged
    around them (another test's rule, a value judged by what a move changed, a ruling's open point), so
    what the program checks is exactly what the test saw agree, and then what it failed on."""
    where: dict[str, list[int]] = {}
    for k in range(min(until + 1, len(ref), len(got))):
        exp, obs = ref[k].obs, got[k]
        if not isinstance(obs, dict):
            break
        for name, e in exp.items():
            g = obs.get(name, MISSING)
            if name not in table.by_name or _absent(g):
                continue
            if table.by_name[name].shape == "answers" and isinstance(e, dict) and isinstance(g, dict):
                for label, ev in e.items():
                    if label in g and g[label] != ev and (k, (name, label)) != (until, failed):
                        where.setdefault(f"{name} {label}", []).append(k)
            elif not _same(table, name, e, g) and (k, name) != (until, failed[0] if failed else None):
                where.setdefault(name, []).append(k)
        if 0 < k and not (k == until and failed and failed[0] == "identity") and k - 1 < len(moves) \
                and isinstance(got[k - 1], dict) and _identity_problem(k, moves[k - 1], cast(Obs, got[k - 1]),
                                                                        cast(Obs, obs)):
            where.setdefault("identity", []).append(k)
    return {name: step_runs(steps) for name, steps in where.items()}
