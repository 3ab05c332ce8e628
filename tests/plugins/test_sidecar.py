"""A crew with an action, an event and state of its own plays in base Vendetta games beside
the cars (``tests/plugins/sidecar``: the outriders, two cars and a sidecar): Vendetta's decoders, describe functions and fold are
assembled from what is registered (``vendetta/parts.py``), so importing the package is all
it takes, and no file of the project names it."""

from __future__ import annotations

import ast
import json
import sys
import typing
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import sidecar  # noqa: E402  (registers the outriders crew, its action, event and fold)

from conformance.test_random_play import GameChecker  # noqa: E402
from trvendetta import rulesets  # noqa: E402
from trvendetta.cli.main import cli  # noqa: E402
from trvendetta.core.events import BaseEvent  # noqa: E402
from trvendetta.vendetta import crew, parts  # noqa: E402
from trvendetta.vendetta.actions import AssignDie  # noqa: E402

RS = rulesets.get("vendetta")
SEATS = [("ann", "red", "outriders"), ("bob", "blue", "cars")]


def _first_turn(vehicle: str, seed: int = 3):
    """A base Vendetta game of two outrider crews whose first player assigned a die to its
    ``vehicle`` (whoever won the initiative): its name and the state."""
    state, _ = RS.new_game(RS.default_position([("ann", "red", "outriders"), ("bob", "blue", "outriders")], seed))
    p = next(p for p in state.players if p.name == RS.pending(state).player)
    return p.name, RS.apply(state, AssignDie(f"{p.color}-{vehicle}", p.dice[0]))[0]


def _at_command():
    """The command decision of a turn whose sidecar took the die."""
    return _first_turn("sidecar")


def test_importing_the_package_registers_it_and_no_project_file_names_it():
    assert crew.named("outriders") is sidecar.SIDECAR
    assert "outriders" in RS.crews()
    assert sidecar.ThrowFlare in typing.get_args(RS.action_type)
    assert sidecar.FlareThrown in typing.get_args(RS.event_type)
    carnival = rulesets.get("carnival")  # a ruleset built on Vendetta's decodes the registered types too,
    assert sidecar.FlareThrown in typing.get_args(carnival.event_type)
    assert sidecar.ThrowFlare in typing.get_args(carnival.action_type)
    assert "outriders" not in carnival.crews()  # but seats only the crews registered for it
    literals = {"outriders", "sidecar", "throw-flare", "flare-thrown", "flare"}
    for folder in ("trvendetta", "cli", "app", "replays", "event_store", "pictures", "server", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            assert not [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in literals], path


def test_its_action_event_and_state_play_in_a_vendetta_game():
    name, state = _at_command()
    car = state.turn.car
    decision = RS.pending(state)
    assert decision.kind == "command" and sidecar.ThrowFlare() in decision.options
    after, events = RS.apply(state, sidecar.ThrowFlare())
    thrown = [e for e in events if isinstance(e, sidecar.FlareThrown)]
    assert thrown == [sidecar.FlareThrown(name, car)]
    mine = next(p for p in after.players if p.name == name)
    assert mine.crew_state == sidecar.Flares(1) and sidecar.thrown(after, name) == 1
    assert RS.sentence(thrown[0]) == f"{car}'s passenger throws a flare"
    assert RS.describe_action(sidecar.ThrowFlare()) == "flare"
    data = RS.encode(thrown[0])
    assert data.startswith(b'{"type":"flare-thrown"') and RS.decode_event(data) == thrown[0]
    assert RS.decode_action(RS.encode(sidecar.ThrowFlare())) == sidecar.ThrowFlare()
    assert RS.decode_state(RS.encode(after)) == after  # its state rides in the snapshots


def test_its_flares_run_out():
    name, state = _at_command()
    spent = msgspec.structs.replace(state, players=tuple(
        msgspec.structs.replace(p, crew_state=sidecar.Flares(sidecar.FLARES)) if p.name == name else p
        for p in state.players))
    assert sidecar.ThrowFlare() not in RS.pending(spent).options
    assert sidecar.ThrowFlare() in RS.pending(state).options


def test_a_car_takes_no_flare():
    _, state = _first_turn("small")
    decision = RS.pending(state)
    assert decision is None or sidecar.ThrowFlare() not in decision.options


def test_a_game_without_the_crew_records_what_it_did_before():
    """Registering a crew adds it to the components only of a game that seats it: a game of
    cars records the shipped components, so its events are what they were."""
    _, events = RS.new_game(RS.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 3))
    assert "outriders" not in events[0].components.crews and "sidecar" not in events[0].components.vehicles
    _, events = RS.new_game(RS.default_position(SEATS, 3))
    assert events[0].components.crews["outriders"] == sidecar.CREW
    assert RS.restart(events[0])[0] == events[0]


