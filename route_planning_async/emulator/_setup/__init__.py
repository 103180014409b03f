"""What an emulator is told to be: its configuration, its team and its command line.

- ``_config.py``: :class:`EmulatorConfig` (speed-up, limits and the limiter's kind, latency,
  the team, the webhooks ...);
- ``_team.py``: the team (drivers, depots, custom stop properties, service offerings);
- ``_team_file.py``: the team (and limits) read from a TOML or JSON file;
- ``_lockout.py``: the lockout of a key refused at a high rate: the policy
  (:class:`Lockout`, a field of the config) and the rule that applies it per key;
- ``_options.py``: the command line both emulator commands take
  (``python -m route_planning_async.emulator`` and ``route-planning emulator``).

The ground floor of the emulator: it imports no other room of the emulator, only the
library's own floors (its limits, versions, errors and docs machinery).
"""
