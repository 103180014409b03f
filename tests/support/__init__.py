"""Test support shared by the test modules: import it as ``support.<module>``.

``tests/`` is on ``sys.path`` (``pythonpath`` in ``pyproject.toml``), so every
test module, in any directory, reaches these helpers the same way.
"""
