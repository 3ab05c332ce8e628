"""Tournaments (pure): the organiser's events, the fold, pairing, finishing
places and standings.  Standard library and msgspec only; the store keeps
the events (``trvendetta.store.tournament``), ratings and the read model live
in the shell (``trvendetta.app.tournament_read``)."""

from . import events
from .model import State, TournamentError, evolve, fold
from .pairing import History, history_of, pair, table_sizes
from .places import finishing_places
from .standings import GameResult, Standing, decided, standings

__all__ = ["events", "State", "TournamentError", "evolve", "fold", "History", "history_of", "pair", "table_sizes",
           "finishing_places", "GameResult", "Standing", "decided", "standings"]
