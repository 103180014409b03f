"""A benchmark's result: its dict of figures, the machine it ran on, and RESULTS.md.

- ``_figures``: the small helpers every benchmark uses to shape its dict of figures;
- ``_machine``: what the figures were measured on (CPU, cores, RAM, Python, aiohttp, the date);
- ``_report``: RESULTS.md from the dicts the benchmarks return.

It imports no other room of ``benchmarks``; every other room and the runner may import it.
"""
