"""Rules version 4: five Carnival rules as the cards say (rulebook 002, "Party Favor Reference",
"Clarifications: Super-Weapons", "Tina's Turn Decrees", "Ties"), each from a position with scripted
dice; a game recorded under version 3 keeps version 3's rules when it re-executes
(``game_under("3", ...)``: what the old rule did, and what a version 3 record still does).

The haulasseum pillars used here: A j10, C l11 (``SIDE.pillars``)."""

from trvendetta.carnival import arena
from trvendetta.carnival import components as comp
from trvendetta.carnival import events as cev
from trvendetta.carnival.actions import FireWeapon, NoFavor, PlayFavor, Thwump, ThwumpRoll
from trvendetta.core import geometry
from trvendetta.vendetta import board as b
from trvendetta.vendetta import events as vev
from trvendetta.vendetta.actions import AssignDie, NoCommand, Shoot, Step

from .helpers import RS, at, game, game_under, kinds, play

SIDE = comp.default().sides["haulasseum"]
assert [geometry.name(SIDE.pillars[p]) for p in "AC"] == ["j10", "l11"]


def pending(state):
    return RS.pending(state)


def scrap_events(events):
    return [(e.player, e.amount) for e in kinds(events, cev.ScrapGained)]


# ------------------------------------------------------------ 1. Bootleg Turn
#: red-medium (k11) plays Bootleg Turn and backs onto blue-medium (k10) with its one move
BOOTLEG = dict(favors={"ann": ["bootleg-turn"]}, script={"slam": ["BOTTOM"], "direction": ["F"]},
               vehicles=[{"id": "red-medium", "at": "k11"}, {"id": "blue-medium", "at": "k10"}])


def _bootleg_onto_a_car(setup):
    state, _ = setup(**BOOTLEG)
    state, _ = play(state, PlayFavor("bootleg-turn"), AssignDie("red-medium", 1), NoCommand())
    return play(state, Step("B"))


def test_bootleg_turn_moves_through_cars_but_a_move_ending_on_one_slams():
    """Bootleg Turn: "move *through* all other cars without slamming them"; ending on a car is
    not moving through it (001 Drifting: "If a motorcycle ends its move in the same space as
    another road vehicle, it results in a slam as normal"; the Drift decision likewise)."""
    state, events = _bootleg_onto_a_car(game)
    assert kinds(events, cev.PassedThrough) == []
    assert [(e.top, e.bottom) for e in kinds(events, vev.SlamStarted)] == [("red-medium", "blue-medium")]
    assert at(state, "red-medium") != at(state, "blue-medium")  # one vehicle a space once the slam is over


def test_a_version_3_record_keeps_its_bootleg_turn_ending_on_a_car():
    state, events = _bootleg_onto_a_car(lambda **kw: game_under("3", **kw))
    assert kinds(events, cev.PassedThrough) == [cev.PassedThrough("red-medium", "blue-medium")]
    assert at(state, "red-medium") == at(state, "blue-medium") == "k10"


def test_bootleg_turn_still_moves_through_a_car_with_a_move_left():
    state, _ = game(**{**BOOTLEG, "script": {}})
    state, _ = play(state, PlayFavor("bootleg-turn"), AssignDie("red-medium", 2), NoCommand())
    state, events = play(state, Step("B"), Step("F"))
    assert kinds(events, cev.PassedThrough) == [cev.PassedThrough("red-medium", "blue-medium")]
    assert kinds(events, vev.SlamStarted) == [] and at(state, "red-medium") == "k9"


# ---------------------------------------------------------- 2. the Thwumper
#: red-medium (k10, to k11) has the Thwumper; blue-small at m13
THWUMPER = dict(weapons={"red-medium": "thwumper"}, script={"stunt": [2]},
                vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "m13"}])


def test_the_thwumper_rolls_its_stunt_die_before_its_direction_is_chosen():
    """The Thwumper: "roll the stunt die and move it that many spaces in a straight line in any
    direction you choose": the roll first, then the choice."""
    state, _ = game(**THWUMPER)
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    d = pending(state)
    assert ThwumpRoll() in d.options and not any(isinstance(o, Thwump) for o in d.options)
    state, events = play(state, ThwumpRoll())
    assert [(e.die, e.face) for e in kinds(events, vev.DieRolled)] == [("stunt", "2")]
    assert kinds(events, cev.JumpRolled) == [cev.JumpRolled("red-medium", 2, True)] and at(state, "red-medium") == "k11"
    d = pending(state)
    assert (d.player, d.kind, set(d.options)) == ("ann", "thwump", {Thwump(x) for x in geometry.DIRECTIONS})
    assert "shows 2" in d.prompt
    state, events = play(state, Thwump("FR"))  # two spaces FR: l11, m12, next to blue-small
    assert at(state, "red-medium") == "m12" and b.vehicle(state, "blue-small").damage == ("minor",)
    assert kinds(events, vev.DieRolled) == [] and pending(state).player == "bob"


