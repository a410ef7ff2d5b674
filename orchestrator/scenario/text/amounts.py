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
    r"request(?:s|ed)?\s+(?:of|for)|wants|wanted|(?:had\s+)?expected\s+(?:[^\W\d_]+\s+)?(?:for|of)|hoped\s+for|"
    r"(?:estimate|expectation)s?\s+of|"
    r"list\s+price(?:\s+of)?|seller(?:'s)?\s+ask(?:ing\s+price)?(?:\s+of)?|asking\s+price(?:\s+of)?|(?:first|original|earlier|previous)\s+"
    r"(?:quote|offer|price|estimate|charge|amount|total|fee|bill|figure|budget|rate)(?:\s+(?:of|was))?)"
    r"(?:\s+\d+(?:[.,]\d+)?\s?%)?[\s:(]*(?:the\s+|an?\s+)?$",
    re.I,
)


SET_ASIDE_AFTER = re.compile(r"^\s*[—–-]?\s*(?:sorry|oops)[,:\s]+(?:no|i\s+mean|scratch\s+that)\b", re.I)
"""An amount taken back right after it is written: "$3.4k — sorry, no, it's €3.4k". (An amount declined or
rejected is still the amount at issue: "your claim of €312 was rejected" refuses €312.)"""


WAS_BEFORE = re.compile(r"\b(?:was|were|submitted|(?:you|they|he|she)\s+claimed)[\s:(]*(?:the\s+|an?\s+)?$", re.I)
"""Weaker: "the fee was $320", "you submitted EUR 1,520" set the amount aside only when the text states another one
in its currency (what was approved, paid or charged instead)."""
WAS_AFTER = re.compile(r"^\s*(?:was|were)?\s*(?:submitted|claimed)\b", re.I)


def _set_aside(text: str, mention: AmountMention, pattern: re.Pattern[str] = SET_ASIDE) -> bool:
    at = mention.start if mention.start >= 0 else text.find(mention.text)
    if at == -1:
        return False
    end = at + len(mention.text)
    after = SET_ASIDE_AFTER if pattern is SET_ASIDE else WAS_AFTER
    return pattern.search(text[max(0, at - 40) : at]) is not None or after.match(text[end : end + 60]) is not None


PART_BEFORE = re.compile(
    r"\b(?:part(?:ial)?\s+payments?|deposits?|down\s?payments?|advance|tranches?|instal(?:l)?ments?|balance|"
    r"remaining|remainder|rest|of\s+which|excess|deductible|except(?:\s+for)?|excluding|minus|less)"
    r"(?:\s+(?:of|is|was|will\s+be|due|paid|at|for))?[\s:(]*(?:the\s+|an?\s+)?$",
    re.I,
)
PART_AFTER = re.compile(
    r"^\s*(?:deposit|down\s?payment|advance|upfront|up\s+front|tranche|instal(?:l)?ment|(?:is\s+)?still\s+outstanding)\b",
    re.I,
)
"""A part of a whole ("the part payment of £5,000", "the £85 deposit", "first tranche of NZD 15,000", "except the
EUR 48 parking"): beside a larger amount in the same currency (the whole), it is not the amount the text states. A
rate ("EUR 150 per night") is: a check may ask for the nightly limit beside the bill."""
CORRECTION = re.compile(
    r"\b(?:sorry|oops|correction|typo|i\s+meant|(?:that|this|it)\s+should\s+(?:read|be|have\s+been)|"
    r"should\s+(?:read|have\s+been)|make\s+that|scratch\s+that|actually|corrected\s+to)\b",
    re.I,
)
"""A correction between two amounts in one currency unsays the first: "total €1,840 — sorry, I meant €1,480"."""


def _is_part(text: str, mention: AmountMention) -> bool:
    end = mention.start + len(mention.text)
    return bool(
        PART_BEFORE.search(text[max(0, mention.start - 40) : mention.start]) or PART_AFTER.match(text[end : end + 30])
    )


def _part(text: str, mention: AmountMention, found: list[AmountMention]) -> bool:
    """A part stated beside a larger amount in its currency that is no part (its whole)."""
    return _is_part(text, mention) and any(
        b.currency == mention.currency and b.value > mention.value and not _is_part(text, b) for b in found
    )


def _digits(value: Decimal) -> str:
    return format(value.normalize(), "f").replace(".", "").replace("-", "")


def _corrected(text: str, found: list[AmountMention]) -> list[AmountMention]:
    """The amounts a later one unsays: one corrected ("€1,840, sorry, I meant €1,480"), and both of a pair that
    contradict each other by two digits swapped ("Total: USD 1,840" ... "approve the USD 1,480"), the commonest slip
    in writing a figure, when no correction says which one holds."""
    out = []
    for i, a in enumerate(found):
        for b in found[i + 1 :]:
            if b.currency != a.currency or b.value == a.value:
                continue
            if CORRECTION.search(text, a.start + len(a.text), b.start) and b.start - a.start < 200:
                out.append(a)
            elif (
                len(_digits(a.value)) >= 3
                and sorted(_digits(a.value)) == sorted(_digits(b.value))
                and len(_digits(a.value)) == len(_digits(b.value))
            ):
                out += [a, b]
    return out


def stated_amounts(text: str) -> list[AmountMention]:
    """The amounts `text` states as values of what it is about: not set aside, not a part beside its whole, not
    corrected or contradicted by a later one."""
    own = read(text)
    found = [a for a in find_amounts(own) if not _set_aside(own, a)]
    was = [a for a in found if _set_aside(own, a, WAS_BEFORE)]
    found = [a for a in found if a not in was or not any(b.currency == a.currency for b in found if b not in was)]
    found = [a for a in found if not _part(own, a, found)]
    unsaid = _corrected(own, found)
    return [a for a in found if a not in unsaid]


def check_amount(text: str, value: float | str | Decimal, currency: str | None) -> tuple[bool, list[str], list[str]]:
    """Whether `text` states `value` (in `currency`, when given); also other amounts in that currency, and all found.
    An amount set aside ("down from $94k", "instead of €45", "the customer asked for USD 1,130") states nothing."""
    try:
        wanted = Decimal(str(value))
    except InvalidOperation:
        return False, [], []
    code = currency_code(currency) if currency else None
    found = stated_amounts(text)
    hit = any(abs(a.value - wanted) < Decimal("0.005") and (code is None or a.currency == code) for a in found)
    other = [
        a.text for a in found if abs(a.value - wanted) >= Decimal("0.005") and (code is None or a.currency == code)
    ]
    return hit, other, [a.text for a in found]
