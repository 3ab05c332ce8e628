"""Reading the layouts stores were written in before the current one (docs/store.md, "Older stores").

Only ``trv store upgrade`` imports this package (``app.upgrade.upgrade_store``): it opens an old store
with :class:`~trvendetta.store.legacy.store.GameStore`, which reads every earlier row layout (plain
library JSON, the packed marks 1-7 with their frozen deflate dictionaries, compact ids, chunks and
snapshot parts), and copies each game into a store of the current layout.  Nothing here is used to
write a game any more.
"""
