"""Request bodies and response pages the benchmarks send and decode.

Stops are generated lazily and deterministically from their index, so a million
of them never sit in memory at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import Any

import route_planning_async

DEPOT_LAT, DEPOT_LNG = 51.5074, -0.1278


def stop_body(i: int) -> dict[str, Any]:
    """The JSON body of the i-th stop to import: coordinates, a recipient, an order, notes."""
    return {
        "address": {
            "addressLineOne": f"{i % 997 + 1} Bench Street",
            "city": "London",
            "country": "GB",
            "latitude": round(DEPOT_LAT + (i % 200 - 100) * 0.0007, 6),
            "longitude": round(DEPOT_LNG + (i // 200 % 200 - 100) * 0.0011, 6),
        },
        "recipient": {"name": f"Recipient {i}", "externalId": f"ext-{i}"},
        "orderInfo": {"sellerOrderId": f"order-{i}", "products": ["box"]},
        "packageCount": 1 + i % 3,
        "notes": f"Bench stop {i}",
    }


def stop_bodies(count: int) -> Iterator[dict[str, Any]]:
    """``count`` stop bodies, made one at a time."""
    return (stop_body(i) for i in range(count))


def full_stop(plan: str, i: int) -> dict[str, Any]:
    """A Stop representation with every field of the contract filled in."""
    return {
        "id": f"{plan}/stops/stop{i:06d}",
        "plan": plan,
        "route": {
            "id": "routes/route0001",
            "title": "Ana",
            "stopCount": 42,
            "driver": "drivers/driver-ana",
            "plan": plan,
            "state": {
                "completed": False,
                "completedAt": None,
                "distributed": True,
                "distributedAt": 1795000000,
                "notifiedRecipients": True,
                "notifiedRecipientsAt": 1795000100,
                "started": True,
                "startedAt": 1795003600,
            },
        },
        "address": {
            "address": f"{i} Bench Street, London, GB",
            "addressLineOne": f"{i} Bench Street",
            "addressLineTwo": "Flat 2",
            "latitude": 51.5074 + i * 1e-5,
            "longitude": -0.1278 - i * 1e-5,
            "placeId": f"place-{i}",
            "placeTypes": ["street_address", "premise"],
        },
        "barcodes": [f"BC{i:08d}", f"BC{i + 1:08d}"],
        "driverIdentifier": None,
        "allowedDriversIdentifiers": ["ana@example.com", "ben@example.com"],
        "timing": {
            "earliestAttemptTime": {"hour": 9, "minute": 0},
            "latestAttemptTime": {"hour": 17, "minute": 30},
            "estimatedAttemptDuration": 180,
        },
        "estimatedTravelDuration": 420,
        "estimatedTravelDistance": 3100,
        "notes": "Leave with the neighbour if nobody answers.",
        "orderInfo": {
            "products": ["box", "envelope"],
            "sellerOrderId": f"order-{i}",
            "sellerName": "Bench Shop",
            "sellerWebsite": "https://shop.example.com",
        },
        "packageCount": 2,
        "placeInVehicle": {"x": "left", "y": "middle", "z": "floor"},
        "type": "stop",
        "recipient": {
            "email": f"r{i}@example.com",
            "externalId": f"ext-{i}",
            "name": f"Recipient {i}",
            "phone": "+440000000099",
        },
        "activity": "delivery",
        "packageLabel": f"A-{i}",
        "deliveryInfo": {
            "attempted": True,
            "attemptedAt": 1795010000,
            "attemptedLocation": {"latitude": 51.5075, "longitude": -0.1279},
            "driverProvidedInternalNotes": "Gate code worked.",
            "driverProvidedRecipientNotes": None,
            "photoUrls": ["https://photos.example.com/1.jpg"],
            "recipientProvidedNotes": None,
            "signatureUrl": "https://photos.example.com/sig.png",
            "signeeName": "R. Ecipient",
            "state": "delivered_to_recipient",
            "succeeded": True,
        },
        "proofOfAttemptRequirements": {"enabled": True},
        "optimizationOrder": "default",
        "eta": {
            "estimatedArrivalAt": 1795009000,
            "estimatedEarliestArrivalAt": 1795008000,
            "estimatedLatestArrivalAt": 1795010000,
        },
        "etaNullReason": None,
        "customProperties": {"6f1c4f0e-4a44-4b7b-9d59-0d6f2b1d1a01": "1234"},
        "stopPosition": i + 1,
        "trackingLink": f"https://track.example.com/{i}",
        "webAppLink": f"https://app.example.com/{plan}/stops/{i}",
        "circuitClientId": f"client-{i}",
    }


def full_stop_page(size: int = 10) -> dict[str, Any]:
    """One page of the stop list (``maxPageSize`` is at most 10 for stops) of full stops."""
    plan = "plans/benchplan"
    return {"stops": [full_stop(plan, i) for i in range(size)], "nextPageToken": "next-page-token"}


def stop_input(i: int, api: ModuleType = route_planning_async) -> Any:
    """The i-th stop as the input model of ``api`` (the package of an API version; v0.2b's by
    default); the same content as :func:`stop_body`."""
    body = stop_body(i)
    address = body["address"]
    return api.StopInput(
        address=api.AddressInput(
            address_line_one=address["addressLineOne"],
            city=address["city"],
            country=address["country"],
            latitude=address["latitude"],
            longitude=address["longitude"],
        ),
        recipient=api.RecipientInput(
            name=body["recipient"]["name"], external_id=body["recipient"]["externalId"]
        ),
        order_info=api.OrderInfoInput(seller_order_id=body["orderInfo"]["sellerOrderId"], products=["box"]),
        package_count=body["packageCount"],
        notes=body["notes"],
    )


def stop_inputs(count: int, api: ModuleType = route_planning_async) -> Iterator[Any]:
    """``count`` stop inputs of ``api``, made one at a time (a stream, as a large import reads them)."""
    return (stop_input(i, api) for i in range(count))


CUSTOM_PROPERTY = "6f1c4f0e-4a44-4b7b-9d59-0d6f2b1d1a01"
"""A custom stop property id the emulator's default team defines."""


def rich_stop_body(i: int) -> dict[str, Any]:
    """A stop body with every optional field the create and import calls take."""
    body = stop_body(i)
    body["address"]["addressName"] = f"Bench house {i}"
    body["address"]["addressLineTwo"] = "Flat 2"
    body["recipient"].update({"email": f"r{i}@example.com", "phone": "+440000000099"})
    body["orderInfo"].update({"sellerName": "Bench Shop", "sellerWebsite": "https://shop.example.com"})
    body.update(
        {
            "timing": {
                "earliestAttemptTime": {"hour": 9, "minute": 0},
                "latestAttemptTime": {"hour": 17, "minute": 30},
                "estimatedAttemptDuration": 180,
            },
            "proofOfAttemptRequirements": {"enabled": True},
            "activity": "delivery",
            "optimizationOrder": "default",
            "barcodes": [f"BC{i:08d}", f"BC{i + 1:08d}"],
            "customProperties": {CUSTOM_PROPERTY: "1234"},
            "circuitClientId": f"client-{i}",
        }
    )
    return body
