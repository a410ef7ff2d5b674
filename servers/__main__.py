"""`python -m servers APP [options]`: run any registered app server (the container entry point).

May import: `servers.registry` and `servers.core`.
"""

import sys

from servers import registry
from servers.core.cli import main


def run() -> None:
    """`python -m servers APP [options]`: serve one app, named first; exits 2 with the usage for an unknown one."""
    apps = registry.available()
    if len(sys.argv) < 2 or sys.argv[1] not in apps:
        names = ", ".join(sorted(apps))
        print(
            f"usage: python -m servers APP [options]   (APP is one of: {names}; --help after APP for options)",
            file=sys.stderr,
        )
        sys.exit(2)
    main(registry.load(sys.argv[1]), sys.argv[2:])


if __name__ == "__main__":
    run()
