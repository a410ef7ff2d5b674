"""The remote backend: app servers someone else already runs, for example compose services.

`CLAWGYM_APP_URL` gives their address with `{app}` in place of the app name
(compose: `http://{app}:8000`), and `CLAWGYM_ADMIN_TOKEN` their admin token.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable

import anyio
import httpx2

from orchestrator.backends.base import AppEndpoint, Backend, BackendError, HttpEndpoint

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
                await self._wait(app, url)
                self.endpoints[app] = HttpEndpoint(app, url, self.token)
        return self.endpoints

    async def _wait(self, app: str, url: str) -> None:
        deadline = time.monotonic() + READY_TIMEOUT_S
        async with httpx2.AsyncClient(timeout=2) as http:
            while time.monotonic() < deadline:
                try:
                    if (await http.get(f"{url}/healthz")).status_code == 200:
                        return
                except httpx2.HTTPError:
                    pass
                await anyio.sleep(0.2)
        raise BackendError(f"the {app} server at {url} did not answer /healthz within {READY_TIMEOUT_S:g} s")

    async def close(self) -> None:
        for endpoint in self.endpoints.values():
            if isinstance(endpoint, HttpEndpoint):
                await endpoint.aclose()
        self.endpoints.clear()
