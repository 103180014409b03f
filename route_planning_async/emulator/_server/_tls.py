"""HTTPS for the emulator: a throwaway certificate authority made by ``trustme``.

The contract accepts HTTPS only, so the emulator serves HTTPS by default; clients
trust it through :attr:`TLSMaterial.client_context`, never by turning
verification off.
"""

from __future__ import annotations

import ssl

import attrs

__all__ = ["TLSMaterial", "make_tls"]


@attrs.frozen
class TLSMaterial:
    """The server's and the client's side of one throwaway CA."""

    server_context: ssl.SSLContext
    """Serves the certificate for 127.0.0.1, ::1 and localhost."""
    client_context: ssl.SSLContext
    """Verifies the server: pass it as ``ssl=`` to a client or an aiohttp session."""
    ca_pem: bytes
    """The CA certificate in PEM, for other processes (``--ca-file``, ``SSL_CERT_FILE``)."""


def make_tls() -> TLSMaterial:
    """Create a CA and a server certificate for the loopback names."""
    try:
        import trustme
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise RuntimeError(
            "the emulator needs 'trustme' to serve HTTPS: pip install 'route_planning_async[emulator]' "
            "(or start it with tls=False for plain HTTP on loopback)"
        ) from exc
    ca = trustme.CA()
    certificate = ca.issue_cert("127.0.0.1", "::1", "localhost")
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    certificate.configure_cert(server)
    client = ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
    ca.configure_trust(client)
    pem: bytes = ca.cert_pem.bytes()
    return TLSMaterial(server, client, pem)
