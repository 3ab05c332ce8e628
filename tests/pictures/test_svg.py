"""The SVG picture of a position holds what the position holds (issue 14)."""

from __future__ import annotations

import pytest

from trvendetta import pictures
from trvendetta.pictures.svg import player_marks

from .helpers import EXAMPLES, example, of_class, on_road, parse, random_game, vehicles_drawn


def check(view: dict, last=None) -> None:
    root = parse(pictures.svg(view, last))
    drawn = vehicles_drawn(root)
    assert set(drawn) == on_road(view)
    for v in view["vehicles"]:
        if v["id"] in drawn:
            g = drawn[v["id"]]
            assert g.get("data-owner") == v["owner"] and g.get("data-status") == v["status"]
            assert g.get("data-at") == v["at"]
            assert v["id"] in g.find("{http://www.w3.org/2000/svg}title").text
    assert len(of_class(root, "token")) == len(view["tokens"])
    assert len(of_class(root, "wreck")) == len(view["wrecks"])
    assert len(of_class(root, "chopper")) == sum(1 for c in view["choppers"] if c["at"])
    assert [d.get("data-player") for d in of_class(root, "dashboard")] == [p["name"] for p in view["players"]]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_position_draws_what_it_holds(path):
    rs, state = example(path)
    view = rs.view(state)
    assert view["vehicles"]
    check(view)


@pytest.mark.parametrize("ruleset,players,seed,crew", [
    ("vendetta", 4, 3, "cars"), ("classic", 3, 5, "cars"), ("vendetta", 2, 8, "cars"),
    ("vendetta", 3, 2, ("finalfive", "cars", "cars")),
])
def test_a_whole_random_game_draws_after_every_event(ruleset, players, seed, crew):
    rs, events = random_game(ruleset, players, seed, crew)
    state = rs.initial_state()
    kinds = set()
    for n, event in enumerate(events, 1):
        state = rs.evolve(state, event)
        view = rs.view(state)
        last = pictures.last_of(rs, view, n, [event], rs.describe(event))
        if n % 9 == 0 or n == len(events):  # every picture is drawn; every 9th (and the last) read back
            check(view, last)
        else:
            assert pictures.svg(view, last).count('class="vehicle"') == len(on_road(view))
        kinds.update(v["status"] for v in view["vehicles"])
    assert len(kinds) > 1  # the game put cars out of action, and they were drawn so


def test_vendetta_tiles_print_their_terrain():
    rs, events = random_game("vendetta", 2, 1)
    state = rs.fold(events[:5])
    view = rs.view(state)
    terrain = view["board"]["terrain"]
    assert terrain["offroad"] and terrain["impassable"]  # house tiles.txt: every road has both
    root = parse(pictures.svg(view))
    fills = [p.get("fill") for p in root.iter("{http://www.w3.org/2000/svg}polygon")]
    assert fills.count("url(#impassable)") == len(terrain["impassable"])
    assert fills.count("url(#offroad)") == len(terrain["offroad"])


def test_classic_board_draws_desert_and_red_x_marks():
    rs, state = example(next(p for p in EXAMPLES if p.stem.startswith("classic")))
    view = rs.view(state)
    board = view["board"]
    assert board["grid"] == "brick" and board["lanes"] == 7
    assert len(board["marks"]) == 8  # board.toml: four red X on each of A and B
    assert len(board["terrain"]["desert"]) == 2 * 14 * 5  # every square of the five desert lanes
    root = parse(pictures.svg(view))
    crosses = [p for p in root.iter("{http://www.w3.org/2000/svg}path") if p.get("stroke") == "#d7301f"]
    assert len(crosses) == 8


def test_players_are_told_apart_by_letter_not_colour_alone():
    assert player_marks([{"name": "ann", "color": "red"}, {"name": "bob", "color": "blue"}]) == {"ann": "R", "bob": "B"}
    # two colours with one initial: the names' initials
    assert player_marks([{"name": "ann", "color": "blue"}, {"name": "bob", "color": "black"}]) == {"ann": "A", "bob": "B"}
    assert player_marks([{"name": "al", "color": "blue"}, {"name": "ann", "color": "black"}]) == {"al": "1", "ann": "2"}


