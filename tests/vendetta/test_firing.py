"""Firing: front arc only; shot die against size; wrecks removed when hit;
own cars allowed; choppers are never targets."""

from trvendetta.vendetta.actions import NoShoot, Shoot

from .helpers import RS, AssignDie, NoCommand, RoadBonus, Step, car, ev, game, kinds, play


def after_move(vehicles, script=None, **kw):
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}] + vehicles, script=script or {}, **kw)
    return play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"), RoadBonus(False))[0]


def test_targets_are_the_front_arc_including_own_cars_and_wrecks_not_choppers():
    state = after_move([{"id": "blue-large", "at": "c5"}, {"id": "red-small", "at": "b4"}, {"id": "blue-small", "at": "c2"}],
                       wrecks=[{"at": "d4"}], choppers=[{"owner": "bob", "at": "c6"}])
    # arc order FL, F, FR: b4, c5, d4; blue-small behind and the chopper at c6 are not targets
    assert RS.legal_actions(state) == [Shoot("red-small"), Shoot("blue-large"), Shoot("wreck-1"), NoShoot()]


def test_a_face_hits_every_size_it_shows():
    for face, size_hit in (("SM", {"S", "M"}), ("M", {"M"}), ("L", {"L"}), ("SML", {"S", "M", "L"})):
        for target, size in (("blue-small", "S"), ("blue-medium", "M"), ("blue-large", "L")):
            state = after_move([{"id": target, "at": "c5"}], script={"shot": [face], "damage": ["dent"]})
            state, evs = play(state, Shoot(target))
            shot = kinds(evs, ev.ShotFired)[0]
            assert shot.hit == (size in size_hit), (face, target)
            assert len(car(state, target).damage) == (1 if size in size_hit else 0)


def test_a_hit_wreck_is_removed():
    state = after_move([], wrecks=[{"at": "c5"}], script={"shot": ["L"]})
    state, evs = play(state, Shoot("wreck-1"))
    assert kinds(evs, ev.WreckRemoved) == [ev.WreckRemoved("wreck-1", "a shot by red-medium")]
    assert state.wrecks == ()


def test_no_targets_no_decision():
    state = after_move([{"id": "blue-large", "at": "c7"}])
    assert state.turn.player == "bob"


def test_an_inoperable_car_does_not_fire():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}, {"id": "blue-large", "at": "c5"}],
                    tokens=[{"at": "c4", "kind": "mine"}], script={"damage": ["dent"]})
    state, evs = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    assert car(state, "red-medium").damage == ("dent",)
    assert RS.pending(state).kind == "shoot"  # one token: still operational
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3", "damage": ["dent"]}, {"id": "blue-large", "at": "c5"}],
                    tokens=[{"at": "c4", "kind": "mine"}], script={"damage": ["dent"]})
    state, evs = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    assert car(state, "red-medium").status == "inoperable" and state.turn.player == "bob"