def test_double_barrel_and_mayhems_second_jump_roll_first_too():
    state, _ = game(favors={"ann": ["double-barrel"]}, **THWUMPER)
    state, _ = play(state, AssignDie("red-medium", 1))
    assert PlayFavor("double-barrel", shot="thwump") in pending(state).options
    state, events = play(state, PlayFavor("double-barrel", shot="thwump"))
    assert kinds(events, cev.JumpRolled) == [cev.JumpRolled("red-medium", 2, False)]
    assert RS.describe(kinds(events, cev.FavorPlayed)[0]) == \
        "ann plays double-barrel: the Thwumper's jump before moving (its stunt die first, then its way)"
    state, _ = play(state, Thwump("F"))  # k12, then the move: the command comes next
    assert at(state, "red-medium") == "k12" and pending(state).kind == "command"
    state, _ = game(decree="in-the-mood-for-mayhem", decree_round=1,
                    **{**THWUMPER, "script": {"stunt": [1, 2]}})
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"), ThwumpRoll(), Thwump("F"))
    d = pending(state)  # In the Mood for Mayhem!: another jump, rolled first again
    assert d.kind == "shoot" and ThwumpRoll() in d.options and not any(isinstance(o, Thwump) for o in d.options)
    state, _ = play(state, ThwumpRoll())
    assert pending(state).kind == "thwump" and "shows 2" in pending(state).prompt


def test_a_version_3_record_keeps_the_direction_before_the_roll():
    state, _ = game_under("3", **THWUMPER)
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    assert Thwump("F") in pending(state).options and ThwumpRoll() not in pending(state).options


# --------------------------------------------------- 3. a favor after the shot
#: red-medium (k10, to k11) shoots blue-small (k12); blue-medium stands on pillar C (l11)
AFTER = dict(favors={"ann": ["killer-pillar"]}, script={"shot": ["SML"], "damage": ["dent"]},
             vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k12"},
                       {"id": "blue-medium", "at": "l11"}])


def test_killer_pillar_may_be_played_after_the_shot():
    """Killer Pillar: "Play at any time on your turn": shoot (2 scrap), then crush (3 scrap)."""
    state, _ = game(**AFTER)
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"))
    state, events = play(state, Shoot("blue-small"))
    assert kinds(events, vev.ShotFired)[0].hit and scrap_events(events) == [("ann", 2)]
    d = pending(state)
    assert (d.player, d.kind) == ("ann", "favor") and PlayFavor("killer-pillar", ("", "C")) in d.options
    state, events = play(state, PlayFavor("killer-pillar", ("", "C")))
    assert b.vehicle(state, "blue-medium").status == "eliminated" and scrap_events(events) == [("ann", 3)]
    assert state.scrap["ann"] == 5 and pending(state).player == "bob"


def test_declining_the_favor_after_the_shot_ends_the_turn_and_a_version_3_record_has_no_such_decision():
    state, _ = game(**AFTER)
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"),
                    Shoot("blue-small"))
    state, events = play(state, NoFavor())
    assert kinds(events, cev.FavorsPassed) == [cev.FavorsPassed("ann", "after-shooting:red-medium")]
    assert pending(state).player == "bob" and state.favors["ann"] == ("killer-pillar",)
    state, _ = game_under("3", **AFTER)
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"),
                    Shoot("blue-small"))
    assert pending(state).player == "bob"


# ------------------------------------- 4. Precision under Let's Get Wild!
#: red-small (k11) slams blue-large (k12): bob's larger car may ask for a reroll
WILD = dict(decree="lets-get-wild", decree_round=1, favors={"ann": ["precision"]},
            script={"slam": ["BOTTOM"], "direction": ["F"], "stunt": [4]},
            vehicles=[{"id": "red-small", "at": "k11"}, {"id": "blue-large", "at": "k12"}])


def _wild_slam(setup):
    state, _ = setup(**WILD)
    state, _ = play(state, PlayFavor("precision", die="stunt", face="2"), AssignDie("red-small", 1), NoCommand())
    return play(state, Step("F"))


def test_a_stunt_die_set_by_precision_is_not_rerolled_under_lets_get_wild():
    """Precision: "Once the die is set, it cannot be rerolled"; Let's Get Wild!: "If a larger car
    calls for a reroll, reroll all three of the dice": the set die forbids the reroll, as a set
    slam or direction die does."""
    state, events = _wild_slam(game)
    assert kinds(events, cev.WildRoll) == [cev.WildRoll("2", False)]
    assert kinds(events, vev.SlamRolled)[0].chooser is None and pending(state).kind != "slam-reroll"
    assert at(state, "blue-large") == "k14" and state.script["stunt"] == ("4",)


