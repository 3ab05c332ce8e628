"""Golden playthrough transcripts (OpenSpiel style): a seeded random game per
ruleset, written as numbered event sentences and the head of a hash over the
canonical events.  Regenerate after an intended rules change with

    python -m tests.golden.transcript

and review the diff: any other change to these files is an accidental rule change.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from trvendetta.rulesets import get

HERE = Path(__file__).parent
GAMES = {
    "vendetta": [("ann", "red", "cars"), ("bob", "blue", "cars"), ("cid", "green", "cars")],
    "classic": [("ann", "red", "cars"), ("bob", "blue", "cars")],
}


def transcript(name: str, seed: int = 1) -> str:
    rs = get(name)
    state, events = rs.new_game(rs.default_position(GAMES[name], seed=seed))
    events = list(events)
    chooser = random.Random(seed)
    while not rs.is_over(state):
        state, new = rs.apply(state, chooser.choice(rs.legal_actions(state)))
        events += new
    digest = hashlib.sha256()
    lines = [f"# {name} seed {seed}: random legal actions chosen by random.Random({seed})"]
    for i, e in enumerate(events, 1):
        digest.update(rs.encode(e))
        lines.append(f"{i:5}. {rs.describe(e)}")
    lines.append(f"# sha256 of the canonical events: {digest.hexdigest()}")
    return "\n".join(lines) + "\n"


def path(name: str) -> Path:
    return HERE / f"{name}-seed1.txt"


if __name__ == "__main__":
    for name in GAMES:
        path(name).write_text(transcript(name), encoding="utf-8")
        print("wrote", path(name))
