"""The `trv` command line (click): thin commands over event_store and the rulesets."""
