"""The club server (``trv serve``, docs/server.md): asynchronous play in the browser and from
the CLI over HTTP, in host games whose host is the server.

``club.py`` is what the server does (players, offers, games, signed moves relayed to the
application layer), ``accounts.py`` its own tables beside the store's, ``app.py`` the HTTP
routes (Starlette), ``page/`` the page players play on (no build step).  Installed with the
optional extra ``trvendetta[server]``.
"""
