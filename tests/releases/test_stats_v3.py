"""Edition 3's release stats (`releases/stats.py`) measured per split, and `release.py write` keeping a v3 that misses
a target to a preview."""

from __future__ import annotations

import gzip
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT


def _module(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"releases_{name}_v3", ROOT / "releases" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


stats = _module("stats")
release = _module("release")


def _row(n: int, split: str, family: str = "travel", **extra: Any) -> dict[str, Any]:
    steps = extra.pop("steps", ["mail__search_messages", "calendar__create_event", "docs__create_document"])
    return {
        "id": f"{family}-v3-1-{n:05d}",
        "family": family,
        "index": n,
        "split": split,
        "core": False,
        "edition": 3,
        "difficulty": "easy",
        "size": "small",
        "organization": f"org-{n}",
        "template": f"{family}/{split}/{n}",
        "calls": 12,
        "apps": ["calendar", "docs", "mail"],
        "shape": f"shape-{n}",
        "events": 0,
        "responders": 0,
        "ask_user": False,
        "faults": 0,
        "living": True,
        "long": True,
        "parameters": {"topic": f"Topic number {n}", "items": [f"thing {n}a", f"thing {n}b"]},
        "instruction": f"Priya wrote about the Berlin Offsite {n}. Book Topic number {n} and list thing {n}a.",
        "program": {"digest": "-".join(steps), "steps": steps, "twists": []},
        **extra,
    }


def test_the_strict_mask_hides_topics_items_titles_names_and_numbers() -> None:
    one, two = _row(1, "train"), _row(2, "train")
    assert one["instruction"] != two["instruction"]
    assert stats.strict_mask(one) == stats.strict_mask(two)
    other = _row(3, "train", instruction="Cancel the offsite and tell Priya.")
    assert stats.strict_mask(other) != stats.strict_mask(one)
    quoted = dict(one, instruction='Share "Budget 2026 (EMEA)" with sam@acme.test by 14:30 on 3 March.')
    imelda = dict(one, instruction="Imelda pinged me. Answer her.", parameters={"from": "imelda.sureda@a.test"})
    julie = dict(one, instruction="Julie pinged me. Answer her.", parameters={"from": "julie.ma@a.test"})
    assert stats.strict_mask(imelda) == stats.strict_mask(julie) == "<word> pinged me. answer her."
    assert stats.strict_mask(quoted) == "share <quoted> with <email> by <time> on <n> <word> ."


def test_v3_figures_per_split_and_the_targets_they_miss() -> None:
    rows = [_row(i, "train") for i in range(6)]
    rows += [_row(10 + i, "test", steps=["mail__search_messages", "mail__send_message"]) for i in range(2)]
    held_out = ["mail__search_messages", "tickets__link_tickets", "mail__reply_message"]
    rows += [_row(20 + i, "test-ood", family="lost-send", steps=held_out, living=False) for i in range(4)]
    figures = stats.measure(rows, {"contradictions": 0})
    assert figures["per_split"]["train"]["strict_duplicates"] == 1.0  # the six differ only in what the mask hides
    assert figures["worst_split_strict_duplicates"] == 1.0
    assert figures["test_ood_share"] == round(4 / 12, 4) and figures["test_ood_programs_in_train"] == 0
    near = figures["nearest"]["lost-send-v3-1-00020"]
    assert near["train"] == "travel-v3-1-00000" and 0 < near["similarity"] < 1 and not near["same_program"]
    assert figures["families_v3"]["lost-send"]["living"] == 0.0 and figures["lowest_family_living"] == 0.0
    assert figures["tools_used"] == 6 and figures["contradictions"] == 0
    asking = [*rows, _row(40, "train", steps=["world__ask_user", "world__wait", "mail__send_message"])]
    figures_asking = stats.measure(asking, {"contradictions": 0})
    # the gateway's own tools are not the apps' tools the breadth target counts: reported apart
    assert figures_asking["tools_used"] == 6 and figures_asking["gateway_tools"] == ["world__ask_user", "world__wait"]
    missed = stats.missed(figures)
    assert any(m.startswith("worst_split_strict_duplicates is 1.0") for m in missed)
    assert any(m.startswith("lowest_family_living is 0.0") for m in missed)
    assert any(m.startswith("tools_used is 6") for m in missed)
    assert not any(m.startswith(("test_ood_share", "contradictions", "test_ood_programs")) for m in missed)
    # a test-ood row whose program a train row has is counted, and is its own nearest program
    leak = [*rows, _row(30, "test-ood", family="lost-send", steps=rows[0]["program"]["steps"])]
    figures = stats.measure(leak)
    assert figures["test_ood_programs_in_train"] == 1 and figures["nearest"]["lost-send-v3-1-00030"]["similarity"] == 1
    assert figures["contradictions"] == "not measured" and not any("contradictions" in m for m in stats.missed(figures))
    assert stats.measure([dict(r, coherence=["policy: x"]) for r in rows])["contradictions"] == 12


def test_stats_cli_reports_v3_and_exits_1_on_a_miss(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [_row(i, "train") for i in range(3)] + [_row(9, "test-ood", family="lost-send", steps=["x__y"])]
    manifest = tmp_path / "v9" / "tasks.jsonl.gz"
    manifest.parent.mkdir()
    manifest.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in rows).encode()))
    (tmp_path / "v9.json").write_text(json.dumps({"coherence": {"contradictions": 2}}))
    assert stats.main([str(manifest)]) == 1
    out = capsys.readouterr().out
    assert "worst_split_strict_duplicates" in out and "contradictions                    2" in out
    assert "contradictions is 2, the target is == 0" in out
    assert stats.main([str(manifest), "--report-only", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["per_split"]["test-ood"]["tasks"] == 1


def test_an_edition_two_manifest_is_measured_as_before() -> None:
    rows = [dict(_row(i, "train"), edition=2) for i in range(2)]
    for row in rows:
        del row["program"], row["instruction"]
    assert "per_split" not in stats.measure(rows)


@pytest.mark.slow
def test_release_write_keeps_a_v3_that_misses_a_target_to_a_preview(tmp_path: Path) -> None:
    path = tmp_path / "tiny.json"
    options = {"family": "all", "families": ["customer-answer"], "edition": 3, "count": 2, "seed": 3}
    path.write_text(
        json.dumps(
            {
                "release": "tiny",
                "options": {**options, "size": "small", "prove": "basic"},
                "manifest": "tiny/tasks.jsonl.gz",
            }
        )
    )
    assert release.main(["write", "--release", str(path), "--drawn"]) == 1  # 2 tasks miss the targets
    assert not (tmp_path / "tiny").exists() and "families" not in json.loads(path.read_text())
    assert release.main(["write", "--release", str(path), "--drawn", "--preview"]) == 0
    preview = json.loads((tmp_path / "tiny-preview.json").read_text())
    rows = release.read_manifest_file(tmp_path / "tiny-preview" / "tasks.jsonl.gz")
    assert len(rows) == 2 and all(r["instruction"] and r["program"]["steps"] for r in rows)
    assert preview["missed"] and preview["stats"]["per_split"] and preview["coherence"]["checked"]
    assert preview["edition2"] and preview["edition3"]
