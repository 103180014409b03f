"""The schemathesis hook of the fuzz runs (``SCHEMATHESIS_HOOKS=fuzz.hooks``): a failure the
reviewed list holds (``known.py``) is dropped and tallied; every other one stands."""

from __future__ import annotations

import os
from typing import Any

import schemathesis

from fuzz.known import classify

_TALLY = "ROUTE_PLANNING_FUZZ_TALLY"


@schemathesis.hook
def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
    """False (dropped) for a failure of the reviewed list, after writing its id to the tally."""
    known = classify(failure, case, response)
    if known is None:
        return True
    tally = os.environ.get(_TALLY)
    if tally:
        with open(tally, "a", encoding="utf-8") as out:
            out.write(known.id + "\n")
    return False
