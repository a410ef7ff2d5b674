"""Counting episodes the one way every total is: pass@k and pass^k, errored episodes apart (`Tally`).
`orchestrator.record` re-exports all of it.

May import: nothing of the project (the standard library only).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from math import comb
from typing import Any

# -- pass@k and pass^k ---------------------------------------------------------------


def pass_at_k(n: int, c: int, k: int) -> float:
    """Chance that at least one of k episodes passes, estimated from c passes in n."""
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Chance that all of k episodes pass, estimated from c passes in n."""
    return comb(c, k) / comb(n, k)


def pass_k_tables(n: int, c: int) -> dict[str, dict[str, float]]:
    """`pass_at_k` and `pass_hat_k` for k = 1 … n, keyed by str(k) and rounded to 6 places, as summaries hold them."""
    ks = range(1, n + 1)
    return {
        "pass_at_k": {str(k): round(pass_at_k(n, c, k), 6) for k in ks},
        "pass_hat_k": {str(k): round(pass_hat_k(n, c, k), 6) for k in ks},
    }


# -- errored episodes ----------------------------------------------------------------


ERRORED = ("error", "agent_error", "interrupted")
"""The statuses of an episode that ended for a reason other than the task: something besides the agent failed
(`error`), the agent never worked on it (`agent_error`: its model's API failed for good, or its command never
started), or the run was stopped (`interrupted`). Such an episode is not scored: it counts neither as passed nor
as failed, nor in mean scores or pass@k, and is reported apart with its reason."""


def is_errored(status: Any) -> bool:
    """Whether an episode with this status is errored (`ERRORED`): reported apart, never scored."""
    return status in ERRORED


def is_undecided(result: Any) -> bool:
    """Whether an episode's verdict is undecided (results.json's `undecided`: a stage rests on judge checks no judge
    answered): neither passed nor failed, reported apart like an errored one, never scored."""
    get = result.get if isinstance(result, dict) else lambda name: getattr(result, name, None)
    return bool(get("undecided")) and not is_errored(get("status"))


@dataclass
class Tally:
    """Episodes counted the one way every total is: passes, failures and mean score over the scored ones, the
    errored ones apart with their reasons (`ERRORED`)."""

    episodes: int = 0
    passes: int = 0
    failed: int = 0
    errored: int = 0
    undecided: int = 0
    """Episodes whose verdict needs a judge none gave (`is_undecided`): neither passes nor failures."""
    score_sum: float = 0.0
    reasons: dict[str, int] = field(default_factory=dict)
    """How many errored episodes gave each reason ("agent_error: ..."), in the order first met."""

    @property
    def scored(self) -> int:
        """Episodes that count in scores: the ones that passed or failed."""
        return self.passes + self.failed

    @property
    def score(self) -> float | None:
        """The mean score of the scored episodes (None: none was scored)."""
        return round(self.score_sum / self.scored, 6) if self.scored else None

    def add(self, status: Any, passed: Any, score: Any, error: Any = None, undecided: Any = None) -> None:
        """Count one episode by its status, verdict, score, (errored) reason and whether it is undecided."""
        self.episodes += 1
        if is_errored(status):
            self.errored += 1
            reason = f"{status}: {error}" if error else str(status)
            self.reasons[reason] = self.reasons.get(reason, 0) + 1
        elif undecided:
            self.undecided += 1
        elif passed:
            self.passes += 1
            self.score_sum += float(score or 0.0)
        else:
            self.failed += 1
            self.score_sum += float(score or 0.0)

    def as_dict(self) -> dict[str, Any]:
        """The counts as summaries hold them: episodes, scored, passes, failed, errored, undecided, errors (reason:
        count), score, and pass@k / pass^k over the scored episodes."""
        return {
            "episodes": self.episodes,
            "scored": self.scored,
            "passes": self.passes,
            "failed": self.failed,
            "errored": self.errored,
            "undecided": self.undecided,
            "errors": dict(self.reasons),
            "score": self.score,
            **pass_k_tables(self.scored, self.passes),
        }


def tally(episodes: Iterable[Any]) -> Tally:
    """A `Tally` of episodes given as results.json dicts or objects with `status`, `passed`, `score` and `error`."""
    counted = Tally()
    for episode in episodes:
        get = episode.get if isinstance(episode, dict) else lambda name, e=episode: getattr(e, name, None)
        counted.add(get("status") or "completed", get("passed"), get("score"), get("error"), get("undecided"))
    return counted


def describe_errors(reasons: dict[str, int], limit: int = 3) -> str:
    """Errored episodes' reasons in one line: the first `limit`, each with its count when more than one."""
    parts = [f"{reason} (x{count})" if count > 1 else reason for reason, count in list(reasons.items())[:limit]]
    if len(reasons) > limit:
        parts.append(f"{len(reasons) - limit} more reason(s)")
    return "; ".join(parts)
