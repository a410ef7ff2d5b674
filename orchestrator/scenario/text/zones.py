"""Time zones as texts write them: abbreviations (`CET`), offsets (`UTC+1`, `+01:00`), IANA names, and places
(`Lisbon time`, `New York`, `UK time`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

if TYPE_CHECKING:
    from orchestrator.scenario.text.dates import DateMention
    from orchestrator.scenario.text.times import TimeMention

# Abbreviations of zones with daylight saving stand for the region's local time on that date, as people
# use them ("15:30 CET" written in July means Berlin time), so they are IANA zones here.
ZONE_ABBREVIATIONS: dict[str, tzinfo | str] = {
    "UTC": UTC,
    "GMT": UTC,
    "Z": UTC,
    "UT": UTC,
    "WET": "Europe/Lisbon",
    "WEST": "Europe/Lisbon",
    "BST": "Europe/London",
    "CET": "Europe/Berlin",
    "CEST": "Europe/Berlin",
    "MEZ": "Europe/Berlin",
    "MESZ": "Europe/Berlin",
    "EET": "Europe/Helsinki",
    "EEST": "Europe/Helsinki",
    "MSK": timezone(timedelta(hours=3)),
    "IST": timezone(timedelta(hours=5, minutes=30)),
    "SGT": timezone(timedelta(hours=8)),
    "JST": timezone(timedelta(hours=9)),
    "KST": timezone(timedelta(hours=9)),
    "AEST": "Australia/Sydney",
    "AEDT": "Australia/Sydney",
    "ET": "America/New_York",
    "EST": "America/New_York",
    "EDT": "America/New_York",
    "CT": "America/Chicago",
    "CST": "America/Chicago",
    "CDT": "America/Chicago",
    "MT": "America/Denver",
    "MST": "America/Denver",
    "MDT": "America/Denver",
    "PT": "America/Los_Angeles",
    "PST": "America/Los_Angeles",
    "PDT": "America/Los_Angeles",
    "NZST": "Pacific/Auckland",
    "NZDT": "Pacific/Auckland",
    "NZT": "Pacific/Auckland",
    "AWST": "Australia/Perth",
    "ACST": "Australia/Adelaide",
    "ACDT": "Australia/Adelaide",
    "HKT": "Asia/Hong_Kong",
    "PHT": "Asia/Manila",
    "PKT": "Asia/Karachi",
    "ICT": "Asia/Bangkok",
    "WIB": "Asia/Jakarta",
    "GST": "Asia/Dubai",
    "HST": "Pacific/Honolulu",
    "AKST": "America/Anchorage",
    "AKDT": "America/Anchorage",
    "BRT": "America/Sao_Paulo",
    "ART": "America/Argentina/Buenos_Aires",
    "SAST": "Africa/Johannesburg",
    "CAT": "Africa/Maputo",
    "EAT": "Africa/Nairobi",
    "WAT": "Africa/Lagos",
    "TRT": "Europe/Istanbul",
}
ZONE = re.compile(
    r"\s*\(?\s*(?P<zone>"
    r"(?:UTC|GMT)\s*[+\-−]\s*\d{1,2}(?::?\d{2})?"
    r"|[+\-−]\d{2}:?\d{2}\b"
    r"|[A-Z][a-z]+(?:_[A-Z][a-z]+)?(?:/[A-Z][A-Za-z_]+){1,2}"  # America/Argentina/Buenos_Aires too
    r"|[A-Z]{1,5}\b"
    r")"
)
OFFSET = re.compile(r"(?:UTC|GMT)?\s*([+\-−])\s*(\d{1,2})(?::?(\d{2}))?$")

AT_DATE = re.compile(
    r"[ \t,)]*(?:(?:at|@|from|a\s+las?|às?|um|alle|om|kl\.?|vers|ab|von|de|dalle|desde|das)[ \t]+)?", re.I
)
"""What joins a date to its time right after it: "Wednesday 3 February at 10:00", "3 de febrero a las 10:00"."""
ON_DATE = re.compile(r"[ \t,(]*(?:(?:on|am|le|el|il|op|no|em)[ \t]+)?(?:the[ \t]+)?", re.I)
"""What joins a time to its date right after it: "10:00 on Friday 5 March", "15:00 (Thu)"."""


# Places people name a zone by ("13:00 Lisbon time", "09:30 New York", "UK time"): the cities of the IANA
# zone names (their last part, spaces for underscores) and a few countries and regions.
PLACE_ALIASES: dict[str, str] = {
    "UK": "Europe/London",
    "U.K.": "Europe/London",
    "Britain": "Europe/London",
    "Great Britain": "Europe/London",
    "England": "Europe/London",
    "Scotland": "Europe/London",
    "Wales": "Europe/London",
    "Ireland": "Europe/Dublin",
    "Portugal": "Europe/Lisbon",
    "Spain": "Europe/Madrid",
    "France": "Europe/Paris",
    "Germany": "Europe/Berlin",
    "Italy": "Europe/Rome",
    "Netherlands": "Europe/Amsterdam",
    "Belgium": "Europe/Brussels",
    "Austria": "Europe/Vienna",
    "Switzerland": "Europe/Zurich",
    "Poland": "Europe/Warsaw",
    "Sweden": "Europe/Stockholm",
    "Norway": "Europe/Oslo",
    "Denmark": "Europe/Copenhagen",
    "Finland": "Europe/Helsinki",
    "Greece": "Europe/Athens",
    "Israel": "Asia/Jerusalem",
    "India": "Asia/Kolkata",
    "Japan": "Asia/Tokyo",
    "Korea": "Asia/Seoul",
    "China": "Asia/Shanghai",
    "NYC": "America/New_York",
    "NY": "America/New_York",
    "SF": "America/Los_Angeles",
    "LA": "America/Los_Angeles",
    "Lisboa": "Europe/Lisbon",
    "Bengaluru": "Asia/Kolkata",
    "Bangalore": "Asia/Kolkata",
    "Mumbai": "Asia/Kolkata",
    "Delhi": "Asia/Kolkata",
    "New Delhi": "Asia/Kolkata",
    "Hyderabad": "Asia/Kolkata",
    "Chennai": "Asia/Kolkata",
    "Pune": "Asia/Kolkata",
    "San Francisco": "America/Los_Angeles",
    "Seattle": "America/Los_Angeles",
    "Portland": "America/Los_Angeles",
    "San Diego": "America/Los_Angeles",
    "Boston": "America/New_York",
    "Washington": "America/New_York",
    "Atlanta": "America/New_York",
    "Miami": "America/New_York",
    "Philadelphia": "America/New_York",
    "Austin": "America/Chicago",
    "Dallas": "America/Chicago",
    "Houston": "America/Chicago",
    "Minneapolis": "America/Chicago",
    "Salt Lake City": "America/Denver",
    "Montreal": "America/Toronto",
    "Ottawa": "America/Toronto",
    "Calgary": "America/Edmonton",
    "Munich": "Europe/Berlin",
    "München": "Europe/Berlin",
    "Frankfurt": "Europe/Berlin",
    "Hamburg": "Europe/Berlin",
    "Cologne": "Europe/Berlin",
    "Köln": "Europe/Berlin",
    "Düsseldorf": "Europe/Berlin",
    "Stuttgart": "Europe/Berlin",
    "Leipzig": "Europe/Berlin",
    "Barcelona": "Europe/Madrid",
    "Milan": "Europe/Rome",
    "Milano": "Europe/Rome",
    "Geneva": "Europe/Zurich",
    "Basel": "Europe/Zurich",
    "Lyon": "Europe/Paris",
    "Rotterdam": "Europe/Amsterdam",
    "Porto": "Europe/Lisbon",
    "Krakow": "Europe/Warsaw",
    "Gothenburg": "Europe/Stockholm",
    "Edinburgh": "Europe/London",
    "Manchester": "Europe/London",
    "Glasgow": "Europe/London",
    "Cork": "Europe/Dublin",
    "Osaka": "Asia/Tokyo",
    "Beijing": "Asia/Shanghai",
    "Shenzhen": "Asia/Shanghai",
    "Hanoi": "Asia/Bangkok",
    "Ho Chi Minh City": "Asia/Ho_Chi_Minh",
    "Saigon": "Asia/Ho_Chi_Minh",
    "Abu Dhabi": "Asia/Dubai",
    "Cape Town": "Africa/Johannesburg",
    "Wellington": "Pacific/Auckland",
    "Canberra": "Australia/Sydney",
    "Rio": "America/Sao_Paulo",
    "Rio de Janeiro": "America/Sao_Paulo",
    "Brasília": "America/Sao_Paulo",
    "Brasilia": "America/Sao_Paulo",
    "Central European": "Europe/Berlin",
    "Central Europe": "Europe/Berlin",
    "US Eastern": "America/New_York",
    "US East Coast": "America/New_York",
    "East Coast": "America/New_York",
    "Eastern": "America/New_York",
    "US Central": "America/Chicago",
    "US Mountain": "America/Denver",
    "Mountain": "America/Denver",
    "US Pacific": "America/Los_Angeles",
    "US West Coast": "America/Los_Angeles",
    "West Coast": "America/Los_Angeles",
    "Pacific": "America/Los_Angeles",
    "Hawaii": "Pacific/Honolulu",
    "Alaska": "America/Anchorage",
    "Azores": "Atlantic/Azores",
    "Ponta Delgada": "Atlantic/Azores",
    "Funchal": "Atlantic/Madeira",
    "Ciudad de México": "America/Mexico_City",
    "Ciudad de Mexico": "America/Mexico_City",
    "CDMX": "America/Mexico_City",
    "Mexico": "America/Mexico_City",
    "México": "America/Mexico_City",
    "Nueva York": "America/New_York",
    "Londres": "Europe/London",
    "Colombia": "America/Bogota",
    "Peru": "America/Lima",
    "Perú": "America/Lima",
    "Chile": "America/Santiago",
    "Argentina": "America/Argentina/Buenos_Aires",
    "Brazil": "America/Sao_Paulo",
    "Brasil": "America/Sao_Paulo",
    "Turkey": "Europe/Istanbul",
    "Türkiye": "Europe/Istanbul",
    "Egypt": "Africa/Cairo",
    "Kenya": "Africa/Nairobi",
    "Nigeria": "Africa/Lagos",
    "South Africa": "Africa/Johannesburg",
    "Philippines": "Asia/Manila",
    "Vietnam": "Asia/Ho_Chi_Minh",
    "Thailand": "Asia/Bangkok",
    "Indonesia": "Asia/Jakarta",
    "Pakistan": "Asia/Karachi",
    "Bangladesh": "Asia/Dhaka",
    "New Zealand": "Pacific/Auckland",
    "Iceland": "Atlantic/Reykjavik",
}
# Last parts of zone names that are more often a person's name or a common word than a place.
NOT_PLACES = frozenset(
    {
        "Center",
        "Knox",
        "Regina",
        "Dawson",
        "Casey",
        "Davis",
        "Palmer",
        "Troll",
        "Vostok",
        "Mawson",
        "Marengo",
        "Beulah",
        "Vevay",
        "Winamac",
        "Monticello",
        "Petersburg",
        "Vincennes",
        "Tell City",
        "New Salem",
        "Wake",
        "Midway",
        "Creston",
        "Chatham",
        "Easter",
        "Faroe",
        "Hovd",
        "Nome",
        "Sitka",
        "Juneau",
        "Eucla",
    }
)
_REGIONS = ("Africa/", "America/", "Asia/", "Atlantic/", "Australia/", "Europe/", "Indian/", "Pacific/")


def _places() -> dict[str, str]:
    from zoneinfo import available_timezones

    places: dict[str, str] = {}
    for name in sorted(available_timezones()):
        if name.startswith(_REGIONS):
            city = name.rsplit("/", 1)[-1].replace("_", " ")
            if city not in NOT_PLACES:
                places.setdefault(city, name)
    return places | PLACE_ALIASES


PLACES = _places()
PLACES_ANY_CASE = {name.lower(): zone for name, zone in PLACES.items()}
"""Places in any case ("london", "nyc", "LONDON")."""
_LETTERS = "A-Za-zÀ-ÖØ-öø-ÿ"
_PLACE = (
    r"(?P<place>[A-ZÀ-ÖØ-Þ]["
    + _LETTERS
    + r".'-]*(?:[ -](?:[A-ZÀ-ÖØ-Þ]["
    + _LETTERS
    + r".'-]*|es|de|la|du|al|of)){0,3})"
)
# After a time: "13:00 Lisbon time", "9:30 am New York", "(13:00 for Ana in Lisbon)", "09:30 in New York", "11h00
# heure de Zurich", "a las 10:00 hora de Madrid", "alle 10:00 ora di Roma", "10h horário de Brasília".
PLACE_AFTER = re.compile(
    r"[ \t]*\(?[ \t]*(?:(?i:heure|hora|horário|ora)[ \t]+(?:(?i:locale|local)[ \t]+)?(?:de|di|du|d')[ \t]*(?:la[ \t]+)?|"
    r"(?:for|to)[ \t]+(?:[A-Z][a-z]+[ \t]+|(?:(?:both|all|each)[ \t]+of[ \t]+)?(?:you|him|her|them|us)"
    r"[ \t]+)?(?:in|at)[ \t]+|"
    r"(?:here[ \t]+)?(?:in|en|à)[ \t]+(?:the[ \t]+)?|"
    r"for[ \t]+(?:the[ \t]+)?)?" + _PLACE
)
# Before a time, at the start of a line or after a separator: "London: 14:00", "Berlin 15:00, London 14:00",
# "Tom (London): 14:00", "in Paris 10:00" (not "Ana Lima 10:00": a place right after a capitalised word).
PLACE_BEFORE = re.compile(
    r"(?:^|(?<=[\n,;/|•(–-])|(?<=\bin\s)|(?<=\bfor\s))[ \t]*" + _PLACE + r"[ \t]*\)?[ \t]*[:=–-]?[ \t]*$"
)
# A place said for the times that follow ("(London time):", "in UK time:", "all times UK"), or for those
# before it when none follows ("... 8 am (all UK time).").
PLACE_DECLARED = re.compile(
    r"\b(?:(?i:all)[ \t]+(?:the[ \t]+)?times?[ \t]+(?:(?i:below|above|here|listed)[ \t]+)?(?:are[ \t]+)?(?:in[ \t]+)?"
    r"(?:the[ \t]+)?(?:(?i:local)[ \t]*(?:[(,:–—-][ \t]*)?)?" + _PLACE + "(?:[ \t]+time)?"
    r"|" + _PLACE.replace("place", "place2") + r"[ \t]+times?\b(?=[ \t]*\)?[ \t]*(?:[:,;.!\n]|$)))",
)


def _unaccented(name: str) -> str:
    """A place name without its accents ("São Paulo" → "Sao Paulo"), as the zone database writes it."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))


