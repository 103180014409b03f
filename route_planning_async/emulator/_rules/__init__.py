"""What a request must look like, and the error answer when it does not.

- ``_problems.py``: :class:`Problem`, the error answer raised anywhere below a handler;
- ``_validation.py``: the JSON value checks request rules are written with;
- ``_routes.py``: route tables, the endpoints every version serves, and path matching;
- ``_pages.py``: page sizes, filters and page tokens of the lists;
- ``_requests.py`` and ``_stop_requests.py``: the request rules the versions share (each
  version names its stop fields).

It may import ``_setup/`` and nothing else of the emulator; every room above it raises
its :class:`Problem`.
"""
