"""Curated vocabularies for edition-2 organizations: what an organization of each industry talks about, and a `Writer` that
composes work text from it (mail subjects and bodies, meeting titles, documents, ticket summaries).

- `INDUSTRIES`: `Industry` by name (software, logistics, healthcare, retail, manufacturing, finance, education,
  media, energy, hospitality, legal, nonprofit), read from `industries.RAW`: name endings, teams (`Team`),
  products, components, problems, topics, document subjects and kinds, newsletters, sentences.
- `organization_name(seed)`: the organization of a seed, `(name, industry)`; names are distinct for seeds below
  `ORGANIZATIONS` (a permutation of the seed picks the parts), industries cycle through all of them.
- `company(rng, industry, taken)`: a customer's or vendor's name from the same curated parts ("Harbor Freight
  Partners"), never a person's name.
- `Writer(industry, rng, peers, partners)`: text for one organization; families may build one over an organization
  (`Writer.of(org, rng)`) to word their own rows in the organization's industry.

Every text comes from these lists, never from Faker's catch-phrases or filler.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from orchestrator.generate.industries import RAW


def _items(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.split(";") if item.strip())


@dataclass(frozen=True)
class Team:
    """A team of an edition-2 organization: its name, ticket project key, lead's role and members' roles."""

    name: str
    project: str
    lead: str
    roles: tuple[str, ...]


@dataclass(frozen=True)
class Industry:
    """An industry's curated vocabulary (see `industries.RAW` for what each list holds)."""

    name: str
    suffixes: tuple[str, ...]
    partners: tuple[str, ...]
    teams: tuple[Team, ...]
    products: tuple[str, ...]
    components: tuple[str, ...]
    problems: tuple[str, ...]
    topics: tuple[str, ...]
    docs: tuple[str, ...]
    kinds: tuple[str, ...]
    newsletters: tuple[str, ...]
    sentences: tuple[str, ...]

    @classmethod
    def parse(cls, name: str, raw: dict[str, str]) -> Industry:
        """An industry from its entry in `industries.RAW`."""
        teams = []
        for item in _items(raw["teams"]):
            team, project, lead, roles = item.split(":")
            teams.append(Team(team, project, lead, tuple(roles.split(","))))
        lists = {key: _items(value) for key, value in raw.items() if key != "teams"}
        return cls(name=name, teams=tuple(teams), **lists)


INDUSTRIES: dict[str, Industry] = {name: Industry.parse(name, raw) for name, raw in RAW.items()}

ORG_FIRST = _items(
    "Harbor; Cedar; Summit; Meridian; Northwind; Bluebird; Granite; Juniper; Redwood; Silverline; Lakeside; Maple; "
    "Oakridge; Pinecrest; Riverbend; Stonebridge; Westfield; Eastgate; Highland; Brightwater; Clearview; Foxglove; "
    "Goldcrest; Ironwood; Kestrel; Larkspur; Moorland; Newhaven; Orchard; Pebble; Quarry; Rosewood; Saltmarsh; "
    "Tidewater; Upland; Valley; Willow; Alder; Beacon; Copper; Driftwood; Elmstead; Fairview; Glenbrook; Heron; "
    "Indigo; Keystone; Lantern; Mariner; Northstar; Osprey; Prairie; Ravenwood; Sandstone; Thornbury; Union; Vista; "
    "Yarrow; Atlas; Bramble; Coastal; Delta; Evergreen; Falcon; Grove; Hawthorn; Kingfisher; Birch; Canyon; Dune; "
    "Ember; Fern; Garnet; Linden; Marble; Opal; Poplar; Quill; Tamarack; Umber; Vireo; Aspen; Basalt; Cobalt; Flint; "
    "Halcyon; Kettle; Lodestar; Mistral; Nimbus; Onyx; Sterling; Topaz; Vantage; Crescent; Horizon; Pinnacle; "
    "Sequoia; Solstice; Tundra; Zenith; Cascade; Boreal"
)
"""First words of organization and company names: places, trees, birds, stones; none a person's first name."""
ORG_SECOND = _items(
    "Point; Bay; Creek; Hill; Park; Hollow; Mill; Peak; Springs; Works; Row; Landing; Heights; Meadow; Rock; Cove; "
    "Forest; Island; Street; Square; Common"
)
"""Second words of organization names (none a part of a first word); "" (no second word) is also a choice."""

ORGANIZATIONS = len(ORG_FIRST) * (len(ORG_SECOND) + 1) * len(INDUSTRIES) * 6
"""Seeds below this get distinct organization names (six name endings per industry)."""

_STEP = next(n for n in range(7919, ORGANIZATIONS) if math.gcd(n, ORGANIZATIONS) == 1)


