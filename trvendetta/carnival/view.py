"""Views of a Carnival game: the ``show --json`` document and the text board.

Vendetta's view and dashboards, with the arena drawn instead of the road
(``render.draw``: facing arrows, raised pillars, tokens) and the Carnival's
own parts: scrap (public), party favors (the kinds only for the player to
act, "keep it face down": the others are counted), super-weapons, killer
pillars, Tina's decree and pile.
"""

from __future__ import annotations

import textwrap

from ..vendetta import board as b
from ..vendetta import view as vview
from ..vendetta.rules import pending
from . import decrees, picture, render, spaces
from .favors import known


def _viewers(state) -> tuple[str, ...]:
    """Whose favors are shown face up: the players the shell says the one asking plays
    (``state.viewers``, ``Carnival.private_view``), else the player the game waits on (hot seat).
    A private favor still face down (its owner's store did not open it) shows to nobody."""
    if state.viewers is not None:
        return state.viewers
    d = pending(state)
    if d is not None and d.player is not None:  # (every Carnival decision names its player)
        return (d.player,)
    return (state.turn.player,) if state.turn is not None else ()


def view(state) -> dict:
    doc = vview.view(state)
    side = state.arena if state.carnival is not None else None
    viewers = _viewers(state)
    doc["ruleset"] = "carnival"
    facings = chopper_facings(state)
    for c in doc["choppers"]:  # "you choose which adjacent space it faces"
        if c["owner"] in facings:
            c["facing"] = facings[c["owner"]]
    del doc["road"]  # Vendetta's road of tiles: the arena's board is ``board["arena"]`` and ``tiles``
    doc["tokens"] = ([{"at": b.nm(s), "kind": None} for s in state.favor_tokens]  # face-down party favors
                     + [{"at": b.nm(s), "kind": "super-weapon"} for s in state.weapon_tokens])
    if side is not None:
        doc["board"] = arena_board(state, doc["board"])
    for v in doc["vehicles"]:
        vehicle = b.vehicle(state, v["id"])
        if vehicle.start and side is not None and vehicle.at is not None:  # a car in the start area has a space
            v["start_slot"] = spaces.slot_number(side, vehicle.at)
    doc.update(
        side=state.side,
        tiles=list(state.tiles),
        scrap=dict(state.scrap),
        favors={p: ({"count": len(k), "kinds": known(k)} if p in viewers else {"count": len(k)})
                for p, k in state.favors.items()},
        favor_tokens=[b.nm(s) for s in state.favor_tokens],
        super_weapons={vid: w for vid, w in state.weapons.items()
                       if any(v.id == vid and v.at is not None for v in state.vehicles)},
        super_weapon_tokens=[b.nm(s) for s in state.weapon_tokens],
        super_weapon_deck=sum(state.weapon_deck.values()),
        pillars={"raised": list(state.raised),
                 "spaces": {p: b.nm(s) for p, s in side.pillars.items()} if side is not None else {}},
        decree=None if state.decree is None else {
            "name": state.decree, "revealed_in_round": state.decree_round,
            "in_force": decrees.in_force(state.decree_round, state.round),
            "title": decrees.WORDS[state.decree][0], "words": decrees.WORDS[state.decree][1]},
        tina={"flipped": list(state.tina),
              "pile": (state.carnival.game.tina_deck - len(state.tina)) if state.carnival else 0},
        witness_me_used=list(state.witness_used),
        rolloff=[dict(r) for r in state.rolloff],
        chopper_facings=chopper_facings(state),
        end_reason=state.end_reason,
    )
    doc["board"]["dashboard"] = {p.name: dashboard_lines(state, p.name, doc["favors"][p.name])
                                 for p in state.players}
    doc["board"]["notes"] = notes(state)
    return doc


def dashboard_lines(state, name: str, favors: dict) -> list[str]:
    """What a player's dashboard shows beyond Vendetta's (the pictures draw these lines): scrap
    (public), the favors held (their kinds only where the view shows them: to their owner, else a
    count), each car's super-weapon, Witness Me! once played."""
    weapons = [f"{vid} {w}" for vid, w in state.weapons.items()
               if b.vehicle(state, vid).owner == name and b.vehicle(state, vid).at is not None]
    return ([f"scrap {state.scrap.get(name, 0)}", favors_line(favors)]
            + ([f"super-weapons: {', '.join(weapons)}"] if weapons else [])
            + (["Witness Me! played"] if name in state.witness_used else []))


