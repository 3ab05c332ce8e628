"""The registered ``carnival`` ruleset, from positions with scripted dice and
draws: set-up, the board seam, facing, scrap, collecting, Tina's turn and
the end of the game (rulebook 002)."""

import pytest

from trvendetta import rulesets
from trvendetta.bots import new_position
from trvendetta.carnival import components as comp
from trvendetta.carnival import events as cev
from trvendetta.carnival import spaces
from trvendetta.carnival.position import BIG_RIG
from trvendetta.core import geometry
from trvendetta.core.errors import PositionError
from trvendetta.core.events import GameOver
from trvendetta.vendetta import board as b
from trvendetta.vendetta import events as vev
from trvendetta.vendetta.actions import AssignDie, NoCommand, Step

from .helpers import RS, at, facing, game, kinds, move, play, position

sq = geometry.parse
SIDE = comp.default().sides["haulasseum"]


# ------------------------------------------------------------------ set-up
def test_registered_and_set_up_with_its_components_in_the_first_event():
    assert "carnival" in rulesets.names() and rulesets.get("carnival") is RS
    state, events = RS.new_game(new_position(RS, 3, 4))
    first = events[0]
    assert isinstance(first, cev.CarnivalStarted) and first.components.sides["haulasseum"] == SIDE
    assert len(kinds(events, cev.TilesLaid)[0].tiles) == 3
    assert state.favor_tokens and state.weapon_tokens == SIDE.weapons and state.raised == ()
    assert state.scrap == {"p1": 0, "p2": 0, "p3": 0} and state.road == ()
    for p in state.players:  # "Each of your cars must start the game on a different road tile"
        slots = [spaces.slot_number(SIDE, v.at) for v in state.vehicles if v.owner == p.name]
        assert sorted(slots) == [1, 2, 3]
        assert all(v.start and v.facing == spaces.slot(SIDE, spaces.slot_number(SIDE, v.at)).forward
                   for v in state.vehicles if v.owner == p.name)


def test_the_big_rig_is_refused_with_tinas_reason():
    with pytest.raises(PositionError, match="The Big Rig is not allowed in the arena. Tina was very clear about that."):
        RS.default_position([("ann", "red", "cars"), ("bob", "blue", "bigrig")], 1)
    assert BIG_RIG == "The Big Rig is not allowed in the arena. Tina was very clear about that."


def test_the_side_is_a_set_up_choice():
    assert RS.setup_choices == {"side": ("haulasseum", "slaytona")}
    pos = RS.default_position([("ann", "red", "cars"), ("bob", "blue", "finalfive")], 1, side="slaytona")
    assert RS.new_game(pos)[0].side == "slaytona"
    with pytest.raises(PositionError, match="haulasseum or slaytona"):
        RS.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 1, side="monaco")


# --------------------------------------------------------------- the board
def test_terrain_comes_from_the_arena_and_its_tiles_never_beyond():
    state, _ = game(raised=["C"])
    assert b.terrain(state, sq("l12")) == "arena"
    assert b.terrain(state, sq("k5")) == "road"  # the road tile in slot 1
    assert b.terrain(state, sq("l11")) == "impassable"  # killer pillar C, raised
    assert b.terrain(state, sq("j17")) == "offboard" and b.terrain(state, sq("a1")) == "offboard"
    assert all(b.terrain(state, (lane, y)) != "beyond" for lane in range(26) for y in range(0, 60)
               if (lane + y) % 2 == 0)


def test_an_active_step_into_the_arena_not_straight_forward_turns_the_car():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "l9", "facing": "F"}])
    state, events = move(state, "red-medium", 2, ["FL", "F"])
    assert kinds(events, cev.Faced) == [cev.Faced("red-medium", "FL")]  # straight forward then keeps FL
    assert at(state, "red-medium") == geometry.name(geometry.neighbour(sq("k10"), "F", "FL"))
    assert facing(state, "red-medium") == "FL"


def test_no_deliberate_return_to_a_road_tile():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "l8", "facing": "B"}])
    state, _ = play(state, AssignDie("red-medium", 2), NoCommand())
    steps = {o.direction for o in RS.pending(state).options}
    assert steps == {"FL", "FR"}  # straight on (absolute B) is l7, on the road tile in slot 1
    # at k8 facing the road tile, every step of the front arc is a road-tile space: the move ends
    state, _ = game(vehicles=[{"id": "red-medium", "at": "k8", "facing": "B"}])
    state, events = play(state, AssignDie("red-medium", 2), NoCommand())
    assert kinds(events, vev.MoveFinished) == [vev.MoveFinished("red-medium", "k8")]


