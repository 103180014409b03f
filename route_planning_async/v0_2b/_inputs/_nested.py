"""v0.2b's own object nested in a stop's body: its order (the others are every version's,
``route_planning_async/_inputs/_nested.py``)."""

from __future__ import annotations

import attrs

from route_planning_async._docs import fields_documented
from route_planning_async._inputs import OrderInfoFields

__all__ = ["OrderInfoInput"]


@fields_documented
@attrs.frozen(kw_only=True)
class OrderInfoInput(OrderInfoFields):
    """The order behind a stop.

    Keyword Args:
        products (list[str]): At most 100 product names, each 1 to 255 characters.
        seller_order_id (str | None): The seller's order id, 1 to 255 characters.
        seller_name (str | None): The seller's name, 1 to 255 characters.
        seller_website (str | None): The seller's website, 1 to 255 characters.
    """
