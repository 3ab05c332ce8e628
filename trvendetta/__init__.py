"""trvendetta: the pure rules engine (no I/O, no clock, no global randomness).

Rulesets are found by name through :func:`trvendetta.rulesets.get`.
"""

__version__ = "0.1.0"
