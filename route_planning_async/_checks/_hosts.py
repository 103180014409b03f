"""Host names, checked once wherever a URL is taken (``base_url``, ``ROUTE_PLANNING_BASE_URL``,
the emulator's ``webhook_url``), so that a host no request can go to is refused when it is given,
not as a ``UnicodeError`` at the first request.

A host is an IP address, or a name whose labels are 1 to 63 characters once encoded with IDNA
(the whole at most 253), as DNS takes them (RFC 1035, 2.3.4); a label ``xn--...`` must decode.
"""

from __future__ import annotations

import ipaddress

__all__ = ["host_problem"]

_MAX_LABEL = 63
_MAX_NAME = 253


def host_problem(host: str) -> str | None:
    """Why ``host`` cannot be connected to, as a phrase ("has an empty label"); None when it can."""
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        ipaddress.ip_address(bare)
    except ValueError:
        pass
    else:
        return None
    name = host[:-1] if host.endswith(".") else host
    if not name:
        return "is empty"
    labels = name.split(".")
    if any(not label for label in labels):
        return "has an empty label"
    encoded: list[bytes] = []
    for label in labels:
        if label.isascii() and len(label) > _MAX_LABEL:
            return f"has a label longer than {_MAX_LABEL} characters: {label[:20]!r}..."
        try:
            ascii_label = label.encode("idna")
            if ascii_label.lower().startswith(b"xn--"):
                ascii_label.decode("idna")
        except UnicodeError:
            return f"has a label IDNA cannot encode: {label[:_MAX_LABEL]!r}"
        if len(ascii_label) > _MAX_LABEL:
            return f"has a label longer than {_MAX_LABEL} characters: {label[:20]!r}..."
        encoded.append(ascii_label)
    if len(b".".join(encoded)) > _MAX_NAME:
        return f"is longer than {_MAX_NAME} characters"
    return None