# ------------------------------------------------- the rulebook's example
def _sam(**changes):
    """Sam (ann) has her medium car on the road tile in slot 1 and assigns a 3."""
    cars = [{"id": "red-medium", "at": "k5"}] + changes.pop("cars", [])
    return game(vehicles=cars, **changes)


def test_arena_example_front_left_slams_and_turns_ethans_car_first():
    state, _ = _sam(cars=[{"id": "blue-small", "at": "j5", "facing": "B"}], script={"slam": ["TOP"], "direction": ["F"]})
    state, events = move(state, "red-medium", 3, ["FL"])
    faced = events.index(cev.Faced("blue-small", "F"))
    assert isinstance(events[faced - 1], vev.MovementEnded) or isinstance(events[faced - 1], vev.SlamStarted)
    assert faced < next(i for i, e in enumerate(events) if isinstance(e, vev.SlamRolled))


def test_arena_example_front_middle_drives_on_and_shoots_from_the_arena():
    state, _ = _sam(cars=[{"id": "blue-large", "at": "k9", "facing": "FR"}], script={"shot": ["L"], "damage": ["dent"]})
    state, events = move(state, "red-medium", 3, ["F", "F", "F"], road=False, shoot="blue-large")
    assert at(state, "red-medium") == "k8" and kinds(events, vev.ShotFired)[0].hit
    assert kinds(events, cev.ScrapGained) == [cev.ScrapGained("ann", 2, "blue-large damaged")]


def test_arena_example_front_right_stays_on_the_road_and_the_road_die_reaches_the_party_favor():
    state, _ = _sam(favor_tokens=["l8"], script={"favor": ["precision"]})
    state, events = move(state, "red-medium", 3, ["FR", "F", "F"], road=True)
    step = RS.pending(state)
    assert step.kind == "step" and step.options  # the road die's 1 move
    state, more = play(state, Step("F"))
    assert at(state, "red-medium") == "l8"
    assert kinds(more, cev.FavorCollected) == [cev.FavorCollected("ann", "red-medium", "l8", "precision", True)]
    assert state.favors["ann"] == ("precision",) and state.favor_tokens == ()


# ------------------------------------------------------- forced moves, slams
def test_a_slam_turns_the_bottom_car_and_a_forced_move_onto_a_road_tile_turns_it_toward_the_arena():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "k9", "facing": "B"},
                              {"id": "blue-medium", "at": "k8", "facing": "FR"}],
                    script={"slam": ["BOTTOM"], "direction": ["F"]})
    state, events = move(state, "red-medium", 1, ["F"])
    turned = kinds(events, cev.Faced)
    assert turned == [cev.Faced("blue-medium", "B"), cev.Faced("blue-medium", "F")]
    assert at(state, "blue-medium") == "k7" and facing(state, "red-medium") == "B"


def test_a_forced_move_in_the_arena_keeps_the_facing():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "k11", "facing": "F"},
                              {"id": "blue-medium", "at": "k12", "facing": "F"}],
                    script={"slam": ["BOTTOM"], "direction": ["FR"]})
    state, events = move(state, "red-medium", 1, ["F"])
    assert at(state, "blue-medium") == geometry.name(geometry.neighbour(sq("k12"), "FR")) and facing(state, "blue-medium") == "F"
    assert kinds(events, cev.Faced) == []


# -------------------------------------------------------------------- scrap
def test_scrap_stacks_a_damage_then_an_elimination_is_5():
    """"if an opposing car takes one damage and is eliminated on your turn, you get 5 scrap total"."""
    state, _ = game(vehicles=[{"id": "red-medium", "at": "i15", "facing": "F"},
                              {"id": "blue-small", "at": "i17", "facing": "F"}],
                    script={"shot": ["SM"], "damage": ["skid-FR"]})
    state, events = move(state, "red-medium", 1, ["F"], shoot="blue-small")
    assert b.vehicle(state, "blue-small").status == "eliminated"
    assert [e.amount for e in kinds(events, cev.ScrapGained)] == [2, 3] and state.scrap["ann"] == 5


