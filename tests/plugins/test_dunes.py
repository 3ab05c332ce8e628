"""A ruleset with its own board and crew plugs in by importing its module
(``tests/plugins/dunes.py``): the rules ask its board and its crew, and the
CLI, the simulator, the pictures and the conformance suite take it as they
take a built-in ruleset, with no file of the project naming it."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import dunes  # noqa: E402  (registers the dunes ruleset and the jeeps crew)

from conformance.test_random_play import GameChecker  # noqa: E402
from trvendetta import rulesets  # noqa: E402
from trvendetta.cli.main import cli  # noqa: E402
from trvendetta.vendetta import board as b  # noqa: E402
from trvendetta.vendetta import crew  # noqa: E402
from trvendetta.vendetta import events as ev  # noqa: E402
from trvendetta.vendetta.actions import AssignDie, NoCommand, Step  # noqa: E402

RS = dunes.RULESET

POSITION = {
    "ruleset": "vendetta", "seed": 3,  # (a Vendetta position: the dunes play its positions as they are) "road": ["the-gauntlet", "the-gauntlet", "the-gauntlet"],
    "road_die": 1, "round": 2, "active_player": "ann", "first_player": "ann",
    "players": [{"name": "ann", "color": "red", "crew": "jeeps", "dice": [1, 2, 3, 4]},
                {"name": "bob", "color": "blue", "dice": [3, 3, 5, 6]}],
}


def _printed_impassable(state):
    c = state.components
    return next((lane, y) for y in range(c.half, 2 * c.half) for lane in range(y % 2, c.lanes, 2)
                if b.tile_terrain(state, (lane, y)) == "impassable")


def test_importing_the_module_registers_its_ruleset_and_crew_and_no_project_file_names_them():
    assert rulesets.get("dunes") is RS and "dunes" in rulesets.names()
    assert crew.named("jeeps") is dunes.JEEPS
    for folder in ("trvendetta", "cli", "app", "replays", "event_store", "pictures", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            assert "dunes" not in text and "jeeps" not in text, path


def test_its_board_answers_the_rules_questions():
    state, _ = RS.new_game(RS.position_from_dict(POSITION))
    assert type(state).board is dunes.DUNES
    sand = _printed_impassable(state)
    assert b.terrain(state, sand) == "mud"  # the road's impassable space is the dunes' sand
    assert not b.may_shoot_from(state, sand)
    assert b.off_cause(state, (-1, 10)) == "sank into the dunes"
    assert RS.pending(state).prompt == "assign a die to a jeep"  # the crew's prompt, through the board


def test_its_crew_takes_damage_its_own_way():
    state, _ = RS.new_game(RS.position_from_dict(POSITION))
    sand = _printed_impassable(state)
    data = dict(POSITION, vehicles=[{"id": "red-small", "at": b.nm(sand)}],
                script={"shot": ["SML"]})
    state, _ = RS.new_game(RS.position_from_dict(data))
    jeep = b.vehicle(state, "red-small")
    assert jeep.at == sand
    from trvendetta.vendetta.context import Ctx
    from trvendetta.vendetta import effects as fx
    from trvendetta.core.rng import Rng

    ctx = Ctx(state, Rng(1, 2))
    fx.damage(ctx, "red-small", "a test hit")
    assert ctx.events == [ev.DamageIgnored("red-small", "the sand took the hit")]
    ctx = Ctx(state, Rng(1, 2))
    fx.damage(ctx, "blue-small", "a test hit")  # a car of the cars' crew takes it as a car does
    assert any(isinstance(e, ev.DamageDrawn) for e in ctx.events)


def test_a_step_into_sand_is_mud_not_a_crash():
    state, _ = RS.new_game(RS.position_from_dict(POSITION))
    sand = _printed_impassable(state)
    behind = (sand[0], sand[1] - 2)
    data = dict(POSITION, vehicles=[{"id": "red-small", "at": b.nm(behind)}])
    state, _ = RS.new_game(RS.position_from_dict(data))
    for action in (AssignDie("red-small", 3), NoCommand(), Step("F")):
        state, events = RS.apply(state, action)
    assert b.vehicle(state, "red-small").at == sand and b.vehicle(state, "red-small").status == "operational"
    assert not any(isinstance(e, ev.VehicleEliminated) for e in events)


def test_its_crew_supplies_the_greedy_bots_heuristics():
    state, _ = RS.new_game(RS.position_from_dict(POSITION))
    sand = _printed_impassable(state)
    data = dict(POSITION, vehicles=[{"id": "red-small", "at": b.nm((sand[0], sand[1] - 2))}])
    state, _ = RS.new_game(RS.position_from_dict(data))
    for action in (AssignDie("red-small", 3), NoCommand()):
        state, _ = RS.apply(state, action)
    decision = RS.pending(state)
    from trvendetta.vendetta import bot

    h = bot.Heuristics(state, decision)
    ours, vendetta = RS.score_options(state, decision), [h._step(a) for a in decision.options]
    into_sand = decision.options.index(Step("F"))
    assert ours[into_sand] == vendetta[into_sand] + dunes.SAND_BONUS
    assert [o for i, o in enumerate(ours) if i != into_sand] == [v for i, v in enumerate(vendetta) if i != into_sand]


@pytest.mark.parametrize("crews", [("jeeps", "cars"), ("jeeps", "finalfive", "cars")])
def test_random_games_with_its_crew_conform(crews):
    for seed in range(2):
        GameChecker("dunes", len(crews), seed, crews=crews).run()


@pytest.fixture
def trv(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "trv.sqlite")

    def run(*args: str, code: int = 0):
        result = runner.invoke(cli, ["--db", db, *args], env={"TRV_GAME": None, "TRV_DB": None, "TRV_STORE": None,
                                                                "NO_COLOR": "1"}, catch_exceptions=False)
        assert result.exit_code == code, (args, result.stdout, result.stderr)
        return result

    return run


def test_the_cli_plays_it(trv, tmp_path):
    assert "dunes game" in trv("new", "--ruleset", "dunes", "--player", "ann:red:jeeps", "--player",
                               "bob:blue:cars", "--seed", "4").stdout
    view = json.loads(trv("show", "--json").stdout)
    assert view["pending"]["kind"] == "assign"
    terrain = view["board"]["terrain"]  # the board's printed terrain, as the picture draws it
    assert "impassable" not in terrain and terrain["mud"]
    picture = tmp_path / "board.svg"
    trv("show", "--svg", str(picture))
    assert picture.read_text().startswith("<svg") and "red-small" in picture.read_text()
    body = {vid: float(w) for vid, w in re.findall(r'data-id="([a-z]+-small)".*?<rect x="[^"]+" y="[^"]+" width="([^"]+)"',
                                                    picture.read_text())}
    assert body["red-small"] > body["blue-small"]  # the jeeps' looks: a wider body than a car's
    die = view["players"][0]["dice"][0]
    trv("turn", "--car", "small", "--assign", str(die))
    assert json.loads(trv("show", "--json").stdout)["version"] > view["version"]
    assert view["board"]["widths"] == {f"red-{size}": 0.66 for size in ("small", "medium", "large")}  # its looks
    shown = trv("show").stdout
    assert "red-small" in shown and shown.count("4x4") == 3  # the jeeps' dashboard lines, not the cars'
    help_text = trv("turn", "--help").stdout
    assert "Thunder Road: Vendetta on the dunes (--ruleset dunes) flags" in help_text
    out = trv("sim", "--ruleset", "dunes", "--crews", "jeeps,cars", "--games", "2", "--quiet").stdout
    assert "2 games" in out


def test_trv_new_position_selects_it(trv, tmp_path):
    """A position file naming the dunes sets up a dunes game: the ruleset's own name is a
    position's ruleset, as ``vendetta`` is (Vendetta's positions play on the dunes too)."""
    import tomllib

    path = tmp_path / "dunes.toml"
    path.write_text('ruleset = "dunes"\nseed = 5\n\n[[players]]\nname = "ann"\ncolor = "red"\ncrew = "jeeps"\n\n'
                    '[[players]]\nname = "bob"\ncolor = "blue"\n')
    assert tomllib.loads(path.read_text())["ruleset"] == "dunes"
    assert "dunes game" in trv("new", "--position", str(path)).stdout
    view = json.loads(trv("show", "--json").stdout)
    assert view["ruleset"] == "dunes" and [p["crew"] for p in view["players"]] == ["jeeps", "cars"]
    path.write_text(path.read_text().replace('"dunes"', '"carnival-of-dunes"'))
    refused = trv("new", "--position", str(path), code=2)  # a usage error listing the rulesets there are
    assert "unknown ruleset 'carnival-of-dunes'" in refused.stderr and "dunes" in refused.stderr.split("rulesets:")[1]


def test_trv_new_names_its_crew(trv):
    """``trv new --player`` and ``trv sim --crews`` list each ruleset's crews, the plug-in's too."""
    for command in (("new", "--help"), ("sim", "--help")):
        text = " ".join(trv(*command).stdout.split())
        assert "dunes: cars, finalfive, bigrig, jeeps" in text and "vendetta: cars, finalfive, bigrig" in text


def test_a_new_dunes_game_records_a_dunes_position():
    position = RS.default_position([("ann", "red", "jeeps"), ("bob", "blue", "cars")], 3)
    assert position.ruleset == "dunes"
    state, events = RS.new_game(position)
    assert RS.restart(events[0])[0] == events[0]  # re-execution sets it up again from what it recorded
    other = rulesets.get("vendetta")
    with pytest.raises(Exception, match="'dunes' is not 'vendetta'"):
        other.new_game(position)


def _sections(help_text: str) -> dict[str, str]:
    """``trv turn --help``: heading -> the lines under it."""
    sections: dict[str, str] = {}
    heading = ""
    for line in help_text.splitlines():
        if line.endswith("flags:") and "(--ruleset " in line:
            heading = line
            sections[heading] = ""
        elif heading:
            sections[heading] += line + "\n"
    return sections


def test_its_crew_brings_its_own_turn_flag_which_only_its_ruleset_lists(trv):
    """The jeeps' ``--jeep`` comes from the crew (``Jeeps.turn_flags``), as the Big Rig's
    flags do: ``trv turn --help`` lists it under the dunes' jeeps heading and under no
    ruleset that does not take the jeeps."""
    assert [f.crew for f in RS.turn_flags if f.name == "jeep"] == ["jeeps"]
    assert not any(f.name == "jeep" for rs in rulesets.every() if rs is not RS for f in rs.turn_flags)
    sections = _sections(trv("turn", "--help").stdout)
    heading = "Thunder Road: Vendetta on the dunes (--ruleset dunes), with the jeeps crew flags:"
    assert "--jeep small|medium|large" in sections[heading]
    assert [h for h, text in sections.items() if "--jeep" in text] == [heading]
    assert "--steering N" in sections["Thunder Road: Vendetta on the dunes (--ruleset dunes), with the bigrig crew flags:"]


def test_trv_turn_takes_its_crews_flag_and_plays_it(trv):
    trv("new", "--ruleset", "dunes", "--player", "ann:red:jeeps", "--player", "bob:blue:cars", "--seed", "4")
    view = json.loads(trv("show", "--json").stdout)
    die = view["players"][0]["dice"][-1]
    out = trv("turn", "--jeep", "medium", "--assign", str(die), "--no-shoot").stdout
    assert f"ann assigns {die} to red-medium" in out  # the crew's flag chose the jeep
    after = json.loads(trv("show", "--json").stdout)
    assert after["pending"]["player"] == "bob"
    # bob plays the cars: the jeeps' flag is no flag of his turn, and nothing is played
    refused = trv("turn", "--jeep", "small", "--assign", str(after["players"][1]["dice"][0]), code=1).stderr
    assert "--jeep small: a flag of the jeeps crew's turn; bob plays the cars" in refused
    assert "nothing was played" in refused
    assert json.loads(trv("show", "--json").stdout)["version"] == after["version"]


def test_a_crews_flag_is_a_usage_error_in_a_ruleset_that_does_not_take_the_crew(trv):
    trv("new", "--player", "ann:red", "--player", "bob:blue", "--seed", "4")
    before = trv("show", "--json").stdout
    refused = trv("turn", "--jeep", "small", "--assign", "2", code=2).stderr
    assert "--jeep is a flag of dunes, not of vendetta" in refused
    assert trv("show", "--json").stdout == before
