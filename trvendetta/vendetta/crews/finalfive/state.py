"""What the Final Five keep of their own: the turn's second motorcycle, which moves after the
first (001, The Final Five: Step 1)."""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import msgspec

from ... import parts
from ...model import CrewTurn, Turn

NAME = "finalfive"


@parts.state
class SecondBike(msgspec.Struct, CrewTurn, frozen=True, tag=f"{NAME}-turn", tag_field="crew"):
    """The turn's second motorcycle: its id, its die, whether it coasts."""

    second: str | None = None
    second_die: int = 0
    second_momentum: bool = False


NO_SECOND = SecondBike()


def second_of(t: Turn) -> SecondBike:
    """The Final Five's state of turn ``t`` (no second motorcycle when it has none)."""
    s = t.crew_state
    return s if isinstance(s, SecondBike) else NO_SECOND


FIELDS = ("second", "second_die", "second_momentum")


def _upcast_player(fields: dict) -> dict | None:
    return None


def _upcast_turn(fields: dict) -> dict | None:
    """An old turn's flat second-motorcycle fields: its state once a second one was assigned."""
    own = {f: fields.pop(f) for f in FIELDS if f in fields}
    return {"crew": f"{NAME}-turn", **own} if own.get("second") is not None else None


parts.upcast(_upcast_player, _upcast_turn)
