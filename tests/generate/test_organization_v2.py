"""Generated organizations by edition: edition 1 stays byte for byte what release v1 was built on; edition 2 draws a
thousand organizations from curated per-industry vocabularies, offices over the organization and clocks over the year."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from faker import Faker
from faker.providers.company.en_US import Provider as CompanyProvider

from orchestrator.generate import build as orgs
from orchestrator.generate import build2, vocab
from orchestrator.generate.build import START_YEAR
from orchestrator.generate.organization import OFFICES, OFFICES_V2
from orchestrator.generate.organization import SIZES as edition1_sizes
from orchestrator.scenario.text.zones import PLACES

EDITION_1 = {
    (0, "small"): "a68a687fba9792207d6a9dd24533a89e4166a4d4ff8ab61dc1fe57f9bb2eac1e",
    (1, "small"): "7455d3cc07d49c854d05fa92bf995da0c12eb06f48017ff38392bfe0511f1382",
    (7, "small"): "fb6be67df27bcb656184a58ea868249d877d0f76c5f2b4b2c2ab4f0c44a1b401",
    (3, "medium"): "501c9942a47ed5d29081d9c0a91abcf2ea46d0cd08e9263fd66c7ee35fe728d6",
}
"""Organization digests as release v1 built them (before edition 2 existed)."""


@pytest.mark.parametrize(("seed", "size"), sorted(EDITION_1))
def test_edition_1_organizations_are_what_release_v1_was_built_on(seed: int, size: str) -> None:
    assert orgs.build_organization(seed, size).digest() == EDITION_1[(seed, size)]


# -- edition 2 ---------------------------------------------------------------------------------------------------


def test_edition_2_is_deterministic_and_apart_from_edition_1() -> None:
    first = orgs.build_organization(41, "small", edition=2)
    orgs._CACHE.clear()
    again = orgs.build_organization(41, "small", edition=2)
    assert again.dump() == first.dump() and again.digest() == first.digest()
    assert (again.edition, again.split, again.industry) == (2, None, first.industry) and first.industry
    assert orgs.build_organization(41, "small").digest() != first.digest()
    assert orgs.build_organization(42, "small", edition=2).name != first.name
    assert orgs.validate_apps(first) == []


def test_the_split_is_recorded_and_part_of_the_cache_key() -> None:
    test = orgs.build_organization(43, "small", edition=2, split="test")
    train = orgs.build_organization(43, "small", edition=2, split="train")
    assert (test.split, train.split) == ("test", "train") and test.digest() == train.digest()
    assert orgs.build_organization(43, "small", edition=2).split is None
    neutral = orgs.build_organization(
        43, "small", edition=3, split="test"
    )  # edition 3 draws on edition 2's organizations
    assert neutral.edition == 3 and neutral.digest() == test.digest() and neutral.dump() == test.dump()
    for bad, message in (({"edition": 4}, "edition 4"), ({"split": "dev"}, "split 'dev'")):
        with pytest.raises(ValueError, match=message):
            orgs.build_organization(43, "small", **bad)


def test_a_thousand_seeds_give_a_thousand_organizations_over_every_industry() -> None:
    window = random.Random(7).randrange(10**9)
    assert len({vocab.organization_name(s)[0] for s in range(window, window + vocab.ORGANIZATIONS, 97)}) == len(
        range(window, window + vocab.ORGANIZATIONS, 97)
    )  # any ORGANIZATIONS consecutive seeds name distinct organizations
    for seeds in (range(1000), range(1_000_000, 1_001_000)):
        names = [vocab.organization_name(s) for s in seeds]
        assert len({name for name, _ in names}) == 1000
        industries = Counter(industry.name for _, industry in names)
        assert set(industries) == set(vocab.INDUSTRIES) and len(industries) >= 12
        assert max(industries.values()) <= 2 * min(industries.values())
    for seed in range(44, 46):
        org = orgs.build_organization(seed, "small", edition=2)
        assert (org.name, org.industry) == (vocab.organization_name(seed)[0], vocab.organization_name(seed)[1].name)
        assert org.domain == f"{orgs.ascii_slug(org.name, '-')}.test"


def test_every_industry_has_its_own_curated_vocabulary() -> None:
    assert len(vocab.INDUSTRIES) >= 12
    for industry in vocab.INDUSTRIES.values():
        assert len(industry.teams) == 8 and len({t.project for t in industry.teams}) == 8, industry.name
        assert not {t.project for t in industry.teams} & {"REQ", "TRAVEL"}, industry.name  # families add these
        for field in ("products", "components", "problems", "topics", "docs", "sentences"):
            assert len(getattr(industry, field)) >= 5, (industry.name, field)


def _texts(org: orgs.Organization) -> list[str]:
    apps = org.apps
    return (
        [m["subject"] + "\n" + m["body"] for m in apps["mail"]["messages"]]
        + [e["title"] + "\n" + e.get("description", "") for e in apps["calendar"]["events"]]
        + [d["title"] + "\n" + d["content"] for d in apps["docs"]["documents"]]
        + [t["title"] + "\n" + t["description"] for t in apps["tickets"]["tickets"]]
        + [c["body"] for c in apps["tickets"]["comments"]]
        + [o.company for o in org.outsiders]
        + [org.name]
    )


def _faker_phrases(text: str) -> list[str]:
    """Two words in a row as Faker's catch-phrases and bs put them ('fully-configurable 24/7 ...')."""
    company = CompanyProvider
    columns = [{w.lower() for w in words} for words in (*company.catch_phrase_words, *company.bsWords)]
    pairs = [(columns[0], columns[1]), (columns[1], columns[2]), (columns[3], columns[4]), (columns[4], columns[5])]
    words = re.findall(r"[\w/-]+", text.lower())
    return [f"{a} {b}" for a, b in itertools.pairwise(words) if any(a in x and b in y for x, y in pairs)]


