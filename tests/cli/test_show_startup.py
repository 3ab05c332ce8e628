"""What `trv show` does at start-up, checked without a clock (docs/performance.md, "Where the store's time goes").

Start-up is most of a `trv show`: these guard what made it cheaper, by what the process
holds afterwards, never by how long it took.
"""

import json
import subprocess
import sys

import pytest

from trvendetta import rulesets
from trvendetta.bots import new_position, simulate
from trvendetta.store import GameStore

# runs `trv show` through the real entry point, then reports on the process
SHOW = r"""
import gc, json, sys, typing
import msgspec
from trvendetta.cli import main as entry

reading = []  # the collections that started while the fast path read the game


def collection(phase, info):
    frame = sys._getframe()
    while frame is not None and phase == "start":
        if frame.f_code.co_name == "_quick" and frame.f_code.co_filename.endswith("common.py"):
            reading.append(info["generation"])
        frame = frame.f_back


gc.callbacks.append(collection)

sys.argv = ["trv", "--db", sys.argv[1], "show"]
try:
    entry.main()
except SystemExit as exc:
    assert not exc.code, exc.code
lazy = {}
for name, module in list(sys.modules.items()):
    if not name.startswith("trvendetta"):
        continue
    for cls in list(vars(module).values()):
        if not (isinstance(cls, type) and cls.__module__ == name):
            continue
        if issubclass(cls, msgspec.Struct) or (issubclass(cls, tuple) and hasattr(cls, "_fields")):
            late = [f for f, a in vars(cls).get("__annotations__", {}).items() if isinstance(a, (str, typing.ForwardRef))]
            if late:
                lazy[f"{name}.{cls.__qualname__}"] = late
from trvendetta import rulesets
union = [name for name, rs in rulesets._REGISTERED.items() if rs._union is not None]
print(json.dumps({"lazy": lazy, "frozen": gc.get_freeze_count(), "gc": gc.isenabled(), "modules": sorted(sys.modules),
                  "union": union, "reading": reading}))
"""


def _show(tmp_path, ruleset: str = "vendetta", finished: bool = False) -> dict:
    db = tmp_path / f"{ruleset}{'-finished' if finished else ''}.sqlite"
    rs = rulesets.get(ruleset)
    if finished:  # a whole game stored in one go: the load starts from its snapshots
        events: list = []
        assert simulate(rs, 2, 5, ["random"], events_out=events).finished
    else:
        events = rs.new_game(new_position(rs, 2, 4))[1]
    with GameStore(db) as s:
        s.create_game("duel", ruleset, events)
    out = subprocess.run([sys.executable, "-c", SHOW, str(db)], capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "NO_COLOR": "1"}).stdout
    assert f"game duel ({ruleset})" in out
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize("ruleset", ["vendetta", "carnival", "classic"])
def test_the_structs_trv_show_decodes_with_are_annotated_eagerly(tmp_path, ruleset):
    """A string annotation (``from __future__ import annotations``) of a msgspec struct or a
    NamedTuple is compiled by ``compile()`` when msgspec first decodes the type or typing makes
    the tuple: about 560 of them cost `trv show` of a Vendetta game some 20 ms.  Every module on
    its path that defines one evaluates its annotations when it is imported (from its cached
    bytecode)."""
    assert _show(tmp_path, ruleset)["lazy"] == {}


def test_trv_show_freezes_what_start_up_made_and_leaves_the_collector_on(tmp_path):
    """The entry point pauses the cyclic GC while it imports the click group, then freezes
    what start-up made (nothing in it is garbage), so no later collection walks it again."""
    found = _show(tmp_path)
    assert found["gc"] is True
    assert found["frozen"] > 10_000


def test_trv_show_loads_neither_the_application_layer_nor_binascii(tmp_path):
    """Looking at a game needs no GameService (``cli.common`` imports the application layer's
    decisions only where it prints a command's result) and no binascii (the snapshot's CRC-32
    is zlib's, already loaded to inflate the records)."""
    modules = _show(tmp_path)["modules"]
    assert [m for m in modules if m.split(".")[:2] == ["trvendetta", "app"] or m == "binascii"] == []


#: what only deciding needs: the rules (set-up, the pending decision, decide), the actions, the
#: ``trv turn`` flags, and of each crew's package (``vendetta/crews/<crew>/``) its rules and flags
DECIDING = {"rules", "actions", "effects", "context", "notation", "bot"}
CREW_DECIDING = {"rules", "flags"}


def _deciding(module: str) -> bool:
    parts = module.split(".")
    return len(parts) > 2 and parts[:2] == ["trvendetta", "vendetta"] and (
        parts[2] in DECIDING or (parts[2] == "crews" and parts[-1] in CREW_DECIDING))


def test_trv_show_of_a_finished_game_imports_none_of_the_rules_that_decide(tmp_path):
    """Drawing a finished Vendetta game decodes, folds and renders: the deciding code is
    imported when something asks for a decision (the waiting line of a game in play)."""
    modules = _show(tmp_path, finished=True)["modules"]
    assert {"trvendetta.vendetta.events", "trvendetta.vendetta.evolve", "trvendetta.vendetta.view"} <= set(modules)
    assert [m for m in modules if _deciding(m)] == []
    playing = set(_show(tmp_path)["modules"])
    assert {f"trvendetta.vendetta.{m}" for m in ("rules", "actions")} <= playing
    assert {f"trvendetta.vendetta.crews.{c}.rules" for c in ("bigrig", "finalfive")} <= playing


@pytest.mark.parametrize("ruleset", ["vendetta", "carnival", "classic"])
def test_trv_show_decodes_events_without_the_decoder_of_the_whole_event_union(tmp_path, ruleset):
    """Its events are decoded by their own types' decoders (``Ruleset.decode_event``):
    building the union's resolves every event type of the ruleset."""
    assert _show(tmp_path, ruleset, finished=True)["union"] == []


def test_trv_show_reads_the_game_with_the_collector_paused(tmp_path):
    """What the read makes (the ruleset's modules and decoders, the game's state) lives on,
    and what it frees goes by reference count: the collector pauses while it reads, and
    what it made is frozen after (``Session.view``)."""
    assert _show(tmp_path, finished=True)["reading"] == []


def test_the_entry_point_leaves_a_paused_collector_paused():
    code = ("import gc, sys\nfrom trvendetta.cli import main as entry\ngc.disable()\nsys.argv = ['trv', '--help']\n"
            "try:\n    entry.main()\nexcept SystemExit:\n    pass\nprint(gc.isenabled())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "False"
