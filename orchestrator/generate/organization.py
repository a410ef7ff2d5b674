"""What a generated organization is drawn from: organization sizes, offices (city, time zone, locale), teams with their
roles and ticket projects, and working hours. `OFFICES` and `TEAMS` are edition 1's; edition 2 draws offices from
`OFFICES_V2` (every continent; each zone an IANA zone, each locale one Faker has) and teams from its industry
(`vocab.INDUSTRIES`).

May import nothing first-party.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Size:
    """How big a generated organization is: people, domains, offices, customers, days of history, rows per app."""

    name: str
    people: int
    domains: int
    offices: int
    customers: int
    days_before: int
    days_after: int
    meetings_per_day: float
    """One-off meetings of the persona per working day."""
    busy_per_day: float
    """Busy blocks per colleague per working day."""
    threads: int
    newsletters: int
    notifications: int
    customer_mails: int
    docs: int
    projects: int
    tickets: int


SIZES: dict[str, Size] = {
    "small": Size("small", 12, 1, 3, 4, 3, 11, 1.0, 1.0, 6, 4, 4, 3, 10, 2, 16),
    "medium": Size("medium", 40, 2, 5, 12, 14, 28, 2.5, 1.5, 60, 60, 80, 40, 120, 4, 300),
    "large": Size("large", 150, 3, 8, 40, 21, 42, 8.0, 1.0, 500, 600, 900, 400, 1500, 8, 3000),
}


@dataclass(frozen=True)
class Office:
    """An office of the organization: its city, time zone, Faker locale and country."""

    city: str
    timezone: str
    locale: str
    country: str


OFFICES = [
    Office("Berlin", "Europe/Berlin", "de_DE", "Germany"),
    Office("London", "Europe/London", "en_GB", "United Kingdom"),
    Office("New York", "America/New_York", "en_US", "United States"),
    Office("Lisbon", "Europe/Lisbon", "pt_PT", "Portugal"),
    Office("Los Angeles", "America/Los_Angeles", "en_US", "United States"),
    Office("Madrid", "Europe/Madrid", "es_ES", "Spain"),
    Office("Kolkata", "Asia/Kolkata", "en_IN", "India"),
    Office("Sydney", "Australia/Sydney", "en_AU", "Australia"),
    Office("Amsterdam", "Europe/Amsterdam", "nl_NL", "Netherlands"),
    Office("Chicago", "America/Chicago", "en_US", "United States"),
    Office("Paris", "Europe/Paris", "fr_FR", "France"),
    Office("Sao Paulo", "America/Sao_Paulo", "pt_BR", "Brazil"),
]

OFFICES_V2 = [
    *OFFICES,
    Office("Toronto", "America/Toronto", "en_CA", "Canada"),
    Office("Montreal", "America/Toronto", "fr_CA", "Canada"),
    Office("Vancouver", "America/Vancouver", "en_CA", "Canada"),
    Office("Denver", "America/Denver", "en_US", "United States"),
    Office("Phoenix", "America/Phoenix", "en_US", "United States"),
    Office("Mexico City", "America/Mexico_City", "es_MX", "Mexico"),
    Office("Bogota", "America/Bogota", "es_CO", "Colombia"),
    Office("Santiago", "America/Santiago", "es_CL", "Chile"),
    Office("Buenos Aires", "America/Argentina/Buenos_Aires", "es_AR", "Argentina"),
    Office("Dublin", "Europe/Dublin", "en_IE", "Ireland"),
    Office("Stockholm", "Europe/Stockholm", "sv_SE", "Sweden"),
    Office("Copenhagen", "Europe/Copenhagen", "da_DK", "Denmark"),
    Office("Helsinki", "Europe/Helsinki", "fi_FI", "Finland"),
    Office("Oslo", "Europe/Oslo", "no_NO", "Norway"),
    Office("Warsaw", "Europe/Warsaw", "pl_PL", "Poland"),
    Office("Prague", "Europe/Prague", "cs_CZ", "Czechia"),
    Office("Zurich", "Europe/Zurich", "de_CH", "Switzerland"),
    Office("Rome", "Europe/Rome", "it_IT", "Italy"),
    Office("Brussels", "Europe/Brussels", "nl_BE", "Belgium"),
    Office("Istanbul", "Europe/Istanbul", "tr_TR", "Turkey"),
    Office("Dubai", "Asia/Dubai", "ar_AE", "United Arab Emirates"),
    Office("Nairobi", "Africa/Nairobi", "en_KE", "Kenya"),
    Office("Johannesburg", "Africa/Johannesburg", "zu_ZA", "South Africa"),
    Office("Vienna", "Europe/Vienna", "de_AT", "Austria"),
    Office("Singapore", "Asia/Singapore", "zh_CN", "Singapore"),
    Office("Jakarta", "Asia/Jakarta", "id_ID", "Indonesia"),
    Office("Manila", "Asia/Manila", "en_PH", "Philippines"),
    Office("Tokyo", "Asia/Tokyo", "ja_JP", "Japan"),
    Office("Auckland", "Pacific/Auckland", "en_NZ", "New Zealand"),
]
"""Edition 2's offices. Each city is one the verifier reads as a zone ("14:00 Tokyo time": the city of an IANA zone
name, `scenario.text.zones.PLACES`); locales whose names are not in Latin letters (ja_JP, zh_CN) give romanized
names."""

TEAMS: dict[str, dict[str, Any]] = {
    "Engineering": {
        "project": "ENG",
        "roles": ["Software engineer", "Senior engineer", "Staff engineer"],
        "lead": "Engineering manager",
    },
    "Product": {"project": "PROD", "roles": ["Product manager", "Product designer"], "lead": "Head of product"},
    "Support": {"project": "SUP", "roles": ["Support engineer", "Support specialist"], "lead": "Support lead"},
    "Operations": {
        "project": "OPS",
        "roles": ["Site reliability engineer", "IT administrator"],
        "lead": "Operations lead",
    },
    "Sales": {"project": "SALES", "roles": ["Account executive", "Sales engineer"], "lead": "Sales director"},
    "Finance": {"project": "FIN", "roles": ["Accountant", "Financial analyst"], "lead": "Finance director"},
    "People": {"project": "PEOPLE", "roles": ["People partner", "Recruiter"], "lead": "Head of people"},
    "Marketing": {"project": "MKT", "roles": ["Marketing manager", "Content strategist"], "lead": "Marketing director"},
}

WORK_HOURS = [("09:00", "17:00"), ("09:00", "17:30"), ("08:30", "16:30"), ("10:00", "18:00"), ("08:00", "16:00")]
