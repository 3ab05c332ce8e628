"""``trv verify``'s walk (re-executing, no visitor, no signatures, no draws: each action's state taken from
``apply``, the actions run ahead in batches by ``Walker.feed_all``) leaves the walker that a walk folding every
event leaves, record after record, and refuses what that walk refuses with the same words: over the games of
the old fixture store (one with retractions), whole and with their records changed in every way a tamperer
could, re-chained or not."""

import shutil
from pathlib import Path

import msgspec
import pytest

from trvendetta import rulesets
from trvendetta.replays.integrity import encoded, walk_noting
from trvendetta.replays.resume import walker_for
from trvendetta.replays.walker import AuditError, Visitor
from trvendetta.store import GameStore, Retraction, chain
from old_stores import upgraded  # tests/ is on sys.path (rootdir conftest)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "main-262c54d"
GAMES = ("v-bots", "v-open", "c-bots", "c-open", "v-pos")


class Folding(Visitor):
    """A visitor that needs the state after every event: its walker folds every event (``evolve``) and runs
    no action ahead."""

    needs_event_state = True


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    path = tmp_path_factory.mktemp("old") / "games.sqlite"
    upgraded(FIXTURES / "games.sqlite", path)
    with GameStore(str(path)) as store:
        yield {**{g: (store.header(g), store.events(g, decode=False)) for g in GAMES},
               **{(g, "decoded"): (store.header(g), store.events(g)) for g in GAMES}}


def walker(header, general: bool):
    return walker_for(rulesets.get(header.ruleset), header.charter, header.domain, [Folding()] if general else [],
                      reexecute=True, start=header.genesis)


def fields(w) -> tuple:
    """What a walk leaves; its state where an action's events are all walked (inside an action, a walk
    that takes the state from ``apply`` holds the state before the action until its last event)."""
    rs = w.ruleset
    done = not w._queue
    assert w.settled or not done
    return (w.number, w.head, rs.encode(w.state) if done else None,
            [(g.first, g.last, rs.encode(g.action) if g.action is not None else None, g.reveals) for g in w.groups],
            sorted(w.retracted), sorted(w.retractions))


def outcome(header, records, general: bool) -> tuple:
    w = walker(header, general)
    try:
        w.walk(records)
    except AuditError as exc:
        return type(exc).__name__, str(exc), w.number
    return fields(w)


def rechained(records, start: str) -> list:
    out, head = [], start
    for n, r in enumerate(records, 1):
        h = chain(head, r.payload, r.action or b"", r.sig or b"")
        out.append(r._replace(number=n, hash=h, previous=head))
        head = h
    return out