def test_no_scrap_for_your_own_cars_and_off_an_edge_is_an_elimination():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "i16", "facing": "F"}])
    state, events = move(state, "red-medium", 2, ["F", "F"])
    assert b.vehicle(state, "red-medium").status == "eliminated" and "edge" in kinds(events, vev.VehicleEliminated)[0].cause
    assert state.scrap["ann"] == 0


def test_trv_legal_marks_a_step_off_the_arena_as_fatal():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "i16", "facing": "F"}])
    state, _ = play(state, AssignDie("red-medium", 2), NoCommand())
    state, _ = play(state, Step("F"))  # i17, on the arena's top edge
    assert RS.warning(state, Step("F")) == "fatal: left the arena over an edge with no road tile (eliminated)"
    # h17 is a space of the road tile in slot 2 (choke), impassable there: the tile's own terrain counts
    assert RS.warning(state, Step("FL")) == "fatal: drives into impassable terrain at h17 (eliminated)"


def test_no_shot_from_a_road_tile_even_after_round_one():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "k5", "facing": "F"},
                              {"id": "blue-large", "at": "k8", "facing": "F"}])
    state, _ = move(state, "red-medium", 1, ["F"], road=False)
    assert at(state, "red-medium") == "k6" and RS.pending(state).player == "bob"  # no shoot decision for ann


# -------------------------------------------------------- round 1 entering
def test_round_one_first_moves_take_road_tiles_not_used_yet():
    players = [{"name": "ann", "color": "red", "dice": [4, 2, 3, 1], "turns": 1},
               {"name": "bob", "color": "blue", "dice": [3, 3, 5, 6], "turns": 1}]
    # red-small and red-medium wait behind slot 2, red-large behind slot 1; ann has used slot 2
    state, _ = game(round=1, entered={"ann": [2]}, starts={"red-small": 2, "red-large": 1}, players=players, turn=2)
    assert {o.car for o in RS.pending(state).options if isinstance(o, AssignDie)} == {"red-large"}
    state, _ = game(round=2, entered={"ann": [2]}, starts={"red-small": 2, "red-large": 1}, players=players, turn=2)
    assert {o.car for o in RS.pending(state).options if isinstance(o, AssignDie)} == {"red-small", "red-medium", "red-large"}


def test_a_start_car_entering_a_road_tile_is_noted():
    state, _ = game(round=1, players=[
        {"name": "ann", "color": "red", "dice": [4, 2, 3, 1]}, {"name": "bob", "color": "blue", "dice": [3, 3, 5, 6]}])
    state, events = move(state, "red-small", 1, ["F"], road=False)
    assert kinds(events, cev.TileEntered) == [cev.TileEntered("ann", "red-small", 1)] and state.entered == {"ann": (1,)}


# ---------------------------------------------------- collecting on the board
def test_a_super_weapon_is_claimed_only_where_the_move_ends():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "l9", "facing": "F"}], weapon_tokens=["l10", "l12"],
                    script={"weapon": ["laser-kebab"]})
    state, events = move(state, "red-medium", 3, ["F", "F", "F"])  # through l10, l11 is pillar C (road side)
    assert at(state, "red-medium") == "l12"
    assert kinds(events, cev.WeaponClaimed) == [cev.WeaponClaimed("red-medium", "l12", "laser-kebab", True)]
    assert state.weapons == {"red-medium": "laser-kebab"} and state.weapon_tokens == (sq("l10"),)


def test_a_car_pushed_onto_a_favor_collects_it_on_the_other_players_turn():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "k11", "facing": "F"},
                              {"id": "blue-medium", "at": "k12", "facing": "F"}], favor_tokens=["k13"],
                    script={"slam": ["BOTTOM"], "direction": ["F"], "favor": ["mega-repair"]})
    state, events = move(state, "red-medium", 1, ["F"])
    assert kinds(events, cev.FavorCollected) == [cev.FavorCollected("bob", "blue-medium", "k13", "mega-repair", True)]


# ------------------------------------------------------------ Tina's turn
def _last_turn(**changes):
    players = [{"name": "ann", "color": "red", "dice": [1], "turns": 2},
               {"name": "bob", "color": "blue", "dice": [3], "turns": 3}]
    return game(players=players, turn=5, **changes)


