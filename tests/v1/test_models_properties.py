"""Properties of v1's decoding over the sample answers of ``test_models.py``: whatever a
newer service adds is ignored, and whatever a sparser answer leaves out either takes
its default or is a :class:`~route_planning_async.DecodeError` naming the key."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import route_planning_async as rp
from route_planning_async.v1._converter import structure

from .test_models import SAMPLES

DETERMINISTIC = settings(derandomize=True, database=None, max_examples=60)
_CASES = st.sampled_from([(sample, model) for sample, model, _, _ in SAMPLES])
_UNKNOWN = st.text(alphabet="xyzXYZ_", min_size=3, max_size=8).map(lambda name: f"new{name}")
_JSON = st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.lists(st.integers(), max_size=2)


_KEPT_AS_JSON = {"customProperties", "stop", "unassignedStop", "driver", "depot", "member"}
"""Keys of objects a model keeps as JSON, where a new key is kept too: custom properties,
and the echo of an import failure (under ``failed``)."""


def _with_unknown_keys(data: st.DataObject, value: Any, echo: bool = False) -> Any:
    """``value`` with unknown keys added to any of its objects but those kept as JSON."""
    if isinstance(value, dict):
        grown = {
            k: v
            if k == "customProperties" or (echo and k in _KEPT_AS_JSON)
            else _with_unknown_keys(data, v, k == "failed")
            for k, v in value.items()
        }
        if data.draw(st.booleans()):
            grown[data.draw(_UNKNOWN)] = data.draw(_JSON)
        return grown
    if isinstance(value, list):
        return [_with_unknown_keys(data, item, echo) for item in value]
    return value


def _without_keys(data: st.DataObject, value: Any) -> Any:
    """``value`` with any of the keys of any of its objects left out."""
    if isinstance(value, dict):
        return {k: _without_keys(data, v) for k, v in value.items() if data.draw(st.booleans())}
    if isinstance(value, list):
        return [_without_keys(data, item) for item in value]
    return value


@DETERMINISTIC
@given(data=st.data(), case=_CASES)
def test_unknown_keys_anywhere_change_nothing(
    data: st.DataObject, case: tuple[dict[str, Any], type[Any]]
) -> None:
    sample, model = case
    grown = _with_unknown_keys(data, copy.deepcopy(sample))
    assert structure(grown, model) == structure(sample, model)


@DETERMINISTIC
@given(data=st.data(), case=_CASES)
def test_a_sparser_answer_decodes_or_names_what_is_missing(
    data: st.DataObject, case: tuple[dict[str, Any], type[Any]]
) -> None:
    sample, model = case
    sparse = _without_keys(data, copy.deepcopy(sample))
    refusals: list[rp.DecodeError] = []
    try:
        decoded = structure(sparse, model)
    except rp.DecodeError as error:
        refusals.append(error)
    else:
        assert isinstance(decoded, model)
    for refusal in refusals:
        assert refusal.path, refusal


@pytest.mark.parametrize("status", ["available", "pending", "restricted", "empty", "brand_new"])
def test_every_status_decodes_without_its_value(status: str) -> None:
    stop = copy.deepcopy(SAMPLES[0][0])
    stop["eta"] = {"status": status}
    stop["serviceInfo"] = {"status": status}
    stop["deliveryInfo"]["timeAtStopInfo"] = {"status": status}
    decoded = structure(stop, SAMPLES[0][1])
    assert decoded.eta is not None
    assert (decoded.eta.status, decoded.eta.value) == (status, None)
    assert decoded.service_info is not None
    assert decoded.service_info.value is None
