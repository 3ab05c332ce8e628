"""`trv replay --html OUT [GAME | FILE]`: verify, draw every event, write one HTML file."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from trvendetta import replays, rulesets
from trvendetta.core.errors import TrvError

from .common import Session


def _verification(verify: Any) -> Any:
    """Re-execute the record now (``verify()``), as the page will report it."""
    from trvendetta.pictures.viewer import Verification

    try:
        result = verify()
    except replays.Divergence as exc:
        return Verification(False, "the record does NOT follow from the rules: " + " ".join(str(exc).split("\n")))
    signed = "; ".join(f"{seat}: {n} signatures checked" for seat, n in result.signed.items())
    return Verification(True, f"every action re-executed through the rules gave the recorded events "
                              f"({result.events} events, head {result.head[:16]}...)"
                              + (f"; seats bound to keys: {signed}" if signed else ""), result.note)


def _seen(ruleset: Any, charter: str | None) -> Any:
    """How the page shows a signed game of a ruleset with hidden pieces: as `trv show` does, those of
    the seats bound to your keys face up (a host game's opened from the boxes sealed to your keys, as
    the walk meets them), nobody else's.  A hot-seat game's page is read by anyone, so nobody's
    (a Carnival dashboard counts every player's favors); None for a ruleset with nothing hidden."""
    if not getattr(ruleset, "hidden_information", False):
        return None
    if not charter:
        return lambda state, events: ruleset.private_view(state, {}, [])
    from trvendetta.app.sealing import openings
    from trvendetta.store import decode_charter

    from .identity import Keyring

    bound = decode_charter(charter)
    if bound is None:
        return None
    keyring = Keyring(dict(bound.seats))
    mine, found = sorted(keyring.local), {}

    def seen(state: Any, events: list[Any]) -> Any:
        found.update(openings(ruleset, events, keyring.open_sealed))
        return ruleset.private_view(state, found, mine)
    return seen


def write_html(session: Session, target: str | None, out: str) -> None:
    from trvendetta.pictures.viewer import page

    from .args import game_arg as _game_arg, read_untrusted

    if target is not None and os.path.isfile(target):
        gf = replays.read_file(read_untrusted(target), target)
        if gf.kind != "record":
            raise TrvError(f"{target} is a turn packet, which holds only part of a game: import it into the "
                           "game's database, then run `trv replay GAME --html OUT`")
        h = gf.header
        ruleset = rulesets.get(h.ruleset)
        verification = _verification(lambda: replays.verify_file(gf))
        records = list(gf.records)
        charter, domain, start = h.charter, h.domain, gf.genesis
        name, facts = h.game, [("ruleset", f"{h.ruleset} (rules version {h.rules_version})"), ("players", h.players),
                               ("seed", h.seed), ("result", h.result), ("created", h.created), ("from", target)]
    else:
        store = session.store()
        name = _game_arg(session, target)
        meta = store.header(name)
        ruleset = rulesets.get(meta.ruleset)
        verification = _verification(lambda: replays.verify_game(store, name))
        records = store.events(name)
        charter, domain, start = meta.charter, meta.domain, meta.genesis
        facts = [("ruleset", f"{meta.ruleset} (rules version {meta.rules_version})"),
                 ("created", meta.created.isoformat(timespec="seconds"))]
        if meta.parent:
            facts.append(("forked from", f"{meta.parent} after event {meta.parent_at}"))
    text = page(ruleset, records, title=f"{name}: {ruleset.title or ruleset.name}", facts=facts,
                verification=verification, charter=charter, domain=domain, start=start,
                seen=_seen(ruleset, charter))
    target_path = Path(out)
    tmp = target_path.with_name(target_path.name + ".part")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(target_path)
    except OSError as exc:
        raise TrvError(f"cannot write {out}: {exc.strerror or exc}") from None
    click.echo(f"wrote the replay of {name} ({len(records)} events, {len(text.encode()) // 1024} KiB) to {out}",
               err=True)
