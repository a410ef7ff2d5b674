"""The remote backend: app servers someone else already runs, for example compose services.

`CLAWGYM_APP_URL` gives their address with `{app}` in place of the app name
(compose: `http://{app}:8000`), and `CLAWGYM_ADMIN_TOKEN` their admin token.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from orchestrator.backends.base import AppEndpoint, Backend, BackendError, HttpEndpoint, wait_healthy

READY_TIMEOUT_S = 60.0


class RemoteBackend(Backend):
    name = "remote"

    def __init__(self, url_template: str | None = None, token: str | None = None) -> None:
        super().__init__()
        self.url_template = url_template or os.environ.get("CLAWGYM_APP_URL", "")
        self.token = token or os.environ.get("CLAWGYM_ADMIN_TOKEN", "")
        if "{app}" not in self.url_template:
            raise BackendError("the remote backend needs CLAWGYM_APP_URL with {app} in it, e.g. http://{app}:8000")
        if not self.token:
            raise BackendError("the remote backend needs the app servers' admin token in CLAWGYM_ADMIN_TOKEN")

    async def start(self, apps: Iterable[str]) -> dict[str, AppEndpoint]:
        for app in apps:
            if app not in self.endpoints:
                url = self.url_template.format(app=app)

                async def probe(url: str = url) -> str:
                    return url

                await wait_healthy(
                    probe,
                    timeout=READY_TIMEOUT_S,
                    interval=0.2,
                    failure=lambda app=app, url=url: f"the {app} server at {url} did not answer /healthz within {READY_TIMEOUT_S:g} s",
                )
                self.endpoints[app] = HttpEndpoint(app, url, self.token)
        return self.endpoints

    async def close(self) -> None:
        await self.close_connections()
