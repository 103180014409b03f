"""Any endpoint, answered undecoded (``client.raw``): the shared raw namespace with v0.2b's table."""

from __future__ import annotations

from route_planning_async._client import RawNamespace
from route_planning_async.v0_2b.resources._common import TABLE


class Raw(RawNamespace):
    """Any v0.2b endpoint, answered as the HTTP response itself (``client.raw``).

    For what the models do not show: the status and headers of an answer, a
    field this version does not model, an endpoint newer than the library.
    Requests still pass the scheduler (limits, queues, retries of 429s, 5xx
    and lost connections), in the category of v0.2b's endpoint table that
    matches the method and path; a path the table does not know needs
    ``category=``. The answer is returned whatever its status: nothing is
    raised for an error status or decoded.

    Everything is checked before the scheduler admits the request, so a
    refused one is neither counted nor sent: the path (no ``.`` or ``..``
    segment, which would be resolved to another endpoint than the one its
    category was chosen for), the query and the JSON body.
    """

    __slots__ = ()

    _table = TABLE
