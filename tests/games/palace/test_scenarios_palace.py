"""The Palace rule scenarios (fixtures/palace/scenarios/*.toml) against the reference engine.

Every scenario holds on the reference; a strict scenario holds under every combination of the LENIENT (switch)
readings and asserts nothing another LENIENT ruling leaves open; every probe separates the readings of its
switch; every rule P1-P20 and every STRICT ruling is named by some scenario; and seeded mistakes in the
engine make some scenario fail.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

import pytest

from grader.games.palace.scenarios import (
    Scenario,
    ScenarioError,
    check_on_reference,
    lenient_dependencies,
    load_file,
    load_scenarios,
    run_scenario,
)
from reference.palace import BY_ID, LENIENT_IDS, STRICT_IDS, SWITCH_IDS, Game, Rank, Readings, Setup

SCENARIOS = load_scenarios()
STRICT_SCENARIOS = [s for s in SCENARIOS if not s.is_probe]
PROBES = [s for s in SCENARIOS if s.is_probe]
EVERY_READING = tuple(Readings.every())
RULES = [f"P{i}" for i in range(1, 21)]
# LENIENT rulings with no part held strictly: only a probe may name them.
LENIENT_ONLY = [r for r in LENIENT_IDS if not BY_ID[r].strict_part]


def ids(scenarios: list[Scenario]) -> list[str]:
    return [s.id for s in scenarios]


# ---- the data ---------------------------------------------------------------------------------------------
def test_ids_are_unique_and_the_groups_are_there() -> None:
    assert len({s.id for s in SCENARIOS}) == len(SCENARIOS)
    groups = {s.group for s in SCENARIOS}
    assert groups >= {"deal", "setup", "order", "beating", "drawing", "pile", "stages", "blind", "bombs", "tens",
                      "twos", "mirror", "seven", "end", "queries", "probes"}
    assert 60 <= len(SCENARIOS) <= 100


def test_every_rule_and_strict_ruling_is_named() -> None:
    named = {r for s in SCENARIOS for r in s.rules}
    assert [r for r in RULES if r not in named] == []
    assert [r for r in STRICT_IDS if r not in named] == []


def test_only_probes_name_lenient_only_rulings() -> None:
    for s in STRICT_SCENARIOS:
        assert not set(s.rules) & set(LENIENT_ONLY), s.id


def test_one_probe_per_switch_each_naming_its_ruling() -> None:
    assert {p.probe.ruling for p in PROBES} == set(SWITCH_IDS)  # type: ignore[union-attr]
    for p in PROBES:
        assert p.probe is not None and p.probe.ruling in p.rules and p.group == "probes"


def test_no_special_starting_card() -> None:
    """C31: no scenario turns a TEN as the starting card, nor a SEVEN with the seven option."""
    for s in SCENARIOS:
        rank = s.setup.start[0]
        assert rank != Rank.TEN, s.id
        assert not (rank == Rank.SEVEN and s.setup.seven_lower), s.id


def test_setups_are_canonical() -> None:
    """The setup text of every scenario is the canonical Setup notation (CARD*k runs), so it reads back the same."""
    for s in SCENARIOS:
        assert Setup.parse(str(s.setup)) == s.setup


def test_says_names_the_cards_of_the_deal() -> None:
    """Every explanation names concrete cards and is short (one or two sentences)."""
    for s in SCENARIOS:
        assert re.search(r"\b[2-9TJQKA][HDCS]\b", s.says), s.id
        assert len(re.findall(r"[.!?](?:\s|$)", s.says)) <= 2 and len(s.says) <= 330, s.id


GOOD = """group = "g"
title = "t"
[[scenario]]
id = "x"
rules = ["P6"]
says = "Seat 0 may play 9H on 8S."
setup = "2p basic: 9H 9D 5C 5D 6C 6D JH JD QH QD KH KD 8C KC 8D 4C 4S 5S 8S"
moves = "up:JH,QH,KH up:JD,QD,KD"
[[scenario.expect]]
after = 2
valid = ["9H"]
"""


@pytest.mark.parametrize(("change", "message"), [
    (("valid = [", "vallid = ["), "unknown expectation key(s) ['vallid']"),
    (('moves = "', 'move = "'), "unknown key(s) ['move']"),
    (("after = 2", "after = 3"), "after = 3: the scenario has 2 moves"),
    (('rules = ["P6"]', 'rules = ["C99"]'), "not a rule P1-P20 or a ruling C1-C47"),
    (('valid = ["9H"]', 'malformed = ["action=2"]'), "malformed move 'action=2'"),
    (('rules = ["P6"]', 'rules = ["C9"]\nprobe = "C9"'), "a probe gives expect_by_reading, not expect"),
    (('group = "g"', 'group = "g"\nextra = 1'), "unknown top-level key(s) ['extra']"),
])
def test_loader_names_what_is_wrong(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    good = tmp_path / "good.toml"
    good.write_text(GOOD)
    assert [s.id for s in load_file(good)] == ["x"]
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace(*change))
    with pytest.raises(ScenarioError) as err:
        load_file(bad)
    assert message in str(err.value) and "bad.toml" in str(err.value)


# ---- the reference --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("scenario", SCENARIOS, ids=ids(SCENARIOS))
def test_scenario_holds_on_the_reference(scenario: Scenario) -> None:
    assert check_on_reference(scenario) == []


@pytest.mark.parametrize("scenario", STRICT_SCENARIOS, ids=ids(STRICT_SCENARIOS))
def test_strict_scenario_holds_under_every_reading(scenario: Scenario) -> None:
    """A fair scenario: its expectations do not depend on any LENIENT (switch) reading (§4.3)."""
    failures = {str(r): bad for r in EVERY_READING if (bad := check_on_reference(scenario, r))}
    assert failures == {}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=ids(SCENARIOS))
def test_scenario_asserts_nothing_left_open(scenario: Scenario) -> None:
    """C4, C13, C29, C31, C37, C38, C39, C42: nothing a LENIENT part leaves open is asserted or relied on."""
    assert lenient_dependencies(scenario) == []


@pytest.mark.parametrize("probe", PROBES, ids=ids(PROBES))
def test_probe_gives_each_reading_its_values(probe: Scenario) -> None:
    """Each reading of the probe's switch gives the values the table says, whatever the other switches read."""
    assert probe.probe is not None
    ruling = probe.probe.ruling
    for readings in EVERY_READING:
        if readings.of(ruling) == Readings().of(ruling):  # check_on_reference runs every reading of this switch
            assert check_on_reference(probe, readings) == [], str(readings)


