"""A Carnival game shows everything a player at the table sees (issue 45): every space's terrain on
the road tiles and in the arena (mud, off-road, impassable, raised pillars), tokens, choppers and
their facings, in the text board, `show --json` and the pictures; each player's scrap,
super-weapons and own favors (never another seat's kinds); the decree in force with its words."""

from __future__ import annotations

from trvendetta import pictures
from trvendetta.carnival import components as comp
from trvendetta.carnival import decrees, foundation, render
from trvendetta.carnival.actions import FlyChopper
from trvendetta.core.layout import name
from trvendetta.vendetta.actions import AssignDie, UseCommand

from carnival.helpers import RS, game, play
from .helpers import NS, of_class, parse
from .test_show_pictures import run
from .test_viewer import data_of

C = comp.default()
SIDE = C.sides["haulasseum"]
TILES = ("the-parking-lot", "choke", "mudhole")
#: mud, off-road and impassable road-tile spaces, two raised pillars, favors held, a decree
TABLE = dict(raised=["C", "G"], decree="in-the-mood-for-mayhem", decree_round=1, scrap={"ann": 7, "bob": 4},
             favors={"ann": ["precision", "killer-pillar"], "bob": ["bootleg-turn"]},
             weapons={"red-medium": "thwumper", "blue-large": "laser-kebab"},
             vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "m13"},
                       {"id": "blue-large", "at": "k16", "facing": "FR"}])


def _printed():
    """Each road-tile space's terrain as the tile prints it (``tiles.txt``), and the raised pillars."""
    out = {}
    for slot, tile in zip(SIDE.slots, TILES):
        for sp in slot.spaces:
            out[name(sp)] = foundation.terrain(SIDE, C.vendetta, TILES, sp)
    for letter in TABLE["raised"]:
        out[name(SIDE.pillars[letter])] = "impassable"
    return out


PRINTED = _printed()
assert {"mud", "offroad", "impassable", "road"} <= set(PRINTED.values())


def test_show_json_lists_every_space_that_is_not_road():
    state, _ = game(**TABLE)
    terrain = RS.view(state)["board"]["terrain"]
    listed = {n: kind for kind, names in terrain.items() for n in names}
    assert listed == {n: kind for n, kind in PRINTED.items() if kind != "road"}


def test_the_text_board_draws_each_road_tile_space_as_its_terrain():
    state, _ = game(**TABLE)
    lines = RS.render(state).splitlines()
    board = lines[1:lines.index(next(line for line in lines if line.startswith("  cars:")))]
    letters = board[0]
    cells = {}
    for line in board[1:-1]:
        number, half = int(line[:2]), line[2] == "+"
        for i, ch in enumerate(line):
            lane = letters.find(chr(97 + (i - 4) // 2)) if i >= 4 and (i - 4) % 2 == 0 else -1
            if lane >= 0 and ch != " ":
                cells[f"{chr(97 + (i - 4) // 2)}{number}"] = line[i:i + 2].ljust(2)
    for n, kind in PRINTED.items():
        if n in {name(SIDE.pillars[p]) for p in TABLE["raised"]}:
            assert cells[n][1] == "#" and cells[n][0] in "CG", n
        else:
            assert cells[n] == render.TERRAIN[kind], (n, kind, cells[n])


def test_the_picture_fills_each_road_tile_space_with_its_terrain():
    state, _ = game(**TABLE)
    root = parse(pictures.svg(RS.view(state)))
    drawn = {e.get("data-at"): e for t in of_class(root, "road-tile") for e in t.iter(NS + "polygon")}
    for n, e in drawn.items():
        assert e.get("data-terrain") == PRINTED[n]
        assert (e.get("fill") == f"url(#{PRINTED[n]})") == (PRINTED[n] != "road"), n


def test_a_chopper_is_drawn_facing_where_its_player_chose():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "m13"}])
    state, _ = play(state, AssignDie("red-medium", 4), UseCommand("airstrike", 2), FlyChopper("l13", "BR"))
    view = RS.view(state)
    assert [c for c in view["choppers"] if c["at"]] == [{"owner": "ann", "at": "l13", "facing": "BR"}]
    [g] = of_class(parse(pictures.svg(view)), "chopper")
    assert g.get("data-at") == "l13" and g.get("data-facing") == "BR"
    text = RS.render(state)
    assert "  choppers: red@l13↘" in text and "^↘" in text


