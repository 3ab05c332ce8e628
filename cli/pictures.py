"""Pictures for `trv show --svg/--png`: find the last action, draw, write atomically."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from trvendetta.core.errors import TrvError

#: how far back to look for the record that carries the last action
LOOK_BACK = 500


def last_action(session: Any, game: Any) -> tuple[str, list[Any]] | None:
    """The last action's printed name and the events it produced (None: a retraction
    came last, no action yet, or it lies further back than LOOK_BACK events)."""
    if game.version == 0:
        return None
    if session._store is None:
        from trvendetta.store.quick import QuickReader

        reader = QuickReader.open(session.db)
        if reader is not None:
            with reader:
                found = reader.last_action(game.game, game.version, LOOK_BACK)
            if found is None:
                return None
            action, events = found
            return game.ruleset.describe_action(game.ruleset.decode_action(action.encode())), events
    from trvendetta.store import RETRACTION_KIND

    records = session.store().events(game.game, upto=game.version, since=max(0, game.version - LOOK_BACK))
    events = []
    for r in reversed(records):
        if r.kind.startswith("trv-"):  # a retraction, or an exchange game's intent or reveal
            return None
        events.append(r.event)
        if r.action:
            events.reverse()
            return game.ruleset.describe_action(r.decoded_action or game.ruleset.decode_action(r.action)), events
    return None


def _write(path: str, data: bytes) -> None:
    if path == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    target = Path(path)
    tmp = target.with_name(target.name + ".part")
    try:
        tmp.write_bytes(data)
        tmp.replace(target)
    except OSError as exc:
        raise TrvError(f"cannot write {path}: {exc.strerror or exc}") from None


def write_pictures(session: Any, game: Any, svg_file: str | None, png_file: str | None) -> None:
    """Draw ``game`` (a Loaded) as SVG and/or PNG files."""
    from trvendetta import pictures

    view = game.ruleset.view(game.state)
    found = last_action(session, game)
    last = None
    if found is not None:
        name, events = found
        last = pictures.last_of(game.ruleset, view, game.version, events, name)
    text = pictures.svg(view, last)
    if svg_file is not None:
        _write(svg_file, text.encode("utf-8"))
    if png_file is not None:
        from trvendetta.pictures.png import png

        _write(png_file, png(text))
    for path in (svg_file, png_file):
        if path not in (None, "-"):
            click.echo(f"drew {game.game} after event {game.version} into {path}", err=True)
