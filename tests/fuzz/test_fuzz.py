"""schemathesis over both official files against the emulator (``harness.py``).

The floor run of ``nox -s matrix`` makes a bounded pass (a few examples per operation); ``nox -s fuzz``
the full one (``ROUTE_PLANNING_FUZZ_EXAMPLES=300``). A failure outside the reviewed list
(``known.py``), a server error included, fails it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzz.harness import SPEC_FILES, examples, run_schemathesis, running_emulator, seed


@pytest.mark.fuzz
@pytest.mark.timeout(0)
@pytest.mark.parametrize("version", sorted(SPEC_FILES))
def test_the_official_file_finds_nothing_outside_the_reviewed_list(version: str, tmp_path: Path) -> None:
    with running_emulator() as origin:
        outcome = run_schemathesis(version, origin, seed(origin), tmp_path)
    known = dict(sorted(outcome.known.items()))
    print(f"{version}: {examples()} examples per operation, {outcome.generated} test cases, known: {known}")
    assert outcome.report, outcome.output[-4000:]
    assert outcome.report["operations"]["tested"] == outcome.report["operations"]["total"]
    assert outcome.report["errors"] == [], outcome.output[-4000:]
    assert outcome.report["failures"] == [], outcome.output[-12000:]
    assert outcome.exit_code == 0, outcome.output[-4000:]
