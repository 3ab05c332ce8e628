"""The example position files in docs/examples load and play as documented."""

import tomllib
from pathlib import Path

from trvendetta.rulesets import get

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def load(name):
    data = tomllib.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    rs = get(data["ruleset"])
    return rs, rs.new_game(rs.position_from_dict(data))[0]


def test_vendetta_example_slams_as_scripted():
    from trvendetta.vendetta.actions import AssignDie, NoCommand, SlamReroll, Step

    rs, state = load("vendetta-slam.toml")
    for action in (AssignDie("red-large", 4), NoCommand(), Step("F"), SlamReroll(False)):
        state, _ = rs.apply(state, action)
    blue = next(v for v in rs.view(state)["vehicles"] if v["id"] == "blue-small")
    assert blue["at"] == "d4"  # BOTTOM, pushed FR


def test_classic_example_loads_with_its_cars():
    rs, state = load("classic-ram.toml")
    view = rs.view(state)
    at = {v["id"]: v["at"] for v in view["vehicles"]}
    assert at["red-6"] == "d6" and at["blue-5"] == "d8" and view["active_player"] == "ann"
