"""Ray tests run on a real local Ray cluster on 127.0.0.1: a head node and one worker node, each its own
raylet with one CPU and a small object store (`ray.cluster_utils.Cluster` starts real node processes).

Without Ray installed (the optional extra `clawgym[ray]`) they are skipped with the reason;
CLAWGYM_REQUIRE_RAY=1 (set by CI) turns that skip into a failure. The cluster's processes are
stopped after the tests (by their own handles) and its scratch folder removed.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from typing import Any

import pytest

NODE = {"num_cpus": 1, "node_ip_address": "127.0.0.1", "object_store_memory": 80 * 1024 * 1024}


def ray_or_skip() -> Any:
    try:
        import ray
    except ImportError:
        reason = "ray is not installed: pip install -e '.[ray]'"
        if os.environ.get("CLAWGYM_REQUIRE_RAY") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return ray


@dataclass
class LocalCluster:
    address: str
    cluster: Any
    worker: Any
    """The worker node (its raylet's children are the worker processes that run its episodes)."""

    @property
    def worker_raylet_pid(self) -> int:
        return self.worker.all_processes["raylet"][0].process.pid


@pytest.fixture(scope="session")
def ray_installed() -> Any:
    return ray_or_skip()


@pytest.fixture(scope="session")
def ray_cluster() -> Any:
    ray_or_skip()
    from ray.cluster_utils import Cluster

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    scratch = tempfile.mkdtemp(prefix="cg-ray-")  # short: Ray's socket paths live under it
    cluster = Cluster(initialize_head=True, head_node_args={**NODE, "include_dashboard": False, "temp_dir": scratch})
    try:
        worker = cluster.add_node(**NODE)
        cluster.wait_for_nodes()
        yield LocalCluster(cluster.address, cluster, worker)
    finally:
        cluster.shutdown()
        shutil.rmtree(scratch, ignore_errors=True)