def test_edition_2_text_comes_from_the_vocabulary_not_fakers_catch_phrases() -> None:
    found = [p for t in _texts(orgs.build_organization(45, "small")) for p in _faker_phrases(t)]
    assert len(found) >= 5  # what edition 1 reads like
    for seed in (45, 46, 47, 48):
        org = orgs.build_organization(seed, "small", edition=2)
        found = [p for t in _texts(org) for p in _faker_phrases(t)]
        assert found == [], (org.name, found[:5])
    medium = orgs.build_organization(49, "medium", edition=2)
    assert [p for t in _texts(medium)[::7] for p in _faker_phrases(t)] == []


def _first_names(org: orgs.Organization) -> list[str]:
    return [orgs.ascii_slug(p.first_name) for p in [org.persona, *org.people, *org.outsiders]]


@pytest.mark.parametrize(("seed", "size"), [(50, "small"), (51, "small"), (52, "medium")])
def test_nobody_in_an_edition_2_organization_shares_a_first_name_and_its_apps_accept_it(seed: int, size: str) -> None:
    org = orgs.build_organization(seed, size, edition=2)
    names = _first_names(org)
    assert len(names) == len(set(names))
    assert orgs.validate_apps(org) == []


@pytest.mark.slow
def test_nobody_in_a_large_organization_shares_a_first_name_and_its_apps_accept_it() -> None:
    org = orgs.build_organization(53, "large", edition=2)
    names = _first_names(org)
    assert len(names) == len(set(names)) > 180
    assert orgs.validate_apps(org) == []


def test_offices_have_real_zones_and_faker_locales_and_the_persona_zone_varies() -> None:
    for office in OFFICES_V2:
        ZoneInfo(office.timezone)
        Faker(office.locale).first_name()
    assert len(OFFICES_V2) >= 30 and OFFICES_V2[: len(OFFICES)] == OFFICES
    zones = {orgs.build_organization(s, "small", edition=2).persona.timezone for s in range(60, 80)}
    assert len(zones) >= 8


def _clock(org: orgs.Organization) -> None:
    start = org.start
    assert start.tzinfo is not None and str(start.tzinfo) == org.persona.timezone
    assert start.year == START_YEAR and start.weekday() < 5 and (8, 0) <= (start.hour, start.minute) <= (16, 0)
    assert start.minute in (0, 30) and start.second == 0
    assert start.utcoffset() == ZoneInfo(org.persona.timezone).utcoffset(start.replace(tzinfo=None))


def test_clocks_start_on_every_weekday_at_working_hours_across_the_year() -> None:
    built = [orgs.build_organization(s, "small", edition=2) for s in range(80, 120)]
    for org in built:
        _clock(org)
    assert {w.start.weekday() for w in built} == {0, 1, 2, 3, 4}
    assert len({w.start.hour for w in built}) >= 6 and len({w.start.month for w in built}) >= 8
    assert {w.start.minute for w in built} == {0, 30}


def test_an_organization_s_history_and_future_span_its_clock() -> None:
    for seed, size in ((120, "small"), (121, "medium")):
        org = orgs.build_organization(seed, size, edition=2)
        days = {e["start"][:10] for e in org.apps["calendar"]["events"]}
        spec = edition1_sizes[size]
        assert min(days) <= org.day(-1).isoformat() and max(days) >= org.day(spec.days_after - 3).isoformat()
        assert all(datetime.fromisoformat(m["sent_at"]) < org.start for m in org.apps["mail"]["messages"])


def test_a_family_can_word_its_rows_in_the_organization_s_industry() -> None:
    org = orgs.build_organization(122, "small", edition=2)
    writer = vocab.Writer.of(org, random.Random(1))
    kind, summary, description = writer.ticket()
    assert kind in ("task", "bug", "story") and summary and description
    industry = vocab.INDUSTRIES[org.industry]
    title, _room, _about = writer.meeting()
    assert any(
        t[:1].upper() + t[1:] in title or t in title.lower()
        for t in (*industry.topics, *industry.products, *industry.components, *writer.partners)
    )


