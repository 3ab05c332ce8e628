"""Carnival's own actions (rulebook 002); the road's actions are Vendetta's.

Each answers the pending decision like Vendetta's: the arena board adds them to the
options of the decisions where the rulebook lets them be played
(``carnival/turn.py``).
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from typing import Union

from ..core.bases import BaseAction
from ..vendetta import actions as vact


class WitnessMe(BaseAction, tag="witness-me", frozen=True):
    """Play your Witness Me! card at the start of your turn (once a game)."""

    def describe(self) -> str:
        return "witness me"


class PlayFavor(BaseAction, tag="play-favor", omit_defaults=True, frozen=True):
    """Play a party favor you hold.  ``pillars``: Killer Pillar's (to road,
    raised; the first empty when no pillar is raised); ``die`` and ``face``:
    Precision's FX die and the face it is set to; ``target``: Double
    Barrel's shot before moving, and ``shot``: with the super-weapon
    (``weapon``), or the Thwumper's jump (``thwump``, ``target`` its
    direction) instead of a normal shot (rules v3)."""

    favor: str
    pillars: tuple[str, ...] = ()
    die: str | None = None
    face: str | None = None
    target: str | None = None
    shot: str | None = None
    #: a private favor's nonce (host games): with ``favor`` it opens the commitment the favor was dealt with;
    #: the owner's store adds it from the host's sealed box (``Carnival.sealed_action``)
    nonce: str | None = None

    def describe(self) -> str:
        if self.favor == "killer-pillar":  # (an action without its pillars is described, then refused)
            first, last = (self.pillars[0], self.pillars[-1]) if self.pillars else ("", "-")
            return f"favor killer-pillar {first or '-'} {last}"
        if self.favor == "precision":
            return f"favor precision {self.die} {self.face}"
        return " ".join(w for w in ("favor", self.favor, self.shot, self.target) if w)


class NoFavor(BaseAction, tag="no-favor", frozen=True):
    """Play no (more) party favors now: go on with the turn."""

    def describe(self) -> str:
        return "no favor"


class FireWeapon(BaseAction, tag="fire-weapon", frozen=True):
    """Shoot with the car's super-weapon instead of a normal shot."""

    target: str

    def describe(self) -> str:
        return f"weapon {self.target}"


class Thwump(BaseAction, tag="thwump", frozen=True):
    """The Thwumper instead of a shot: jump the stunt die's spaces in ``direction`` (rules v4:
    the direction chosen once the die is rolled, :class:`ThwumpRoll`)."""

    direction: str

    def describe(self) -> str:
        return f"thwump {self.direction}"


class ThwumpRoll(BaseAction, tag="thwump-roll", frozen=True):
    """Rules v4: the Thwumper instead of a shot: "roll the stunt die and move it that many
    spaces in a straight line in any direction you choose": the die first, then the
    direction (a ``thwump`` decision answered by :class:`Thwump`)."""

    def describe(self) -> str:
        return "thwump"


class AutoCannon(BaseAction, tag="auto-cannon", frozen=True):
    """The Auto-Cannon's extra shot, once during the car's move step."""

    target: str

    def describe(self) -> str:
        return f"auto-cannon {self.target}"


class FlyChopper(BaseAction, tag="fly-chopper", frozen=True):
    """Air Attack in the arena: the chopper goes to ``at`` facing ``facing``
    ("you choose which adjacent space it faces")."""

    at: str
    facing: str

    def describe(self) -> str:
        return f"chopper {self.at} {self.facing}"


OWN = (WitnessMe, PlayFavor, NoFavor, FireWeapon, Thwump, ThwumpRoll, AutoCannon, FlyChopper)
# a union built when the module loads: no checker can read its members (hence the ignore)
Action = Union[OWN + vact.Action.__args__]  # type: ignore[valid-type]



def describe_action(action) -> str:
    """The printed name of an action (what ``trv decide`` matches)."""
    return vact.describe_action(action)