def test_tinas_turn_spotlight_pillars_decree_and_no_scrap_for_her_eliminations():
    state, _ = _last_turn(vehicles=[{"id": "red-medium", "at": "h9", "facing": "F"},
                                    {"id": "blue-medium", "at": "j10"}, {"id": "blue-large", "at": "o11"}],
                          script={"tina": ["tina-1"]})
    state, events = move(state, "red-medium", 1, ["F"])  # onto the spotlight h10
    assert at(state, "red-medium") == "h10"
    assert kinds(events, cev.TinaFlipped) == [cev.TinaFlipped("tina-1", True)]
    assert kinds(events, cev.ScrapGained) == [cev.ScrapGained("ann", 1, "a car in Tina's spotlight (tina-1)")]
    assert state.raised == ("A", "E", "I") and b.vehicle(state, "blue-medium").status == "eliminated"
    assert "killer pillar A" in kinds(events, vev.VehicleEliminated)[0].cause and state.scrap["bob"] == 0
    assert (state.decree, state.decree_round, state.round, state.phase) == ("commit-to-the-crash", 2, 3, "playing")


def test_a_player_out_ends_the_game_at_the_end_of_the_round_after_tinas_turn():
    state, _ = _last_turn(vehicles=[{"id": "red-medium", "at": "h9", "facing": "F"}, {"id": "blue-medium", "at": "j10"},
                                    {"id": "blue-small", "at": "eliminated"}, {"id": "blue-large", "at": "eliminated"}],
                          script={"tina": ["tina-1"]}, scrap={"bob": 9})
    state, events = move(state, "red-medium", 1, ["F"])
    assert kinds(events, vev.PlayerOut)[0].player == "bob"
    assert state.phase == "over" and state.winner == "ann"  # bob is out and cannot win, whatever his scrap
    assert isinstance(events[-1], GameOver)


def test_the_game_ends_when_tinas_pile_is_empty_and_a_tie_goes_to_a_recorded_roll_off():
    flipped = ["tina-1", "tina-2", "tina-3", "tina-4", "tina-5"]
    state, _ = _last_turn(round=6, tina=flipped, decree="lets-keep-it-close", decree_round=5,
                          vehicles=[{"id": "red-medium", "at": "l9", "facing": "F"}],
                          scrap={"ann": 4, "bob": 4})
    state, events = move(state, "red-medium", 1, ["F"])
    assert kinds(events, cev.TinaFlipped) == []  # her pile is empty at the start of her turn
    # tied on scrap, operable cars (3 each), super-weapons and favors (none): the roll-off decides
    rolls = kinds(events, cev.RollOff)[0].rolls
    assert state.phase == "over" and state.end_reason.startswith("roll-off")
    assert all(set(r) == {"ann", "bob"} for r in rolls) and all(r["ann"] == r["bob"] for r in rolls[:-1])
    assert state.winner == max(rolls[-1], key=rolls[-1].get) and len(set(rolls[-1].values())) == 2
    assert all(4 <= total <= 24 for r in rolls for total in r.values())  # all four movement dice


def test_danger_ahead_sets_the_direction_die_forward_without_rolling():
    state, _ = game(decree="danger-ahead", decree_round=1,
                    vehicles=[{"id": "red-medium", "at": "k11", "facing": "F"},
                              {"id": "blue-medium", "at": "k12", "facing": "F"}],
                    script={"slam": ["BOTTOM"], "direction": ["B"]})
    state, events = move(state, "red-medium", 1, ["F"])
    assert kinds(events, vev.SlamRolled)[0].direction == "F" and at(state, "blue-medium") == "k13"
    assert state.script["direction"] == ("B",)  # not rolled, so the script is untouched


def test_commit_to_the_crash_offers_no_slam_reroll():
    cars = [{"id": "red-small", "at": "k11", "facing": "F"}, {"id": "blue-large", "at": "k12", "facing": "F"}]
    script = {"slam": ["BOTTOM"], "direction": ["FR"]}
    state, _ = game(vehicles=cars, script=script)
    state, _ = play(state, AssignDie("red-small", 1), NoCommand(), Step("F"))
    assert RS.pending(state).kind == "slam-reroll"  # bob's Large car may ask for a reroll
    state, _ = game(vehicles=cars, script=script, decree="commit-to-the-crash", decree_round=2)
    state, _ = play(state, AssignDie("red-small", 1), NoCommand(), Step("F"))
    assert RS.pending(state).kind != "slam-reroll"
