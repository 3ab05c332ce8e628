"""The Final Five's own events (its rules: ``vendetta/finalfive.py``)."""
