"""The Route Planning Service API v0.2b: what is v0.2b's own.

- ``_client.py``: :class:`RoutePlanningClient`, the shared base client
  (``_client/``) with v0.2b's service address and namespaces;
- ``_endpoints.py``, ``_models.py``, ``_inputs.py``, ``_converter.py``: the
  endpoint table, the models, the inputs and the JSON converter;
- ``resources/``: one module per namespace (``client.plans`` and the rest);
- ``_live_edit.py``: the live edit block's calls, typed with v0.2b's inputs;
- ``_import_targets.py``: where the bulk importer sends its batches.

The shared rooms (client base, scheduler, limits, backends, transport, retry,
pagination, operations, workflows, importer) know no version. The modules are
imported by name, so that importing one of them does not load the rest.
"""

__all__: list[str] = []
