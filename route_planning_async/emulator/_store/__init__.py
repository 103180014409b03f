"""The stored data: records, their JSON bodies, and the collections that hold them.

- ``_records.py``: the stored records (plans, stops, routes, members, operations ...);
- ``_bodies.py``: stop bodies in their stored JSON form;
- ``_collections.py``: ordered stores with cursor pagination;
- ``_store.py``: the store: collections, ids, lookups and guards.

It may import ``_setup/``, ``_rules/`` (the error answers) and ``_routing/`` (a record keeps
the optimizer's outcome), nothing above.
"""
