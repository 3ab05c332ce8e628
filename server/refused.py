"""The one refusal a club server's work raises (``server.club``, ``server.bots``): an HTTP status and one
message naming the problem; the routes (``server.app``) turn it into the response."""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """A request the server turns down: an HTTP status and one message naming the problem."""

    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message)
        self.status = status
        self.message = message
        #: more of the answer (``recorded``: the event a refused request's records were stored up to)
        self.extra = extra


__all__ = ["Refused"]
