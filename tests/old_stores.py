"""Stores written by earlier mains, as a test opens them now: upgraded (``trv store upgrade``) into
a store of the current layout, the fixture itself never changed."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path


def upgraded(fixture: Path, db: Path) -> Path:
    """Write the games and tournaments of the old store ``fixture`` into a new store at ``db``."""
    from trvendetta.app.upgrade import upgrade_store

    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old.sqlite"
        shutil.copyfile(fixture, old)
        list(upgrade_store(str(old), str(db)))
    return db