def test_the_verifier_reads_every_office_city_as_its_zone() -> None:
    """A reference mail says '13:30 Manila time (11:00 in Kolkata)': each office's city must name its zone."""
    for office in OFFICES_V2:
        zone = PLACES.get(office.city)
        assert zone is not None, office.city
        for month in (1, 7):
            when = datetime(START_YEAR, month, 10, 12)
            assert ZoneInfo(zone).utcoffset(when) == ZoneInfo(office.timezone).utcoffset(when), office


@pytest.mark.parametrize(("seed", "size"), [(130, "small"), (131, "medium"), (132, "small")])
def test_offices_of_an_organization_keep_different_times(seed: int, size: str) -> None:
    """Three offices are three time zones: a meeting 'across three zones' really spans three clocks."""
    org = orgs.build_organization(seed, size, edition=2)
    offsets = {tuple(ZoneInfo(o.timezone).utcoffset(datetime(START_YEAR, m, 1)) for m in (1, 7)) for o in org.offices}
    assert len(org.offices) == edition1_sizes[size].offices == len(offsets)


def test_the_cache_keeps_recent_organizations_by_weight_and_hands_out_copies() -> None:
    orgs._CACHE.clear()
    first = orgs.build_organization(140, "small", edition=2)
    first.apps["mail"]["messages"].clear()
    assert orgs.build_organization(140, "small", edition=2).apps["mail"][
        "messages"
    ]  # the cached organization is untouched
    for seed in range(141, 141 + orgs.CACHE_BUDGET):
        orgs.build_organization(seed, "small", edition=2)
        assert sum(orgs.CACHE_WEIGHT[k[1]] for k in orgs._CACHE) <= orgs.CACHE_BUDGET
    assert (140, "small", 2, None) not in orgs._CACHE and (
        141 + orgs.CACHE_BUDGET - 1,
        "small",
        2,
        None,
    ) in orgs._CACHE


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text)


def test_history_is_counted_in_real_time_across_a_daylight_saving_change() -> None:
    """Sydney springs forward at 02:00 on 4 October 2026: 02:38 that night does not exist. Edition 1 counts back on
    the wall clock (its large organization 20002 has a ticket 'created' 02:38+10:00 and 'updated' 03:22+11:00, 16 minutes
    before it was created, which the tickets app refuses); edition 2 counts back in UTC."""
    builder = build2.Builder2(1, edition1_sizes["small"])
    builder.tz = ZoneInfo("Australia/Sydney")
    created = datetime(2026, 10, 3, 16, 38, tzinfo=UTC)  # 02:38 in Sydney on the wall clock of the day before
    assert builder.iso(created) == "2026-10-04T03:38:00+11:00"
    assert builder.iso(created + timedelta(minutes=44)) == "2026-10-04T04:22:00+11:00"
    for seed, size in ((150, "small"), (151, "medium"), (152, "medium")):
        org = orgs.build_organization(seed, size, edition=2)
        tickets = {t["key"]: t for t in org.apps["tickets"]["tickets"]}
        assert all(_instant(t["created_at"]) <= _instant(t["updated_at"]) < org.start for t in tickets.values())
        assert all(
            _instant(c["created_at"]) >= _instant(tickets[c["ticket_key"]]["created_at"])
            for c in org.apps["tickets"]["comments"]
        )
        messages = org.apps["mail"]["messages"]
        sent = {m["id"]: _instant(m["sent_at"]) for m in messages}
        assert [sent[m["id"]] for m in messages] == sorted(sent.values())
        assert all(sent[m["id"]] > sent[m["in_reply_to"]] for m in messages if m.get("in_reply_to"))


@pytest.mark.slow
def test_a_thousand_built_organizations_are_a_thousand_distinct_ones_each_sound() -> None:
    names, industries, weekdays, hours = set(), Counter(), set(), set()
    for seed in range(5000, 6000):
        org = orgs.build_organization(seed, "small", edition=2)
        names.add(org.name)
        industries[org.industry] += 1
        weekdays.add(org.start.weekday())
        hours.add((org.start.hour, org.start.minute))
        first = _first_names(org)
        assert len(first) == len(set(first)), seed
        if seed % 50 == 0:
            assert orgs.validate_apps(org) == [], seed
            assert [p for t in _texts(org) for p in _faker_phrases(t)] == [], seed
    assert len(names) == 1000 and len(industries) == len(vocab.INDUSTRIES) >= 12
    assert min(industries.values()) >= 60
    assert weekdays == {0, 1, 2, 3, 4} and len(hours) == 17
