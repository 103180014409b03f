"""The commands, one module per command group; ``_app`` adds each to the root command.

- ``_demo``: ``demo``, the whole workflow against an embedded emulator.
- ``_plans``: ``plans list|create|get|delete``.
- ``_stops``: ``stops list|import|export|sample``.
- ``_search``: ``stops search`` (v1), added to the ``stops`` group.
- ``_routes``: ``optimize``, ``operations wait|cancel``, ``distribute``, ``routes get``.
- ``_drivers``: ``drivers list|import`` (the driver file too).
- ``_depots``: ``depots list|import`` (the depot file too; import is v1's).
- ``_members``: ``members import`` (v1).
- ``_emulator``: ``emulator``, a lasting emulator for the other commands.
- ``_webhooks``: ``webhooks listen`` and ``webhooks verify``: receiving the service's events.

A command may import every room of the command line below ``_app``; no command imports
another.
"""
