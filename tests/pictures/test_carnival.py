"""Pictures of a Carnival of Chaos game: the arena, not Vendetta's road."""

from __future__ import annotations

import re

from trvendetta import pictures
from trvendetta.carnival import components as comp
from trvendetta.core.layout import Layout, name
from trvendetta.core.layout import parse as space_of

from carnival.helpers import RS, game
from .helpers import NS, of_class, parse, vehicles_drawn
from .test_show_pictures import run
from .test_viewer import data_of

SIDE = comp.default().sides["haulasseum"]
FACINGS = ("F", "FR", "BR", "B", "BL", "FL")
# six cars in the arena, one per facing
CARS = [{"id": vid, "at": at, "facing": f} for vid, at, f in zip(
    ("red-small", "red-medium", "red-large", "blue-small", "blue-medium", "blue-large"),
    ("l9", "l12", "j11", "n11", "k7", "m7"), FACINGS)]


def _drawn_at(root) -> dict[str, str]:
    """data-at -> class of every space of the board."""
    return {e.get("data-at"): e.get("class") for e in root.iter(NS + "polygon") if e.get("data-at")}


def _transform(g) -> tuple[float, float, float]:
    x, y = map(float, re.match(r"translate\(([-\d.]+),([-\d.]+)\)", g.get("transform")).groups())
    inner = next(e for e in g if e.tag == NS + "g")
    return x, y, float(re.match(r"rotate\(([-\d.]+)\)", inner.get("transform")).group(1))


def _picture(**changes):
    state, _ = game(**changes)
    view = RS.view(state)
    return view, parse(pictures.svg(view))


def test_the_arena_is_drawn_space_by_space_with_its_road_tiles():
    view, root = _picture(vehicles=CARS)
    assert of_class(root, "road") == [] and len(of_class(root, "arena")) == 1
    drawn = _drawn_at(root)
    slots = {s.number: {name(sp) for sp in s.spaces} for s in SIDE.slots}
    assert set(drawn) == {name(s) for s in SIDE.arena} | set().union(*slots.values())
    tiles = {int(t.get("data-slot")): t for t in of_class(root, "road-tile")}
    assert {n: t.get("data-tile") for n, t in tiles.items()} == {1: "the-parking-lot", 2: "choke", 3: "mudhole"}
    for n, tile in tiles.items():
        assert {e.get("data-at") for e in tile.iter(NS + "polygon")} == slots[n]
    for kind, spaces in (("spotlight", SIDE.spotlights), ("favor", SIDE.favors), ("weapon", SIDE.weapons)):
        assert {at for at, cls in drawn.items() if cls == kind} == {name(s) for s in spaces} - {
            name(s) for s in SIDE.pillars.values()}, kind


def test_each_vehicle_stands_on_its_space_pointing_its_facing():
    view, root = _picture(vehicles=CARS)
    lay = Layout("hex", 1, 0, 0)  # only the angles: they do not depend on the board's size
    cars = vehicles_drawn(root)
    assert set(cars) == {c["id"] for c in CARS}
    centres = {}
    for car in CARS:
        x, y, angle = _transform(cars[car["id"]])
        assert cars[car["id"]].get("data-at") == car["at"]
        assert angle == round(lay.angle(car["facing"])), car
        centres[car["at"]] = (x, y)
    # the spaces' centres keep the grid: l9 and l12 in one lane, l12 three spaces ahead (up the picture)
    (x9, y9), (x12, y12) = centres["l9"], centres["l12"]
    assert x9 == x12 and y12 < y9
    polygon = next(e for e in root.iter(NS + "polygon") if e.get("data-at") == "k7")
    xs = [float(p.split(",")[0]) for p in polygon.get("points").split()]
    ys = [float(p.split(",")[1]) for p in polygon.get("points").split()]
    assert min(xs) < centres["k7"][0] < max(xs) and min(ys) < centres["k7"][1] < max(ys)
    assert len({round(lay.angle(f)) for f in FACINGS}) == 6


def test_raised_pillars_are_impassable_and_lowered_ones_are_not():
    _, root = _picture(raised=["C", "G"])
    pillars = {e.get("data-letter"): e for e in of_class(root, "pillar")}
    assert set(pillars) == set("ABCDEFGHI")
    for letter, e in pillars.items():
        assert e.get("data-at") == name(SIDE.pillars[letter])
        up = letter in ("C", "G")
        assert e.get("data-raised") == str(up).lower() and (e.get("fill") == "url(#impassable)") == up
    texts = {t.text for t in root.iter(NS + "text")}
    assert {"C", "G", "a", "i"} <= texts and "A" not in texts


