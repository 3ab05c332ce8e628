"""Set-up: road assembly, hazards by player count, damage pile, crews,
starting area, initiative with re-rolls of ties, first road die."""

from trvendetta.vendetta import components as comp

from .helpers import RS, b, ev, game, kinds

PLAYERS = [("ann", "red", "cars"), ("bob", "blue", "cars"), ("cid", "green", "cars"), ("dee", "yellow", "cars")]


def new(n, seed=1):
    return RS.new_game(RS.default_position(PLAYERS[:n], seed=seed))


def test_road_starts_with_a_starting_piece_then_two_drawn_pieces():
    c = comp.default()
    for seed in range(20):
        state, _ = new(2, seed)
        sides = [t.side for t in state.road]
        assert c.sides[sides[0]].start
        tiles = [c.sides[s].tile for s in sides] + [c.sides[s].tile for s in state.tile_pile]
        assert sorted(tiles) == sorted(c.tiles())  # every tile once: 3 in the road, the rest in the pile
        assert [t.index for t in state.road] == [0, 1, 2]


def test_hazards_on_the_starting_piece_follow_the_player_count():
    for n in (2, 3, 4):
        state, events = RS.new_game(RS.position_from_dict({
            "players": [{"name": p, "color": c} for p, c, _ in PLAYERS[:n]],
            "road": ["the-parking-lot", "choke", "mudhole"], "seed": 3}))
        lot = comp.default().sides["the-parking-lot"]
        expected_start = sum(1 for _, _, need in lot.hazards if need <= n)
        on_start = [t for t in state.tokens if t.at[1] < 16]
        assert len(on_start) == expected_start
        # later pieces: every hazard space gets a token
        for index, side in ((1, "choke"), (2, "mudhole")):
            here = [t for t in state.tokens if 16 * index <= t.at[1] < 16 * (index + 1)]
            assert len(here) == len(comp.default().sides[side].hazards)
        assert all(t.kind is None and not t.face_up for t in state.tokens)  # face down
        assert sum(state.hazard_pile.values()) == 26  # face-down kinds are drawn when revealed


def test_damage_pile_and_crews():
    state, _ = new(3)
    assert state.damage_pile == comp.default().damage
    for p in state.players:
        cars = [v for v in state.vehicles if v.owner == p.name]
        assert [v.id for v in cars] == [f"{p.color}-small", f"{p.color}-medium", f"{p.color}-large"]
        assert [v.size for v in cars] == ["S", "M", "L"]
        assert all(v.start and v.status == "operational" for v in cars)
        assert len(p.dice) == 4
    assert len(state.choppers) == 3 and all(c.at is None for c in state.choppers)


def test_starting_area_spreads_cars_over_the_lanes():
    state, _ = new(2)
    lanes = [v.at[0] for v in state.vehicles]
    assert lanes == [0, 1, 2, 3, 4, 5]
    assert all(b.nm(v.at).endswith("0") for v in state.vehicles)


def test_initiative_lowest_total_goes_first_and_ties_reroll():
    # ann and bob tie on 8; cid is higher; the tie rerolls: bob 4 beats ann 10
    state, events = game(
        active_player=None, players=[
            {"name": "ann", "color": "red"}, {"name": "bob", "color": "blue"}, {"name": "cid", "color": "green"}],
        script={"movement": [2, 2, 2, 2, 1, 1, 3, 3, 6, 6, 6, 6, 3, 3, 2, 2, 1, 1, 1, 1]},
    )
    rolls = kinds(events, ev.InitiativeRolled)
    assert [(r.player, sum(r.dice)) for r in rolls] == [("ann", 8), ("bob", 8), ("cid", 24), ("ann", 10), ("bob", 4)]
    assert kinds(events, ev.FirstPlayerChosen) == [ev.FirstPlayerChosen("bob")]
    assert state.first_player == "bob" and state.turn.player == "bob"


def test_first_road_die_is_rolled_at_setup_and_used_in_round_one():
    state, events = game(road_die=None, script={"road": [3]})
    assert kinds(events, ev.RoadDieRolled) == [ev.RoadDieRolled(3, True)]
    assert state.road_die == 3 and state.round == 1


def test_same_seed_gives_byte_identical_events():
    _, a = new(4, seed=99)
    _, b2 = new(4, seed=99)
    _, c = new(4, seed=100)
    enc = lambda evs: b"".join(RS.encode(e) for e in evs)  # noqa: E731
    assert enc(a) == enc(b2)
    assert enc(a) != enc(c)
