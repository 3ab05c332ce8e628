"""The Big Rig's own events and actions (its rules: ``vendetta/bigrig.py``)."""
