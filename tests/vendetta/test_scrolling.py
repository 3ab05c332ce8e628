"""Tile scrolling, the Finish Line (2 players: the fifth piece; 3+: the front
piece when the first player is out), and the end of the game."""

from trvendetta.vendetta.actions import NoShoot, Pass

from .helpers import RS, AssignDie, NoCommand, RoadBonus, Step, at, ev, game, kinds, play


def test_moving_off_the_lead_piece_removes_the_rear_one_and_draws_a_new_lead():
    state, _ = game(fill=None, vehicles=[{"id": "red-medium", "at": "c24"}, {"id": "blue-small", "at": "c5"},
                                         {"id": "blue-large", "at": "a20"}],
                    wrecks=[{"at": "e3"}], tokens=[{"at": "d7"}], choppers=[{"owner": "bob", "at": "a8"}])
    pile = state.tile_pile
    state, evs = play(state, AssignDie("red-medium", 2), NoCommand(), Step("F"))
    removed = kinds(evs, ev.TileRemoved)[0]
    assert (removed.side, removed.index) == ("the-parking-lot", 0)
    assert removed.returned_as in ("the-parking-lot", "the-road-to-perdition")
    assert kinds(evs, ev.TileAdded) == [ev.TileAdded(pile[0], 3)]
    assert [t.index for t in state.road] == [1, 2, 3]
    assert state.tile_pile == pile[1:] + (removed.returned_as,)  # to the bottom of the pile
    # everything on the removed piece: cars eliminated (including those still in the starting area)
    gone = {e.vehicle for e in kinds(evs, ev.VehicleEliminated)}
    assert gone == {"blue-small", "red-small", "red-large", "blue-medium"}
    assert state.wrecks == () and state.choppers[1].at is None
    assert [b for b in state.tokens if b.at[1] < 16] == []
    # the new lead piece gets face-down tokens on every hazard space
    assert kinds(evs, ev.HazardsPlaced)
    assert at(state, "red-medium") == "c25"


def two_player_finish():
    return game(road=["choke", "mudhole", "snakeway"], first_piece=2,
                vehicles=[{"id": "red-medium", "at": "c40"}, {"id": "blue-small", "at": "c30"},
                          {"id": "red-small", "at": "eliminated"}, {"id": "red-large", "at": "eliminated"},
                          {"id": "blue-medium", "at": "eliminated"}, {"id": "blue-large", "at": "eliminated"}])


def test_two_players_the_fifth_piece_is_final_and_moving_off_it_wins():
    state, evs = two_player_finish()
    assert state.final_piece == 4 and [t.index for t in state.road] == [2, 3, 4]
    state, evs = play(state, AssignDie("red-medium", 2), NoCommand(), Step("F"))
    assert kinds(evs, ev.GameOver) == [ev.GameOver("ann", "red-medium crossed the Finish Line")]
    assert at(state, "red-medium") == "c41"  # beyond the final piece: on the Finish Line
    assert RS.is_over(state) and RS.winner(state) == "ann" and RS.legal_actions(state) == []


def test_before_the_final_piece_the_road_scrolls():
    state, _ = game(road=["choke", "mudhole", "snakeway"], first_piece=1,
                    vehicles=[{"id": "red-medium", "at": "c32"}, {"id": "blue-medium", "at": "c20"}])
    state, evs = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    assert not kinds(evs, ev.GameOver) and [t.index for t in state.road] == [2, 3, 4]


def three_players(**kw):
    return game(players=[{"name": "ann", "color": "red", "dice": [1, 1, 1, 1]},
                         {"name": "bob", "color": "blue", "dice": [1, 1, 1, 1]},
                         {"name": "cid", "color": "green", "dice": [1, 1, 1, 1]}], **kw)


def test_three_players_the_first_player_out_fixes_the_final_piece():
    from trvendetta.vendetta.actions import Shoot
    state, _ = three_players(vehicles=[
        {"id": "red-medium", "at": "c3"}, {"id": "green-large", "at": "c5", "damage": ["dent"]},
        {"id": "green-small", "at": "eliminated"}, {"id": "green-medium", "at": "eliminated"}],
        script={"shot": ["L"], "damage": ["dent"]})
    assert state.final_piece is None
    state, evs = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"), RoadBonus(False), Shoot("green-large"))
    assert kinds(evs, ev.PlayerOut) == [ev.PlayerOut("cid", "no operational car")]
    assert kinds(evs, ev.FinalPieceSet) == [ev.FinalPieceSet(2)]
    assert state.final_piece == 2 and not RS.is_over(state)


