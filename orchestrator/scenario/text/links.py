"""Whether a text links exactly a URL (`links`), compared without case in scheme and host or a trailing slash."""

from __future__ import annotations

from orchestrator.scenario.text.clean import URL
from orchestrator.scenario.text.parse import read


def normalize_url(url: str) -> str:
    """A URL as compared: scheme and host in lower case, no fragment, no trailing slash or punctuation."""
    url = url.strip().strip("<>").rstrip(".,;:!?)'\"")
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    host, slash, path = rest.partition("/")
    path = path.split("#", 1)[0]
    return f"{scheme.lower()}://{host.lower()}{slash}{path}".rstrip("/")


def check_link(text: str, url: str) -> bool:
    """Whether `text` links exactly `url` (not a longer URL that starts with it)."""
    wanted = normalize_url(url)
    return any(normalize_url(m.group(0)) == wanted for m in URL.finditer(read(text)))
