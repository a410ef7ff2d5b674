"""Running episodes for `orchestrator run`: serve the gateway, run the agent, verify, write the record.

- `runner`: one episode or K of them in parallel, each in its own folder, with pass@k and pass^k.
- `suite`: every scenario of a folder, a glob or a list in one run, with one summary.
- `ray`: episodes as Ray tasks on workers that host the apps in process (`--backend ray`); `runner` does not
  import it: the caller gives `run_many` its `run_episode_on_ray` (`run_one=`).

May import: `scenario`, `verify`, `backends`, `episode`, `agents`, `world` and `record`.
"""