def place_zone(words: str) -> tuple[str, int] | None:
    """The zone of the longest place that `words` starts with, and how many characters it takes."""
    parts = re.split(r"(?<=[^ -])(?=[ -])", words)
    for n in range(len(parts), 0, -1):
        written = "".join(parts[:n]).rstrip(".")
        for name in (written, _unaccented(written)):
            if name in PLACES:
                return PLACES[name], len("".join(parts[:n]))
            if name.lower() in PLACES_ANY_CASE and (name.islower() or name.isupper()):
                return PLACES_ANY_CASE[name.lower()], len("".join(parts[:n]))
    return None


def place_before(text: str) -> tuple[str, int] | None:
    """The zone of a place written right before a time (`text` ends where the time starts), and where it starts."""
    m = PLACE_BEFORE.search(text)
    if m is None:
        return None
    found = place_zone(m.group("place"))
    if found is None or found[1] != len(m.group("place")):
        return None
    return found[0], m.start("place")


def zone_named(name: str) -> tzinfo | str | None:
    """A zone from how a text writes it: an abbreviation, an offset or an IANA name; None if it is not one."""
    name = name.strip()
    if name in ZONE_ABBREVIATIONS:
        return ZONE_ABBREVIATIONS[name]
    offset = OFFSET.match(name)
    if offset and (name[0] in "+-−" or name[:3] in ("UTC", "GMT")):
        sign = -1 if offset.group(1) in "-−" else 1
        hours, minutes = int(offset.group(2)), int(offset.group(3) or 0)
        if hours > 14 or minutes > 59:
            return None
        return timezone(sign * timedelta(hours=hours, minutes=minutes))
    if "/" in name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a region folder, not a zone
            return None
    return None


