"""Any v1 endpoint, answered undecoded (``client.raw``): the shared raw namespace with v1's table."""

from __future__ import annotations

from route_planning_async._client import RawNamespace
from route_planning_async.v1.resources._common import TABLE


class Raw(RawNamespace):
    """Any v1 endpoint, answered as the HTTP response itself (``client.raw``).

    The request still passes the scheduler, in the category v1's endpoint table
    gives its method and path (``category=`` for a path the table does not
    know); nothing is decoded or raised for an error status.
    :meth:`request` says what is checked before anything is admitted.
    """

    __slots__ = ()

    _table = TABLE
