"""The emulator's deterministic world: pure functions of their inputs, with no I/O.

- ``_geo.py``: the deterministic geocoder and distances;
- ``_optimizer.py``: the deterministic route optimizer.

It imports no other room of the emulator.
"""
