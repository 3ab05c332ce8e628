"""A board kept outside the package (``tests/plugins/ringroad``: a ring road whose lanes wrap)
plays through the rules, the CLI, the bots and the conformance suite, touching no project file.

Each rule below is asked on the ring and on the plain road from the same position: the two
answers differ, so a rule that stepped on the grid itself (``core.geometry``) instead of asking
the state's board (``Geometry``: neighbour, arc, line, reach, at_side) would fail here."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import ringroad  # noqa: E402  (registers the ringroad ruleset and its board)

from conformance.test_random_play import GameChecker  # noqa: E402
from trvendetta import rulesets  # noqa: E402
from trvendetta.cli.main import cli  # noqa: E402
from trvendetta.core.errors import PositionError  # noqa: E402
from trvendetta.core.rng import Rng  # noqa: E402
from trvendetta.vendetta import board as b  # noqa: E402
from trvendetta.vendetta import bot  # noqa: E402
from trvendetta.vendetta import effects as fx  # noqa: E402
from trvendetta.vendetta import events as ev  # noqa: E402
from trvendetta.vendetta import rules  # noqa: E402
from trvendetta.vendetta.actions import AssignDie, NoCommand, Step  # noqa: E402
from trvendetta.vendetta.context import Ctx  # noqa: E402

RING = rulesets.get("ringroad")
ROAD = rulesets.get("vendetta")


def _state(rs, vehicles, script=None):
    """A round-2 game of ann (red) and bob (blue) on plain road (no hazards), ann to play."""
    pos = {"ruleset": "vendetta", "seed": 3, "road_die": 1, "round": 2, "active_player": "ann",
           "first_player": "ann", "fill": "road", "tokens": [],
           "players": [{"name": "ann", "color": "red", "dice": [1, 2, 3, 4]},
                       {"name": "bob", "color": "blue", "dice": [3, 3, 5, 6]}],
           "vehicles": [{"id": vid, "at": at} for vid, at in vehicles.items()]}
    if script:
        pos["script"] = script
    return rs.new_game(rs.position_from_dict(pos))[0]


def _at_step(rs, at="a5"):
    """ann's red-small on ``at``, given die 1 and no command: the step decision."""
    state = _state(rs, {"red-small": at})
    for action in (AssignDie("red-small", 1), NoCommand()):
        state, _ = rs.apply(state, action)
    assert rs.pending(state).kind == "step"
    return state


def test_importing_the_package_registers_its_ruleset_and_no_project_file_names_it():
    assert RING.name == "ringroad" and "ringroad" in rulesets.names()
    assert type(RING.initial_state()).board is ringroad.RING
    for folder in ("trvendetta", "cli", "app", "replays", "event_store", "pictures", "server", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            assert not [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Constant)
                        and n.value == "ringroad"], path  # (a sentence naming it, as a docstring may, is no literal)


def test_the_ring_joins_lane_a_to_lane_f_and_an_odd_ring_is_refused():
    ring = ringroad.RING
    assert b.nm(ring.neighbour(b.sq("a5"), "FL", "F")) == "f5"
    assert b.nm(ring.neighbour(b.sq("f5"), "FR", "F")) == "a6"
    assert b.nm(ring.neighbour(b.sq("a5"), "F", "F")) == "a6"  # along a lane, as the road
    assert [b.nm(s) for s in ring.arc(b.sq("a5"), "F")] == ["f5", "a6", "b5"]
    assert b.nm(ring.reach(b.sq("a5"), "FL", 3)) == "d6"
    with pytest.raises(ValueError, match="an even number wraps"):
        ringroad.RingRoad(5)


def test_trv_legal_does_not_mark_a_step_that_wraps_as_fatal():
    ring, road = _at_step(RING), _at_step(ROAD)
    assert rules.warning(ring, Step("FL")) == ""
    assert rules.warning(road, Step("FL")) == "fatal: leaves the road at z5 (eliminated)"
    assert rules.fatal_step(ring, "red-small", "FL") is None


def test_a_step_off_lane_a_comes_out_in_lane_f_and_the_car_survives():
    after, events = RING.apply(_at_step(RING), Step("FL"))
    car = b.vehicle(after, "red-small")
    assert b.nm(car.at) == "f5" and car.status == "operational"
    assert ev.VehicleMoved("red-small", "a5", "f5", "step", "FL", 1, False) in events
    _, events = ROAD.apply(_at_step(ROAD), Step("FL"))
    assert any(isinstance(e, ev.VehicleEliminated) for e in events)