def favors_line(favors: dict) -> str:
    """A player's favors on the dashboard: their kinds where the view shows them, else a count."""
    held = favors.get("kinds")
    face_down = favors["count"] - len(held) if held is not None else 0
    shown = ", ".join(list(held) + ["face down"] * face_down) if held is not None else \
        (f"{favors['count']} face down" if favors["count"] else "")
    return f"party favors: {shown or 'none'}"


def redact(doc: dict, seats) -> dict:
    """``Carnival.redact``: another player's party favors are counted, never named (a player's view
    holds no one else's hidden information), in ``favors``, on the dashboard and in the options of
    their pending decision (``favor precision shot SM`` names the favor) alike."""
    favors = doc.get("favors")
    if not isinstance(favors, dict):
        return doc
    dashboard = doc.get("board", {}).get("dashboard", {})
    pending = doc.get("pending")
    for seat, held in favors.items():
        if seat not in seats and isinstance(held, dict) and "kinds" in held:
            hidden = set(held.pop("kinds"))
            lines = dashboard.get(seat)
            if lines:
                lines[:] = [favors_line(held) if line.startswith("party favors: ") else line for line in lines]
            if isinstance(pending, dict) and pending.get("player") == seat and hidden:
                pending["options"] = [o for o in pending.get("options", ()) if not hidden & set(o.split())]
    return doc


def decree_line(state) -> str:
    """The decree in force and its reminder ("Active decree"), or none."""
    decree = state.decree if decrees.in_force(state.decree_round, state.round) else None
    if decree is None:
        return "decree: none"
    title, _, active = decrees.WORDS[decree]
    assert state.decree_round is not None, "a decree in force was revealed in a round"
    return f"decree: {title} (to the end of round {state.decree_round + 1}): {active}"


def notes(state) -> list[str]:
    """The lines under the status in a picture: Tina's decree in force with its words, her pile
    and the pillars raised."""
    if state.carnival is None:
        return []
    return [decree_line(state), f"Tina: {state.carnival.game.tina_deck - len(state.tina)} cards in her pile; "
                                f"pillars raised: {', '.join(state.raised) or 'none'}"]


def arena_board(state, board: dict) -> dict:
    """The picture's board: the arena's own spaces instead of a road of tiles
    (``picture.py``, the drawing the board names), the road tiles in their slots, pillars raised or
    not, and where each car waiting to enter stands (its start space, behind
    a road tile: ``spaces.start_space``)."""
    side = state.arena
    starters = [v for v in state.vehicles if v.start and v.at is not None]

    def names(spaces):
        return [b.nm(s) for s in spaces]

    return board | {
        "terrain": terrain(state), "finish_after": None, "start_area": {},
        "start_spots": {v.id: b.nm(v.at) for v in starters},
        "drawing": state.board.drawing,  # the arena's drawing (picture.py), which the pictures look up
        "arena": {
            "side": side.name, "spaces": names(side.arena), "spotlights": names(side.spotlights),
            "favors": names(side.favors), "weapons": names(side.weapons),
            "pillars": {p: b.nm(s) for p, s in side.pillars.items()}, "raised": list(state.raised),
            "slots": [{"number": sl.number, "tile": state.tiles[i] if i < len(state.tiles) else "",
                       "forward": sl.forward, "spaces": names(sl.spaces)} for i, sl in enumerate(side.slots)],
        },
    }


TERRAINS = ("offroad", "mud", "impassable")


def terrain(state) -> dict[str, list[str]]:
    """Every space that is not plain road, by kind: the road tiles' off-road, mud and
    impassable spaces and the raised killer pillars (impassable); the rest is road."""
    side = state.arena
    board = state.board
    out: dict[str, list[str]] = {k: [] for k in TERRAINS}
    for sp in sorted(list(side.arena) + [s for slot in side.slots for s in slot.spaces]):
        kind = board.printed_terrain(state, sp)
        if kind in out:
            out[kind].append(b.nm(sp))
    return {k: v for k, v in out.items() if v}


