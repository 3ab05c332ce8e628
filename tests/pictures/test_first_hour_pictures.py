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
