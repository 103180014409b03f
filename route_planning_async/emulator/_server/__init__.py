"""The server: :class:`Emulator`, its aiohttp application, TLS, and the versions it serves.

- ``_server.py``: :class:`Emulator`, the server on a loopback socket and its measures
  (``max_in_window`` ...);
- ``_app.py``: the aiohttp application and the request pipeline (base path, authentication,
  route, path ids, rate limits, faults, body) that ends in a version's handler;
- ``_versions.py``: the versions served (``v0_2b/``, ``v1/``);
- ``_tls.py``: the throwaway CA.

The top floor: it may import every other room of the emulator and the versions' packages;
no room imports it (only the package's ``__init__.py``, ``__main__.py`` and the pytest plugin).
"""
