"""Where a walk starts: from event 1 (:func:`walker_for`), or from the stored state.

Importing a packet, exporting one and answering a draw only need the records
after a point: walking the whole game again for each (every event folded,
every signature checked again) made a 2-player exchange game through the
CLI cost O(n^2) (docs/performance.md).  :func:`walker_after` gives a
:class:`~replays.walker.Walker` positioned after record ``at``: the engine
state from the store (its snapshots), the chain head, the game id for the
signatures, and an exchange game's draws from its newest draws' records
(``replays.exchange.draws_at``).  The store's own records are trusted, as
``GameStore.load`` trusts them; ``trv verify`` walks them all.

What it cannot know is the history before ``at``: a retraction reaching back
past it raises :class:`NeedsHistory`, and the caller walks the whole game
instead (:func:`resumable`).  :func:`tail_walk` walks a game's last actions
(``trv undo``'s plan, ``trv send``'s makers), further back until the caller
has what it needs.  A host game's draws come from its newest
draws' records too (``replays.host.host_draws_at``); its seed, once
revealed, from the stored reveal or the walked records' own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from trvendetta import rulesets
from trvendetta.store import GameStore, genesis
from trvendetta.store.records import charter_dice

from .signatures import SignatureCheck
from .walker import BEFORE, Group, NeedsHistory, Walker

T = TypeVar("T")


def walker_for(ruleset: Any, charter: str = "", domain: str = "", visitors: Any = (), *,
               records: Any = None, start: str | None = None, **kwargs: Any) -> Walker:
    """A walker over a game with this charter: its chain starts from
    ``start`` (the game's genesis: ``GameHeader.genesis`` or
    ``GameFile.genesis``, which cover its bot seats too; by default the
    charter's alone), and its signatures are checked (docs/fair-play.md).
    In a host game, ``records`` (all of the game's, looked through first for
    the host's reveal of its seed) let the walk re-execute every roll."""
    head = start if start is not None else genesis(charter)
    if not charter:
        return Walker(ruleset, visitors, head=head, **kwargs)
    from trvendetta.core.fairplay import charter_of

    from .exchange import Draws

    parsed = charter_of(charter)
    draws: Any = None
    if parsed.dice == "exchange":
        draws = Draws(parsed)
    elif parsed.dice == "host":
        from .host import HostDraws, revealed_seed

        draws = HostDraws(parsed, revealed_seed(parsed, records) if records is not None else None)
    check = SignatureCheck(parsed, domain)
    check.charter_text = charter  # (a charter of format 2 must be canonical: its text is checked)
    return Walker(ruleset, visitors, head=head, signatures=check, draws=draws, **kwargs)


def walker_after(store: GameStore, game: str, at: int, visitors: Any = (), **kwargs: Any) -> Walker | None:
    """A walker over ``game`` that has (as if) walked records 1 to ``at``; None
    for ``at`` 0.  In a host game, ``records`` (the ones to be walked) are
    looked through for the host's reveal of its seed, as ``walker_for`` does."""
    from .exchange import draws_at

    meta = store.header(game)
    dice = charter_dice(meta.charter)
    if at < 1:
        return None
    loaded = store.load(game, at=at)
    ruleset = rulesets.get(meta.ruleset)
    walker = walker_for(ruleset, meta.charter, meta.domain, visitors, **kwargs)
    walker.number, walker.head, walker.state = at, loaded.head, loaded.state
    walker.groups = [Group(at, at, BEFORE, None, None)]
    if walker.signatures is not None:
        walker.signatures.game_id = store.events_head(game, 1)
    if dice == "exchange":
        walker.draws = draws_at(store, game, meta.charter, at)
    elif dice == "host":
        from .host import host_draws_at

        if walker.signatures is not None:  # a revoked key is refused after its revocation, in a resumed walk too
            walker.signatures.earlier = lambda: _revocations(store, game, at)
        given = walker.draws.game_seed  # the seed a reveal among ``records`` (a packet's own) gives
        walker.draws = host_draws_at(store, game, meta.charter, at)
        walker.draws.game_seed = walker.draws.game_seed or given
    return walker


def _revocations(store: GameStore, game: str, at: int) -> list[tuple[Any, Any]]:
    """The revocations (``trv-revoke``) among a stored game's records 1 to ``at``: (record, Revoke)."""
    from trvendetta.store import decode_revoke

    from .walker import REVOKE_OPENING

    return [(r, decode_revoke(r.payload)) for r in store.events(game, upto=at, decode=False, stamped=False)
            if r.payload.startswith(REVOKE_OPENING)]


def tail_walk(store: GameStore, game: str, records: Sequence[Any], visitors: Callable[[], list[Any]],
              enough: Callable[[Walker, int], bool], whole: Callable[[list[Any]], Walker]) -> tuple[Walker, list[Any]]:
    """A walk of ``game``'s last actions that is ``enough`` for the caller, else a whole walk.

    ``records``: every record of the game (``decode=False`` will do: the walk decodes only the
    ones it walks).  Tries walks resumed from the stored state before the 2nd, 4th, 8th...
    last action, each with fresh ``visitors()``, until ``enough(walker, at)`` (``at``: the
    record the walk resumed after); a walk that meets
    a retraction of an action before its start (``NeedsHistory``) tries further back; past
    the first action, ``whole(visitors)`` walks from event 1.  What a resumed walk says about
    the records it walked is what a whole walk says (the stored state is the fold of the
    records before; tests/replays/test_tail_walk.py compares them at every cut), so a
    caller that asks only about those records gets the same answer for less."""
    starts = [r.number for r in records if r.action]
    k = 2
    while k <= len(starts) and starts[-k] > 1:
        at = starts[-k] - 1
        made = visitors()
        try:
            walker = walker_after(store, game, at, made)
            assert walker is not None
            walker.walk(records[at:])
        except NeedsHistory:
            k *= 2
            continue
        if enough(walker, at):
            return walker, made
        k *= 2
    made = visitors()
    return whole(made), made


def resumable(fast: Callable[[], T], whole: Callable[[], T]) -> T:
    """``fast()`` (a resumed walk), or ``whole()`` when it needs the history before its start."""
    try:
        return fast()
    except NeedsHistory:
        return whole()


__all__ = ["BEFORE", "NeedsHistory", "resumable", "tail_walk", "walker_after", "walker_for"]
