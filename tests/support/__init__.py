"""Test support shared by the test modules: import it as ``support.<module>``.

``tests/`` is on ``sys.path`` (pytest's rootdir-relative imports), so every test
module reaches these helpers the same way.
"""
