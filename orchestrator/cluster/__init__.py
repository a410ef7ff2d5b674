"""ClawGym on a Ray cluster: episodes as Ray tasks, environments in Ray actors.

- `episodes`: `orchestrator run ... --backend ray`: each episode one Ray task on a worker that hosts the apps in
  process; the driver writes its folder (`run_episode_on_ray`, given to `run_many` as `run_one=`).
- `envs`: the environment API on the cluster: `RayEnv`, a `ClawGymEnv` in a Ray actor on a worker.

The connection to the cluster is the ray backend, `orchestrator.backends.ray.RayBackend` (re-exported here):
`make_backend("ray")` picks it by name and the backends import nothing above them, so it stays with them. The
generator's Ray actors (`generate --backend ray`, `orchestrator.generate.prover.RayExecutor`) stay with the
generator: this package builds on `run` and `env`, which draw tasks from the generator, so the generator cannot
import it.

May import: `run`, `env`, `backends`, `agents`, `scenario`, `verify` and `record`.
"""

from typing import TYPE_CHECKING

from orchestrator import reexport

if TYPE_CHECKING:
    from orchestrator.backends.ray import RayBackend
    from orchestrator.cluster.envs import RayEnv
    from orchestrator.cluster.episodes import run_episode_on_ray

__all__ = ["RayBackend", "RayEnv", "run_episode_on_ray"]

_SOURCES = {
    "RayBackend": "orchestrator.backends.ray",
    "RayEnv": "orchestrator.cluster.envs",
    "run_episode_on_ray": "orchestrator.cluster.episodes",
}
"""Where each name of `__all__` lives."""

__getattr__, __dir__ = reexport(__name__, _SOURCES)
