"""The arena as text, with facing arrows (for ``trv show`` of a Carnival game).

Pure: the side, the pillars raised and what stands where in, lines out.
Each half-row is one line, front at the top, headed by its half-row number;
a space takes two columns (its symbol, then the facing arrow of a vehicle on
it), so the drawing has the shape of ``arena.txt``.
"""

from __future__ import annotations

from .components import ArenaSide

Space = tuple[int, int]

ARROWS = {"F": "↑", "FR": "↗", "BR": "↘", "B": "↓", "BL": "↙", "FL": "↖"}


def draw(side: ArenaSide, raised: tuple[str, ...] = (), vehicles: dict[Space, tuple[str, str]] | None = None,
         tokens: dict[Space, str] | None = None) -> list[str]:
    """Lines of the board: ``vehicles`` maps a space to (one-letter glyph,
    facing), ``tokens`` a space to a one-letter mark (a favor, a weapon).
    Arena spaces are ``.``, spotlights ``S``, killer pillars their letter in
    lower case on their road side and upper case raised, road tiles ``=``."""
    vehicles, tokens = vehicles or {}, tokens or {}
    cells: dict[Space, str] = {s: "." for s in side.arena}
    for s in side.spotlights:
        cells[s] = "S"
    for letter, s in side.pillars.items():
        cells[s] = letter if letter in raised else letter.lower()
    for slot in side.slots:
        for s in slot.spaces:
            cells[s] = "="
    for s, mark in tokens.items():
        cells[s] = mark
    shown = {s: c + " " for s, c in cells.items()}
    for s, (glyph, facing) in vehicles.items():
        shown[s] = glyph + ARROWS[facing]
    ys = [s[1] for s in shown]
    lanes = max(s[0] for s in shown) + 1
    lines = []
    for y in range(max(ys), min(ys) - 1, -1):
        row = "".join(shown.get((lane, y), "  ") for lane in range(lanes)).rstrip()
        lines.append(f"{y:2d}  {row}")
    return lines
