"""Finishing places, points, concessions, no-shows and the tie-breaks, explained."""

from __future__ import annotations

import pytest

from trvendetta.tournament import events as ev
from trvendetta.tournament import model
from trvendetta.tournament.model import TournamentError
from trvendetta.tournament.places import finishing_places
from trvendetta.tournament.standings import standings

from .helpers import made_up_result


def test_places_winner_then_survivors_then_later_out_first():
    places = finishing_places(["a", "b", "c", "d"], "c", [(10, "a"), (20, "d")], {"c": 2, "b": 1})
    assert {p.player: p.place for p in places} == {"c": 1, "b": 2, "d": 3, "a": 4}
    assert [p.player for p in places] == ["a", "b", "c", "d"]  # seat order kept
    assert {p.player: p.cars for p in places} == {"a": 0, "b": 1, "c": 2, "d": 0}


def test_places_out_in_one_action_tie_and_survivors_tie():
    places = finishing_places(["a", "b", "c", "d"], "a", [(30, "b"), (30, "c")], {})
    assert {p.player: p.place for p in places} == {"a": 1, "d": 2, "b": 3, "c": 3}
    survivors = finishing_places(["a", "b", "c"], "a", [], {})
    assert {p.player: p.place for p in survivors} == {"a": 1, "b": 2, "c": 2}


def test_places_with_no_winner_the_last_out_share_first():
    places = finishing_places(["a", "b", "c"], None, [(5, "a"), (9, "b"), (9, "c")], {})
    assert {p.player: p.place for p in places} == {"b": 1, "c": 1, "a": 3}


def _paired(tables: list[tuple[str, ...]], scoring=(4, 2, 1, 0), seed=3) -> model.State:
    players = [p for t in tables for p in t]
    s = model.fold(model.check_new("t", "vendetta", 3, 2, 4, scoring, seed))
    s = model.fold(model.check_register(s, players), s)
    paired = ev.RoundPaired(len(s.rounds) + 1, seed, tuple(ev.Table(i, t, "test") for i, t in enumerate(tables, 1)))
    return model.fold([paired], s)


def _round(s: model.State, tables: list[tuple[str, ...]], orders: list[list[str]]) -> model.State:
    paired = ev.RoundPaired(len(s.rounds) + 1, 0, tuple(ev.Table(i, t, "test") for i, t in enumerate(tables, 1)))
    s = model.fold([paired], s)
    for t, order in zip(paired.tables, orders):
        s = model.fold(model.check_report(s, made_up_result(paired.round, t, order)), s)
    return s


def test_points_by_place_and_ties_share_the_better_place():
    s = _paired([("a", "b", "c", "d")])
    t = s.rounds[0].tables[0]
    tied = ev.ResultReported(1, 1, "g", "1" * 64, "0" * 64, 9, (ev.Place("a", 1), ev.Place("b", 2), ev.Place("c", 2),
                                                            ev.Place("d", 4)))
    s = model.fold(model.check_report(s, tied), s)
    assert {x.player: x.points for x in standings(s)} == {"a": 4, "b": 2, "c": 2, "d": 0}
    assert t.players == ("a", "b", "c", "d")


def test_a_concession_and_a_no_show_are_last_and_say_who_declared_them():
    s = _paired([("a", "b", "c", "d")])
    s = model.fold(model.check_out(s, 1, 1, "d", "organiser", no_show=True), s)
    s = model.fold(model.check_out(s, 1, 1, "c", "c", no_show=False), s)
    assert s.rounds[0].tables[0].out == (("d", "no-show", "organiser"), ("c", "conceded", "c"))
    assert model.table_places(s.rounds[0].tables[0]) is None  # a and b still play
    # the record of the game a and b played on (or of the whole table) decides the rest
    result = ev.ResultReported(1, 1, "g", "1" * 64, "0" * 64, 9, (ev.Place("a", 2), ev.Place("b", 1)))
    s = model.fold(model.check_report(s, result), s)
    assert model.table_places(s.rounds[0].tables[0]) == {"b": 1, "a": 2, "d": 3, "c": 3}


def test_a_table_with_one_player_left_is_decided_without_a_game():
    s = _paired([("a", "b", "c")])
    s = model.fold(model.check_out(s, 1, 1, "a", "a", no_show=False), s)
    s = model.fold(model.check_out(s, 1, 1, "b", "organiser", no_show=True), s)
    assert model.table_places(s.rounds[0].tables[0]) == {"c": 1, "a": 2, "b": 2}
    with pytest.raises(TournamentError, match="already has its result"):
        model.check_out(s, 1, 1, "c", "c", no_show=False)


def test_a_result_must_be_the_tables_players_and_count_once():
    s = _paired([("a", "b", "c"), ("d", "e", "f")])
    other = made_up_result(1, ev.Table(1, ("a", "b", "x"), ""))
    with pytest.raises(TournamentError, match="was played by a, b, x, but round 1 table 1 seats a, b, c"):
        model.check_report(s, other)
    first = made_up_result(1, s.rounds[0].tables[0])
    s = model.fold(model.check_report(s, first), s)
    again = ev.ResultReported(1, 2, "g", first.game_id, "0" * 64, 9, tuple(ev.Place(p, 1) for p in ("d", "e", "f")))
    with pytest.raises(TournamentError, match="already the result of round 1 table 1"):
        model.check_report(s, again)