def test_a_slam_pushes_round_the_ring():
    """bob's car on a5, slammed from behind (a4 F): the bottom car moves FL, to f5, not off the side."""
    script = {"slam": ["BOTTOM"], "direction": ["FL"]}
    for rs, survives in ((RING, True), (ROAD, False)):
        state = _state(rs, {"red-small": "a4", "blue-small": "a5"}, script)
        for action in (AssignDie("red-small", 1), NoCommand(), Step("F")):
            state, events = rs.apply(state, action)
        assert any(isinstance(e, ev.SlamStarted) for e in events)
        blue = b.vehicle(state, "blue-small")
        assert (blue.status != "eliminated", blue.at and b.nm(blue.at)) == ((True, "f5") if survives else (False, None))


def test_shrapnel_flies_round_the_ring():
    """Shrapnel's straight line (``board.line``) from a5 toward FL meets the car on e6 on the ring,
    and leaves the road at once on the plain road."""
    for rs, hit in ((RING, True), (ROAD, False)):
        state = _state(rs, {"red-small": "a5", "blue-small": "e6"}, {"damage": ["dent"]})
        ctx = Ctx(state, Rng(1, 2))
        fx.shrapnel(ctx, "red-small", "FL")
        assert any(isinstance(e, ev.DamageDrawn) and e.car == "blue-small" for e in ctx.events) is hit


def test_blast_off_lands_round_the_ring():
    """Blast Off's reach (``board.reach``): two spaces FL from a5 is e6 on the ring, off the road else."""
    for rs, lands in ((RING, "e6"), (ROAD, None)):
        state = _state(rs, {"red-small": "a5"}, {"direction": ["FL"], "stunt": [2]})
        ctx = Ctx(state, Rng(1, 2))
        fx.damage_effect(ctx, "red-small", "blast-off")
        car = b.vehicle(ctx.state, "red-small")
        assert (car.at and b.nm(car.at)) == lands


def test_the_big_rig_steers_and_dispenses_round_the_ring():
    """The rig's steps are offered unless they land off the board (``bigrig.step_options``), and
    its Hazard Dispenser's rear arc is the board's: from lane a both reach lane f on the ring."""
    seen = {}
    for rs in (RING, ROAD):
        pos = {"ruleset": "vendetta", "seed": 3, "road_die": 1, "round": 2, "active_player": "ann",
               "first_player": "ann", "fill": "road", "tokens": [],
               "players": [{"name": "ann", "color": "red", "crew": "bigrig", "dice": [1, 2, 3, 4]},
                           {"name": "bob", "color": "blue", "dice": [3, 3, 5, 6]}],
               "vehicles": [{"id": "red-rear", "at": "a3"}, {"id": "red-mid", "at": "a4"},
                            {"id": "red-front", "at": "a5"}]}
        state, _ = rs.new_game(rs.position_from_dict(pos))
        for name in ("steering 4", "assign 1 to rear hazard-dispenser"):
            state, _ = rs.apply(state, rs.parse_action(state, name))
        steps = [rs.describe_action(o) for o in rs.pending(state).options]
        state, _ = rs.apply(state, Step(steps[0]))
        seen[rs.name] = (steps, {s: b.nm(b.vehicle(state, f"red-{s}").at) for s in ("rear", "mid", "front")},
                         [rs.describe_action(o) for o in rs.pending(state).options])
    assert seen["ringroad"] == (["FL", "F", "FR"], {"rear": "a4", "mid": "a5", "front": "f5"},
                                ["hazard f3", "hazard a3", "hazard b3", "no-hazard"])
    assert seen["vendetta"] == (["F", "FR"], {"rear": "a4", "mid": "a5", "front": "a6"},
                                ["hazard a3", "hazard b3", "no-hazard"])


def test_the_greedy_bot_sees_the_ring():
    """Its look-ahead asks the board: FL from a5 is a step like another on the ring (no side edge
    to keep clear of), certain loss on the plain road."""
    ring, road = _at_step(RING), _at_step(ROAD)
    fl = bot.Heuristics(ring, RING.pending(ring))._step(Step("FL"))
    assert fl > bot.NEG and bot.Heuristics(road, ROAD.pending(road))._step(Step("FL")) <= bot.NEG
    ring_b = _at_step(RING, "b5")  # the same step one lane in, on the ring: no edge to count against a
    assert fl == bot.Heuristics(ring_b, RING.pending(ring_b))._step(Step("FL"))


