"""How the pictures learn how a board is drawn: the board names its drawing, and the
drawing lives with the board (the Carnival's arena in its own package), never in pictures/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from trvendetta import pictures
from trvendetta.carnival import picture
from trvendetta.core import drawing
from trvendetta.core.layout import Layout
from trvendetta.pictures.svg import ROAD, drawing_of

from carnival.helpers import RS, game
from .helpers import NS, of_class, parse, random_game

PICTURES = Path(pictures.__file__).resolve().parent


def test_a_view_names_the_drawing_its_board_declares_and_the_pictures_use_it():
    state, _ = game()
    view = RS.view(state)
    assert view["board"]["drawing"] == state.board.drawing == "arena"
    assert drawing_of(view) is picture.ARENA
    rs, events = random_game("vendetta", 2, 1)
    state = rs.initial_state()
    for e in events:
        state = rs.evolve(state, e)
    assert state.board.drawing == "road" and drawing_of(rs.view(state)) is ROAD


class Dots:
    """A board of one's own, drawn as a dot a space."""

    def layout(self, view: dict) -> Layout:
        return Layout("hex", 3, 0, 5)

    def background(self, view: dict, lay: Layout) -> str:
        return "".join(f'<circle class="dot" cx="{lay.center((lane, 2))[0]:.1f}" cy="9" r="2"/>'
                       for lane in range(lay.lanes))


def test_a_drawing_registered_from_outside_the_pictures_draws_the_boards_that_name_it():
    state, _ = game()
    view = RS.view(state)
    view["board"] = view["board"] | {"drawing": "dots"}
    with pytest.raises(ValueError, match=r"drawn as 'dots', which no drawing is; drawings: ") as refused:
        pictures.svg(view)
    assert {"road", "arena"} <= set(str(refused.value).split("drawings: ")[1].split(", "))
    drawing.register_drawing("dots", Dots())
    try:
        root = parse(pictures.svg(view))
    finally:
        del drawing.DRAWINGS["dots"]
    assert len([c for c in root.iter(NS + "circle") if c.get("class") == "dot"]) == 3
    assert of_class(root, "arena") == []


def test_the_pictures_import_no_ruleset_or_board():
    """pictures/ keeps only generic drawing: it imports no ruleset's package."""
    rulesets = ("trvendetta.vendetta", "trvendetta.carnival", "trvendetta.classic")
    for path in sorted(PICTURES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(rulesets), (path.name, node.module)
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith(rulesets) for a in node.names), path.name


def test_the_road_kept_drawn_is_redrawn_when_its_road_board_or_layout_changes():
    """The road's background is drawn once for each road, board and layout (a club server draws a game's
    board at every move): whatever changes any of them is drawn anew, never taken from an earlier game."""
    from trvendetta.pictures.svg import background

    rs, events = random_game("vendetta", 2, 1)
    state = rs.initial_state()
    for e in events:
        state = rs.evolve(state, e)
    view = rs.view(state)
    lay = ROAD.layout(view)
    first = ROAD.background(view, lay)
    assert first == background(view, lay)
    assert ROAD.background(view, lay) is first  # kept
    board = dict(view["board"])
    spaces = [f"{lane}{n}" for lane in "abcdef" for n in range(1, 4)]
    board["terrain"] = {**(board.get("terrain") or {}), "mud": spaces}
    muddy = dict(view, board=board)
    redrawn = ROAD.background(muddy, lay)
    assert redrawn == background(muddy, lay) != first
    road = [dict(piece, name=f"{piece.get('name', '')}x") for piece in view["road"]]
    renamed = dict(view, road=road)
    assert ROAD.background(renamed, lay) == background(renamed, lay) != first
    taller = Layout(lay.grid, lay.lanes, lay.y_low, lay.y_high + 4)
    assert ROAD.background(view, taller) == background(view, taller) != first
    assert ROAD.background(view, lay) == first
