"""How a suite's scenarios share its episode slots (`orchestrator.run.slots`): every scenario's first episode first,
then the scenario whose episodes take longest, at most half the slots while another waits; each grant checked."""

from __future__ import annotations

import math
import time

import anyio
import pytest

from orchestrator.run.slots import Share, SuiteSlots


def run_scenarios(hold_s: dict[str, float], episodes: int, size: int) -> tuple[list[dict[str, object]], SuiteSlots]:
    """Scenarios sharing `size` slots, each starting its `episodes` as a suite does (one waits for a slot at a time),
    each episode holding its slot `hold_s[name]` seconds; every grant as it was made."""
    slots = SuiteSlots(size)
    shares: dict[str, Share] = {}
    grants: list[dict[str, object]] = []
    grant = Share._grant

    def watched(share: Share, now: float) -> None:
        name = next(n for n, s in shares.items() if s is share)
        grant(share, now)
        grants.append(
            {
                "to": name,
                "at": now,
                "free": slots.free,
                "holding": {n: s.holding for n, s in shares.items()},
                "waiting": sorted(n for n, s in shares.items() if s in slots._waiting),
            }
        )

    async def episode(share: Share, seconds: float) -> None:
        try:
            await anyio.sleep(seconds)
        finally:
            share.release()

    async def scenario(name: str, tg: anyio.abc.TaskGroup) -> None:
        for _ in range(episodes):
            await shares[name].acquire()
            tg.start_soon(episode, shares[name], hold_s[name])

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            for name in hold_s:
                shares[name] = slots.share()
            for name in hold_s:
                tg.start_soon(scenario, name, tg)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Share, "_grant", watched)
        anyio.run(main)
    return grants, slots


def test_the_longest_scenario_gets_the_free_slots_up_to_half_while_others_wait() -> None:
    grants, slots = run_scenarios({"fast-a": 0.03, "slow": 0.3, "fast-b": 0.03}, episodes=12, size=4)
    assert slots.free == 4 and len(grants) == 36
    # every scenario's first episode before any scenario's second
    assert {g["to"] for g in grants[:3]} == {"fast-a", "slow", "fast-b"}
    # known slow once its first episode has held its slot far longer than a fast one holds one
    known_at = next(g["at"] for g in grants if g["to"] == "slow") + 0.15  # type: ignore[operator]  # the grants' times are numbers
    fast_after = 0
    for g in grants:
        holding, waiting = g["holding"], g["waiting"]
        assert sum(holding.values()) <= 4  # type: ignore[attr-defined]  # a dict of counts
        if any(n != "slow" for n in waiting):  # type: ignore[attr-defined]  # a list of names
            assert holding["slow"] <= 2, g  # type: ignore[index]  # at most half while another waits
        if g["to"] != "slow" and g["at"] > known_at and "slow" in waiting:  # type: ignore[operator]  # the grants' times are numbers
            assert holding["slow"] == 2, g  # type: ignore[index]  # a fast one got a slot only with slow at its half
            fast_after += 1
    assert fast_after > 0  # the case above was met
    # alone (the fast ones done), the slow one took every free slot
    assert max(g["holding"]["slow"] for g in grants) == 4  # type: ignore[index]  # a dict of counts


def test_a_scenario_alone_takes_every_slot_and_one_slot_serves_all() -> None:
    grants, _ = run_scenarios({"only": 0.05}, episodes=6, size=3)
    assert max(g["holding"]["only"] for g in grants) == 3  # type: ignore[index]  # a dict of counts
    grants, _ = run_scenarios({"a": 0.01, "b": 0.02}, episodes=3, size=1)
    assert len(grants) == 6 and all(sum(g["holding"].values()) == 1 for g in grants)  # type: ignore[attr-defined]  # a dict of counts


def test_an_unstarted_scenario_is_expected_longest_and_a_running_one_by_its_oldest_episode() -> None:
    slots = SuiteSlots(4)
    share = slots.share()
    assert share.expected_s(0.0) == math.inf and slots.cap == 2

    async def main() -> None:
        await share.acquire()
        assert share.started and share.holding == 1
        await anyio.sleep(0.05)
        assert 0.04 < share.expected_s(__import__("time").perf_counter()) < 1
        share.release()
        assert share.holding == 0 and slots.free == 4

    anyio.run(main)


def test_a_wait_cancelled_gives_no_slot_away() -> None:
    slots = SuiteSlots(1)
    first, second = slots.share(), slots.share()

    async def main() -> None:
        await first.acquire()
        with anyio.move_on_after(0.05):
            await second.acquire()  # never granted: the one slot is held
        assert slots.free == 0 and not slots._waiting
        first.release()
        assert slots.free == 1
        await second.acquire()
        assert slots.free == 0

    anyio.run(main)


def test_a_slot_granted_as_its_wait_is_cancelled_goes_back_with_no_hold_recorded() -> None:
    """The grant and the cancellation land in the same step: the slot is free again, and the scenario, none of whose
    episodes ran, is still expected to be the longest (no near-zero hold counts toward its mean)."""
    slots = SuiteSlots(1)
    first, second = slots.share(), slots.share()

    async def main() -> None:
        await first.acquire()
        async with anyio.create_task_group() as tasks:

            async def wait() -> None:
                with anyio.CancelScope() as scope:
                    scopes.append(scope)
                    await second.acquire()
                ended.append(scope.cancelled_caught)

            scopes: list[anyio.CancelScope] = []
            ended: list[bool] = []
            tasks.start_soon(wait)
            await anyio.sleep(0.01)  # second now waits for the one slot
            scopes[0].cancel()  # second's wait is cancelled...
            first.release()  # ...and the slot granted to it before it runs again
        assert ended == [True]
        assert slots.free == 1 and second.holding == 0 and not slots._waiting
        assert second.expected_s(time.perf_counter()) == math.inf

    anyio.run(main)
