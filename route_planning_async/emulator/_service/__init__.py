"""The service's behaviour: what it does to the stored data, whatever the API version.

- ``_state.py``: :class:`EmulatorState`, the one object that holds the data, put together
  from the modules below;
- ``_edits.py``: plain writes to plans, stops and unassigned stops;
- ``_live.py``: live changes;
- ``_optimizations.py``: optimization operations;
- ``_lifecycle.py``: save and distribution: the plan state machine;
- ``_drivers.py``: the team's drivers, changeable as the public API documentation allows;
- ``_depots.py`` and ``_members.py``: v1's depots and members;
- ``_services.py``: the service offerings a stop's ``serviceInfo`` names (v1);
- ``_driving.py``: a driver working through a distributed route (``Emulator.simulate_route``).

It may import ``_store/``, ``_rules/``, ``_routing/`` and ``_setup/``; it knows no HTTP.
"""
