"""Docker tests need a reachable engine and the clawgym/apps image (images/build.sh).

Without them the tests are skipped with the reason; CLAWGYM_REQUIRE_DOCKER=1
(set by CI) turns that skip into a failure. The tests run in a project of
their own (CLAWGYM_PROJECT, which the commands they start inherit), removed
after them: the containers of the engine's other projects are never touched.
"""

from __future__ import annotations

import os
import uuid

import pytest

from orchestrator.backends.base import BackendError
from orchestrator.backends.docker import IMAGE, down, engine

os.environ["CLAWGYM_PROJECT"] = TEST_PROJECT = f"clawgym-test-{uuid.uuid4().hex[:6]}"
os.environ.setdefault("CLAWGYM_DOCKER_READY_TIMEOUT", "180")  # the commands the tests start, on a busy machine


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
        # Leave the engine as the tests found it: what they started (containers, network, volumes) goes.
        down(TEST_PROJECT)
        client.close()
        return
    if os.environ.get("CLAWGYM_REQUIRE_DOCKER") == "1":
        pytest.fail(reason)
    pytest.skip(reason)
