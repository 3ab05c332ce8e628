"""openskill Plackett-Luce ratings over finishing order, carried across tournaments."""

from __future__ import annotations

from trvendetta.app.tournament_read import carried_ratings, rate
from trvendetta.tournament import model

from .test_standings import _round


def test_ratings_move_the_expected_way_on_a_made_up_result_set():
    # ann always first, bob second, cyd third, dee last
    games = [("t", [("ann", 1), ("bob", 2), ("cyd", 3), ("dee", 4)])] * 3
    r = rate(games)
    assert r["ann"].mu > r["bob"].mu > r["cyd"].mu > r["dee"].mu
    assert r["ann"].mu > 25 > r["dee"].mu
    assert all(x.sigma < 25 / 3 for x in r.values())  # more certain after games
    assert r["ann"].games == 3 and r["ann"].tournaments == ("t",)
    # an upset: dee beats ann once; dee rises, ann falls
    after = rate([("u", [("dee", 1), ("ann", 2)])], r)
    assert after["dee"].mu > r["dee"].mu and after["ann"].mu < r["ann"].mu
    assert after["dee"].tournaments == ("t", "u")


def test_a_tie_moves_both_players_toward_each_other():
    r = rate([("t", [("ann", 1), ("bob", 2)])] * 2)
    tied = rate([("u", [("ann", 1), ("bob", 1)])], r)
    assert tied["ann"].mu < r["ann"].mu and tied["bob"].mu > r["bob"].mu


def _finished(name: str, orders: list[list[str]]) -> model.State:
    s = model.fold(model.check_new(name, "vendetta", len(orders), 2, 2, (1, 0), 1))
    s = model.fold(model.check_register(s, ["ann", "bob"]), s)
    for order in orders:
        s = _round(s, [("ann", "bob")], [order])
    return s


def test_ratings_are_carried_from_one_tournament_to_the_next():
    first = _finished("first", [["ann", "bob"], ["ann", "bob"]])
    second = _finished("second", [["bob", "ann"]])
    after_first, _ = carried_ratings([first])
    after_both, before_second = carried_ratings([first, second], upto="second")
    assert before_second == after_first
    # bob's win in the second tournament starts from his low rating, not from scratch
    fresh = rate([("second", [("bob", 1), ("ann", 2)])])
    assert after_both["bob"].mu != fresh["bob"].mu
    assert after_both["ann"].mu < after_first["ann"].mu and after_both["bob"].mu > after_first["bob"].mu
