"""The Big Rig's own events and actions (its rules: ``rules.py``)."""