def test_cars_show_size_facing_and_damage():
    rs, state = example(next(p for p in EXAMPLES if p.stem.startswith("vendetta")))
    view = rs.view(state)
    root = parse(pictures.svg(view))
    small = vehicles_drawn(root)["blue-small"]
    title = small.find("{http://www.w3.org/2000/svg}title").text
    assert "size S" in title and "facing F" in title and "damage 1 (dent)" in title
    texts = ["".join(t.itertext()) for t in small.iter("{http://www.w3.org/2000/svg}text")]
    assert texts == ["BS"]  # blue's letter and the size
    pips = [c for c in small.iter("{http://www.w3.org/2000/svg}circle") if c.get("r") == "2.6"]
    assert len(pips) == 1


def test_facing_turns_the_car():
    from trvendetta.core.layout import Layout

    for grid in ("hex", "brick"):
        lay = Layout(grid, 6, 0, 15)
        assert round(lay.angle("F")) == 0 and round(lay.angle("B")) in (180, -180)
        assert 0 < lay.angle("FR") < 90 and -90 < lay.angle("FL") < 0
    assert round(Layout("hex", 6, 0, 15).angle("FR")) == 60  # hexagons: six directions 60 degrees apart


def test_the_last_action_is_highlighted():
    rs, state = example(next(p for p in EXAMPLES if p.stem.startswith("vendetta")))
    from trvendetta.vendetta.actions import AssignDie, NoCommand, Step

    events = []
    for action in (AssignDie("red-large", 4), NoCommand(), Step("F")):
        state, new = rs.apply(state, action)
        events = new
    view = rs.view(state)
    last = pictures.last_of(rs, view, rs.version(state), events, rs.describe_action(Step("F")))
    assert "red-large" in last.vehicles and "c4" in last.spaces
    root = parse(pictures.svg(view, last))
    assert "red-large" in [e.get("data-id") for e in of_class(root, "lit") if e.tag.endswith("circle")]
    assert [e for e in of_class(root, "lit") if e.tag.endswith("polygon")]
    caption = of_class(root, "dash caption")[0]
    assert "".join(caption.itertext()).startswith(f"after event {rs.version(state)}: ")


def test_a_ruleset_without_a_board_still_draws(toy_view):
    root = parse(pictures.svg(toy_view))
    assert len(of_class(root, "dashboard")) == len(toy_view["players"])


def test_vehicles_sharing_a_space_stand_side_by_side():
    """Motorcycles and cars waiting in one lane of the starting area (and two
    cars on one square of the 1986 board) must not hide each other."""
    rs, events = random_game("vendetta", 3, 2, ("finalfive", "cars", "cars"))
    view = rs.view(rs.fold(events[:40]))
    drawn = vehicles_drawn(parse(pictures.svg(view)))
    bikes = [g for vid, g in drawn.items() if "bike" in vid]
    assert len(bikes) == 5
    spots = [g.get("transform") for g in drawn.values()]
    assert len(spots) == len(set(spots))
    labels = sorted("".join(t.itertext()) for g in bikes for t in g.iter("{http://www.w3.org/2000/svg}text"))
    rider = next(p for p in view["players"] if p["crew"] == "finalfive")
    assert labels == [rider["color"][0].upper() + str(i) for i in range(1, 6)]


def test_the_finish_line_is_drawn_once_laid_and_the_winner_beyond_it():
    from trvendetta.bots.sim import simulate
    from trvendetta.rulesets import get

    rs, events = get("vendetta"), []
    result = simulate(rs, 2, 2, ["greedy"], events_out=events)  # greedy seed 2: a car crosses the line
    assert "Finish Line" in result.end_reason
    view = rs.view(rs.fold(events))
    assert view["board"]["finish_after"] == view["road"][-1]["last"]  # the front edge of the final piece
    root = parse(pictures.svg(view))
    (line,) = of_class(root, "finish")
    winner = next(v for v in view["vehicles"] if v["owner"] == view["winner"] and v["at"]
                  and int(v["at"][1:]) > view["board"]["finish_after"])
    y = float(vehicles_drawn(root)[winner["id"]].get("transform").split(",")[1].rstrip(")"))
    assert y < float(line.get("data-y"))  # forward is up: beyond the line
    early = rs.view(rs.fold(events[:20]))
    assert early["board"]["finish_after"] is None and not of_class(parse(pictures.svg(early)), "finish")
