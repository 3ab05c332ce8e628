"""The signed messages that set up a game at a distance: defined in ``trvendetta.replays.messages``
(the record tools rebuild them from a charter, docs/fair-play.md), kept importable from here."""

from trvendetta.replays.messages import Contribution, Invite, Join, Offer, Signed

__all__ = ["Contribution", "Invite", "Join", "Offer", "Signed"]
