"""Amounts of money a text states (`mentions_amount`): a number with a currency sign, code or word, the number
read with `price-parser`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from price_parser import Price

from orchestrator.scenario.text.clean import per_text
from orchestrator.scenario.text.parse import read

CURRENCY_WORDS = {
    "€": "EUR",
    "euro": "EUR",
    "euros": "EUR",
    "$": "USD",
    "us$": "USD",
    "r$": "BRL",
    "a$": "AUD",
    "au$": "AUD",
    "c$": "CAD",
    "ca$": "CAD",
    "nz$": "NZD",
    "hk$": "HKD",
    "s$": "SGD",
    "sg$": "SGD",
    "mx$": "MXN",
    "dollar": "USD",
    "dollars": "USD",
    "£": "GBP",
    "pound": "GBP",
    "pounds": "GBP",
    "¥": "JPY",
    "fr.": "CHF",
}
ISO_CURRENCIES = {
    "EUR",
    "USD",
    "GBP",
    "CHF",
    "JPY",
    "CAD",
    "AUD",
    "NZD",
    "SEK",
    "NOK",
    "DKK",
    "PLN",
    "CZK",
    "HUF",
    "INR",
    "CNY",
    "HKD",
    "SGD",
    "BRL",
    "MXN",
    "ZAR",
    "TRY",
    "ILS",
    "KRW",
    "NGN",
    "AED",
    "SAR",
    "QAR",
    "KES",
    "THB",
    "IDR",
    "MYR",
    "PHP",
    "VND",
    "TWD",
    "RON",
    "BGN",
    "ISK",
    "UAH",
    "EGP",
    "MAD",
    "CLP",
    "COP",
    "PEN",
    "ARS",
}
_CUR = (
    r"(?:\b(?:US|R|AU?|CA?|NZ|HK|SG?|MX)\$|[€$£¥]|\b(?:"
    + "|".join(sorted(ISO_CURRENCIES))
    + r")(?:\b|(?=[-−]?\d))|\b(?:euros?|dollars?|pounds?)\b)"
)
_NUM = (
    r"(?:\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{1,2})?|"  # Indian grouping: "32,00,000" (32 lakh)
    r"\d{1,3}(?:[,.'\u00a0\u202f ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)(?![\d])"
)
LAKH = re.compile(r"\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{1,2})?")
_MULT = r"(?:\s?(?P<{}>k|m|mn|bn|million|thousand|billion|mio\.?|tsd\.?)(?![\w]))?"
AMOUNT = re.compile(
    r"(?P<c1>"
    + _CUR
    + r")\s?(?P<n1>[-−]?"
    + _NUM
    + r")"
    + _MULT.format("m1")
    + r"|(?<![\w.,])(?P<n2>[-−]?"
    + _NUM
    + r")"
    + _MULT.format("m2")
    + r"\s?(?P<c2>"
    + _CUR
    + r")",
    re.I,
)
MULTIPLIERS = {
    "k": 1000,
    "thousand": 1000,
    "tsd": 1000,
    "tsd.": 1000,
    "m": 10**6,
    "mn": 10**6,
    "million": 10**6,
    "mio": 10**6,
    "mio.": 10**6,
    "bn": 10**9,
    "billion": 10**9,
}


@dataclass(frozen=True)
class AmountMention:
    """An amount of money written in a text: as written, its value and currency code."""

    text: str
    value: Decimal
    currency: str
    start: int = -1


def currency_code(token: str) -> str:
    """The ISO code of a currency sign, word or code (`€`, `euros`, `eur` → EUR)."""
    token = token.strip()
    return CURRENCY_WORDS.get(token.lower(), token.upper())


@per_text
def find_amounts(text: str) -> tuple[AmountMention, ...]:
    """The amounts of money a text states, each with its currency."""
    out = []
    for m in AMOUNT.finditer(text):
        number = (m["n1"] or m["n2"]).replace("−", "-")
        currency = currency_code(m["c1"] or m["c2"])
        digits = number.lstrip("-")
        amount = Decimal(digits.replace(",", "")) if LAKH.fullmatch(digits) else Price.fromstring(digits).amount
        if amount is None:
            continue
        value = -amount if number.startswith("-") else amount
        mult = (m["m1"] or m["m2"] or "").lower()
        if mult:
            value *= MULTIPLIERS[mult]
        written = m.group(0)
        out.append(AmountMention(written.strip(), value, currency, m.start() + len(written) - len(written.lstrip())))
    return tuple(out)


SET_ASIDE = re.compile(
    r"\b(?:not|instead\s+of|rather\s+than|(?:down|up|reduced|increased|cut|lowered|raised)\s+from|from|"
    r"originally|previously|initially|old|earlier|asked\s+for|requested|claimed|demand(?:ed|s)?|would\s+have|"
    r"(?:estimate|expectation)s?\s+of|"
    r"list\s+price(?:\s+of)?|seller(?:'s)?\s+ask(?:ing\s+price)?(?:\s+of)?|asking\s+price(?:\s+of)?|(?:first|original|earlier|previous)\s+"
    r"(?:quote|offer|price|estimate|charge|amount|total|fee|bill|figure|budget|rate)(?:\s+(?:of|was))?|"
    r"(?:declined|rejected|refused|turned\s+down)(?:\s+(?:the|their|your|an?))?(?:\s+\w+)?(?:\s+(?:of|for|at))?)"
    r"[\s:(]*(?:the\s+|an?\s+)?$",
    re.I,
)


SET_ASIDE_AFTER = re.compile(r"^\s*[—–-]?\s*(?:sorry|oops)[,:\s]+(?:no|i\s+mean|scratch\s+that)\b", re.I)
"""An amount taken back right after it is written: "$3.4k — sorry, no, it's €3.4k". (An amount declined or
rejected is still the amount at issue: "your claim of €312 was rejected" refuses €312.)"""


WAS_BEFORE = re.compile(r"\b(?:was|were)[\s:(]*(?:the\s+|an?\s+)?$", re.I)
"""Weaker: "the fee was $320" sets the amount aside only when the text states another one in its currency."""


def _set_aside(text: str, mention: AmountMention, pattern: re.Pattern[str] = SET_ASIDE) -> bool:
    at = mention.start if mention.start >= 0 else text.find(mention.text)
    if at == -1:
        return False
    end = at + len(mention.text)
    return pattern.search(text[max(0, at - 40) : at]) is not None or (
        pattern is SET_ASIDE and SET_ASIDE_AFTER.match(text[end : end + 60]) is not None
    )


def check_amount(text: str, value: float | str | Decimal, currency: str | None) -> tuple[bool, list[str], list[str]]:
    """Whether `text` states `value` (in `currency`, when given); also other amounts in that currency, and all found.
    An amount set aside ("down from $94k", "instead of €45", "the customer asked for USD 1,130") states nothing."""
    try:
        wanted = Decimal(str(value))
    except InvalidOperation:
        return False, [], []
    code = currency_code(currency) if currency else None
    own = read(text)
    found = [a for a in find_amounts(own) if not _set_aside(own, a)]
    was = [a for a in found if _set_aside(own, a, WAS_BEFORE)]
    found = [a for a in found if a not in was or not any(b.currency == a.currency for b in found if b not in was)]
    hit = any(abs(a.value - wanted) < Decimal("0.005") and (code is None or a.currency == code) for a in found)
    other = [
        a.text for a in found if abs(a.value - wanted) >= Decimal("0.005") and (code is None or a.currency == code)
    ]
    return hit, other, [a.text for a in found]
