"""The Final Five's own events (its rules: ``rules.py``)."""
