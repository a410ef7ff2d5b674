"""The folder of seeded image files is shared by every process of the machine: a file another process removed while
this one keeps the folder under its bound neither stops the bound nor is taken for a failed write."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from servers.core import images as images_module
from servers.core.images import _write_file

IMAGE = b"SQLite format 3\0" + bytes(1008)


def test_a_file_gone_meanwhile_does_not_stop_the_folder_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(images_module, "DISK_MAX_BYTES", 2 * len(IMAGE))
    (tmp_path / "gone.db").symlink_to(tmp_path / "removed-by-another-process.db")  # listed, then not there
    with caplog.at_level(logging.WARNING, logger="clawgym.sandbox"):
        for n in range(4):
            _write_file(tmp_path / f"calendar-{n}.db", IMAGE)
    kept = sorted(p.name for p in tmp_path.glob("*.db") if p.exists())
    assert len(kept) == 2 and "calendar-3.db" in kept, kept  # the newest kept, the folder under its bound
    assert not caplog.records, [r.getMessage() for r in caplog.records]  # every image was written
