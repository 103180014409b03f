"""The files the tool reads and writes: standard streams for ``-``, CSV, failures, samples.

- ``_stdio``: ``-`` for a file: standard input where a file is read, standard output where one is written.
- ``_cells``: every CSV the tool writes, its cells escaped so that no spreadsheet runs them.
- ``_csv``: stops as CSV, the column mapping, the failure report and the export.
- ``_failures``: the rows an import did not bring in, for its report and the ``--failures`` file.
- ``_sample_stops``: realistic, seeded stops around a depot (demo and sample files).

It may import ``_versions`` (and through it ``_errors``), nothing else of the command line;
it needs neither click nor rich.
"""
