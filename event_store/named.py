"""``Named`` is ``typing.NamedTuple`` under the name ``rows.py`` imports it by (the store's result types
are plain named tuples: a hand-made tuple type saved ``trv show`` nothing measurable)."""

from typing import NamedTuple as Named  # noqa: F401
