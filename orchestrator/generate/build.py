"""Generated organizations: a whole organization across calendar, mail, docs and tickets, from a seed and a size.

`build_organization(seed, size, edition=1, split=None)` returns an `Organization` (`model`): the organization (name,
email domains, offices), its people (names, addresses, time zones, working hours, teams, roles,
managers) and outside contacts (customers, vendors, newsletters), the clock the scenarios start at,
and `apps`, each app's seed data in the format scenarios use (`apps:` validated by
`servers/<app>/seed.py`). The same seed, size and edition give the same organization, byte for byte
(`Organization.dump()`), with the same Faker release.

- Edition 1 (`build1`): release v1's organizations. Names, addresses and text from Faker (its catch-phrases and
  filler); twelve offices; the clock a Monday 09:00.
- Edition 2 (`build2`): a thousand organizations. The seed picks the organization (its name, unique for
  seeds below `vocab.ORGANIZATIONS`, and its industry, see `vocab.INDUSTRIES`); every piece of text
  comes from that industry's curated vocabulary (Faker only gives people's names and addresses); offices
  from a list over every continent (`organization.OFFICES_V2`); the clock on any weekday of START_YEAR
  at 08:00-16:00 on the hour or half hour; no two people of an organization share a first name.

Sizes: `small` (a dozen people, tens of rows per app, for tests), `medium`
(about 40 people, hundreds of rows per app) and `large` (about 150 people,
thousands of rows per app: distraction at scale).
"""

from __future__ import annotations

import json
from collections import OrderedDict

from orchestrator.generate import build1, build2
from orchestrator.generate.model import START_YEAR, Organization, Person, ascii_slug, iso
from orchestrator.generate.organization import SIZES

__all__ = [
    "EDITIONS",
    "START_YEAR",
    "Person",
    "Organization",
    "ascii_slug",
    "build_organization",
    "iso",
    "validate_apps",
]

EDITIONS = (1, 2, 3)
SPLITS = ("train", "test")

CACHE_WEIGHT = {"small": 1, "medium": 4, "large": 16}
"""What a built organization of each size counts for in the cache (about 2, 10 and 16 MB in memory, and its build time)."""
CACHE_BUDGET = 64
"""The cache keeps the most recently used organizations up to this weight: 64 small, 16 medium or 4 large organizations."""

_CACHE: OrderedDict[tuple[int, str, int, str | None], Organization] = OrderedDict()


def build_organization(seed: int, size: str = "small", *, edition: int = 1, split: str | None = None) -> Organization:
    """The organization of this seed, size and edition (cached, the most recently used up to `CACHE_BUDGET`; callers get a
    copy they may change). `split` (`train`, `test` or None) is recorded on the organization (`Organization.split`): the phrasings
    its tasks may be worded with."""
    if size not in SIZES:
        raise ValueError(f"unknown organization size {size!r}; expected one of {', '.join(SIZES)}")
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}; expected one of {', '.join(map(str, EDITIONS))}")
    if split is not None and split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {', '.join(SPLITS)} or None")
    key = (seed, size, edition, split)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key].copy()
    if edition == 1:
        org = build1.Builder(seed, SIZES[size]).build()
    else:
        org = build2.Builder2(seed, SIZES[size]).build()
    org.edition, org.split = edition, split
    _CACHE[key] = org
    while sum(CACHE_WEIGHT[k[1]] for k in _CACHE) > CACHE_BUDGET and len(_CACHE) > 1:
        _CACHE.popitem(last=False)
    return org.copy()


def validate_apps(org: Organization) -> list[str]:
    """Problems the apps' seed models find in the world's data (none for a sound organization)."""
    from servers import registry  # noqa: PLC0415

    problems = []
    for app, data in org.apps.items():
        try:
            registry.load(app).seed_model.model_validate(json.loads(json.dumps(data)))
        except Exception as exc:  # pydantic.ValidationError
            problems.append(f"{app}: {exc}")
    return problems
