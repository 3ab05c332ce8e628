"""Two places a favor is not offered again, kept as they are (docs/rules-decisions.md, "Killer Pillar
at the Thwumper's way" and "After declining In the Mood for Mayhem!'s second shot"): Killer Pillar,
"Play at any time on your turn", is satisfied when every pillar a player could play at a decision
can be played, to the same effect, at the decision that follows it with nothing rolled or revealed
between.

The haulasseum pillar used here: C l11 (``tests/carnival/test_rules_v4.py``)."""

from trvendetta.carnival import events as cev
from trvendetta.carnival.actions import NoFavor, PlayFavor, Thwump, ThwumpRoll
from trvendetta.carnival.turn import MAYHEM_PROMPT
from trvendetta.vendetta import board as b
from trvendetta.vendetta import events as vev
from trvendetta.vendetta.actions import AssignDie, NoCommand, Shoot, Step

from .helpers import RS, game, kinds, play

#: red-medium (k10, to k11) has the Thwumper and ann a Killer Pillar; the stunt die shows 2, so FR
#: jumps over l11 (pillar C, blue-medium on it) to m12, next to blue-small (m13)
THWUMP = dict(weapons={"red-medium": "thwumper"}, favors={"ann": ["killer-pillar"]}, script={"stunt": [2]},
              vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "m13"},
                        {"id": "blue-medium", "at": "l11"}])
CRUSH = PlayFavor("killer-pillar", ("", "C"))


def _moved(**position):
    state, _ = game(**position)
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"))
    return state


def _table(state):
    """What the table shows: every car's place, status and damage, the pillars, the scrap, who is next."""
    cars = sorted((v.id, b.nm(v.at) if v.at is not None else None, v.status, v.damage) for v in state.vehicles)
    return cars, state.raised, dict(state.scrap), RS.pending(state).player


def test_the_thwumpers_way_is_followed_by_a_pause_offering_every_pillar_before_it_lands():
    """Killer Pillar: "Play at any time on your turn": the way is chosen with no favor offered, and
    the next decision, before the jump lands, offers every pillar the way's decision could have."""
    state, _ = play(_moved(**THWUMP), ThwumpRoll())
    d = RS.pending(state)
    assert d.kind == "thwump" and not any(isinstance(o, PlayFavor) for o in d.options)
    state, events = play(state, Thwump("FR"))
    # nothing between the way and the pause that a die, a token or a pillar could change
    assert [type(e) for e in events] == [cev.JumpAimed, cev.ShotTaken, cev.EffectPaused]
    d = RS.pending(state)
    pillars = {o for o in d.options if isinstance(o, PlayFavor)}
    assert (d.player, d.kind) == ("ann", "favor") and "lands next" in d.prompt
    assert pillars == {PlayFavor("killer-pillar", ("", x)) for x in "ABCDEFGHI"}


def test_a_pillar_at_that_pause_does_what_it_would_have_done_before_the_roll():
    """The same pillar played before the stunt die is rolled, or once the way is chosen, leaves the
    same table: blue-medium crushed (3 scrap), the Thwumper at m12 shaking blue-small (2 scrap)."""
    before, _ = play(_moved(**THWUMP), CRUSH, ThwumpRoll(), Thwump("FR"))
    after, _ = play(_moved(**THWUMP), ThwumpRoll(), Thwump("FR"), CRUSH)
    assert _table(before) == _table(after)
    cars, raised, scrap, _ = _table(after)
    assert raised == ("C",) and scrap["ann"] == 3 + 2
    assert ("blue-medium", None, "eliminated", ()) in cars and ("red-medium", "m12", "operational", ()) in cars


#: red-medium (k10, to k11) shoots blue-small (k12) under In the Mood for Mayhem!; ann holds a
#: Killer Pillar; both shots hit
MAYHEM = dict(decree="in-the-mood-for-mayhem", decree_round=1, favors={"ann": ["killer-pillar"]},
              script={"shot": ["SML"], "damage": ["dent"]},
              vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k12"},
                        {"id": "blue-medium", "at": "l11"}])


def test_declining_the_second_shot_is_followed_by_the_favor_before_the_turn_ends():
    """In the Mood for Mayhem!: "you may shoot another time"; declining it (``no favor`` at its
    prompt) declines the shot, and the favor decision before the turn ends offers the same pillars
    again: a player may decline the shot and still crush (rules v5: the shot prompt's favors and
    this one's are the same; no die or token between)."""
    state, _ = play(_moved(**MAYHEM), Shoot("blue-small"))
    d = RS.pending(state)
    mayhem = {o for o in d.options if isinstance(o, PlayFavor)}
    assert d.prompt == MAYHEM_PROMPT and CRUSH in mayhem
    state, events = play(state, NoFavor())
    assert kinds(events, cev.ShotTaken) == [cev.ShotTaken("ann", "declined")] and len(events) == 1
    d = RS.pending(state)
    assert (d.player, d.kind, d.prompt) == ("ann", "favor", "play a party favor before the turn ends?")
    assert {o for o in d.options if isinstance(o, PlayFavor)} == mayhem
    state, events = play(state, CRUSH)
    assert b.vehicle(state, "blue-medium").status == "eliminated" and kinds(events, vev.TurnEnded)


def test_a_pillar_at_the_second_shots_prompt_leaves_that_prompt_for_the_shot():
    """Played at the second shot's prompt, the pillar is played there and the prompt stays for the
    shot; with no favor left, declining it ends the turn at once."""
    state, _ = play(_moved(**MAYHEM), Shoot("blue-small"), CRUSH)
    assert RS.pending(state).prompt == MAYHEM_PROMPT
    state, events = play(state, NoFavor())
    assert RS.pending(state).player == "bob" and kinds(events, vev.TurnEnded)