def test_a_type_registered_after_the_decoders_were_built_is_decoded():
    """The ruleset drops the decoders built from the old union when a type joins it."""
    RS.decode_event(RS.encode(sidecar.FlareThrown("ann", "red-sidecar")))  # the decoders exist

    class Late(BaseEvent, tag="late-test-event", frozen=True):
        what: str

    parts.event(Late, describe=lambda e: e.what)
    try:
        assert RS.decode_event(b'{"type":"late-test-event","what":"x"}') == Late("x")
        assert RS.sentence(Late("x")) == "x"
    finally:
        del parts.EVENTS[Late]
        parts._changed("events")


@pytest.mark.parametrize("crews", [("outriders", "cars"), ("outriders", "finalfive", "bigrig")])
def test_random_games_with_it_conform(crews):
    for seed in range(2):
        GameChecker("vendetta", len(crews), seed, crews=crews).run()


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
    assert "vendetta game" in trv("new", "--player", "ann:red:outriders", "--player", "bob:blue:cars",
                                  "--seed", "4").stdout
    view = json.loads(trv("show", "--json").stdout)
    assert [p["crew"] for p in view["players"]] == ["outriders", "cars"]
    assert view["pending"]["player"] == "ann"  # seed 4's initiative: the outriders play first
    assert "red-sidecar" in trv("show").stdout
    picture = tmp_path / "board.svg"
    trv("show", "--svg", str(picture))
    assert picture.read_text().startswith("<svg") and "red-sidecar" in picture.read_text()
    die = view["players"][0]["dice"][0]
    assert "red-sidecar" in trv("legal").stdout
    out = trv("turn", "--car", "sidecar", "--assign", str(die), "--flare", "--no-shoot").stdout
    assert "red-sidecar's passenger throws a flare" in out
    assert "red-sidecar's passenger throws a flare" in trv("log").stdout
    shown = json.loads(trv("show", "--json").stdout)  # its state, decoded from the store's copy of the game
    assert shown["pending"]["player"] == "bob"
    assert [p.get("flares_thrown") for p in shown["players"]] == [1, None]
    assert "flares thrown: 1 of 2" in trv("show").stdout
    trv("verify")
    record = tmp_path / "game.trv"
    trv("export", "--output", str(record))
    trv("import", str(record), "--name", "copy")
    assert "red-sidecar's passenger throws a flare" in trv("log", "--game", "copy").stdout
    trv("verify", "--game", "copy")
    out = trv("sim", "--crews", "outriders,cars", "--games", "2", "--quiet").stdout
    assert "2 games" in out


def test_trv_turn_lists_its_flag_and_its_vehicle(trv):
    help_text = trv("turn", "--help").stdout
    assert "--flare" in help_text and "small|medium|large|sidecar" in help_text
    trv("new", "--player", "ann:red:cars", "--player", "bob:blue:outriders", "--seed", "4")
    die = json.loads(trv("show", "--json").stdout)["players"][0]["dice"][0]
    before = trv("show", "--json").stdout
    refused = trv("turn", "--car", "small", "--assign", str(die), "--flare", code=1).stderr
    assert "--flare" in refused and "nothing was played" in refused
    assert trv("show", "--json").stdout == before


def test_a_crew_state_must_be_tagged_as_the_others_are():
    """Every crew's state decodes as one tagged union: a type tagged otherwise is refused when it
    registers, not when a stored state fails to decode."""
    from trvendetta.vendetta.model import CrewPlayer

    class Untagged(msgspec.Struct, CrewPlayer, frozen=True):
        n: int = 0

    class OtherField(msgspec.Struct, frozen=True, tag="odd", tag_field="kind"):
        n: int = 0

    for cls in (Untagged, OtherField):
        with pytest.raises(TypeError, match="tag_field='crew'"):
            parts.state(cls)
        assert cls not in parts.STATES
