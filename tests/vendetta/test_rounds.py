"""Rounds: everyone rolls 4 dice, the first player rolls the road die, three
turns each, turns pass left, and the first player passes left each round."""

from .helpers import RS, AssignDie, NoCommand, NoShoot, RoadBonus, Step, ev, game, kinds, move


def turns_in_round(state, players=("ann", "bob")):
    order = []
    for _ in range(3 * len(players)):
        order.append(state.turn.player)
        d = RS.pending(state)
        unmoved = [o for o in d.options if not o.momentum] or list(d.options)
        a = unmoved[0]
        state, _ = move(state, a.car, a.die, path=["F"] * (1 if a.momentum else a.die), road=False)
    return state, order


def test_three_turns_each_passing_left_then_first_player_passes_left():
    state, _ = game(script={"movement": [1, 1, 1, 1, 2, 2, 2, 2], "road": [3]})
    state, order = turns_in_round(state)
    assert order == ["ann", "bob"] * 3
    assert state.round == 2 and state.first_player == "bob" and state.turn.player == "bob"
    assert [p.dice for p in state.players] == [(1, 1, 1, 1), (2, 2, 2, 2)]  # fresh rolls, from the script
    assert state.road_die == 3  # rolled by the new first player
    assert all(not v.moved and v.momentum == 0 for v in state.vehicles)


def test_round_end_events_in_order():
    state, _ = game()
    events = []
    for _ in range(6):
        d = RS.pending(state)
        a = [o for o in d.options if not o.momentum][0]
        state, evs = move(state, a.car, a.die, path=["F"] * a.die, road=False)
        events += evs
    names = [type(e) for e in events]
    i = names.index(ev.RoundEnded)
    assert names[i:i + 5] == [ev.RoundEnded, ev.RoundStarted, ev.DiceRolled, ev.DiceRolled, ev.RoadDieRolled]
    assert names[i + 5] is ev.TurnStarted


def test_three_player_rotation_skips_nobody():
    cars = [{"id": f"{color}-{kind}", "at": f"{lane}{row}"}
            for color, lane in (("red", "a"), ("blue", "c"), ("green", "e"))
            for kind, row in (("small", 1), ("medium", 9), ("large", 17))]
    state, _ = game(players=[{"name": "ann", "color": "red", "dice": [1, 1, 1, 1]},
                             {"name": "bob", "color": "blue", "dice": [1, 1, 1, 1]},
                             {"name": "cid", "color": "green", "dice": [1, 1, 1, 1]}], vehicles=cars)
    state, order = turns_in_round(state, ("ann", "bob", "cid"))
    assert order == ["ann", "bob", "cid"] * 3
    assert state.first_player == "bob"


def test_turn_structure_assign_command_move_fire():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}, {"id": "blue-large", "at": "c6"}])
    kinds_seen = []
    for a in (AssignDie("red-medium", 2), NoCommand(), Step("F"), Step("F")):
        kinds_seen.append(RS.pending(state).kind)
        state, _ = RS.apply(state, a)
    kinds_seen.append(RS.pending(state).kind)
    assert kinds_seen == ["assign", "command", "step", "step", "road-bonus"]
    state, evs = RS.apply(state, RoadBonus(False))
    assert RS.pending(state).kind == "shoot"  # blue-large sits in the front arc
    state, evs = RS.apply(state, NoShoot())
    assert kinds(evs, ev.TurnEnded) == [ev.TurnEnded("ann")]
    assert state.turn.player == "bob"
    assert sorted(state.players[0].dice) == [1, 4, 6]  # the assigned 2 is spent