@pytest.mark.parametrize("crews", [("cars", "cars"), ("cars", "finalfive", "bigrig")])
def test_random_games_on_the_ring_conform(crews):
    for seed in range(2):
        GameChecker("ringroad", len(crews), seed, crews=crews).run()


@pytest.fixture
def trv(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "trv.sqlite")

    def run(*args: str, code: int = 0, db: str = db):
        result = runner.invoke(cli, ["--db", db, *args], env={"TRV_GAME": None, "TRV_DB": None, "TRV_STORE": None,
                                                                "NO_COLOR": "1"}, catch_exceptions=False)
        assert result.exit_code == code, (args, result.stdout, result.stderr)
        return result

    return run


def test_the_cli_plays_it_round_the_ring(trv, tmp_path):
    position = tmp_path / "ring.toml"
    position.write_text('ruleset = "ringroad"\nseed = 5\nround = 2\nroad_die = 1\nactive_player = "ann"\n'
                        'first_player = "ann"\nfill = "road"\ntokens = []\n\n'
                        '[[players]]\nname = "ann"\ncolor = "red"\ndice = [1, 2, 3, 4]\n\n'
                        '[[players]]\nname = "bob"\ncolor = "blue"\ndice = [3, 3, 5, 6]\n\n'
                        '[[vehicles]]\nid = "red-small"\nat = "a5"\n')
    assert "ringroad game" in trv("new", "--position", str(position), "--name", "ring").stdout
    trv("decide", "assign 1 to red-small")
    trv("decide", "no-command")
    legal = trv("legal").stdout
    assert "FL" in legal and "fatal" not in legal  # the wrap is no elimination
    trv("turn", "--path", "FL")
    view = json.loads(trv("show", "--json").stdout)
    assert view["ruleset"] == "ringroad"
    red = next(v for v in view["vehicles"] if v["id"] == "red-small")
    assert (red["at"], red["status"]) == ("f5", "operational")
    assert "red-small" in trv("show").stdout
    picture = tmp_path / "ring.svg"
    trv("show", "--svg", str(picture))
    assert picture.read_text().startswith("<svg") and "red-small" in picture.read_text()
    assert trv("verify").stdout.startswith("OK")
    record = tmp_path / "ring.trv"
    trv("export", "-o", str(record))
    other = str(tmp_path / "other.sqlite")
    trv("import", str(record), db=other)
    assert trv("verify", db=other).stdout.startswith("OK")
    assert json.loads(trv("show", "--json", db=other).stdout)["vehicles"] == view["vehicles"]


def test_trv_new_and_sim_take_it(trv):
    assert "ringroad game" in trv("new", "--ruleset", "ringroad", "--player", "ann:red", "--player", "bob:blue",
                                  "--seed", "4").stdout
    assert json.loads(trv("show", "--json").stdout)["pending"]["kind"] == "assign"
    assert "2 games" in trv("sim", "--ruleset", "ringroad", "--games", "2", "--quiet").stdout


def test_a_big_rig_may_stand_across_the_wrap_on_the_ring_and_not_on_the_road():
    """A crew's position check asks the board (``CrewCheck.crew``'s ``board``): the rig's front
    in lane a with its mid section behind it round the ring in lane f is a train on the ring,
    and sections apart on the plain road."""
    ring = ringroad.RING
    front = b.sq("a6")
    mid = ring.neighbour(front, "BL", "F")
    rear = ring.neighbour(mid, "B", "F")
    assert b.nm(mid)[0] == "f"  # round the ring
    pos = {"ruleset": "vendetta", "seed": 3, "round": 2, "fill": "road", "tokens": [],
           "players": [{"name": "ann", "color": "red", "crew": "bigrig"}, {"name": "bob", "color": "blue"}],
           "vehicles": [{"id": "red-front", "at": "a6"}, {"id": "red-mid", "at": b.nm(mid)},
                        {"id": "red-rear", "at": b.nm(rear)}]}
    placed = RING.position_from_dict(pos)
    assert [v.at for v in placed.vehicles] == ["a6", b.nm(mid), b.nm(rear)]
    with pytest.raises(PositionError, match="red-mid must stand next to the section in front of it"):
        ROAD.position_from_dict(pos)
