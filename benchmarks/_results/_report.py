"""RESULTS.md from the dicts the benchmarks return."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from benchmarks._results._figures import fmt

_MACHINE_ROWS = (
    ("CPU", "cpu_model"),
    ("Cores", "cores"),
    ("RAM (GiB)", "ram_gib"),
    ("OS", "os"),
    ("Python", "python"),
    ("aiohttp", "aiohttp"),
    ("Load average at start", "load_average_at_start"),
    ("Date", "date"),
)


def _cell(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(fmt(v) for v in value)
    return fmt(value).replace("|", "\\|").replace("\n", " ")


def _flat(figures: Mapping[str, Any], prefix: str = "") -> list[list[Any]]:
    """Nested figures as rows, their keys joined with " / "."""
    rows: list[list[Any]] = []
    for key, value in figures.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            rows += _flat(value, f"{name} / ")
        else:
            rows.append([name, value])
    return rows


def _table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return lines


def render(run: Mapping[str, Any]) -> str:
    """The whole Markdown report of one run."""
    machine = run["machine"]
    out: list[str] = [
        "# Benchmark results",
        "",
        f"Produced by `{run['command']}` in {fmt(round(run['total_seconds']))} s"
        f" ({'quick smoke pass: toy sizes, figures not meaningful' if run['quick'] else 'full run'}).",
        "Every figure is a ratio or a count measured in this run, against the local emulator;",
        "a figure that misses its bar says MISSED. What the committed run misses, why, and what was",
        'measured to mend it: the Performance page (`docs/performance.md`, "What the committed run misses").',
        "",
        "## Machine",
        "",
        *_table(["", ""], [[label, machine.get(key)] for label, key in _MACHINE_ROWS]),
        "",
        "## Bars",
        "",
    ]
    rows = []
    for name, bench in run["benchmarks"].items():
        if "error" in bench:
            rows.append([name, "(benchmark failed)", "n/a", "n/a", "ERROR"])
            continue
        for chk in bench["checks"]:
            rows.append([name, chk["name"], chk["value"], chk["bar"], f"**{chk['status']}**"])
    out += _table(["Benchmark", "Figure", "Measured", "Bar", "Status"], rows)
    for name, bench in run["benchmarks"].items():
        out += ["", f"## {bench.get('title', name)} (`{name}`)", ""]
        if "error" in bench:
            out += ["The benchmark failed:", "", "```", bench["error"].rstrip(), "```"]
            continue
        out.append(f"Wall time of this benchmark: {fmt(bench.get('wall_seconds'))} s.")
        if bench["settings"]:
            settings = "; ".join(f"{k} = {_cell(v)}" for k, v in bench["settings"].items())
            out += ["", f"Settings: {settings}."]
        if bench["figures"]:
            out += ["", *_table(["Figure", "Value"], _flat(bench["figures"]))]
        for tbl in bench["tables"]:
            out += ["", f"**{tbl['title']}**", "", *_table(tbl["columns"], tbl["rows"])]
        if bench["notes"]:
            out.append("")
            for note in bench["notes"]:
                if note.startswith("```"):
                    out += ["", note, ""]
                else:
                    out.append(f"- {note}")
    out.append("")
    return "\n".join(out)
