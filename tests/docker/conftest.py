"""Docker tests need a reachable engine and the clawgym/apps image (images/build.sh).

Without them the tests are skipped with the reason; CLAWGYM_REQUIRE_DOCKER=1
(set by CI) turns that skip into a failure.
"""

from __future__ import annotations

import os

import pytest

from orchestrator.backends.base import BackendError
from orchestrator.backends.docker import IMAGE, engine


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
        yield client
        client.close()
        return
    if os.environ.get("CLAWGYM_REQUIRE_DOCKER") == "1":
        pytest.fail(reason)
    pytest.skip(reason)