def tampered(records, start: str):
    """Each way of changing the records, at a spread of places."""
    for i in range(1, len(records), max(1, len(records) // 12)):
        r = records[i]
        digit = next((k for k, c in enumerate(r.payload) if chr(c).isdigit()), None)
        if digit is not None:
            other = b"7" if r.payload[digit:digit + 1] != b"7" else b"3"
            edited = r._replace(payload=r.payload[:digit] + other + r.payload[digit + 1:])
            yield "a digit of the payload, re-chained", rechained([*records[:i], edited, *records[i + 1:]], start)
        yield "the hash", [*records[:i], r._replace(hash="0" * 64), *records[i + 1:]]
        yield "a record dropped", [*records[:i], *records[i + 1:]]
        yield "a record dropped, re-chained", rechained([*records[:i], *records[i + 1:]], start)
        yield "a record twice, re-chained", rechained([*records[:i + 1], r, *records[i + 1:]], start)
        yield "cut after it", records[:i + 1]
        if r.action:
            moved = [*records[:i], r._replace(action=b"", decoded_action=None), *records[i + 1:]]
            if i + 1 < len(records):
                moved[i + 1] = records[i + 1]._replace(action=r.action, decoded_action=r.decoded_action)
            yield "an action moved to the next record, re-chained", rechained(moved, start)
            later = next((x for x in records[i + 1:] if x.action and x.action != r.action), None)
            if later is not None:
                other = r._replace(action=later.action, decoded_action=later.decoded_action)
                yield "another action, re-chained", rechained([*records[:i], other, *records[i + 1:]], start)
        if r.kind == "trv-retraction":
            yield "a retraction moved back", rechained([*records[:i - 1], r, records[i - 1], *records[i + 1:]], start)
        yield "an event signed, re-chained", rechained([*records[:i], r._replace(sig=b"ann:AAAA"), *records[i + 1:]], start)
        yield "an event signed, its hash left", [*records[:i], r._replace(sig=b"ann:AAAA"), *records[i + 1:]]
        if r.event is not None and r.kind != "trv-retraction":
            taken = r._replace(kind="trv-retraction", event=Retraction(1, i, "ann", False))
            yield "an event's kind said to be a retraction's", [*records[:i], taken, *records[i + 1:]]


@pytest.mark.parametrize("game", GAMES)
def test_the_same_walker_after_every_record(stored, game):
    header, records = stored[game]
    fast, general = walker(header, False), walker(header, True)
    for r in records:
        fast.feed_all([r])
        general.feed_all([r])
        assert fields(fast) == fields(general), r.number
    assert outcome(header, records, False) == outcome(header, records, True) == fields(general)


@pytest.mark.parametrize("game", GAMES)
def test_a_chained_walk_leaves_the_walker_a_hashing_walk_leaves(stored, game):
    """Records read from the store, walked ``chained`` (each record's hash is the read's: the walk checks
    that it follows the walk's head instead of hashing its bytes again), as ``trv verify`` walks them."""
    header, records = stored[game]
    hashing, chained = walker(header, False), walker(header, False)
    chained.chained = True
    for r in records:
        hashing.feed_all([r])
        chained.feed_all([r])
        assert fields(chained) == fields(hashing), r.number


def test_a_chained_walk_refuses_a_record_that_does_not_follow(stored):
    header, records = stored["v-bots"]
    at = len(records) // 2
    renumbered = [*records[:at], *(r._replace(number=r.number - 1) for r in records[at + 1:])]
    for chained in (False, True):
        w = walker(header, False)
        w.chained = chained
        with pytest.raises(AuditError) as refused:
            w.walk(renumbered)
        assert type(refused.value).__name__ == "Tampered" and refused.value.number == at + 1
        said = "the record was read after" if chained else "the hash does not follow from event"
        assert said in str(refused.value)


@pytest.mark.parametrize("game", ["v-bots", "c-open"])
def test_the_same_walker_when_checking_starts_inside_an_action(stored, game):
    """A walk that trusts its first records (``start_checking`` after them, as an import of a
    packet does) and is then fed the rest."""
    header, records = stored[game]
    for at in [r.number for r in records if not r.action][2::7]:
        walks = []
        for general in (False, True):
            w = walker(header, general)
            w.reexecute = False
            w.feed_all(records[:at])
            w.start_checking()
            w.walk(records[at:])
            walks.append(fields(w))
        assert walks[0] == walks[1], at


@pytest.mark.parametrize("game", [*GAMES, *((g, "decoded") for g in GAMES)])
def test_the_same_refusal_of_every_change(stored, game):
    header, records = stored[game]
    seen = set()
    for what, changed in tampered(records, header.genesis):
        fast, general = outcome(header, changed, False), outcome(header, changed, True)
        assert fast == general, what
        seen.add(fast[0] if isinstance(fast[0], str) else "walks")
    assert {"Tampered", "Divergence"} <= seen  # the changes reach both kinds of refusal


def test_walk_noting_keeps_the_fold_where_an_action_ends(stored):
    header, records = stored["v-open"]  # ends with two retractions
    noted = walk_noting(walker(header, False), records, range(0, len(records) + 3))
    evolving = walker_for(rulesets.get(header.ruleset), start=header.genesis)  # folds every event
    ends = set()
    for r in records:
        evolving.feed(r)
        if r.number in noted:
            assert noted[r.number] == evolving.ruleset.encode(evolving.state), r.number
    for g in evolving.groups:
        ends.add(g.last)
    assert set(noted) >= ends | evolving.retractions
    assert set(noted) <= set(range(1, len(records) + 1))
    assert len(noted) < len(records)  # inside an action the state is not noted


class Failing:
    """A ruleset whose ``apply`` fails with an error no check expects, at one version of the game."""

    def __init__(self, ruleset, at: int):
        self.ruleset, self.at = ruleset, at

    def __getattr__(self, name):
        return getattr(self.ruleset, name)

    def apply(self, state, action, *rng):
        if self.ruleset.version(state) == self.at:
            raise ValueError("the engine failed")
        return self.ruleset.apply(state, action, *rng)


def test_the_same_walker_when_the_engine_fails(stored):
    header, records = stored["v-bots"]
    ruleset = rulesets.get(header.ruleset)
    at = [r.number for r in records if r.action][10] - 1  # the state before the 11th action
    walkers = []
    for general in (False, True):
        w = walker_for(Failing(ruleset, at), header.charter, header.domain, [Folding()] if general else [],
                       reexecute=True, start=header.genesis)
        with pytest.raises(ValueError, match="the engine failed"):
            w.walk(records)
        walkers.append(fields(w))
    assert walkers[0] == walkers[1]
    assert walkers[0][0] == at + 1  # both stopped at the action's record


class OwnReveals:
    """A ruleset with a ``reveals`` of its own (the opposite of its events' ``reveals``): the loop asks it,
    as ``feed`` does, instead of reading the event type's ``reveals``."""

    def __init__(self, ruleset):
        self.ruleset = ruleset

    def __getattr__(self, name):
        return getattr(self.ruleset, name)

    def reveals(self, event):
        return not self.ruleset.reveals(event)


def test_the_same_walker_with_a_ruleset_of_its_own_reveals(stored):
    header, records = stored["v-bots"]
    walkers = []
    for general in (False, True):
        w = walker_for(OwnReveals(rulesets.get(header.ruleset)), header.charter, header.domain,
                       [Folding()] if general else [], reexecute=True, start=header.genesis)
        walkers.append(fields(w.walk(records)))
    assert walkers[0] == walkers[1]
    assert [g[3] for g in walkers[0][3]] != [g[3] for g in outcome(header, records, False)[3]]


def test_a_state_with_its_shared_fields_encoded_once_is_encoded_byte_for_byte(stored):
    """``walk_noting`` encodes a game's components once a walk (``integrity.encoded``): the same bytes as
    the state encoded whole, and encoded again when a state holds other components."""
    header, records = stored["v-bots"]
    w, shared, seen = walker(header, False), {}, 0
    rs = w.ruleset
    assert rs.shared_state
    for r in records:
        w.feed_all([r])
        if w.settled:
            assert encoded(rs, w.state, shared) == rs.encode(w.state), r.number
            seen += 1
    assert seen > 10 and set(shared) == set(rs.shared_state)
    parts = w.state.components
    other = msgspec.structs.replace(w.state, components=msgspec.structs.replace(
        parts, hazards={**parts.hazards, "mudhole": parts.hazards.get("mudhole", 0) + 1}))
    assert encoded(rs, other, shared) == rs.encode(other) != rs.encode(w.state)
    assert encoded(rs, w.state, shared) == rs.encode(w.state)


def test_a_result_run_ahead_is_taken_only_from_the_very_state_it_was_run_from(stored, monkeypatch):
    """The walk runs actions ahead in batches (``Walker._run_ahead``) and takes a result only where the walk's
    state is the very object it was run from: here every result but a batch's first claims a state equal to
    the walk's but another object (and a wrong state after it), and the walk is still the folding walk's."""
    from trvendetta.replays.walker import Walker

    header, records = stored["v-open"]
    expected = outcome(header, records, True)
    real = Walker._run_ahead
    poisoned_results = []

    def poisoned(self, records, at):
        stop = real(self, records, at)
        first = min(self._ran, default=None)
        for number, (state, action, after, events) in self._ran.items():
            if number != first:
                self._ran[number] = (msgspec.structs.replace(state), action, state, events)
                poisoned_results.append(number)
        return stop

    monkeypatch.setattr(Walker, "_run_ahead", poisoned)
    assert outcome(header, records, False) == expected
    assert poisoned_results  # the walk met results it had to refuse


def test_the_results_run_ahead_are_taken_where_they_hold(stored, monkeypatch):
    """A verify of a game without retractions applies each action once: every one run ahead is taken."""
    from trvendetta.replays.walker import Walker

    header, records = stored["v-bots"]
    ruleset = rulesets.get(header.ruleset)
    applied = []

    class Counting:
        def __getattr__(self, name):
            return getattr(ruleset, name)

        def apply(self, state, action, *rng):
            applied.append(action)
            return ruleset.apply(state, action, *rng)

    monkeypatch.setattr(Walker, "AHEAD", 5)
    w = walker_for(Counting(), header.charter, header.domain, reexecute=True, start=header.genesis).walk(records)
    assert not w.retractions
    assert len(applied) == len(w.live_actions) == sum(1 for r in records if r.action)


@pytest.mark.parametrize("ahead", [1, 2, 5, 1000])
def test_the_same_walker_whatever_the_batch_of_actions_run_ahead(stored, monkeypatch, ahead):
    from trvendetta.replays.walker import Walker

    monkeypatch.setattr(Walker, "AHEAD", ahead)
    for game in GAMES:
        header, records = stored[game]
        assert outcome(header, records, False) == outcome(header, records, True), game


def test_verify_import_and_undo_walk_as_a_walk_folding_every_event(tmp_path):
    """A game with actions taken back (agreed) between its turns: the verify of the store, the verify of its
    exported record (an import's walk, with its move-text visitor: run ahead too) and the walk an undo plans
    from all leave the walker that folds every event, checked record by record."""
    import random

    from replay_helpers import new_game, play

    from trvendetta import replays
    from trvendetta.replays.audit import plan_undo, undo

    rnd = random.Random(4)
    with GameStore(str(tmp_path / "g.sqlite")) as store:
        new_game(store, "g", "vendetta", seed=4)
        for _ in range(6):
            play(store, "g", rnd, actions=9)
            undo(store, "g", agreed=True)
            undo(store, "g", agreed=True)
        play(store, "g", rnd, actions=5)
        records, header = store.events("g", decode=False), store.header("g")
        folding = walker(header, True).walk(records)
        assert len(folding.retractions) == 12 and folding.retracted
        expected = fields(folding)
        assert fields(replays.verify_game(store, "g").walker) == expected
        assert fields(replays.verify_file(replays.read_file(replays.export(store, "g").encode())).walker) == expected
        _, group, planned = plan_undo(store, "g", agreed=True)
        assert (planned.number, planned.head) == (folding.number, folding.head)
        assert (group.first, group.last) == (folding.groups[-1].first, folding.groups[-1].last)
