"""Docker tests need a reachable engine and the clawgym/apps image (images/build.sh).

Without them the tests are skipped with the reason; CLAWGYM_REQUIRE_DOCKER=1
(set by CI) turns that skip into a failure. When the engine had no ClawGym
volumes before the tests, everything ClawGym made is removed after them.
"""

from __future__ import annotations

import os

import pytest

from orchestrator.backends.base import BackendError
from orchestrator.backends.docker import IMAGE, MANAGED, down, engine


@pytest.fixture(scope="session")
def docker_client():
    try:
        client = engine()
        client.images.get(IMAGE)
    except BackendError as exc:
        reason = str(exc)
    except Exception as exc:  # the image lookup: docker.errors.ImageNotFound
        reason = f"the image {IMAGE} is missing ({exc}); build it with images/build.sh"
    else:
        had_any = bool(client.volumes.list(filters={"label": f"{MANAGED}=true"}))
        yield client
        # Leave the engine as the tests found it: what they started (containers, network, volumes) goes.
        if not had_any:
            down()
        client.close()
        return
    if os.environ.get("CLAWGYM_REQUIRE_DOCKER") == "1":
        pytest.fail(reason)
    pytest.skip(reason)