@pytest.mark.parametrize("probe", PROBES, ids=ids(PROBES))
def test_probe_separates_the_readings(probe: Scenario) -> None:
    """At least two readings expect different values, and a reading's values checked under a reading that
    expects otherwise fail: the probe tells those readings apart."""
    assert probe.probe is not None
    ruling, readings = probe.probe.ruling, probe.probe.readings
    tables = {r: tuple(b.for_reading(r) for b in probe.probe.blocks) for r in readings}
    assert len({repr(t) for t in tables.values()}) >= 2
    for mine in readings:
        for other in readings:
            if repr(tables[mine]) == repr(tables[other]):
                continue
            checks = [(e.after, e) for e in tables[mine]]
            assert run_scenario(probe, Readings().with_(**{ruling: other}), checks), (mine, other)


# ---- seeded mistakes (rules-palace.md §4.6) ------------------------------------------------------------------------
TWO, THREE, SEVEN, TEN = int(Rank.TWO), int(Rank.THREE), int(Rank.SEVEN), int(Rank.TEN)


def _strict_greater(monkeypatch: pytest.MonkeyPatch) -> None:
    def playable(self: Game, rank: int) -> bool:
        if not self._pile:
            return True
        if self._restricts[-1]:
            return rank <= SEVEN
        if rank in (TWO, TEN) or (rank == THREE and self._mirror):
            return True
        return rank > self._eff[-1]  # the mistake: > instead of >=

    monkeypatch.setattr(Game, "_playable", playable)


def _after_settle(extra: Callable[[Game, int, bool, bool], None]) -> Callable[[pytest.MonkeyPatch], None]:
    """A mistake made after the reference's _settle: extra(game, seat, ten_on_top, two_on_top) before it ran."""
    def patch(monkeypatch: pytest.MonkeyPatch) -> None:
        settle = Game._settle

        def patched(self: Game, seat: int) -> None:
            top = self._pile[-1].rank if self._pile else None
            settle(self, seat)
            if self._phase.name != "GAME_OVER":
                extra(self, seat, top == TEN, top == TWO)

        monkeypatch.setattr(Game, "_settle", patched)
    return patch


def _ten_passes(game: Game, seat: int, ten: bool, _two: bool) -> None:
    if ten:
        game._player = (seat + 1) % game._n


