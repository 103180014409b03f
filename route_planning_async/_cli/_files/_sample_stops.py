"""Realistic, seeded stops around a depot, for the demo and for sample CSV files.

The stops cluster in neighbourhoods around the depot, as deliveries do. Most
have no time window; some want business hours or the morning, and a handful ask
for a slot before any driver starts, which no route can meet (the optimizer
skips those, as it would in real life).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from datetime import time
from typing import Any

import attrs

from route_planning_async import StopInput
from route_planning_async._cli._files._csv import build_stop

__all__ = ["DEFAULT_DEPOT", "DemoArea", "fields_as_csv_row", "generate_stop_fields", "generate_stops"]


@attrs.frozen
class DemoArea:
    """Where the demo's depot is and what the addresses around it look like."""

    name: str
    """The depot's display name."""
    latitude: float
    """The depot's latitude."""
    longitude: float
    """The depot's longitude."""
    city: str
    """City of every generated address."""
    country: str
    """Country of every generated address."""
    radius_km: float = 12.0
    """How far from the depot the neighbourhoods lie."""


DEFAULT_DEPOT = DemoArea(
    name="Central Depot",
    latitude=51.5074,
    longitude=-0.1278,
    city="London",
    country="GB",
)
"""The demo's depot: a city centre with neighbourhoods all around."""

_STREETS = (
    "High Street", "Church Road", "Station Road", "Victoria Road", "Park Road", "Mill Lane", "Queens Road",
    "King Street", "Albert Road", "Grove Road", "Manor Road", "Green Lane", "Springfield Road",
    "Kingsland Road", "Holloway Road", "Camden Road", "Brixton Road", "Lordship Lane", "Old Kent Road",
    "Essex Road", "Upper Street", "Mare Street", "Roman Road", "Walworth Road", "Cable Street",
    "Fulham Road", "Uxbridge Road", "Portobello Road", "Harrow Road", "Kilburn High Road", "Caledonian Road",
    "Stoke Newington Church Street", "Balham High Road", "Northcote Road", "Lavender Hill",
    "Coldharbour Lane",
)  # fmt: skip
_POSTCODE_DISTRICTS = (
    "E1", "E2", "E3", "E5", "E8", "E9", "N1", "N4", "N7", "N16", "NW1", "NW3", "NW5", "NW6", "SE1", "SE5",
    "SE10", "SE15", "SE22", "SW2", "SW4", "SW6", "SW9", "SW11", "SW12", "W2", "W10", "W11", "W12", "EC1V",
)  # fmt: skip
_FIRST_NAMES = (
    "Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "Mateo", "Isabella", "Lucas", "Mia",
    "Levi", "Amelia", "Ezra", "Harper", "Kai", "Evelyn", "Leo", "Aria", "Hiro", "Priya", "Omar", "Chloe",
    "Diego", "Zoe", "Nia", "Ivan", "Sara", "Tomás", "Mei", "Jonas", "Fatima", "Ada", "Yusuf", "Lena",
)  # fmt: skip
_LAST_NAMES = (
    "Smith", "Jones", "Taylor", "Nguyen", "Brown", "Kim", "Patel", "Williams", "Lee", "Walker",
    "Ahmed", "Evans", "Lopez", "Hill", "Scott", "Green", "Adams", "Baker", "Nakamura", "Rivera",
    "Campbell", "Mitchell", "Roberts", "Okafor", "Novak", "Schmidt", "Silva", "Cohen", "Larsen", "Khan",
)  # fmt: skip
_BUSINESSES = (
    "Borough Bakery", "Upper Street Books", "Clapham Dental", "Hackney Hardware", "Brixton Florist",
    "Camden Studios", "Dalston Bikes", "Peckham Pharmacy", "Islington Optics", "Shoreditch Coffee",
)  # fmt: skip
_NOTES = (
    "Leave at the front door",
    "Ring the bell twice",
    "Gate code 4821",
    "Call on arrival",
    "Fragile: glassware",
    "Side entrance, by the garage",
    "Hand to reception",
    "Dog in the garden, friendly",
)
_PRODUCTS = ("Groceries", "Flowers", "Books", "Electronics", "Pharmacy", "Clothing", "Hardware", "Coffee")
_POSTCODE_LETTERS = "ABDEFGHJLNPQRSTUWXYZ"
_EARTH_KM_PER_DEGREE = 111.32


