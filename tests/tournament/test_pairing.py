"""Pairing: table sizes, reproducibility, repeat opponents and seat rotation."""

from __future__ import annotations

import pytest

from trvendetta.core.rng import Rng
from trvendetta.tournament import model, pairing
from trvendetta.tournament.model import TournamentError

from .helpers import fewest_repeats, repeats, report_all


@pytest.mark.parametrize("n, lo, hi, sizes", [
    (12, 3, 4, [4, 4, 4]), (11, 3, 4, [4, 4, 3]), (10, 3, 4, [4, 3, 3]), (9, 3, 4, [3, 3, 3]),
    (13, 3, 4, [4, 3, 3, 3]), (7, 3, 4, [4, 3]), (6, 3, 4, [3, 3]), (5, 2, 4, [3, 2]), (4, 4, 4, [4]),
    (2, 2, 4, [2]), (12, 3, 3, [3, 3, 3, 3]),
])
def test_tables_are_as_even_as_the_count_allows(n, lo, hi, sizes):
    assert pairing.table_sizes(n, lo, hi) == sizes


@pytest.mark.parametrize("n, lo, hi, said", [(5, 3, 4, "cannot sit"), (2, 3, 4, "at least 3"), (5, 4, 4, "cannot sit")])
def test_a_count_that_cannot_be_seated_is_refused(n, lo, hi, said):
    with pytest.raises(TournamentError, match=said):
        pairing.table_sizes(n, lo, hi)


def _tournament(n: int, seed: int, rounds: int = 4, pods: tuple[int, int] = (3, 4)) -> model.State:
    s = model.fold(model.check_new("t", "vendetta", rounds, pods[0], pods[1], (4, 2, 1, 0), seed))
    return model.fold(model.check_register(s, [f"p{i:02d}" for i in range(n)]), s)


def _history(state: model.State) -> pairing.History:
    return pairing.history_of([(r.round, [t.players for t in r.tables]) for r in state.rounds], {})


def _play(state: model.State, rounds: int, seed: int, check=None) -> model.State:
    rng = Rng(seed, 99)
    for r in range(1, rounds + 1):
        event = pairing.pair_next(state)
        if check:
            check(state, event)
        state = model.fold([event], state)
        state = report_all(state, r, lambda t: rng.shuffled(list(t.players)))
    return state


def test_pairing_is_seeded_and_reproducible():
    a, b = _tournament(12, 5), _tournament(12, 5)
    assert pairing.pair_next(a) == pairing.pair_next(b)
    assert pairing.pair_next(a) != pairing.pair_next(_tournament(12, 6))


@pytest.mark.parametrize("seed", [1, 2])
def test_no_repeat_opponents_where_a_seating_without_them_exists(seed):
    """Each round's seating has the fewest repeat meetings of any seating that
    keeps first seats within one (checked against every seating of the
    field: 5,775 for 12 players)."""
    found = []

    def check(state, event):
        history = _history(state)
        met, firsts = history.met, {p: c[0] for p, c in history.seats.items()}
        players = [p for t in event.tables for p in t.players]
        best = fewest_repeats(players, [len(t.players) for t in event.tables], met, firsts)
        found.append((repeats([t.players for t in event.tables], met), best))

    _play(_tournament(12, seed), 4, seed, check)
    assert all(got == best for got, best in found), found
    assert found[0] == (0, 0)
    # round 2 cannot avoid repeats: 4 players from 3 earlier tables put two old tablemates together
    assert found[1] == (3, 3)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_first_seat_goes_round(seed):
    """12 players, 4 rounds of 3 tables: 12 first seats, one each."""
    state = _play(_tournament(12, seed), 4, seed)
    firsts = {p: c[0] for p, c in _history(state).seats.items()}
    assert set(firsts.values()) == {1}, firsts


def test_every_table_says_why():
    event = pairing.pair_next(_tournament(11, 3))
    assert [len(t.players) for t in event.tables] == [4, 4, 3]
    for t in event.tables:
        assert "of 11 players (4+4+3)" in t.reason and "no one here has met before" in t.reason
        assert f"{t.players[0]} sits first" in t.reason


def test_a_repeat_is_named_in_the_reason():
    state = _play(_tournament(12, 2), 3, 2)
    event = pairing.pair_next(state)
    assert any("met in round" in t.reason for t in event.tables)


def test_pairing_waits_for_every_result():
    state = _tournament(8, 1)
    state = model.fold([pairing.pair_next(state)], state)
    with pytest.raises(TournamentError, match=r"round 1 still has tables without a result \(1, 2\)"):
        pairing.pair_next(state)


def test_dropped_and_late_players():
    state = _tournament(8, 1)
    state = _play(state, 1, 1)
    state = model.fold(model.check_drop(state, "p00", "p00"), state)
    state = model.fold(model.check_register(state, ["late"]), state)
    assert state.entrant("late").from_round == 2
    event = pairing.pair_next(state)
    seated = {p for t in event.tables for p in t.players}
    assert "p00" not in seated and "late" in seated and len(seated) == 8
