"""Edition-2 instructions of the ten v1 families: at least 20 request phrasings per intent (at least 4 held out for
test), a test organization worded only with test parts and a train organization only with train parts, few repeats once names,
dates and numbers are taken out, and every edition-2 task still passes its basic proofs."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import anyio
import pytest

from orchestrator import scenario as scenarios
from orchestrator.backends.inprocess import InProcessBackend
from orchestrator.generate import edition2, phrasing
from orchestrator.generate.build import Organization, build_organization
from orchestrator.generate.family import Family, canonical, families
from orchestrator.prove.validate import validate

V1 = (
    "ambiguous",
    "approve-request",
    "customer-answer",
    "doc-comments",
    "inbox-rules",
    "incident",
    "meeting-tz",
    "offboard",
    "reschedule",
    "travel",
)
DONE = V1
"""The families worded by `phrasing.compose` in edition 2 so far."""


def _module(name: str) -> Any:
    return __import__(families()[name].__module__, fromlist=["_"])


def _books(name: str) -> dict[str, phrasing.Phrasebook]:
    module = _module(name)
    return {intent: book for intent, book in module.PHRASEBOOKS.items()}


def org_of(seed: int, split: str | None, size: str = "small") -> Organization:
    """An edition-2 organization on one side of the split."""
    try:
        org = build_organization(seed, size, edition=2, split=split)  # type: ignore[call-arg]  # an argument of a newer build_organization, on purpose
    except TypeError:  # organizations without the edition keyword yet
        org = build_organization(seed, size)
        org.edition, org.split = 2, split
    return org


def draw(name: str, index: int, split: str | None = "train") -> tuple[Organization, dict[str, Any], Any] | None:
    """Task `index` of a family on an edition-2 organization of `split`: (org, params, draft), or None when unfit."""
    family: Family = families()[name]()
    rng = random.Random(f"phrasing:{name}:{index}")
    org = org_of(900 + rng.randrange(16), split)
    knobs = {k: rng.choice(v) for k, v in sorted(family.knobs.items()) if k != "size"} | {"size": "small"}
    params = family.sample(org, rng, knobs)
    if params is None:
        return None
    params = json.loads(canonical(params))
    return org, params, family.build(org, params)


def normalized(text: str, org: Organization) -> str:
    """An instruction with every name, date, time, number, key and quoted title replaced, lower case, no punctuation."""
    people = [org.persona, *org.people, *org.outsiders]
    names = {n for p in people for n in (p.name, p.first_name, p.last_name, p.company, p.city) if n}
    names |= {org.name, *(o.city for o in org.offices)}
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "NAME")
    text = re.sub(r"\"[^\"]*\"|'[A-Z][^']*'", "TITLE", text)
    text = re.sub(r"\b(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b", "DAY", text)
    months = "January|February|March|April|May|June|July|August|September|October|November|December"
    text = re.sub(rf"\b({months})\b", "MONTH", text)
    text = re.sub(r"\b[A-Z]+-\d+\b", "KEY", text)
    text = re.sub(r"\S+@\S+", "EMAIL", text)
    text = re.sub(r"\d+", "N", text)
    return " ".join(re.sub(r"[^a-zA-Z ]+", " ", text).lower().split())


@pytest.mark.parametrize("name", DONE)
def test_every_intent_has_twenty_requests_and_four_held_out(name: str) -> None:
    for intent, book in _books(name).items():
        sides = phrasing.sides(name, intent, "request", book.requests)
        assert len(book.requests) >= 20 and sides["test"] >= 4, f"{name}/{intent}: {sides}"
        assert len(set(book.requests)) == len(book.requests), f"{name}/{intent}: a request is listed twice"
        for kind, parts in (("opener", book.openers), ("closer", book.closers)):
            assert min(phrasing.sides(name, intent, kind, parts).values()) >= 1, f"{name}/{intent} {kind}s"


@pytest.mark.parametrize("name", DONE)
def test_a_test_organization_is_worded_with_test_parts_only_and_a_train_organization_with_train_parts(
    name: str,
) -> None:
    for split in ("test", "train"):
        seen = Counter()
        for index in range(40):
            drawn = draw(name, index, split)
            if drawn is None:
                continue
            _, params, draft = drawn
            assert "phrasing" not in params and params["template"] == params["parts"][0]
            for part in params["parts"]:
                assert phrasing.template_split(part) == split, f"{part} on a {split} organization"
            seen[params["template"]] += 1
            assert "{" not in draft.instruction and "  " not in draft.instruction
        assert len(seen) >= 4, f"{name} on {split}: only {sorted(seen)}"


@pytest.mark.parametrize("name", DONE)
def test_normalized_instructions_repeat_at_most_five_percent(name: str) -> None:
    texts: list[str] = []
    shapes: list[str] = []
    index = 0
    while len(texts) < 200:
        drawn = draw(name, index, "test" if index % 5 == 0 else "train")
        index += 1
        if drawn is not None:
            org, _, draft = drawn
            texts.append(normalized(draft.instruction, org))
            shapes.append(edition2.shape(draft.instruction, org))  # the manifest's own measure
    for found in (texts, shapes):
        counts = Counter(found)
        repeated = sum(n for n in counts.values() if n > 1)
        assert repeated <= 10, f"{name}: {repeated} of 200 repeat, e.g. {counts.most_common(1)}"


@pytest.mark.parametrize("name", DONE)
def test_edition_1_keeps_its_phrasing_parameter(name: str) -> None:
    family = families()[name]()
    org = build_organization(5, "small")
    rng = random.Random(3)
    knobs = {k: v[0] for k, v in family.knobs.items()} | {"size": "small"}
    for _ in range(5):
        params = family.sample(org, rng, knobs)
        if params is not None:
            assert "template" not in params and "wording" not in params
            assert "{" not in family.build(org.copy(), params).instruction


async def _basic(name: str, count: int) -> list[str]:
    problems = []
    async with InProcessBackend() as backend:
        proven, index = 0, 0
        while proven < count and index < 30:
            drawn = draw(name, index, "test" if index % 2 else "train")
            index += 1
            if drawn is None:
                continue
            org, params, draft = drawn
            scenario = scenarios.load_data(draft.scenario(f"{name}-v2-{index}", "medium"), f"{name}-{index}")
            check = await validate(scenario, backend)
            proven += 1
            if not check.valid:
                problems.append(
                    f"{name} #{index - 1} (organization {org.seed}, {params.get('template')}): {check.problems[0]}"
                )
    return problems


@pytest.mark.slow
@pytest.mark.parametrize("name", DONE)
def test_edition_2_tasks_pass_their_basic_proofs(name: str) -> None:
    assert anyio.run(_basic, name, 4) == []


def test_slips_change_only_the_templates_own_words() -> None:
    template = 'The {clash}, the one {who} set, and the "The Plan, v2" doc: move the meeting to {day}, then tell them.'
    values = {"clash": "The All-hands, again", "who": "the CEO", "day": "Friday 5 March, 10:00"}
    seen = set()
    for seed in range(300):
        text = phrasing.slip(template, random.Random(seed)).format(**values)
        for value in [*values.values(), '"The Plan, v2"']:
            assert value in text, f"seed {seed}: {value!r} lost in {text!r}"
        seen.add(text)
    assert len(seen) >= 6, "slips vary"
    assert any(t.startswith("the ") for t in seen) and any(not t.endswith(".") for t in seen)
