"""All sandboxes of one app server: by id, in memory or under a data directory, and each one's lock.

`SandboxStore.locked` is how anything that reads or changes a sandbox between tool calls (the admin plane, the
MCP middleware) holds it: a sandbox deleted or replaced while one waited is never used after its database closed.

May import `servers.core.app` and `servers.core.sandbox`, nothing above them (no transport).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from servers.core.app import App, SandboxSpec
from servers.core.sandbox import Sandbox

log = logging.getLogger("clawgym.sandbox")

SANDBOX_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""A sandbox id, matched whole (`fullmatch`: `$` would accept a trailing newline)."""


class UnknownSandbox(KeyError):
    """No sandbox has this id (never made, deleted, or deleted while the caller waited for it)."""

    def __init__(self, sandbox_id: str) -> None:
        super().__init__(sandbox_id)
        self.sandbox_id = sandbox_id

    def __str__(self) -> str:
        return f"no sandbox with id {self.sandbox_id!r}"


def check_sandbox_id(sandbox_id: str) -> str:
    """`sandbox_id` if it is a valid sandbox id, else a `ValueError` saying what one looks like."""
    if not isinstance(sandbox_id, str) or not SANDBOX_ID.fullmatch(sandbox_id):
        raise ValueError(
            f"invalid sandbox id {sandbox_id!r}: use 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit"
        )
    return sandbox_id


class SandboxStore:
    """All sandboxes of one app server, in memory or under a data directory."""

    def __init__(self, app: App, data_dir: Path | None = None) -> None:
        self.app = app
        self.data_dir = data_dir
        self.sandboxes: dict[str, Sandbox] = {}
        if data_dir is not None:
            data_dir.mkdir(parents=True, exist_ok=True)
            for entry in sorted(data_dir.iterdir()):
                if entry.is_dir() and SANDBOX_ID.fullmatch(entry.name) and (entry / "state.db").exists():
                    try:
                        self.sandboxes[entry.name] = Sandbox.open(app, entry.name, entry)
                    except Exception as exc:  # one damaged sandbox must not keep the others from being served
                        log.error(
                            "skipping sandbox %r in %s: its database cannot be opened (%s)", entry.name, entry, exc
                        )

    def __contains__(self, sandbox_id: str) -> bool:
        return sandbox_id in self.sandboxes

    def __len__(self) -> int:
        return len(self.sandboxes)

    def get(self, sandbox_id: str) -> Sandbox:
        """The sandbox, or `UnknownSandbox`."""
        try:
            return self.sandboxes[sandbox_id]
        except KeyError:
            raise UnknownSandbox(sandbox_id) from None

    @asynccontextmanager
    async def locked(self, sandbox_id: str) -> AsyncIterator[Sandbox]:
        """The sandbox, its lock held: no tool call or other admin operation uses it meanwhile.

        Raises `UnknownSandbox` when there is none, also when it was deleted while this waited for its lock
        (its database is closed by then); one replaced meanwhile is waited for again under its new build.
        """
        while True:
            sandbox = self.get(sandbox_id)
            async with sandbox.lock:
                if self.sandboxes.get(sandbox_id) is sandbox:
                    yield sandbox
                    return

    def create(
        self,
        sandbox_id: str,
        spec: SandboxSpec,
        *,
        replace: bool = False,
        secret: str | None = None,
        owner: str | None = None,
    ) -> Sandbox:
        """Build a sandbox; an existing one (or a folder left under its name) is replaced only when asked.

        `secret` and `owner` go to `Sandbox.set_access`.
        """
        check_sandbox_id(sandbox_id)
        if not replace and (
            sandbox_id in self.sandboxes or (self.data_dir is not None and (self.data_dir / sandbox_id).exists())
        ):
            raise FileExistsError(f"sandbox {sandbox_id!r} already exists")
        if self.data_dir is None:
            sandbox = Sandbox.create(self.app, sandbox_id, spec)
        else:
            # Built in a scratch folder and renamed into place, so a crash never
            # leaves a half-seeded sandbox behind.
            scratch = Path(tempfile.mkdtemp(prefix=f".{sandbox_id}.", dir=self.data_dir))
            try:
                Sandbox.create(self.app, sandbox_id, spec, scratch).close()
                final = self.data_dir / sandbox_id
                if sandbox_id in self.sandboxes:
                    self.sandboxes.pop(sandbox_id).close()
                if final.exists():
                    shutil.rmtree(final)
                os.rename(scratch, final)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
            sandbox = Sandbox.open(self.app, sandbox_id, final)
        old = self.sandboxes.pop(sandbox_id, None)
        if old is not None:
            old.close()
        sandbox.set_access(secret=secret, owner=owner)
        self.sandboxes[sandbox_id] = sandbox
        return sandbox

    def delete(self, sandbox_id: str) -> None:
        """Close and forget the sandbox and remove its files. Hold its lock (`locked`) while a tool call may use it:
        an in-memory sandbox's connection goes, emptied, to the app's next sandbox (`Sandbox.close(reuse=True)`)."""
        sandbox = self.get(sandbox_id)
        del self.sandboxes[sandbox_id]
        sandbox.close(reuse=True)
        if sandbox.directory is not None:
            shutil.rmtree(sandbox.directory, ignore_errors=True)

    def close(self) -> None:
        """Close every sandbox."""
        for sandbox in self.sandboxes.values():
            sandbox.close()
        self.sandboxes.clear()
