"""One GameId is one game per store, under any name (docs/fair-play.md, "Unique games").

A signed game's GameId (event 1's hash) carries its charter's nonce, so no two signed games share
one; a record of a signed game this store holds under another name is that game (a copy, renamed),
or a fork of it with its Parent tags dropped, never a new game."""

from __future__ import annotations

from typing import Any


def held_as(store: Any, game_id: str, but: str | None = None) -> list[str]:
    """The names under which ``store`` holds the game whose event 1 hashes to ``game_id`` (a fork
    made here, which shares event 1, included), ``but`` left out."""
    out = []
    for name in store.names():
        if name == but:
            continue
        try:
            if store.version(name) >= 1 and store.events_head(name, 1) == game_id:
                out.append(name)
        except Exception:  # noqa: BLE001  a damaged game: `trv store check` names it, not an import
            continue
    return out


def forked_domain(domain: str, game_id: str) -> bool:
    """Whether a record's ``[Domain]`` names anything but the game's own start: its signatures from
    some record on are a fork's (``replays.signatures.fork_domain``), so the record is a fork."""
    return any(item.partition(":")[2] != game_id for item in domain.split())


def refuse_second_copy(store: Any, gf: Any) -> None:
    """Refuse (nothing written) a signed record imported as a new game when this store holds its
    GameId under another name: a copy renamed, or a fork with its Parent tags dropped.  A fork that
    says so (``[Parent]``) is imported as one."""
    from trvendetta.core.errors import TrvError

    h = gf.header
    if not h.charter or h.parent or not gf.records:
        return
    game_id = gf.records[0].hash
    others = held_as(store, game_id)
    if not others:
        return
    what = ("a fork of it with its Parent tags dropped (its [Domain] names a fork)" if forked_domain(h.domain, game_id)
            else "a copy of it under another name")
    raise TrvError(f"this store holds game {others[0]} with the same GameId ({game_id[:16]}...): the record is {what}, "
                   f"and one game is one game in a store, under any name; nothing was written (to compare them: trv "
                   f"export {others[0]} -o mine.trv && trv verify mine.trv --against FILE)")
