"""Distances and the emulator's deterministic geocoder.

The geocoding rule (the emulator's own; the service's geocoder is not described):

1. When ``latitude`` and ``longitude`` are sent, they are the location (they "override
   the other fields", contract Stops in a plan). ``address`` is the joined text fields,
   which is empty for a stop sent by coordinates only.
2. Otherwise the text fields ``addressLineOne``, ``addressLineTwo``, ``city``,
   ``state``, ``zip`` and ``country`` are joined (``addressName`` is "display only,
   not used for geocoding"). No text, or text containing the configured marker
   (``UNGEOCODABLE`` by default, any case), cannot be geocoded.
3. Any other text is placed 0.5 to 15 km from a centre, at a bearing and distance
   taken from the SHA-256 of the lower-cased joined text: the same text always lands
   on the same spot. The centre is the city the text names (a whole word of
   :data:`CITIES`, any case; the last one named when several are), else the depot.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Mapping
from typing import Any

import attrs

__all__ = ["CITIES", "EARTH_RADIUS_M", "Geocoded", "bearing", "city_centre", "geocode", "haversine_m"]

EARTH_RADIUS_M = 6_371_000.0
"""Mean Earth radius used by every distance."""

_TEXT_FIELDS = ("addressLineOne", "addressLineTwo", "city", "state", "zip", "country")
_MIN_DISTANCE_M = 500.0
_MAX_DISTANCE_M = 15_000.0

CITIES: Mapping[str, tuple[float, float]] = {
    "london": (51.5074, -0.1278),
    "seattle": (47.6062, -122.3321),
    "new york": (40.7128, -74.0060),
    "paris": (48.8566, 2.3522),
    "berlin": (52.5200, 13.4050),
    "amsterdam": (52.3676, 4.9041),
    "sydney": (-33.8688, 151.2093),
    "toronto": (43.6532, -79.3832),
    "san francisco": (37.7749, -122.4194),
    "chicago": (41.8781, -87.6298),
}
"""Cities an address may name to be placed near them (lower-case name: centre)."""

_CITY_PATTERN = re.compile(r"\b(" + "|".join(re.escape(name) for name in CITIES) + r")\b", re.IGNORECASE)


def haversine_m(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle distance in meters."""
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    dphi = phi2 - phi1
    dlmb = math.radians(lng2 - lng1)
    h = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlmb / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(h)))


def bearing(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Angle of the second point around the first, in radians within [0, 2π)."""
    dy = lat2 - lat1
    dx = (lng2 - lng1) * math.cos(math.radians(lat1))
    return math.atan2(dy, dx) % (2 * math.pi)


@attrs.frozen
class Geocoded:
    """Where an address was placed."""

    latitude: float
    """Decimal degrees."""
    longitude: float
    """Decimal degrees."""
    address: str
    """The combined address text (empty for coordinates only)."""
    place_id: str | None
    """A stable id for geocoded text; None for coordinates."""


def joined_text(address: Mapping[str, Any]) -> str:
    """The text fields used for geocoding, joined with ``", "``."""
    return ", ".join(str(address[key]) for key in _TEXT_FIELDS if address.get(key))


def city_centre(text: str) -> tuple[float, float] | None:
    """The centre of the last city of :data:`CITIES` that ``text`` names, or None."""
    found = _CITY_PATTERN.findall(text)
    return CITIES[found[-1].lower()] if found else None


def geocode(address: Mapping[str, Any], centre: tuple[float, float], marker: str) -> Geocoded | None:
    """Place a validated address, or None when it cannot be geocoded."""
    text = joined_text(address)
    lat, lng = address.get("latitude"), address.get("longitude")
    if lat is not None and lng is not None:
        return Geocoded(float(lat), float(lng), text, None)
    if not text or (marker and marker.lower() in text.lower()):
        return None
    centre = city_centre(text) or centre
    digest = hashlib.sha256(text.lower().encode()).digest()
    angle = int.from_bytes(digest[0:4], "big") / 2**32 * 2 * math.pi
    fraction = int.from_bytes(digest[4:8], "big") / 2**32
    distance = _MIN_DISTANCE_M + fraction * (_MAX_DISTANCE_M - _MIN_DISTANCE_M)
    dlat = math.degrees(distance * math.sin(angle) / EARTH_RADIUS_M)
    dlng = math.degrees(distance * math.cos(angle) / (EARTH_RADIUS_M * math.cos(math.radians(centre[0]))))
    latitude = max(-90.0, min(90.0, centre[0] + dlat))
    longitude = (centre[1] + dlng + 180.0) % 360.0 - 180.0
    return Geocoded(round(latitude, 7), round(longitude, 7), text, "emulated-" + digest.hex()[:20])
