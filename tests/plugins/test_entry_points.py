"""What the entry points of ``trvendetta.plugins`` find, in-process: a crew declared apart from
any ruleset is imported on first use of its name (rules and looks alike), a ruleset entry point
may name the ruleset object itself, and a name no distribution declares changes nothing."""

from __future__ import annotations

import sys
from importlib.metadata import EntryPoint

import pytest

from trvendetta import plugins, rulesets
from trvendetta.core.errors import TrvError
from trvendetta.vendetta import crew

SIDECAR = '''
from trvendetta.vendetta import crew
from trvendetta.vendetta.cars import Cars

class Sidecar(Cars):
    assign_prompt = "assign a die to the sidecar"

class SidecarLooks(crew.Looks):
    width = 0.7

SIDECAR = crew.register("sidecar", Sidecar())
crew.register_looks("sidecar", SidecarLooks())
'''

RING = '''
from trvendetta.vendetta import Vendetta

class Ring(Vendetta):
    name = "ring"
    title = "a ring road"

RULESET = Ring()
'''


@pytest.fixture
def declared(tmp_path, monkeypatch):
    """Entry points as an installed distribution would declare them, for modules in ``tmp_path``."""
    (tmp_path / "trv_sidecar.py").write_text(SIDECAR)
    (tmp_path / "trv_ring.py").write_text(RING)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(plugins._FOUND, plugins.CREWS, {
        "sidecar": EntryPoint("sidecar", "trv_sidecar", plugins.CREWS)})
    monkeypatch.setitem(plugins._FOUND, plugins.RULESETS, {
        "ring": EntryPoint("ring", "trv_ring:RULESET", plugins.RULESETS)})
    yield
    for name in ("trv_sidecar", "trv_ring"):
        sys.modules.pop(name, None)
    crew.CREWS.pop("sidecar", None)
    crew.LOOKS.pop("sidecar", None)
    crew.LOOKS.pop("unheard-of", None)
    rulesets._REGISTERED.pop("ring", None)


def test_a_crew_plugin_is_imported_on_first_use_of_its_name(declared):
    from trvendetta.vendetta import rules  # noqa: F401  (the built-in crews register with the rules)

    assert "sidecar" not in crew.CREWS and "trv_sidecar" not in sys.modules
    found = crew.named("sidecar")
    assert type(found).__name__ == "Sidecar" and found.assign_prompt == "assign a die to the sidecar"
    assert crew.LOOKS["sidecar"].width == 0.7


def test_an_entry_point_may_name_the_ruleset_object(declared):
    assert "ring" in rulesets.names()
    assert rulesets.get("ring").title == "a ring road"


def test_a_name_no_distribution_declares_changes_nothing(declared):
    from trvendetta.vendetta import rules  # noqa: F401

    assert crew.named("unheard-of") is crew.named("cars")  # a crew of the data with no rules plays the cars' turn
    assert crew.LOOKS["unheard-of"] is crew.CARS_LOOK
    with pytest.raises(TrvError, match="unknown ruleset 'unheard-of'; known: vendetta, classic, carnival.*ring"):
        rulesets.get("unheard-of")
