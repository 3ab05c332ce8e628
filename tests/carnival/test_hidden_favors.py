"""A face-down party favor is hidden information (rulebook "Party Favors":
"You may look at the party favor, but keep it face down until you use it").

Its kind is in the ``favor-collected`` event (the owner must be able to look
at it, and re-execution checks the draw), but rules version 2 keeps it out of
everything the other players read: the event's sentence, and the shape of the
game itself: which decisions a turn has (and so the record's move text) does
not depend on which favors a player holds, only on how many, which is public.
See docs/fair-play.md, "Hidden information"."""

import pytest

from trvendetta.carnival import components as comp
from trvendetta.carnival import events as cev
from trvendetta.carnival.actions import NoFavor
from trvendetta.vendetta.actions import AssignDie, NoCommand, NoShoot, Step

from .helpers import RS, game, play

KINDS = sorted(comp.PARTY_FAVORS)


def _declining_turn(held: list[str]) -> list[tuple[str, str]]:
    """ann's turn, declining every favor: the (decision kind, action) sequence."""
    state, _ = game(favors={"ann": held}, vehicles=[{"id": "red-medium", "at": "k9"}])
    seen = []
    for action in (AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"), NoShoot()):
        d = RS.pending(state)
        if d.player != "ann":
            break
        if action not in d.options:
            continue  # this step of the turn did not come up
        seen.append((d.kind, RS.describe_action(action)))
        state, _ = play(state, action)
    return seen


def test_the_turn_has_the_same_decisions_whichever_favor_is_held():
    turns = {kind: _declining_turn([kind]) for kind in KINDS}
    assert len({tuple(t) for t in turns.values()}) == 1, turns
    assert ("favor", "no favor") in turns["solid-gold-muffler"]  # asked, though a muffler is never played
    assert ("shoot", "no-shoot") in turns["mega-repair"]  # nothing to shoot at: asked because a favor is held
    assert _declining_turn([]) == [("assign", "assign 1 to red-medium"), ("command", "no-command"), ("step", "F")]


@pytest.mark.parametrize("kind", KINDS)
def test_collecting_a_favor_is_told_without_its_kind(kind):
    event = cev.FavorCollected("ann", "red-medium", "k10", kind)
    assert not any(k in RS.describe(event) for k in KINDS)
    assert RS.reveals(event)  # the owner looks at it: taking it back needs everyone's agreement


def test_show_names_the_kinds_to_the_player_to_act_and_counts_the_others():
    state, _ = game(favors={"ann": ["precision"], "bob": ["killer-pillar", "mega-repair"]})
    doc = RS.view(state)
    assert doc["favors"] == {"ann": {"count": 1, "kinds": ["precision"]}, "bob": {"count": 2}}
    text = RS.render(state)
    assert "favors: precision" in text and "killer-pillar" not in text and "mega-repair" not in text


def test_the_rulesets_redaction_counts_another_seats_favors_in_the_view_and_on_its_dashboard():
    """``Carnival.redact``: what the club server shows each seat (and a spectator): ann's favor,
    named to her as the player to act, is only counted for bob and for nobody, in ``favors`` and in
    the dashboard lines the pictures draw alike; ann's own view is unchanged."""
    import copy

    state, _ = game(favors={"ann": ["precision"], "bob": ["killer-pillar", "mega-repair"]})
    doc = RS.view(state)
    assert "precision" in doc["board"]["dashboard"]["ann"][1]
    assert RS.redact(copy.deepcopy(doc), ["ann"]) == doc
    for seats in (["bob"], []):
        seen = RS.redact(copy.deepcopy(doc), seats)
        assert seen["favors"] == {"ann": {"count": 1}, "bob": {"count": 2}}
        assert seen["board"]["dashboard"]["ann"][1] == "party favors: 1 face down"
        assert "precision" not in str(seen)
        assert seen["board"]["dashboard"]["bob"] == doc["board"]["dashboard"]["bob"]


def test_a_ruleset_with_nothing_hidden_redacts_nothing():
    from trvendetta import rulesets

    vendetta = rulesets.get("vendetta")
    doc = vendetta.view(vendetta.new_game(vendetta.default_position([("ann", "red", ""), ("bob", "blue", "")], 3))[0])
    assert vendetta.redact(doc, []) is doc and [p["crew"] for p in doc["players"]] == ["cars", "cars"]


def _dealt_face_down(kind: str, nonce: str):
    """ann to act (the start of her turn), holding one favor dealt face down (a host game's)."""
    from msgspec.structs import replace

    from trvendetta.carnival import favors

    state, _ = game(vehicles=[{"id": "red-medium", "at": "k9"}])
    commitment = favors.commit(kind, nonce)
    return replace(state, private_favors=True, favors={"ann": (favors.hidden(0, commitment),)}), commitment


def test_the_owner_s_view_lists_a_face_down_favor_with_its_opening():
    """What `trv legal --json` lists and `trv act` takes: the owner's view once named the kind only,
    and a favor was listed without its nonce (tests/server/test_private_favors_server.py)."""
    from trvendetta.carnival.actions import PlayFavor

    kind, nonce = "bootleg-turn", "ab" * 16
    state, commitment = _dealt_face_down(kind, nonce)
    assert not [o for o in RS.legal_actions(state) if isinstance(o, PlayFavor)]  # face down to the rules
    view = RS.private_view(state, {commitment: (kind, nonce)}, ["ann"])
    assert view.favors["ann"] == (kind,)
    [option] = [o for o in RS.legal_actions(view) if isinstance(o, PlayFavor)]
    assert option == PlayFavor(kind, nonce=nonce)
    assert RS.describe_action(option) == "favor bootleg-turn"  # `trv decide favor bootleg-turn` names it
    assert RS.parse_action(view, "favor bootleg-turn") == option
    # played as listed: on the game's state (the rules open the commitment) and on the view itself
    for on in (state, view):
        after, events = RS.apply(on, option)
        [played] = [e for e in events if isinstance(e, cev.FavorPlayed)]
        assert (played.favor, played.nonce) == (kind, nonce) and after.favors["ann"] == ()
    # the view of another seat opens nothing of ann's
    theirs = RS.private_view(state, {commitment: (kind, nonce)}, ["bob"])
    assert theirs.favors == state.favors and not theirs.nonces
    assert not [o for o in RS.legal_actions(theirs) if isinstance(o, PlayFavor)]


def test_turn_favor_plays_a_face_down_favor_with_its_opening():
    """`trv turn --favor NAME` names the favor without its nonce: the driver plays the listed option."""
    from trvendetta.carnival.actions import PlayFavor

    kind, nonce = "bootleg-turn", "cd" * 16
    state, commitment = _dealt_face_down(kind, nonce)
    view = RS.private_view(state, {commitment: (kind, nonce)}, ["ann"])
    driver = RS.turn_driver({"favor": [kind]})
    assert driver.next(view) == PlayFavor(kind, nonce=nonce)
