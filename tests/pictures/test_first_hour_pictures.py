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


def test_cars_side_by_side_in_the_starting_area_keep_their_letters_apart():
    import re

    rs = get("vendetta")
    state = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars"),
                                             ("cyd", "green", "cars")], 7))[0]
    view = rs.view(state)
    drawn = vehicles_drawn(parse(pictures.svg(view)))
    bodies = {}
    for vid, g in drawn.items():
        x, y = map(float, re.search(r"translate\(([-\d.]+),([-\d.]+)\)", g.get("transform")).groups())
        rect = next(g.iter(f"{NS}rect"))
        mark = next(t for t in g.iter(f"{NS}text") if t.get("class") == "mark")
        font = float(re.search(r"font-size:([\d.]+)px", mark.get("style"))[1])
        bodies[vid] = (x, y, float(rect.get("width")), font, len("".join(mark.itertext())))
    pairs = [(a, b) for a in bodies for b in bodies if a < b and abs(bodies[a][1] - bodies[b][1]) < 1
             and abs(bodies[a][0] - bodies[b][0]) < 30]
    assert pairs, "the small and medium cars of a lane stand side by side"
    for a, b in pairs:
        (xa, _, wa, _, _), (xb, _, wb, _, _) = sorted((bodies[a], bodies[b]))
        assert (xb - wb / 2) - (xa + wa / 2) >= 4, (a, b)  # a gap between the bodies
    for vid, (_, _, width, font, letters) in bodies.items():
        assert 0.75 * font * letters <= width, vid  # the letters fit inside the body


def test_carnival_tile_names_stand_beside_their_tiles_clear_of_tokens():
    import math

    from trvendetta.core.layout import parse as space
    from trvendetta.pictures.svg import layout_of

    rs = get("carnival")
    for side in ("haulasseum", "slaytona"):
        state = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 2, side=side))[0]
        view = rs.view(state)
        lay = layout_of(view)
        centres = [lay.center(space(n)) for n in view["board"]["arena"]["spaces"]]
        centres += [lay.center(space(n)) for slot in view["board"]["arena"]["slots"] for n in slot["spaces"]]
        names = [t for t in parse(pictures.svg(view)).iter(f"{NS}text") if t.get("class") == "tile"]
        assert len(names) == 3
        for t in names:
            x, y = float(t.get("x")), float(t.get("y"))
            nearest = min(math.hypot(x - cx, y - cy) for cx, cy in centres)
            assert nearest > lay.space_len * 0.5, (side, "".join(t.itertext()), nearest)  # on no space
