"""What ``trv legal`` prints of a Carnival decision: its large option sets summarised.

An air attack may put the chopper on any free arena space facing any of six
ways ("you choose which adjacent space it faces"): some 400 options; Killer
Pillar's are every raised pillar to lower times every pillar on its road side
to raise (up to 20); Precision's every face of the four FX dice (16).  Each
such family of more than :data:`GROUP_AT` options is printed as one line: the
option's printed form with a placeholder for each choice, the values each
choice takes, and one option written out (what ``trv decide`` takes).  Every
option stays in ``trv legal --json``; the rest is printed one a line.
"""

from __future__ import annotations

import textwrap

from .actions import FlyChopper, PlayFavor

GROUP_AT = 6  # a family of more options than this is summarised
WIDTH = 100


def _family(a) -> str | None:
    if isinstance(a, FlyChopper):
        return "chopper"
    if isinstance(a, PlayFavor) and a.favor in ("killer-pillar", "precision"):
        return a.favor
    return None


def lines(ruleset, state, options) -> list[str]:
    families: dict[str, list] = {}
    for a in options:
        family = _family(a)
        if family:
            families.setdefault(family, []).append(a)
    summarise = {"chopper": _choppers, "killer-pillar": _pillars, "precision": _precision}
    out: list[str] = []
    printed: set[str] = set()
    for a in options:
        name = _family(a)
        if name is not None and len(families[name]) > GROUP_AT:
            if name not in printed:
                printed.add(name)
                out += summarise[name](families[name]) or [ruleset.describe_action(o) for o in families[name]]
            continue
        note = ruleset.warning(state, a)
        out.append(ruleset.describe_action(a) + (f"  ({note})" if note else ""))
    return out


def _values(label: str, values) -> list[str]:
    return textwrap.wrap(f"{label}: " + " ".join(values), WIDTH, initial_indent="    ", subsequent_indent="      ")


def _choppers(options) -> list[str]:
    """Grouped by the facings a space offers: the arena's six, or a road tile's forward."""
    facings: dict[str, list[str]] = {}
    for o in options:
        facings.setdefault(o.at, []).append(o.facing)
    groups: dict[tuple[str, ...], list[str]] = {}
    for at, fs in facings.items():
        groups.setdefault(tuple(fs), []).append(at)
    out = []
    for shared, spaces in groups.items():
        if len(shared) == 1:
            out.append(f"chopper SPACE {shared[0]}: {len(spaces)} road-tile space{'s' if len(spaces) > 1 else ''} facing "
                       f"{shared[0]}, the tile's forward (e.g. \"chopper {spaces[0]} {shared[0]}\")")
        else:
            out.append(f"chopper SPACE FACING: {len(spaces)} spaces x {len(shared)} facings = {len(spaces) * len(shared)} "
                       f"options (e.g. \"chopper {spaces[0]} {shared[0]}\")")
            out += _values("FACING", shared)
        out += _values("SPACE", spaces)
    return out


def _pillars(options) -> list[str]:
    """Killer Pillar: every LOWER (a raised pillar, or - when none is) with every RAISE, when all pairs are options."""
    lower = list(dict.fromkeys(o.pillars[0] for o in options))
    lift = list(dict.fromkeys(o.pillars[-1] for o in options))
    if {o.pillars for o in options} != {(lo, up) for lo in lower for up in lift} or len(options) != len(lower) * len(lift):
        return []
    first = options[0]
    example = f'e.g. "{first.describe()}"'
    if lower == [""]:
        return [f"favor killer-pillar - RAISE: none is raised; RAISE one of {' '.join(lift)} ({example})"]
    return [f"favor killer-pillar LOWER RAISE: LOWER one of {' '.join(lower)} (raised), RAISE one of "
            f"{' '.join(lift)} ({example})"]


def _precision(options) -> list[str]:
    faces: dict[str, list[str]] = {}
    for o in options:
        faces.setdefault(o.die, []).append(o.face)
    dice = "; ".join(f"{die} {' '.join(fs)}" for die, fs in faces.items())
    return [f"favor precision DIE FACE: {dice} (e.g. \"{options[0].describe()}\")"]
