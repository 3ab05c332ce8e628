"""The front-die bot: the greedy bot with one change for car crews.

The greedy bot (``Ruleset.score_options``) gives a car crew's biggest die to its
rearmost car, which the road scrolling away would lose first.  This bot gives it
to the frontmost car instead (and, with only momentum left, the smallest die
to the frontmost): the race to the Finish Line is won at the front.  Every
other decision, and every crew but ``cars`` (the Final Five's motorcycles,
the Big Rig's sections), is the greedy bot's.  In 2-player Vendetta, cars
against cars, it beats the greedy bot in about nine games of ten
(docs/bots.md); variants that also save a car about to fall off the rear of
the road did no better against it.

It reads the vehicles' places (``state.vehicles``: Vendetta and the
Carnival); in a ruleset without them it is the greedy bot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.protocol import Decision, Ruleset
from ..core.rng import Rng
from .greedy import GreedyBot


class FrontBot(GreedyBot):
    """The greedy bot, a car crew's biggest die to its frontmost car."""

    name = "front"

    def scores(self, ruleset: Ruleset, state: Any, decision: Decision) -> Sequence[float] | None:
        scores = ruleset.score_options(state, decision)
        if scores is None or decision.kind != "assign" or not hasattr(state, "vehicles"):
            return scores
        # a car crew is the ruleset's default crew: the Big Rig and the Final Five keep greedy's order
        if next((s.crew for s in ruleset.seats(state) if s.name == decision.player), None) != ruleset.default_crew:
            return scores
        board = state.board  # how far along the board each vehicle is (its geometry: ``progress``)
        where = {v.id: board.progress(v.at) for v in state.vehicles if v.at is not None}
        # the greedy score holds -y/100 (rearmost first): +2y/100 makes it +y/100 (frontmost first)
        return [s + 2 * where[car] / 100.0 if (car := getattr(a, "car", None)) in where else s
                for s, a in zip(scores, decision.options)]

    def __repr__(self) -> str:
        return "FrontBot()"
