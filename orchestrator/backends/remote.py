"""The remote backend: app servers someone else already runs, for example compose services.

`CLAWGYM_APP_URL` gives their address with `{app}` in place of the app name
(compose: `http://{app}:8000`). Their admin tokens come from a file,
`CLAWGYM_ADMIN_TOKEN_FILE` (with `{app}` in the path for one token per app,
as compose's secrets are), or else from `CLAWGYM_ADMIN_TOKEN` (one token for
all). The orchestrator reads them; the agents it starts never see either.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from orchestrator.backends.base import AppEndpoint, Backend, BackendError, HttpEndpoint, protocol_of, wait_healthy

READY_TIMEOUT_S = 60.0


class RemoteBackend(Backend):
    """Uses app servers already running elsewhere, found by a URL template and reached with an admin token."""

    name = "remote"

    def __init__(
        self, url_template: str | None = None, token: str | None = None, token_file: str | None = None
    ) -> None:
        super().__init__()
        self.url_template = url_template or os.environ.get("CLAWGYM_APP_URL", "")
        self.token_file = token_file or os.environ.get("CLAWGYM_ADMIN_TOKEN_FILE") or None
        self.token = token or ("" if self.token_file else os.environ.get("CLAWGYM_ADMIN_TOKEN", ""))
        if "{app}" not in self.url_template:
            raise BackendError("the remote backend needs CLAWGYM_APP_URL with {app} in it, e.g. http://{app}:8000")
        if not self.token and not self.token_file:
            raise BackendError(
                "the remote backend needs the app servers' admin token: CLAWGYM_ADMIN_TOKEN_FILE names a file holding it "
                "({app} in the path for one per app), or CLAWGYM_ADMIN_TOKEN holds it"
            )

    def token_for(self, app: str) -> str:
        if self.token:
            return self.token
        assert self.token_file is not None
        path = Path(self.token_file.replace("{app}", app))
        try:
            token = path.read_text().strip()
        except OSError as exc:
            raise BackendError(
                f"cannot read the {app} server's admin token from {path} (CLAWGYM_ADMIN_TOKEN_FILE): {exc.strerror}"
            ) from None
        if not token:
            raise BackendError(f"the admin token file {path} (CLAWGYM_ADMIN_TOKEN_FILE) is empty")
        return token

    async def start(self, apps: Iterable[str]) -> dict[str, AppEndpoint]:
        for app in apps:
            if app not in self.endpoints:
                url = self.url_template.format(app=app)

                async def probe(url: str = url) -> str:
                    return url

                _, health = await wait_healthy(
                    probe,
                    timeout=READY_TIMEOUT_S,
                    interval=0.2,
                    failure=lambda app=app, url=url: (  # type: ignore[misc]  # default arguments bind this iteration's values
                        f"the {app} server at {url} did not answer /healthz within {READY_TIMEOUT_S:g} s"
                    ),
                )
                endpoint = HttpEndpoint(app, url, self.token_for(app), protocol=protocol_of(health))
                await endpoint.remove_leftovers()
                self.endpoints[app] = endpoint
        return self.endpoints

    async def close(self) -> None:
        await self.close_connections()
