"""The engine core shared by every ruleset: geometry, dice, errors, the protocol."""
