"""The arena as text, with facing arrows (for ``trv show`` of a Carnival game).

Pure: the side, the pillars raised and what stands where in, lines out.
Each half-row is one line, front at the top; a space takes two columns (its
symbol, then the facing arrow of a vehicle on it), so the drawing has the
shape of ``arena.txt``.  The lane letters run above and below it, and each
line is headed by the number its spaces have, as on Vendetta's text board
(``+``: a half-row of the odd lanes b, d, ...), so a space's name (what
``trv turn`` and ``trv legal`` type) is read off: its column's letter and
its line's number (``k17``).
"""

from __future__ import annotations

from ..core.geometry import LANE_LETTERS
from .components import ArenaSide

Space = tuple[int, int]

ARROWS = {"F": "↑", "FR": "↗", "BR": "↘", "B": "↓", "BL": "↙", "FL": "↖"}


#: a road tile's space by its terrain (two characters: a token on it keeps the second)
TERRAIN = {"road": "= ", "offroad": ": ", "mud": "~ ", "impassable": "##"}


def draw(side: ArenaSide, raised: tuple[str, ...] = (), vehicles: dict[Space, tuple[str, str]] | None = None,
         tokens: dict[Space, str] | None = None, terrain: dict[Space, str] | None = None,
         choppers: dict[Space, str] | None = None) -> list[str]:
    """Lines of the board: ``vehicles`` maps a space to (one-letter glyph,
    facing), ``tokens`` a space to a one-letter mark (a favor, a weapon),
    ``terrain`` a road tile's space to its kind when it is not road, ``choppers`` a
    space to its chopper's facing.  Arena spaces are ``.``, spotlights ``S``, killer
    pillars their letter in lower case on their road side (``a_``) and upper case
    raised (``A#``), road tiles ``=`` (off-road ``:``, mud ``~``, impassable ``##``; a
    token on off-road or mud ``?:``, ``?~``), a chopper ``^`` and its facing arrow: a
    pillar's second character is never an arrow, so the inoperable blue car ``b↑`` and
    pillar ``b_`` do not look alike."""
    vehicles, tokens, terrain, choppers = vehicles or {}, tokens or {}, terrain or {}, choppers or {}
    cells: dict[Space, str] = {s: "." for s in side.arena}
    for s in side.spotlights:
        cells[s] = "S"
    for letter, s in side.pillars.items():
        cells[s] = letter if letter in raised else letter.lower()
    road = {s for slot in side.slots for s in slot.spaces}
    for s in road:
        cells[s] = TERRAIN[terrain.get(s, "road")][0]
    for s, mark in tokens.items():
        cells[s] = mark
    shown = {s: c + " " for s, c in cells.items()}
    for s in road:
        kind = terrain.get(s, "road")
        if s in tokens:  # the token, and the terrain under it when that is not road
            shown[s] = tokens[s] + (TERRAIN[kind][0] if kind in ("offroad", "mud") else " ")
        else:
            shown[s] = TERRAIN[kind]
    for letter, s in side.pillars.items():  # a pillar's second character: never taken for a car (R↑, b↓)
        if cells.get(s, "").lower() == letter.lower():
            shown[s] = letter + "#" if letter in raised else letter.lower() + "_"
    for s, facing in choppers.items():
        shown[s] = "^" + ARROWS[facing]
    for s, (glyph, facing) in vehicles.items():
        shown[s] = glyph + ARROWS[facing]
    ys = [s[1] for s in shown]
    lanes = max(s[0] for s in shown) + 1
    letters = "    " + " ".join(LANE_LETTERS[:lanes])
    lines = [letters]
    for y in range(max(ys), min(ys) - 1, -1):
        row = "".join(shown.get((lane, y), "  ") for lane in range(lanes)).rstrip()
        lines.append(f"{label(y)} {row}")
    return lines + [letters]


def label(y: int) -> str:
    """The head of half-row ``y``: the number of its spaces (``geometry.number``), ``+`` on the odd lanes' rows."""
    return f"{(y - y % 2) // 2 + 1:>2}{'+' if y % 2 else ' '}"
