"""Checks of the values a caller hands the library, made before anything is sent.

- ``_ids.py``: resource ids, parsed and checked before they reach a URL or a body
  (``"plans/<id>"`` or ``"<id>"``), and their types (``PlanId``, ``StopId``, ...);
- ``_validators.py``: the validators and converters of the input classes' fields,
  the keyword checks of the methods, and :data:`~route_planning_async.UNSET`;
- ``_hosts.py``: a host name checked wherever a URL is taken (``base_url``, the
  emulator's ``webhook_url``);
- ``_keys.py``: an API key checked wherever one is taken (the clients' ``api_key``,
  the emulator's).

Rooms
-----

This room imports ``_errors`` alone (each failure is a
:class:`~route_planning_async.ValidationError`, or a phrase its caller turns into
a :class:`~route_planning_async.ConfigurationError`); the input classes, the
models, the namespaces, the workflows and the clients import it.
"""
