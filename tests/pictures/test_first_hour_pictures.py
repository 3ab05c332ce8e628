"""What a picture said wrong to a new player (issue 29): the Big Rig's three sections all
labelled RL, a dashboard's "gone eliminated"."""

from __future__ import annotations

from trvendetta import pictures
from trvendetta.rulesets import get

from .helpers import NS, parse, random_game, vehicles_drawn


def test_the_big_rig_s_sections_are_labelled_as_the_text_board_draws_them():
    rs = get("vendetta")
    state = rs.new_game(rs.default_position([("ann", "red", "bigrig"), ("bob", "blue", "cars")], 3))[0]
    root = parse(pictures.svg(rs.view(state)))
    marks = {vid: "".join(g.find(f"{NS}text").itertext()) for vid, g in vehicles_drawn(root).items()}
    assert (marks["red-rear"], marks["red-mid"], marks["red-front"]) == ("R<", "R=", "R>")
    assert marks["blue-large"] == "BL"


def test_a_dashboard_says_eliminated_once_and_nothing_of_a_place():
    rs, events = random_game("vendetta", 2, 4)
    state = rs.fold(events)
    view = rs.view(state)
    gone = [v["id"] for v in view["vehicles"] if v["status"] == "eliminated"]
    assert gone, "the game had an elimination"
    lines = ["".join(t.itertext()) for t in parse(pictures.svg(view)).iter(f"{NS}text")]
    assert not [line for line in lines if "gone" in line]
    assert f"{gone[0]}  eliminated" in lines


def test_event_one_draws_the_waiting_cars_whole():
    import re

    from trvendetta.pictures.svg import layout_of

    rs = get("vendetta")
    state, events = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 7))
    first = rs.evolve(rs.initial_state(), events[0])  # the game after event 1: no road laid yet
    view = rs.view(first)
    root = parse(pictures.svg(view))
    height = float(root.get("height"))
    half = layout_of(view).space_len * 0.82 / 2  # the longest car's half length
    drawn = vehicles_drawn(root)
    assert drawn, "the cars waiting in the starting area are drawn"
    for vid, g in drawn.items():
        y = float(re.search(r"translate\([-\d.]+,([-\d.]+)\)", g.get("transform"))[1])
        assert y + half <= height, (vid, y, height)
