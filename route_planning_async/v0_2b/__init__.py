"""The Route Planning Service API v0.2b: its endpoint table, models, inputs and namespaces.

The shared rooms (scheduler, limits, backends, transport, retry, pagination,
operations, workflows, importer) know no version; this package is what is
v0.2b's own.
"""
