"""Turbo Tina's turn on the shipped Haulasseum side (rulebook "Tina's Turn")."""

from trvendetta.carnival import components as comp
from trvendetta.carnival import tina
from trvendetta.carnival.tina import CarAt
from trvendetta.core import geometry
from trvendetta.core.rng import Rng

COMPONENTS = comp.default()
SIDE = COMPONENTS.sides["haulasseum"]
sq = geometry.parse


def test_the_deck_is_five_of_the_nine_and_follows_the_rng():
    deck = tina.deal_deck(COMPONENTS, Rng(7))
    assert len(deck) == len(set(deck)) == 5 and set(deck) <= {c.name for c in COMPONENTS.tina}
    assert deck == tina.deal_deck(COMPONENTS, Rng(7))
    assert len({tina.deal_deck(COMPONENTS, Rng(seed)) for seed in range(20)}) > 1


def test_spotlight_pays_once_per_player_and_only_for_operable_cars():
    centre, other = sq("l12"), SIDE.spotlights[0]
    assert centre in SIDE.spotlights and other != centre
    cars = [CarAt("ann-small", "ann", centre), CarAt("ann-large", "ann", other),  # two spotlights: paid once
            CarAt("bob-small", "bob", SIDE.spotlights[-1], operable=False),  # inoperable: nothing
            CarAt("cat-small", "cat", sq("k10"))]
    turn = tina.resolve(SIDE, tina.card(COMPONENTS, "tina-4"), cars)
    assert turn.spotlight == {"ann": 3}


def test_pillars_flip_and_crush_the_cars_on_them():
    card = tina.card(COMPONENTS, "tina-1")  # pillars A, E, I
    cars = [CarAt("ann-small", "ann", SIDE.pillars["A"]), CarAt("bob-large", "bob", SIDE.pillars["I"], operable=False),
            CarAt("cat-small", "cat", SIDE.pillars["B"])]
    turn = tina.resolve(SIDE, card, cars)
    assert turn.raised == ("A", "E", "I")
    assert turn.eliminated == ("ann-small", "bob-large")
    assert turn.decree == "commit-to-the-crash"
