"""What the tool shows: rich tables and progress, a plan's routes as data and as a map.

- ``_summary``: a distributed plan route by route, as plain data.
- ``_render``: rich output: tables, the progress bar, the status line.
- ``_map``: the routes as a self-contained HTML page.

It imports no other room of the command line.
"""
