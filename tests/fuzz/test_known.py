"""The reviewed list and its evidence agree: every entry of ``known.py`` has its row in
``docs/differences.md`` (and no row names an entry that is gone)."""

from __future__ import annotations

import re
from pathlib import Path

from fuzz.known import KNOWN

_DOC = Path(__file__).resolve().parents[2] / "docs" / "differences.md"


def test_every_entry_has_its_row_with_the_evidence() -> None:
    text = _DOC.read_text(encoding="utf-8")
    section = text[text.index("## What the fuzzer flags, reviewed") :]
    rows = set(re.findall(r"^\| `([a-z-]+)` \|", section, re.MULTILINE))
    assert rows == {known.id for known in KNOWN}
    for known in KNOWN:
        assert known.reason
        assert known.codes
        assert known.evidence.endswith("#what-the-fuzzer-flags-reviewed")