def test_tie_breaks_in_order_each_explained():
    # round 1: a beats b, c beats d; round 2: a and c meet (c wins), b and d meet (b wins)
    s = model.fold(model.check_new("t", "vendetta", 2, 2, 2, (3, 0), 11))
    s = model.fold(model.check_register(s, ["a", "b", "c", "d", "e", "f"]), s)
    s = _round(s, [("a", "b"), ("c", "d"), ("e", "f")], [["a", "b"], ["c", "d"], ["e", "f"]])
    s = _round(s, [("a", "c"), ("b", "d"), ("e", "f")], [["c", "a"], ["b", "d"], ["f", "e"]])
    table = {x.player: x for x in standings(s)}
    order = [x.player for x in standings(s)]
    # c 6 points; a, b, e, f 3 each; d 0
    assert order[0] == "c" and order[-1] == "d"
    assert table["c"].why == "most points (6)"
    # a met c and b (6+3)/2 = 4.5, b met a and d (3+0)/2 = 1.5, e and f met each other: 3.0
    assert table["a"].opponents_points == 4.5 and table["b"].opponents_points == 1.5
    assert order[1:5] == ["a", "e", "f", "b"] or order[1:5] == ["a", "f", "e", "b"]
    assert table["a"].why == "3 points, 3 behind c"
    # e and f are level on points and opponents' points and beat each other once: cars then the lot
    second, third = order[2], order[3]
    assert table[second].head_to_head == table[third].head_to_head == 0
    assert "behind on the lot" in table[third].why
    assert table["b"].why == f"level on points with {third}; opponents' points 1.5 < 3.0"


def test_head_to_head_breaks_a_tie_on_points_and_opponents():
    # 1st and 2nd score alike, so a and b are level on points and on opponents: b finished ahead twice
    s2 = model.fold(model.check_new("t", "vendetta", 2, 3, 3, (1, 1, 0), 1))
    s2 = model.fold(model.check_register(s2, ["a", "b", "c"]), s2)
    s2 = _round(s2, [("a", "b", "c")], [["b", "a", "c"]])
    s2 = _round(s2, [("a", "b", "c")], [["b", "a", "c"]])
    rows = {x.player: x for x in standings(s2)}
    assert rows["a"].points == rows["b"].points == 2
    assert rows["a"].opponents_points == rows["b"].opponents_points
    assert rows["b"].head_to_head == 2 and rows["a"].head_to_head == -2
    assert [x.player for x in standings(s2)][:2] == ["b", "a"]
    assert rows["a"].why == "level on points with b; head-to-head -2 < 2"


def test_dropped_players_keep_what_they_played():
    s = model.fold(model.check_new("t", "vendetta", 2, 2, 2, (1, 0), 1))
    s = model.fold(model.check_register(s, ["a", "b", "c", "d"]), s)
    s = _round(s, [("a", "b"), ("c", "d")], [["a", "b"], ["c", "d"]])
    s = model.fold(model.check_drop(s, "a", "organiser"), s)
    rows = {x.player: x for x in standings(s)}
    assert rows["a"].dropped and rows["a"].points == 1
    with pytest.raises(TournamentError, match="already dropped"):
        model.check_drop(s, "a", "organiser")


@pytest.mark.parametrize("args, said", [
    (("t", "vendetta", 0, 3, 4, (4, 2, 1, 0), 1), "1 to 99 rounds"),
    (("t", "vendetta", 3, 3, 5, (4, 2, 1, 0), 1), "--pod-size 3-5"),
    (("t", "vendetta", 3, 4, 3, (4, 2, 1, 0), 1), "--pod-size 4-3"),
    (("t", "vendetta", 3, 3, 4, (1, 2), 1), "never rising"),
    (("bad name", "vendetta", 3, 3, 4, (1, 0), 1), "not a tournament name"),
])
def test_bad_tournaments_are_refused(args, said):
    with pytest.raises(TournamentError, match=said):
        model.check_new(*args)


def test_register_refuses_twice_and_after_the_last_round():
    s = model.fold(model.check_new("t", "vendetta", 1, 2, 2, (1, 0), 1))
    s = model.fold(model.check_register(s, ["a", "b"]), s)
    with pytest.raises(TournamentError, match="a is already registered"):
        model.check_register(s, ["a"])
    with pytest.raises(TournamentError, match="not a player name"):
        model.check_register(s, ["no spaces"])
    s = _round(s, [("a", "b")], [["a", "b"]])
    with pytest.raises(TournamentError, match="all 1 rounds of t are paired"):
        model.check_register(s, ["c"])


def test_events_round_trip_canonically():
    s = _paired([("a", "b")])
    for e in [s.created, ev.RoundPaired(1, 1, (ev.Table(1, ("a", "b"), "why"),)),
              ev.NoShow(1, 1, "a", "organiser"), made_up_result(1, ev.Table(1, ("a", "b"), ""))]:
        assert ev.decode(ev.encode(e)) == e
        assert ev.encode(ev.decode(ev.encode(e))) == ev.encode(e)
