"""``python -m route_planning_async``: the ``route-planning`` command-line tool."""

from route_planning_async._cli import main

if __name__ == "__main__":
    main()