def chopper_facings(state) -> dict[str, str]:
    """The facing of each chopper on the board, by owner (placed in the arena, its player chose it)."""
    return {c.owner: state.board.chopper_facing(state, c.owner) for c in state.choppers if c.at is not None}


def render_text(state, color: bool = False) -> str:
    if state.carnival is None:
        return "(no arena yet)"
    colors = {p.name: p.color for p in state.players}
    glyphs = {v.at: (vview.car_label(v, colors)[0], v.facing) for v in state.vehicles
              if v.at is not None and not v.start}  # upper case operable, lower case inoperable
    tokens = {s: "?" for s in state.favor_tokens} | {s: "W" for s in state.weapon_tokens}
    kinds = {b.sq(n): kind for kind, names in terrain(state).items() for n in names}
    facings = chopper_facings(state)
    choppers = {c.at: facings[c.owner] for c in state.choppers if c.at is not None}
    lines = [f"{state.side} arena; road tiles: " + ", ".join(f"{i} {t}" for i, t in enumerate(state.tiles, 1))]
    lines += render.draw(state.arena, state.raised, glyphs, tokens, kinds, choppers)
    lines.append("  cars: " + ", ".join(f"{v.id}@{b.nm(v.at)}{render.ARROWS[v.facing]}" for v in state.vehicles
                                        if v.at is not None and not v.start))
    if choppers:
        lines.append("  choppers: " + ", ".join(f"{colors[c.owner]}@{b.nm(c.at)}{render.ARROWS[facings[c.owner]]}"
                                                for c in state.choppers if c.at is not None))
    starters = [v for v in state.vehicles if v.start]
    if starters:
        lines.append("  start: " + ", ".join(f"{v.id} behind tile {spaces.slot_number(state.arena, v.at)}"
                                             for v in starters))
    lines.append(f"  Tina: {state.carnival.game.tina_deck - len(state.tina)} cards in her pile; "
                 f"pillars raised: {', '.join(state.raised) or 'none'}")
    lines.append(f"  {decree_line(state)}")
    viewers = _viewers(state)

    def extra(p) -> str:
        held = state.favors.get(p.name, ())
        face_down = len(held) - len(known(held))
        shown = (", ".join(known(held) + ["face down"] * face_down) if p.name in viewers else f"{len(held)}")
        weapons = [f"{vid}: {w}" for vid, w in state.weapons.items()
                   if b.vehicle(state, vid).owner == p.name and b.vehicle(state, vid).at is not None]
        return (f"  scrap {state.scrap.get(p.name, 0)}  favors: {shown or '-'}"
                + (f"  weapons: {'; '.join(weapons)}" if weapons else "")
                + ("  (Witness Me! used)" if p.name in state.witness_used else ""))

    return "\n".join(lines + vview.dashboards(state, color, extra))


LEGEND = """\
Legend (trv show, Carnival of Chaos): the lane letters run above and below the board; each
line is a half-row, headed by its spaces' number ("+": the odd lanes b, d, f, ...). A space's
name is its column's letter and its line's number (k17), as trv turn and trv legal type it.
  .   arena space        S  spotlight
  =   road-tile road     :  off-road      ~  mud      ##  impassable
  a_  a killer pillar (a-i) on its road side; A# raised (A-I, impassable)
  ?   a face-down party favor (?: on off-road, ?~ on mud)      W  a super-weapon token
  R↑  a car: its owner's colour initial (lower case when inoperable) and an
      arrow for its facing (↑ F, ↗ FR, ↘ BR, ↓ B, ↙ BL, ↖ FL)
  ^↗  a chopper and its facing (its owner under "choppers:")
  start: the cars waiting behind a road tile (its slot 1-3)
  favors: the kinds only on your own dashboard (the others' are counted)
Tina's decrees (the one in force is under the board, with the round it lasts to):
""" + "\n".join(textwrap.fill(f"{name}: {decrees.explain(name)}", 96, initial_indent="  ", subsequent_indent="      ")
             for name in decrees.WORDS)
