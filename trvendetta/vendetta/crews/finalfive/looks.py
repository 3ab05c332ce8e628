"""How the Final Five is shown: its :class:`~trvendetta.vendetta.crew.Looks`.

Kept apart from its rules (``rules.py``), which import the deciding code:
drawing a game imports only this (tests/cli/test_show_startup.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import crew as crews

if TYPE_CHECKING:  # for the type checker only
    from ...model import Vehicle


class Motorcycles(crews.Looks):
    """The Final Five: a motorcycle is narrow and shows its marking 1-5 (``R3``)."""

    width = 0.3

    def sign(self, v: Vehicle) -> str:
        return v.id[-1] if v.kind == "motorcycle" else v.size


MOTORCYCLES = crews.register_looks("finalfive", Motorcycles())
