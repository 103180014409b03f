"""The v1 stop search: the filter language's parser, keyword match and sort.

The handler of ``GET /stops:search`` calls::

    search(documents, *, keyword=None, filter=None, sort_field=None, sort_order="asc")
        -> list[Mapping[str, Any]]

``documents`` are the stop and unassigned stop bodies to search (stored JSON
dicts; a stop's body with its ``route`` rendered, so ``routeId`` can be
matched). The answer holds the same dict objects, filtered and ordered; the
caller pages it. Any bad parameter raises :class:`SearchError`, whose
``message`` and ``param`` (``"filter"``, ``"keyword"``, ``"sortField"`` or
``"sortOrder"``) make the 400 answer; ``position`` is the offending offset in
the filter text, when there is one.
"""