def test_cars_waiting_to_enter_stand_behind_their_road_tile():
    view, root = _picture()
    cars = vehicles_drawn(root)
    assert set(cars) == {v["id"] for v in view["vehicles"]}
    spots = view["board"]["start_spots"]
    assert set(spots) == set(cars)
    tiles = {name(s) for slot in SIDE.slots for s in slot.spaces}
    for vid, g in cars.items():
        assert space_of(spots[vid]) is not None and spots[vid] not in tiles
        assert g.get("data-at") == "start"


def test_super_weapon_and_favor_tokens_are_drawn_on_their_spaces():
    favor, weapon = name(SIDE.favors[0]), name(SIDE.weapons[0])
    _, root = _picture(favor_tokens=[favor], weapon_tokens=[weapon])
    tokens = {t.get("data-at"): t.get("data-kind") for t in of_class(root, "token")}
    assert tokens == {favor: "face-down", weapon: "super-weapon"}


def test_the_replay_page_of_a_carnival_game_draws_the_arena_at_every_event(tmp_path):
    db = tmp_path / "trv.sqlite"
    run(db, "sim", "--ruleset", "carnival", "--games", "1", "--players", "2", "--seed", "3", "--store", "-q")
    out = tmp_path / "game.html"
    run(db, "replay", "sim-carnival-2p-3", "--html", out)
    data = data_of(out.read_text(encoding="utf-8"))
    assert data["frames"] and data["verified"]["ok"] is True
    arena = {i for i, p in enumerate(data["pieces"]) if p.startswith('<g class="arena">')}
    assert all(len(arena & set(f["p"])) == 1 for f in data["frames"])
    assert not any(p.startswith('<g class="road">') for p in data["pieces"])


def test_every_space_carries_the_name_trv_turn_and_trv_legal_use_inside_its_hexagon():
    _, root = _picture(raised=["C"])
    labels = {t.get("data-at"): t for t in of_class(root, "lbl space-name")}
    slots = {name(sp) for s in SIDE.slots for sp in s.spaces}
    assert set(labels) == {name(s) for s in SIDE.arena} | slots
    polygons = {e.get("data-at"): e for e in root.iter(NS + "polygon") if e.get("data-at")}
    for at, t in labels.items():
        assert t.text == at
        xs = [float(p.split(",")[0]) for p in polygons[at].get("points").split()]
        ys = [float(p.split(",")[1]) for p in polygons[at].get("points").split()]
        x, y = float(t.get("x")), float(t.get("y"))
        assert min(xs) < x < max(xs) and min(ys) < y < (min(ys) + max(ys)) / 2, at  # the top half of its own space
    assert "#ddd" in labels[name(SIDE.pillars["C"])].get("style")  # readable on a raised pillar's hatching


def test_the_replay_page_log_and_record_name_a_favor_only_once_it_is_played(tmp_path):
    """A party favor is hidden information: its kind is in the game's events (the
    owner's store must know it, and re-execution checks the draw), but nothing a
    person reads names it before it is played: not the log's sentences, not the
    record's move text, not the replay page's frames or rows (docs/fair-play.md)."""
    db = tmp_path / "trv.sqlite"
    run(db, "sim", "--ruleset", "carnival", "--games", "1", "--players", "2", "--seed", "3", "--store", "-q")
    game = "sim-carnival-2p-3"
    log = run(db, "log", "--game", game).stdout.splitlines()
    collected = next(i for i, line in enumerate(log) if "collects a party favor" in line)
    played = next(i for i, line in enumerate(log) if "plays bootleg-turn" in line)  # the favor collected above
    kinds = sorted(comp.PARTY_FAVORS)
    assert collected < played and not any(k in line for line in log[:played] for k in kinds)
    record = tmp_path / "game.trv"
    run(db, "export", "--game", game, "-o", record)
    movetext = [line for line in record.read_text().splitlines() if line.startswith("   ")]
    assert [k for line in movetext for k in kinds if k in line] == ["bootleg-turn"]  # only where it is played
    out = tmp_path / "game.html"
    run(db, "replay", game, "--html", out)
    data = data_of(out.read_text(encoding="utf-8"))
    assert not any(k in piece for piece in data["pieces"] for k in kinds)
    html = out.read_text(encoding="utf-8")
    rows = re.findall(r'<li data-n="(\d+)">(.*?)</li>', html)
    named = [int(n) for n, row in rows if any(k in row for k in kinds)]
    assert named and min(named) == played + 1  # the log counts from 1
