"""Time zones as texts write them: abbreviations (`CET`), offsets (`UTC+1`, `+01:00`), IANA names, and places
(`Lisbon time`, `New York`, `UK time`).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

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
_LETTERS = "A-Za-zÀ-ÖØ-öø-ÿ"
_PLACE = (
    r"(?P<place>[A-ZÀ-ÖØ-Þ]["
    + _LETTERS
    + r".'-]*(?:[ -](?:[A-ZÀ-ÖØ-Þ]["
    + _LETTERS
    + r".'-]*|es|de|la|du|al|of)){0,3})"
)
# After a time: "13:00 Lisbon time", "9:30 am New York", "(13:00 for Ana in Lisbon)", "09:30 in New York".
PLACE_AFTER = re.compile(
    r"[ \t]*\(?[ \t]*(?:(?:for|to)[ \t]+(?:[A-Z][a-z]+[ \t]+)?(?:in|at)[ \t]+|(?:here[ \t]+)?in[ \t]+(?:the[ \t]+)?|"
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
    r"\b(?:(?i:all)[ \t]+(?:the[ \t]+)?times?[ \t]+(?:are[ \t]+)?(?:in[ \t]+)?(?:the[ \t]+)?"
    + _PLACE
    + "(?:[ \t]+time)?"
    r"|" + _PLACE.replace("place", "place2") + r"[ \t]+times?\b(?=[ \t]*\)?[ \t]*(?:[:,;.!\n]|$)))",
)


def _unaccented(name: str) -> str:
    """A place name without its accents ("São Paulo" → "Sao Paulo"), as the zone database writes it."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))


def place_zone(words: str) -> tuple[str, int] | None:
    """The zone of the longest place that `words` starts with, and how many characters it takes."""
    parts = re.split(r"(?<=[^ -])(?=[ -])", words)
    for n in range(len(parts), 0, -1):
        name = _unaccented("".join(parts[:n]).rstrip("."))
        if name in PLACES:
            return PLACES[name], len("".join(parts[:n]))
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


def as_tzinfo(zone: tzinfo | str) -> tzinfo:
    """A zone as a tzinfo (IANA names are looked up)."""
    return ZoneInfo(zone) if isinstance(zone, str) else zone
