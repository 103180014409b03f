"""API keys, checked once wherever one is taken (the clients' ``api_key`` and
``ROUTE_PLANNING_API_KEY``, the emulator's ``api_key``), so that the emulator accepts exactly the
keys a client can send.

A key is a non-blank ``str`` that goes in an ``Authorization`` header as it is: no control
character (CR, LF or NUL would break, or inject into, the header; a C1 control is no part of a
key either), and no whitespace at either end (which a header does not keep).
"""

from __future__ import annotations

__all__ = ["key_problem"]


def key_problem(key: str) -> str | None:
    """Why ``key`` cannot be an API key, as a phrase ("must be a non-blank string"); None when it
    can. The phrase never quotes the key: a wrong setting may still be a real secret."""
    if not key.strip():
        return "must be a non-blank string"
    if any(_is_control(char) for char in key):
        return "must not contain control characters (CR, LF, NUL, tab, DEL, U+0080 to U+009F...)"
    if key != key.strip():
        return "must not start or end with whitespace"
    return None


def _is_control(char: str) -> bool:
    """Whether ``char`` is a C0 control, DEL or a C1 control (Unicode category Cc)."""
    code = ord(char)
    return code < 0x20 or 0x7F <= code <= 0x9F
