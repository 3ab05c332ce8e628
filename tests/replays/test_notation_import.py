"""Reading and writing move text is the ruleset's notation: it needs no walker and no store."""

import json
import subprocess
import sys

# plays a few actions of a Vendetta game, writes their move text and reads it back,
# then reports what the process imported
CODE = r"""
import json, sys
from trvendetta import rulesets
from trvendetta.replays import notation

rs = rulesets.get("vendetta")
state = first = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 7))[0]
names = []
for _ in range(6):
    action = rs.legal_actions(state)[0]
    names.append((rs.round(state), rs.pending(state).player, rs.describe_action(action)))
    state, _ = rs.apply(state, action)
text = "\n".join(f"{r}. {p}: {n}" for r, p, n in names)
back = notation.parse_movetext(rs, first, text)
print(json.dumps({"moves": len(back), "modules": sorted(sys.modules)}))
"""


def test_the_notation_parser_loads_no_store_code_and_no_eventsourcing():
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True).stdout
    found = json.loads(out.strip().splitlines()[-1])
    assert found["moves"] == 6  # it did parse: six names back to six actions
    loaded = found["modules"]
    assert [m for m in loaded if m == "eventsourcing" or m.startswith("eventsourcing.")] == []
    assert [m for m in loaded if m == "trvendetta.store" or m.startswith("trvendetta.store.")] == []
    assert "trvendetta.replays.walker" not in loaded


def test_the_package_still_offers_every_name_it_exports():
    """The package loads its modules when a name is first asked for: each name of ``__all__`` is there."""
    from trvendetta import replays

    missing = [name for name in replays.__all__ if getattr(replays, name, None) is None]
    assert missing == []