def zones_apart(a: tzinfo | str, b: tzinfo | str) -> bool:
    """Whether two zones are apart: their offsets differ in January or in July ("Berlin" and "Kyiv", not "CET" and
    "Europe/Paris")."""
    if a == b:
        return False
    x, y = as_tzinfo(a), as_tzinfo(b)
    return any(x.utcoffset(day) != y.utcoffset(day) for day in (datetime(2026, 1, 15), datetime(2026, 7, 15)))


def as_tzinfo(zone: tzinfo | str) -> tzinfo:
    """A zone as a tzinfo (IANA names are looked up)."""
    return ZoneInfo(zone) if isinstance(zone, str) else zone


CONVERSION_GAP = re.compile(
    r"\s*(?:[(\[/=,]|\s[–—-])?\s*(?:(?:i\.e\.|\bie\b|\bwhich\s+is\b|\bthat's\b|\bthat\s+is\b),?\s*[(\[]?\s*)?", re.I
)
"""What stands between a time and the same time in another zone: "08:00 Auckland (16:00 in New York)", "10:00 ET /
16:00 CET", "11:00 Berlin — 12:00 in Kyiv", "14:00 UTC, which is 15:00 CET"."""
ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def converted_days(text: str, mentions: Sequence[TimeMention], dates: Sequence[DateMention]) -> None:
    """A time given as a conversion of the time before it into another zone is the same instant there: it takes its
    date from that instant, not the date written for the time it converts ("Friday 18 September, 08:00 Auckland
    (16:00 in New York)": Thursday 17 September in New York; "Mon 09:00 Sydney / 23:00 London": Sunday). A date
    written for the conversion itself ("(16:00 New York, Thursday)") stands, right or wrong; so does the end of a
    range the conversion starts."""

    for index, mention in enumerate(mentions):
        if not index or mention.zone is None or mention.range_end or ISO_DAY.match(mention.text):
            continue
        gap = mentions[index - 1].end
        before = mentions[index - 2] if mentions[index - 1].range_end and index > 1 else mentions[index - 1]
        if before.zone is None or not before.dates or before.range_end or not zones_apart(before.zone, mention.zone):
            continue
        own = [
            d.end
            for d in dates
            if d.start >= gap and ON_DATE.fullmatch(text, gap, d.start) and "(" not in text[gap : d.start]
        ]
        gap = max(own + [gap])
        if not CONVERSION_GAP.fullmatch(text, gap, mention.start):
            continue  # "08:00 Auckland on Friday 18 September (16:00 in New York)": the first's own date is passed
        if any(
            (d.start >= gap and AT_DATE.fullmatch(text, d.end, mention.start))
            or (d.start >= mention.end and ON_DATE.fullmatch(text, mention.end, d.start))
            for d in dates
        ):
            continue
        days = _days_there(before, mention)
        following = mentions[index + 1] if index + 1 < len(mentions) else None
        if following is not None and following.range_end and following.dates == mention.dates:
            following.dates = days
        mention.dates = days


def _days_there(before: TimeMention, mention: TimeMention) -> list[date]:
    """The days `mention` (in its own zone) falls on as the same instant as `before`: for each instant `before` may
    mean, the day there on which the reading of `mention` that gives that instant's clock time there falls (a right
    conversion); with none, the day on which its reading nearest the instant falls ("half past ten in Zurich" of
    11:30 Nairobi read on another season's offsets is 10:30 that day, not 22:30 the day before; a wrong conversion:
    the day it meant)."""
    here, there = as_tzinfo(before.zone), as_tzinfo(mention.zone)  # type: ignore[arg-type]  # both have a zone
    moments = [datetime.combine(d, t, tzinfo=here) for d in before.dates or [] for t in before.times]
    pairs = {(i, t) for i in moments for t in mention.times if i.astimezone(there).time() == t}
    days: set[date] = set()
    for moment in moments:
        readings = [t for t in mention.times if (moment, t) in pairs] if pairs else mention.times
        local = moment.astimezone(there).date()
        near = [local + timedelta(days=k) for k in (-1, 0, 1)]
        gaps = [(abs(datetime.combine(d, t, tzinfo=there) - moment), d) for t in readings for d in near]
        if gaps:
            days.add(min(gaps)[1])
    return sorted(days)
