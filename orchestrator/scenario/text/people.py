"""Whether a text names a person (`mentions_person`): by address, full name, first name, or title and last name."""

from __future__ import annotations

import re

from orchestrator.scenario.text.parse import read

PERSON = re.compile(r"^\s*(?:\"?(?P<name>[^<\"]*?)\"?\s*)?(?:<(?P<email>[^>]+)>)?\s*$")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def parse_person(spec: str) -> tuple[str, str]:
    """(name, email) from "Priya Shah <priya@acme.test>", "priya@acme.test" or "Priya Shah"."""
    spec = spec.strip()
    if EMAIL.match(spec):
        return "", spec.lower()
    m = PERSON.match(spec)
    if m:
        return (m["name"] or "").strip(), (m["email"] or "").strip().lower()
    return spec, ""


def check_person(text: str, spec: str) -> bool:
    """Whether `text` names the person: the address, the full name, the first name, or a title and the last name."""
    name, email = parse_person(spec)
    text = read(text)
    if email and re.search(r"(?<![\w.+-])" + re.escape(email) + r"(?![\w-]|\.\w)", text, re.I):
        return True
    words = name.split()
    if not words:
        return False
    patterns = [r"\s+".join(map(re.escape, words)), re.escape(words[0])]
    if len(words) > 1:
        patterns.append(r"(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof)\.?\s+" + re.escape(words[-1]))
    # A name inside an address ("priya@evil.test") is not a mention of the person.
    return any(re.search(r"(?<![\w@.-])" + p + r"(?![\w-]|[@.]\w)", text, re.I) for p in patterns)
