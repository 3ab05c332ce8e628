"""What `trv show` does at start-up, checked without a clock (docs/performance.md, "show start-up").

Start-up is most of a `trv show`: these guard what made it cheaper, by what the process
holds afterwards, never by how long it took.
"""

import json
import subprocess
import sys

import pytest

from trvendetta import rulesets
from trvendetta.bots import new_position
from trvendetta.store import GameStore

# runs `trv show` through the real entry point, then reports on the process
SHOW = r"""
import gc, json, sys, typing
import msgspec
from trvendetta.cli import main as entry

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
print(json.dumps({"lazy": lazy, "frozen": gc.get_freeze_count(), "gc": gc.isenabled(), "modules": sorted(sys.modules)}))
"""


def _show(tmp_path, ruleset: str = "vendetta") -> dict:
    db = tmp_path / "v.sqlite"
    rs = rulesets.get(ruleset)
    with GameStore(db) as s:
        s.create_game("duel", ruleset, rs.new_game(new_position(rs, 2, 4))[1])
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


def test_the_entry_point_leaves_a_paused_collector_paused():
    code = ("import gc, sys\nfrom trvendetta.cli import main as entry\ngc.disable()\nsys.argv = ['trv', '--help']\n"
            "try:\n    entry.main()\nexcept SystemExit:\n    pass\nprint(gc.isenabled())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "False"