def test_dashboards_show_scrap_weapons_and_only_the_viewers_own_favors():
    state, _ = game(**TABLE)  # ann is to act: her favors face up, bob's counted
    root = parse(pictures.svg(RS.view(state)))
    lines = {}
    for t in of_class(root, "small extra"):
        lines.setdefault(t.get("data-player"), []).append(t.text)
    assert lines["ann"] == ["scrap 7", "party favors: precision, killer-pillar", "super-weapons: red-medium thwumper"]
    assert lines["bob"] == ["scrap 4", "party favors: 1 face down", "super-weapons: blue-large laser-kebab"]
    assert "bootleg-turn" not in pictures.svg(RS.view(state))


def test_the_decree_in_force_is_shown_with_its_words():
    state, _ = game(**TABLE)
    words = decrees.WORDS["in-the-mood-for-mayhem"][2]
    assert RS.view(state)["decree"]["words"].startswith("After shooting with your car")
    note = " ".join(t.text for g in of_class(parse(pictures.svg(RS.view(state))), "note") for t in g)
    assert "In the Mood for Mayhem!" in note and " ".join(words.split()) in " ".join(note.split())
    assert f"decree: In the Mood for Mayhem! (to the end of round 2): {words}" in RS.render(state)
    legend = RS.legend()
    assert all(decrees.WORDS[d][0] in legend for d in decrees.WORDS)  # `trv show --legend` explains every decree
    assert "##  impassable" in legend and "~  mud" in legend


def test_no_tile_name_reaches_into_the_dashboards():
    for tiles in (TILES, ("mudhole", "choke", "the-road-to-perdition"), ("scenic-route", "choke", "the-road-to-perdition")):
        state, _ = game(**TABLE, tiles=list(tiles))
        view = RS.view(state)
        root = parse(pictures.svg(view))
        width = float(root.get("width")) - 300  # the side strip of dashboards (svg.STRIP) starts here
        for t in of_class(root, "tile"):
            x, anchor, chars = float(t.get("x")), t.get("text-anchor"), len(t.text)
            right = x + 7.0 * chars * {"start": 1, "end": 0}.get(anchor, 0.5)
            assert right <= width, (tiles, t.text, right, width)


def test_the_replay_page_of_a_hot_seat_game_shows_scrap_but_no_favor_kind(tmp_path):
    db = tmp_path / "trv.sqlite"
    run(db, "sim", "--ruleset", "carnival", "--games", "1", "--players", "2", "--seed", "3", "--store", "-q")
    out = tmp_path / "game.html"
    run(db, "replay", "sim-carnival-2p-3", "--html", out)
    data = data_of(out.read_text(encoding="utf-8"))
    pieces = data["pieces"]
    assert any("scrap " in p for p in pieces) and any("party favors: 1 face down" in p for p in pieces)
    assert not any(k in p for p in pieces for k in comp.PARTY_FAVORS)


def test_a_space_name_is_written_light_on_mud_and_impassable_and_dark_elsewhere():
    """Every space carries its name, which a player reads to type trv turn: dark ink on mud's brown
    could not be read."""
    state, _ = game(**TABLE)
    root = parse(pictures.svg(RS.view(state)))
    ink = {t.get("data-at"): t.get("style") for t in of_class(root, "lbl space-name")}
    for n, kind in PRINTED.items():
        assert ("#ddd" in ink[n]) == (kind in ("mud", "impassable")), (n, kind, ink[n])


def test_vehicles_waiting_on_one_spot_behind_a_slanted_tile_stand_side_by_side():
    """Two vehicles given one spot behind a road tile that runs at a slant (four players' cars and
    motorcycles behind one tile): drawn across their bodies, not overprinting each other."""
    import math

    from trvendetta.pictures.svg import layout_of

    state, _ = game(vehicles=[{"id": "red-medium", "at": "k10"}])
    view = RS.view(state)
    spots = view["board"]["start_spots"]
    spots["red-small"] = spots["blue-small"]  # blue-small waits behind a tile facing BR: red-small too
    for v in view["vehicles"]:
        if v["id"] == "red-small":
            v["facing"] = "BR"
    root = parse(pictures.svg(view))
    centres = {}
    for g in of_class(root, "vehicle"):
        if g.get("data-id") in ("red-small", "blue-small"):
            x, y = g.get("transform").removeprefix("translate(").removesuffix(")").split(",")
            centres[g.get("data-id")] = (float(x), float(y))
    (x0, y0), (x1, y1) = centres["red-small"], centres["blue-small"]
    lay = layout_of(view)
    angle = math.radians(lay.angle("BR"))
    along = (x1 - x0) * math.sin(angle) - (y1 - y0) * math.cos(angle)  # along the bodies' length
    apart = math.hypot(x1 - x0, y1 - y0)
    # the bodies (0.56 of a space wide, drawn at 0.8 in a pair) clear of each other across
    assert abs(along) < 0.5 and apart >= lay.space_len * 0.56 * 0.8, (centres, along, apart)