def _offset(area: DemoArea, north_km: float, east_km: float) -> tuple[float, float]:
    latitude = area.latitude + north_km / _EARTH_KM_PER_DEGREE
    longitude = area.longitude + east_km / (_EARTH_KM_PER_DEGREE * math.cos(math.radians(area.latitude)))
    return round(latitude, 6), round(longitude, 6)


def _time_window(rng: random.Random) -> tuple[time | None, time | None]:
    draw = rng.random()
    if draw < 0.80:
        return None, None
    if draw < 0.92:
        return time(8, 0), time(18, 0)
    if draw < 0.99:
        return time(8, 0), time(12, 0)
    # A slot before any driver's day starts: no route can meet it.
    return time(5, 0), time(5, 30)


def generate_stop_fields(
    count: int, *, seed: int = 0, area: DemoArea = DEFAULT_DEPOT
) -> list[dict[str, Any]]:
    """``count`` stops as field values (the names of :data:`~._csv.FIELDS`); the same for the same seed."""
    rng = random.Random(seed)
    neighbourhoods = []
    for index in range(8):
        bearing = 2 * math.pi * (index + rng.random() * 0.6) / 8
        distance = area.radius_km * (0.25 + 0.65 * rng.random())
        neighbourhoods.append((distance * math.cos(bearing), distance * math.sin(bearing)))
    external_ids = rng.sample(range(100_000, 1_000_000), count)
    stops: list[dict[str, Any]] = []
    for position in range(count):
        north, east = rng.choice(neighbourhoods)
        latitude, longitude = _offset(area, north + rng.gauss(0, 1.3), east + rng.gauss(0, 1.3))
        first, last = rng.choice(_FIRST_NAMES), rng.choice(_LAST_NAMES)
        earliest, latest = _time_window(rng)
        packages = rng.choices((1, 2, 3, 4), weights=(70, 18, 8, 4))[0]
        fields: dict[str, Any] = {
            "address_line_one": f"{rng.randrange(1, 250)} {rng.choice(_STREETS)}",
            "city": area.city,
            "zip": f"{rng.choice(_POSTCODE_DISTRICTS)} {rng.randrange(1, 10)}"
            + "".join(rng.choices(_POSTCODE_LETTERS, k=2)),
            "country": area.country,
            "latitude": latitude,
            "longitude": longitude,
            "recipient_name": f"{first} {last}",
            "recipient_email": f"{first.lower()}.{last.lower()}{position}@example.com",
            # 020 7946 0xxx is set aside for fiction (Ofcom), so no real phone is dialled.
            "recipient_phone": f"+4420794600{rng.randrange(0, 100):02d}",
            "external_id": f"CUST-{external_ids[position]}",
            "earliest": earliest,
            "latest": latest,
            "duration": rng.choice((60, 90, 90, 120, 120, 180)),
            "package_count": packages,
            "barcodes": [f"RP{rng.randrange(10**9, 10**10)}" for _ in range(packages)],
            "products": [rng.choice(_PRODUCTS)],
            "seller_order_id": f"ORD-{seed % 1000:03d}-{position + 1:05d}",
        }
        if rng.random() < 0.1:
            fields["address_name"] = rng.choice(_BUSINESSES)
        if rng.random() < 0.15:
            fields["notes"] = rng.choice(_NOTES)
        stops.append({name: value for name, value in fields.items() if value is not None})
    return stops


def generate_stops(count: int, *, seed: int = 0, area: DemoArea = DEFAULT_DEPOT) -> list[StopInput]:
    """``count`` realistic stops around ``area``'s depot; the same for the same seed."""
    return [build_stop(fields) for fields in generate_stop_fields(count, seed=seed, area=area)]


def fields_as_csv_row(fields: Mapping[str, Any]) -> dict[str, str]:
    """Field values as CSV cells under the fields' own names (lists joined with ``;``)."""
    row: dict[str, str] = {}
    for name, value in fields.items():
        if isinstance(value, list):
            row[name] = ";".join(str(item) for item in value)
        elif isinstance(value, time):
            row[name] = value.strftime("%H:%M")
        else:
            row[name] = str(value)
    return row
