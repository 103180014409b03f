"""What the API versions share on the wire: the call and reply, handlers, answers, webhooks.

- ``_api.py``: what the pipeline and a version share (the call, the reply,
  :class:`ApiVersion`);
- ``_handlers.py``: the handlers the versions share;
- ``_views.py``: the answers the versions give alike;
- ``_webhooks.py``: the webhook events, signed and POSTed to ``webhook_url`` with retries.

It may import ``_service/``, ``_store/``, ``_rules/`` and ``_setup/``. What a version decides
(its route table, stop fields, answers and handlers) is in ``v0_2b/`` and ``v1/``, above it.
"""