def test_a_version_3_record_still_offers_that_reroll():
    state, _ = _wild_slam(lambda **kw: game_under("3", **kw))
    assert (pending(state).player, pending(state).kind) == ("bob", "slam-reroll")


# ---------------------------------------------------------- 5. the Energizer
#: red-medium (k10, to k11) has the Energizer; blue-small (k12) is inoperable, both slots full
ENERGIZER = dict(weapons={"red-medium": "energizer"}, script={"shot": ["SM"], "movement": [2]},
                 vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k12",
                                                                 "damage": ["dent", "dent"]}])


def test_the_energizer_acts_again_after_any_hit_on_another_car():
    """Energizer: "You can continue repeating this effect as long as you continue shooting and
    hitting another car": a hit, whether or not the car takes a damage token."""
    state, _ = game(**ENERGIZER)
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    state, events = play(state, FireWeapon("blue-small"))
    assert kinds(events, vev.ShotFired)[0].hit and kinds(events, vev.DamageIgnored)
    assert kinds(events, cev.Energized) == [cev.Energized("red-medium", 2, 1)] and state.turn.moves_left == 2


def test_a_version_3_record_keeps_the_energizer_still_after_a_hit_with_no_token():
    state, _ = game_under("3", **ENERGIZER)
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    state, events = play(state, FireWeapon("blue-small"))
    assert kinds(events, cev.Energized) == [] and pending(state).player == "bob"
    lines = [RS.describe(e) for e in events]  # the log says it acts again only when it does
    assert not any("acts again" in line for line in lines)
    assert "the damage effect of the energizer's hit by red-medium is over" in lines


# ------------------------------------------------------------ roll-offs
def _end_of_round_6(movement):
    players = [{"name": "ann", "color": "red", "dice": [1], "turns": 2},
               {"name": "bob", "color": "blue", "dice": [3], "turns": 3}]
    state, _ = game(players=players, turn=5, round=6, tina=["tina-1", "tina-2", "tina-3", "tina-4", "tina-5"],
                    vehicles=[{"id": "red-medium", "at": "l9"}], scrap={"ann": 4, "bob": 4},
                    script={"movement": movement})
    return play(state, AssignDie("red-medium", 1), Step("F"))


def test_a_position_scripts_the_roll_off_until_the_tie_is_broken():
    """Ties: "the tied players roll all of their movement dice - the high total wins. Keep rolling
    until the tie is broken": a position's movement script gives those dice (four each)."""
    state, events = _end_of_round_6([3, 3, 3, 3, 2, 4, 3, 3, 6, 6, 6, 1, 1, 1, 1, 2])
    [roll] = kinds(events, cev.RollOff)
    assert roll.rolls == ({"ann": 12, "bob": 12}, {"ann": 19, "bob": 5}) and roll.scripted == 16
    assert state.winner == "ann" and state.script["movement"] == ()
    assert RS.describe(roll) == "roll-off: ann 12, bob 12; ann 19, bob 5 (scripted by the set-up, not rolled)"


# ----------------------------------------------------------- log wording
def test_the_log_names_in_the_mood_for_mayhem_only_under_it_and_counts_spaces_right():
    shot = dict(script={"shot": ["L"]}, vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k12"}])
    for decree, said in ((None, False), ("in-the-mood-for-mayhem", True)):
        state, _ = game(**shot, **({"decree": decree, "decree_round": 1} if decree else {}))
        state, events = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"), Shoot("blue-small"))
        [taken] = kinds(events, cev.ShotTaken)
        assert ("In the Mood for Mayhem!" in RS.describe(taken)) is said
        assert RS.describe(taken).startswith("ann's shot after moving is counted")
    assert RS.describe(cev.WildRoll("1")) == "Let's Get Wild!: stunt die 1: the slammed car goes 1 space"
    assert RS.describe(cev.WildRoll("3")).endswith("goes 3 spaces")


def test_the_greedy_bot_never_jumps_off_the_board_once_the_die_is_rolled():
    """"If a car ever moves off of an edge of the arena board where there is NO adjacent road tile, it
    is eliminated": with the way chosen after the roll, the bot knows which ways are fatal."""
    state, _ = game(weapons={"red-medium": "thwumper"}, script={"stunt": [4]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "m13"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"), ThwumpRoll())
    d = pending(state)
    scores = dict(zip(d.options, RS.score_options(state, d)))
    side, car = state.arena, b.vehicle(state, "red-medium")
    off = {Thwump(x) for x in geometry.DIRECTIONS if arena.where(side, _four(car.at, x)) == "off"}
    assert off and all(scores[o] == -100.0 for o in off)
    assert max(scores, key=scores.get) not in off


def _four(at, direction):
    for _ in range(4):
        at = geometry.neighbour(at, direction)
    return at