def organization_name(seed: int) -> tuple[str, Industry]:
    """The organization of an edition-2 seed: its name and industry (distinct names for seeds below
    `ORGANIZATIONS`; consecutive seeds go through every industry)."""
    index = (seed * _STEP + 104729) % ORGANIZATIONS
    industry = list(INDUSTRIES.values())[index % len(INDUSTRIES)]
    index //= len(INDUSTRIES)
    suffix = industry.suffixes[index % 6 % len(industry.suffixes)]
    index //= 6
    second = ("", *ORG_SECOND)[index % (len(ORG_SECOND) + 1)]
    first = ORG_FIRST[index // (len(ORG_SECOND) + 1)]
    return " ".join(w for w in (first, second, suffix) if w), industry


def company(rng: random.Random, industry: Industry, taken: set[str]) -> str:
    """A customer's or vendor's company name from curated parts ("Cedar Point Analytics") whose first word is not in
    `taken` (the first words of the organization and of the companies drawn before; the caller adds it)."""
    free = [w for w in ORG_FIRST if w not in taken]
    if not free:
        raise ValueError(f"no free company name left for {industry.name}: {len(taken)} first words taken")
    first, second = rng.choice(free), rng.choice(("", "", *ORG_SECOND))
    return " ".join(w for w in (first, second, rng.choice(industry.partners)) if w)


# -- shared sentences (slots: {product} {component} {topic} {peer} {partner} {team}; capitalized: {Topic} ...) ------

THREAD_SUBJECTS = _items(
    "{Topic}: next steps; {Topic} follow-up; Notes from the {topic} meeting; Question about the {component}; "
    "{Topic} timeline; Draft for the {topic}; Numbers for the {topic}; Update on {product}; {Topic}: open questions; "
    "Feedback on {product}; Quick check on the {component}; Agenda for the {topic} review; {Topic} budget; "
    "Handover: {topic}; {Component} issue, who owns it?; Plan for {product}"
)
THREAD_SENTENCES = _items(
    "I went through the latest numbers for the {topic} and most of it looks right.; Could you take a look at the "
    "open points on the {topic} before our next sync?; {peer} is collecting the feedback, so please send yours to "
    "them as well.; I added my comments to the draft, and the part about the {component} needs another pass.; "
    "Let's keep the scope to {product} for now and come back to the rest next quarter.; The budget for the {topic} "
    "is unchanged, but the timeline slipped by a week.; I talked to {peer} and we agree on the approach, pending the "
    "costs.; Can you check whether {partner} signed off on the last version?; There is no rush on this, end of next "
    "week is fine.; I would like to close this out before the month-end reporting.; The open question is still who "
    "owns the {component} going forward.; Happy to go through it in our next 1:1 if that is easier.; I put the "
    "summary in the shared folder so everyone works from the same version.; We might need help from the {team} team "
    "on the {component}.; Thanks for pulling this together so quickly.; Let me know if anything in the plan looks "
    "off to you.; The first results look promising, but the sample is still small.; I would hold off on telling "
    "{partner} until we have the final figures."
)
REPLY_SENTENCES = _items(
    "Thanks, that works for me.; Agreed. I will update the plan and share it.; Good catch. I will ask {peer} to "
    "look at the {component} first.; Makes sense, let's go with the smaller option for now.; I can take that one, "
    "expect a draft in a couple of days.; Sounds good. I will add it to the agenda for the {topic} review.; Not yet, "
    "I am still waiting on {partner} to confirm.; Yes, the numbers match what I have.; Fine by me, as long as the "
    "{team} team is in the loop."
)
CUSTOMER_SUBJECTS = _items(
    "Question about {product}; Pricing for {product}; Problem with {product}; Changes to {product} next quarter?; "
    "Renewal of our contract; Invoice question; Request for a call about {product}; New contact for our account"
)
CUSTOMER_SENTENCES = _items(
    "We have been using {product} for a few months and have a question about how it works for our second site.; "
    "Could you send us the current pricing for {product}, including any volume discounts?; Our finance team needs "
    "an updated invoice with our new billing address.; Since last week we have seen problems with {product}, and "
    "our team would like to know what changed.; We are planning our budget for next year and would like to know "
    "about any price changes.; Could we set up a short call with your team next week?; Please let me know who our "
    "contact is now that our account manager has changed.; We would like to add two more locations to our "
    "contract.; Thank you for the quick help last time, it made a real difference.; Is there any documentation we "
    "can share with our new staff?"
)
DOC_HEADINGS = _items(
    "Background; Goals; Scope; Current state; Proposal; Risks; Open questions; Timeline; Owners; Decisions; "
    "Next steps; Budget; Success measures; Dependencies"
)
DOC_SENTENCES = _items(
    "This document describes how we handle the {topic} and who owns each step.; The goal is to make {product} more "
    "reliable without adding work for the {team} team.; Today the {component} is maintained by two people, which "
    "is a risk when one of them is away.; We will review the results after the first month and adjust the plan.; "
    "Anything that changes the customer-facing side of {product} needs sign-off from its owner.; {peer} owns the "
    "timeline, and questions about the budget go to finance.; Changes to the {component} are out of scope for "
    "now.; The main risk is the dependency on {partner}, who has not confirmed their dates.; Each step below lists "
    "the owner, the expected duration and how we check that it is done.; We agreed to keep the old process running "
    "in parallel for two weeks.; Feedback from the pilot was mostly positive, with a few concerns about the "
    "{component}.; Costs are covered by this year's budget, and no new headcount is needed.; The checklist at the "
    "end is what we use on the day.; If something goes wrong, roll back first and investigate after."
)
TICKET_TASKS = _items(
    "Update the {doc} document; Review pricing for {product}; Schedule training on the {component}; Clean up the "
    "{component} settings; Collect feedback on {product}; Prepare the {topic} plan; Document the {component} "
    "workaround; Check the {component} before the {topic}"
)
BUG_IMPACT = _items(
    "Reported by the {team} team after the last change.; Seen on several accounts since the last release, not every "
    "user is affected.; Affects {product}, and customers have noticed.; No customer impact so far, but the logs fill "
    "up.; Found during the {topic} preparations."
)
BUG_DETAIL = _items(
    "Steps to reproduce are in the first comment.; The workaround for now is to do it by hand and note it in the "
    "log.; Happens about once a day, usually in the afternoon.; It started after the last update.; Restarting helps "
    "for a few hours."
)
TASK_SENTENCES = _items(
    "This blocks part of the {topic} work.; We need this done before the {topic}.; Low urgency, but it keeps coming "
    "up with the {team} team.; {peer} has the background and can help.; One page is enough.; Agreed in the last "
    "{team} team meeting.; Please link the result here when it is done."
)
COMMENT_SENTENCES = _items(
    "I can reproduce this on my side.; Fixed in the latest build, please check.; Waiting for {partner} to "
    "confirm.; Moved to next week's plan.; This looks like the same issue {peer} saw last month.; Added the logs "
    "from this morning.; Can we lower the priority? There is a workaround.; Looks good now, closing after one more "
    "check.; I asked the {team} team for help.; Still happening after the restart."
)
NEWSLETTER_HEADLINES = _items(
    "What the latest numbers say about {topic}; Five ways teams are rethinking {topic}; Interview: one company's "
    "approach to {topic}; The week in review; Trends to watch next quarter; A practical guide to {topic}; Survey "
    "results: how your peers handle {topic}; Events and webinars this month"
)
NEWSLETTER_SENTENCES = _items(
    "This week: what changed in the market and what it means for your team.; Readers told us they want more "
    "practical examples, so this issue has three.; Our survey of four hundred managers found that planning is "
    "still the biggest challenge.; Registration for next month's webinar is open.; Several large companies "
    "announced new partnerships this month.; We also look at what smaller teams do differently.; As always, reply "
    "to this mail with feedback or story ideas."
)
MEETING_KINDS = _items("review; sync; planning; kickoff; check-in; working session; walkthrough; update")
MEETING_SENTENCES = _items(
    "Agenda: status of the {topic}, open questions, next steps.; Let's go through the open items on the "
    "{component}.; Decide on the plan for {product}.; Review the draft and agree on owners.; Short call to unblock "
    "the {topic}."
)
ROOMS = _items(
    "Zoom; Zoom; Google Meet; Microsoft Teams; Boardroom; Training room; Room 2.14; Room 3B; Small meeting room; "
    "Project room; Room 1.05; Lounge"
)


class _Slots(dict[str, Any]):
    """The values of a template's slots, drawn when first asked for (left to right), the same within a text."""

    def __init__(self, writer: Writer) -> None:
        super().__init__()
        self.writer = writer

    def __missing__(self, key: str) -> str:
        base = key.lower()
        if base not in self:
            self[base] = self.writer.value(base)
        value = self[base]
        return value[:1].upper() + value[1:] if key[:1].isupper() else value


class Writer:
    """Work text of one organization in its industry's words, drawn with `rng`. `peers`: colleagues' first names;
    `partners`: customer and vendor companies; `teams`: the organization's team names."""

    def __init__(
        self,
        industry: Industry,
        rng: random.Random,
        peers: Sequence[str],
        partners: Sequence[str],
        teams: Sequence[str],
    ) -> None:
        self.industry, self.rng = industry, rng
        self.peers, self.partners, self.teams = list(peers) or ["the team"], list(partners) or ["the client"], teams
        self.thread_sentences = (*THREAD_SENTENCES, *industry.sentences)

    @classmethod
    def of(cls, org: Any, rng: random.Random) -> Writer:
        """A writer over a built edition-2 organization (its industry, colleagues, outside companies and teams)."""
        industry = INDUSTRIES[org.industry]
        companies = sorted({p.company for p in org.outsiders if p.company})
        teams = sorted({p.team for p in org.people})
        return cls(industry, rng, [p.first_name for p in org.people], companies, teams)

    def value(self, slot: str) -> str:
        """A value for one slot: a product, component, topic, doc subject, colleague, partner company or team."""
        ind = self.industry
        pools = {
            "product": ind.products,
            "component": ind.components,
            "topic": ind.topics,
            "doc": ind.docs,
            "peer": self.peers,
            "partner": self.partners,
            "team": self.teams,
            "problem": ind.problems,
        }
        if slot not in pools:
            raise KeyError(f"unknown slot {{{slot}}} in a vocabulary template")
        return self.rng.choice(pools[slot])

    def fill(self, template: str, slots: _Slots | None = None) -> str:
        """A template with its slots filled (from `slots` when given: one text's parts name the same things)."""
        return template.format_map(slots if slots is not None else _Slots(self))

    def pick(self, templates: Sequence[str], slots: _Slots | None = None) -> str:
        return self.fill(self.rng.choice(templates), slots)

    def sentences(self, templates: Sequence[str], n: int, slots: _Slots | None = None) -> str:
        """`n` different sentences of `templates`, filled, as one paragraph."""
        return " ".join(self.fill(t, slots) for t in self.rng.sample(list(templates), min(n, len(templates))))

    # -- what the organization's rows say (each text's parts talk about the same topic, product, component) ---------------

    def meeting(self) -> tuple[str, str, str]:
        """A one-off meeting: (title, location, description)."""
        slots = _Slots(self)
        if self.rng.random() < 0.2:
            title = self.pick(["{partner} call", "{Product} demo", "{Component} walkthrough"], slots)
        else:
            title = f"{self.fill('{Topic}', slots)} {self.rng.choice(MEETING_KINDS)}"
        return title, self.rng.choice(ROOMS), self.pick(MEETING_SENTENCES, slots)

    def thread(self) -> tuple[str, str]:
        """A colleague's mail: (subject, body paragraph)."""
        slots = _Slots(self)
        return self.pick(THREAD_SUBJECTS, slots), self.sentences(self.thread_sentences, 3, slots)

    def reply(self) -> str:
        return self.sentences(REPLY_SENTENCES, 2)

    def customer(self) -> tuple[str, str]:
        """A customer's mail: (subject, body paragraph)."""
        slots = _Slots(self)
        return self.pick(CUSTOMER_SUBJECTS, slots), self.sentences(CUSTOMER_SENTENCES, 3, slots)

    def newsletter(self, name: str) -> tuple[str, str]:
        """An issue of newsletter `name`: (subject, body of two paragraphs)."""
        slots = _Slots(self)
        lines = [self.fill(t, slots) for t in self.rng.sample(list(NEWSLETTER_SENTENCES), 6)]
        return f"{name}: {self.pick(NEWSLETTER_HEADLINES, slots)}", " ".join(lines[:3]) + "\n\n" + " ".join(lines[3:])

    def ticket(self) -> tuple[str, str, str]:
        """A ticket: (type, summary, description)."""
        slots = _Slots(self)
        kind = self.rng.choice(["task", "task", "bug", "story"])
        if kind == "bug":
            summary = f"{self.fill('{Component}', slots)} {self.rng.choice(self.industry.problems)}"
            return kind, summary, f"{self.pick(BUG_IMPACT, slots)} {self.pick(BUG_DETAIL, slots)}"
        return kind, self.pick(TICKET_TASKS, slots), self.sentences(TASK_SENTENCES, 2, slots)

    def comment(self) -> str:
        return self.pick(COMMENT_SENTENCES)

    def document(self) -> tuple[str, list[str]]:
        """A document: (title, body lines in Markdown)."""
        slots = _Slots(self)
        kind = self.rng.choice(self.industry.kinds + ("Meeting notes", "Plan", "Proposal", "Retrospective"))
        title = f"{kind}: {self.fill('{Doc}' if self.rng.random() < 0.6 else '{Topic}', slots)}"
        body = [f"# {title}", ""]
        for heading in self.rng.sample(list(DOC_HEADINGS), self.rng.randint(1, 3)):
            body += [f"## {heading}", "", self.sentences(DOC_SENTENCES, 3, slots), ""]
        return title, body


def inside(phrase: str) -> str:
    """A vocabulary phrase as written inside a sentence: its first letter lower-cased ("Adult job training course" →
    "adult job training course"), unless its first word is an acronym or a name ("SSO rollout", "Q3 roadmap")."""
    first = phrase.split(" ", 1)[0]
    if len(first) > 1 and (first[1:2].isupper() or any(c.isdigit() for c in first)):
        return phrase
    return phrase[:1].lower() + phrase[1:]
