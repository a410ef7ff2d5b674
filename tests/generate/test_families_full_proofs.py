"""The incident, offboard, approve-request, doc-comments and ambiguous families: proven with the full proofs on a
sample, deterministic, and a plausible wrong answer fails each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import ROOT

from orchestrator import scenario as scenarios
from orchestrator.agents import OracleAgent
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.generate import pipeline
from orchestrator.generate.family import families
from orchestrator.prove.schema_cache import schema_checks_remembered
from orchestrator.prove.validate import run_episode, validate
from orchestrator.scenario.model import OracleStep

FAMILIES = ("incident", "offboard", "approve-request", "doc-comments", "ambiguous")


# conftest's backend, plus schema checks remembered across the many proof episodes of one test.
@pytest.fixture
async def backend():
    async with InProcessBackend() as b:
        with schema_checks_remembered():
            yield b


def drawn(name: str, fixed: dict, want=lambda task: True, seed: int = 3):
    family = families()[name]()
    for index in range(40):
        task = pipeline.draw(family, seed, "small", index, fixed)
        if task is not None and want(task):
            return task
    raise AssertionError(f"no {name} task drawn with {fixed}")


def load(task, tmp_path: Path):
    path = tmp_path / f"{task.id}.yaml"
    path.write_text(task.yaml(), encoding="utf-8")
    return scenarios.load(path)


def test_families_are_registered_with_knobs_and_are_deterministic() -> None:
    known = families()
    for name in FAMILIES:
        family = known[name]
        assert family.knobs and family.split_params and family.phrasings >= 3
        one = pipeline.draw(family(), 7, "small", 1)
        two = pipeline.draw(family(), 7, "small", 1)
        assert one is not None and two is not None and one.yaml() == two.yaml()
        # Train and test never share a combination of the split parameters.
        family_ = family()
        tasks = [t for i in range(6) if (t := pipeline.draw(family_, 7, "small", i)) is not None]
        keys = {split: {family_.split_key(t.params) for t in tasks if t.split == split} for split in ("train", "test")}
        assert not keys["train"] & keys["test"]
    # Phrasings vary between draws of one family.
    instructions = {
        pipeline.draw(known["offboard"](), 7, "small", i).scenario["instruction"].split()[0] for i in range(2, 6)
    }
    assert len(instructions) > 1


SMALLEST = {
    "incident": {"steps": 3, "distractors": 0},
    "offboard": {"steps": 1, "distractors": 0},
    "approve-request": {"steps": 2, "distractors": 1},
    "doc-comments": {"steps": 1, "distractors": 0},
    "ambiguous": {"distractors": 0},
}


@pytest.mark.parametrize("name", FAMILIES)
async def test_a_sample_passes_the_full_proofs(backend, tmp_path, name) -> None:
    want = (lambda t: t.params["open_count"] == 1) if name == "doc-comments" else (lambda t: True)
    scenario = load(drawn(name, SMALLEST[name], want), tmp_path)
    check = await validate(scenario, backend, mutate=True, attack=True, equivalents=True)
    assert check.valid, check.problems
    assert check.mutations and check.attacks and check.equivalents
    assert check.noop is not None and not check.noop.passed


def _steps(scenario, extra=(), change=None) -> list[OracleStep]:
    steps = [s.model_copy(deep=True) for s in scenario.oracle]
    if change:
        for step in steps:
            change(step)
    return steps + [OracleStep.model_validate(s) for s in extra]


async def _fails(backend, scenario, steps) -> None:
    right = await run_episode(scenario, backend, OracleAgent())
    assert right.result.passed and right.result.score == 1.0
    wrong = await run_episode(scenario, backend, OracleAgent(steps))
    assert wrong.report.errors == [], wrong.report.errors
    assert not wrong.result.passed, "a plausible wrong answer passes"


async def test_incident_ticket_for_the_wrong_responder_fails(backend, tmp_path) -> None:
    task = drawn("incident", {"steps": 3, "distractors": 1})
    scenario = load(task, tmp_path)

    def lead_owns_it(step):
        if step.tool == "tickets__create_ticket":
            step.args["assignee"] = task.params["lead"]

    await _fails(backend, scenario, _steps(scenario, change=lead_owns_it))


async def test_offboard_declining_meetings_before_the_last_day_fails(backend, tmp_path) -> None:
    task = drawn("offboard", {"steps": 1, "distractors": 1})
    scenario = load(task, tmp_path)
    earlier = f"leaver-mtg-{task.params['meetings_added'] + 1}"
    await _fails(
        backend,
        scenario,
        _steps(
            scenario, [{"tool": "calendar__respond_to_event", "args": {"event_id": earlier, "response": "declined"}}]
        ),
    )


async def test_approve_request_the_opposite_decision_fails(backend, tmp_path) -> None:
    task = drawn("approve-request", {"steps": 1, "distractors": 1})
    scenario = load(task, tmp_path)

    def flip(step):
        if step.tool == "tickets__transition_ticket":
            step.args["status"] = "cancelled" if step.args["status"] == "done" else "done"

    await _fails(backend, scenario, _steps(scenario, change=flip))


async def test_doc_comments_a_ticket_for_a_resolved_comment_fails(backend, tmp_path) -> None:
    task = drawn("doc-comments", {"steps": 1, "distractors": 1})
    scenario = load(task, tmp_path)
    resolved = task.params["components"][task.params["open_count"]]
    await _fails(
        backend,
        scenario,
        _steps(
            scenario,
            [
                {
                    "tool": "tickets__create_ticket",
                    "args": {"project": task.params["project"], "title": f"Follow up: {resolved}"},
                }
            ],
        ),
    )


@pytest.mark.parametrize("mode", ["done", "ask"])
async def test_ambiguous_acting_instead_of_asking_fails(backend, tmp_path, mode) -> None:
    task = drawn("ambiguous", {"distractors": 0}, lambda t: t.params["mode"] == mode)
    scenario = load(task, tmp_path)
    act = (
        {
            "tool": "tickets__create_ticket",
            "args": {"project": task.params["project"], "title": task.params["component"]},
        }
        if mode == "done"
        else {
            "tool": "docs__share_document",
            "args": {"document_id": "plan-a", "email": task.params["target"], "role": "viewer"},
        }
    )
    await _fails(backend, scenario, _steps(scenario, [act]))


def _release_module():
    import importlib.util  # noqa: PLC0415

    spec = importlib.util.spec_from_file_location("release", ROOT / "releases" / "release.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_release_digest_matches_a_regenerated_sample() -> None:
    release = _release_module()
    recorded = json.loads((ROOT / "releases" / "v1.json").read_text())
    assert recorded["total"]["tasks"] >= 10_000 and len(recorded["families"]) >= 10
    for counts in recorded["families"].values():
        assert counts["tasks"] >= 1000 and counts["train"] + counts["test"] == counts["tasks"] and counts["core"] > 0
    # The first task of each family, drawn again, is byte for byte the one the release records.
    found = release.summarize(release.draw_rows(recorded["options"], count=1))
    assert release.compare(recorded, found, sample=1) == []
    # A changed task would show: the comparison is not vacuous.
    tampered = json.loads(json.dumps(found))
    tampered["families"]["ambiguous"]["first"][0]["content_hash"] = "0" * 64
    assert release.compare(recorded, tampered, sample=1)
