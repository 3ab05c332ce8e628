"""Shared by the picture tests: example positions, random games, SVG reading."""

from __future__ import annotations

import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

from trvendetta.bots.sim import simulate
from trvendetta.rulesets import get

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "docs" / "examples").glob("*.toml"))
NS = "{http://www.w3.org/2000/svg}"


def example(path: Path):
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    rs = get(data["ruleset"])
    return rs, rs.new_game(rs.position_from_dict(data))[0]


def random_game(ruleset: str, players: int, seed: int, crew="cars"):
    """The events of one whole bot game."""
    events: list = []
    result = simulate(ruleset, players, seed, ["random"], crew=crew, events_out=events)
    assert result.finished
    return get(ruleset), events


def parse(svg_text: str) -> ET.Element:
    root = ET.fromstring(svg_text)
    assert root.tag == NS + "svg"
    return root


def vehicles_drawn(root: ET.Element) -> dict[str, ET.Element]:
    found = {}
    for g in root.iter(NS + "g"):
        if g.get("class") == "vehicle":
            assert g.get("data-id") not in found, f"{g.get('data-id')} drawn twice"
            found[g.get("data-id")] = g
    return found


def on_road(view: dict) -> set[str]:
    """The vehicles a picture must show: every one with a place (the starting area too)."""
    return {v["id"] for v in view["vehicles"] if v.get("at")}


def of_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == name]
