"""What happens to a request on its way in, before a handler sees it, and the record of it.

- ``_limits.py``: the server's rate limits per API key (sliding windows or token buckets,
  the penalty for sustained traffic) and the timeline of the limits in force;
- ``_log.py``: the request log (and the limits in force when);
- ``_link.py``: the link's latency and jitter;
- ``_faults.py``: scripted faults (:class:`Fault`, :class:`FaultInjector`).

It may import ``_setup/`` (the config and the lockout rule) and nothing else of the emulator.
"""