def test_the_first_player_out_by_the_rear_piece_makes_the_front_piece_final_at_once():
    """Rule: "when the first player is eliminated, the current front piece becomes
    the final piece": bob's last car goes with the rear piece, so bob is out
    before a new lead piece is laid; the front piece (3) is final and the car
    driving off it reaches the Finish Line."""
    state, _ = three_players(road=["choke", "mudhole", "snakeway"], first_piece=1, vehicles=[
        {"id": "red-medium", "at": "c32"}, {"id": "blue-medium", "at": "a10"}, {"id": "green-medium", "at": "e20"}])
    assert state.final_piece is None
    state, evs = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))  # scroll: blue-medium is on the rear piece
    assert [type(e) for e in evs[2:]] == [ev.MoveStarted, ev.VehicleEliminated, ev.TileRemoved, ev.PlayerOut,
                                          ev.FinalPieceSet, ev.VehicleMoved, ev.GameOver]
    assert kinds(evs, ev.PlayerOut) == [ev.PlayerOut("bob", "all cars eliminated")]
    assert kinds(evs, ev.FinalPieceSet) == [ev.FinalPieceSet(3)] and not kinds(evs, ev.TileAdded)
    assert kinds(evs, ev.GameOver) == [ev.GameOver("ann", "red-medium crossed the Finish Line")]
    assert [t.index for t in state.road] == [2, 3] and at(state, "red-medium") == "c33"


def test_two_players_the_last_car_going_with_the_rear_piece_ends_the_game_at_once():
    """Only one player left with operational cars: the game ends immediately,
    before a new lead piece is laid."""
    state, _ = game(road=["choke", "mudhole", "snakeway"], first_piece=1, vehicles=[
        {"id": "red-medium", "at": "c32"}, {"id": "blue-medium", "at": "a10"}])
    state, evs = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    assert kinds(evs, ev.GameOver) == [ev.GameOver("ann", "the only player left with operational cars")]
    assert not kinds(evs, ev.TileAdded) and RS.winner(state) == "ann"


def test_a_car_of_a_player_who_is_out_pushed_over_the_finish_line_leaves_the_road():
    """A player who is out cannot win: cid's inoperable car, pushed off the
    final piece, leaves the road over the Finish Line and the game goes on."""
    state, _ = three_players(road=["choke", "mudhole", "snakeway"], first_piece=2, vehicles=[
        {"id": "red-small", "at": "c39"}, {"id": "blue-medium", "at": "a20"},
        {"id": "green-small", "at": "c40", "damage": ["dent", "dent"]},
        {"id": "green-medium", "at": "eliminated"}, {"id": "green-large", "at": "eliminated"}],
        script={"slam": ["BOTTOM"], "direction": ["B"]})  # B of a car turned backward is forward
    assert state.players[2].out and state.final_piece == 4
    state, evs = play(state, AssignDie("red-small", 1), NoCommand(), Step("F"))
    assert kinds(evs, ev.VehicleEliminated) == [
        ev.VehicleEliminated("green-small", "left the road over the Finish Line (its player is out)")]
    assert not kinds(evs, ev.GameOver) and not RS.is_over(state)
    assert at(state, "red-small") == "c40"


def test_a_player_with_only_inoperable_cars_is_out_and_the_last_player_left_wins():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}, {"id": "blue-large", "at": "c5", "damage": ["dent"]},
                              {"id": "blue-small", "at": "eliminated"}, {"id": "blue-medium", "at": "eliminated"}],
                    script={"shot": ["L"], "damage": ["dent"]})
    from trvendetta.vendetta.actions import Shoot
    state, evs = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"), RoadBonus(False), Shoot("blue-large"))
    assert kinds(evs, ev.PlayerOut) == [ev.PlayerOut("bob", "no operational car")]
    assert kinds(evs, ev.GameOver) == [ev.GameOver("ann", "the only player left with operational cars")]


def test_out_players_lose_their_turns():
    state, _ = three_players(vehicles=[
        {"id": "green-small", "at": "c3", "damage": ["dent", "dent"]},
        {"id": "green-medium", "at": "eliminated"}, {"id": "green-large", "at": "eliminated"}])
    assert state.players[2].out
    state, _ = play(state, AssignDie("red-small", 1), NoCommand(), Step("F"), RoadBonus(False))
    state, _ = play(state, AssignDie("blue-small", 1), NoCommand(), Step("F"), RoadBonus(False))
    assert state.turn.player == "ann"