def _two_skips(game: Game, seat: int, _ten: bool, two: bool) -> None:
    if two and game._player == (seat + 1) % game._n:
        game._player = (seat + 2) % game._n


def _no_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Game, "_draw_after", lambda self, seat, hand, played: None)


def _free_play_to_next_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    burn = Game._burn

    def patched(self: Game) -> None:
        burn(self)
        self._player = (self._player + 1) % self._n

    monkeypatch.setattr(Game, "_burn", patched)


def _ten_on_seven(monkeypatch: pytest.MonkeyPatch) -> None:
    playable = Game._playable
    monkeypatch.setattr(Game, "_playable",
                        lambda self, rank: rank == TEN or playable(self, rank))


def _seven_lasts_two_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    push = Game._push

    def patched(self: Game, card) -> None:  # noqa: ANN001
        below_seven = bool(self._pile) and self._pile[-1].rank == SEVEN and self._restricts[-1]
        push(self, card)
        if below_seven:
            self._restricts[-1] = True

    monkeypatch.setattr(Game, "_push", patched)


def _mirror_counts_as_three(monkeypatch: pytest.MonkeyPatch) -> None:
    def run(self: Game) -> int:
        ranks = [int(c.rank) for c in self._pile]
        k = 0
        for r in reversed(ranks):
            if r != ranks[-1]:
                break
            k += 1
        return k

    monkeypatch.setattr(Game, "_run", run)


def _failed_blind_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    def play_face_down(self: Game, seat: int, index: int) -> None:
        card = self._down[seat].pop(index)
        if not self._playable(card.rank):
            self._take_pile(seat)
        self._push(card)  # the mistake: the turned card lands on the pile either way
        self._settle(seat)

    monkeypatch.setattr(Game, "_play_face_down", play_face_down)


def _draw_after_pickup(monkeypatch: pytest.MonkeyPatch) -> None:
    take = Game._take_pile

    def patched(self: Game, seat: int) -> None:
        take(self, seat)
        if self._draw:
            card = self._draw.pop()
            self._hands[seat].append(card)
            self._loc[card.ident] = 3 * seat

    monkeypatch.setattr(Game, "_take_pile", patched)


def _face_up_with_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    check = Game._check

    def patched(self: Game, move) -> int:  # noqa: ANN001
        code = check(self, move)
        if code == 7 and move.action == 1 and self._phase.name == "PLAY_PHASE":
            up = self._up[self._player]
            cards = move.entries()
            if cards and all(c is not None and c in up for c in cards) and self._playable(cards[0].rank):
                return 0
        return code

    monkeypatch.setattr(Game, "_check", patched)


def _game_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    settle = Game._settle

    def patched(self: Game, seat: int) -> None:
        settle(self, seat)
        if self._phase.name == "GAME_OVER":
            self._phase = type(self._phase).PLAY_PHASE
            self._player = (seat + 1) % self._n

    monkeypatch.setattr(Game, "_settle", patched)


def _valid_move_changes_state(monkeypatch: pytest.MonkeyPatch) -> None:
    def is_valid_move(self: Game, move) -> bool:  # noqa: ANN001
        code = self._check(move)
        if code:
            self._turn += 1  # the mistake: a side effect when the answer is FALSE
        return code == 0

    monkeypatch.setattr(Game, "is_valid_move", is_valid_move)


MUTANTS: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "strict_greater_than": _strict_greater,
    "ten_passes_the_turn": _after_settle(_ten_passes),
    "two_skips_the_next_seat": _after_settle(_two_skips),
    "no_draw_after_a_play": _no_draw,
    "free_play_to_the_next_seat": _free_play_to_next_seat,
    "ten_allowed_on_a_seven": _ten_on_seven,
    "seven_restriction_kept_for_two_plays": _seven_lasts_two_plays,
    "mirror_three_counted_as_a_three_in_runs": _mirror_counts_as_three,
    "failed_blind_card_left_on_the_pile": _failed_blind_stays,
    "draw_after_a_pick_up": _draw_after_pickup,
    "face_up_play_while_the_hand_has_cards": _face_up_with_hand,
    "game_continues_after_the_winner": _game_goes_on,
    "isValidMove_with_a_side_effect": _valid_move_changes_state,
}


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_a_seeded_mistake_fails_some_scenario(mutant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    MUTANTS[mutant](monkeypatch)
    caught = [s.id for s in STRICT_SCENARIOS if check_on_reference(s)]
    assert caught, f"no scenario notices the mistake {mutant}"
