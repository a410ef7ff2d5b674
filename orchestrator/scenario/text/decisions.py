"""Decisions a text states (`decides`): approve or refuse, read clause by clause with their polarity.

A clause decides when its verb is one of approving ("approved", "signed off", "green light", "good to go", "go
ahead", "accepted", "granted", "OK for", "said yes") or refusing ("refused", "rejected", "declined", "denied", "turned down",
"it's a no", "no-go", "not successful", "decided against"). A negation before an approving verb in its clause
makes a refusal ("he has decided not to approve it", "can't sign off on this", "we are unable to approve"); before
a refusing verb it makes no decision ("not rejected"). A clause that leaves the decision open is no decision:
"not approved yet, waiting on finance", "pending", "subject to approval", "leaning towards approving", "didn't
approve or reject", a question, a request ("could you approve"), a condition ("if she approves"). Nouns that ask
for a decision ("needs VP approval", "awaiting sign-off", "pre-approval") decide nothing.
"""

from __future__ import annotations

import re

from orchestrator.scenario.text.claims import CONDITION, DECISION_TAKEN_BACK, HEDGE, REQUEST
from orchestrator.scenario.text.clean import per_text
from orchestrator.scenario.text.parse import clauses, parse

APPROVE = re.compile(
    r"\b(?:(?:pre-?)?approv(?:e|ed|es|ing)\b|sign(?:s|ed|ing)?[\s-]+off\b|signed\s+it\b|green[\s-]?l(?:ight|it)|"
    r"greenlit|good\s+to\s+go|go(?:ne)?[\s-]+ahead\b|go-ahead|accept(?:s|ed|ing)?\b|grant(?:s|ed|ing)?\b|"
    r"authori[sz](?:e|ed|es|ing)\b|ok(?:'?d|ayed)\b|(?:ok|okay)\s+for\b|(?:is|that's|that\s+is)\s+(?:ok|okay|fine)\b|"
    r"gave\s+(?:it\s+)?the\s+nod|said\s+yes\b|(?:it's|it\s+is|that's|answer\s+is)\s+a\s+yes\b|agree(?:s|d)?\s+to\s+(?:this|the|your)\s+(?:request|proposal|extension)|cleared\b|(?<!\w)yes\b(?=\s+from)|thumbs[\s-]up|"
    # other languages: German, French, Spanish/Portuguese, Italian, Dutch
    r"genehmigt|bewilligt|freigegeben|approuvée?s?|accordée?s?|aprobad[oa]s?|aprovad[oa]s?|concedid[oa]s?|"
    r"approvat[oaie]|accettat[oaie]|goedgekeurd|toegekend|kennen\s+(?:u|je|jou)\s+(?:[\w-]+\s+){0,4}?toe\b|"
    # the outcome asked for, stated as granted: "you're an editor on 'Board deck' now", "you now have edit access"
    r"you(?:['’]re|\s+are)\s+(?:now\s+)?an?\s+(?:editor|admin(?:istrator)?|owner|member|approver)\b|"
    r"you\s+(?:now\s+)?have\s+(?:[\w-]+\s+){0,2}access\b|(?:given|granted)\s+you\s+(?:[\w-]+\s+){0,2}access\b)"
    # Japanese and Chinese, whose words have no spaces to bound them: "承認が下りました", "承認されました", "編集権限を
    # 付与しました", "已批准"
    r"|承認が下り|承認(?:され|し)(?:まし)?た|承認済|許可が下り|許可(?:され|し)(?:まし)?た|付与(?:され|し)(?:まし)?た|"
    r"已批准|批准了|已获批|已同意",
    re.I,
)
REFUSE = re.compile(
    r"\b(?:refus(?:e|ed|es|ing)|reject(?:s|ed|ing)?|declin(?:e|ed|es|ing)|den(?:y|ied|ies|ying)|"
    r"turn(?:s|ed|ing)?\s+(?:it\s+|this\s+|that\s+)?down|(?:it's|it\s+is|that's|answer\s+is|that\s+is)\s+a\s+(?:no|hard\s+no)\b|"
    r"a\s+no\s+from\b|no[\s-]go\b|(?:not|un)\s*successful|decided\s+against|vetoed|(?<!\w)nope\b|"
    r"(?:not|n't|never)\s+(?:be\s+)?(?:to\s+)?(?:going\s+ahead|proceed(?:ing)?|renew(?:ing)?|covered|accepted)|"
    r"\bis\s+a\s+(?:hard\s+)?no\b|"
    # other languages: German, French, Spanish/Portuguese, Italian, Dutch
    r"abgelehnt|nehmen\s+wir\s+nicht\s+an|refusée?s?|rejetée?s?|pas\s+été\s+retenue?s?|"
    r"pas\s+(?:donner\s+)?(?:une\s+)?suite\s+favorable|rechazad[oa]s?|denegad[oa]s?|desestimad[oa]s?|"
    r"recusad[oa]s?|rejeitad[oa]s?|indeferid[oa]s?|respint[oaie]|rifiutat[oaie]|afgewezen|geweigerd)"
    r"|却下|拒否(?:され|し)|承認(?:され|でき|し)ませ|不承認|否認|驳回|拒绝了|未获批准|不批准",
    re.I,
)
NEGATION = re.compile(
    r"\b(?:not|never|no\s+longer|unable\s+to|refus(?:e|ed)\s+to|without|nicht|kein(?:e|en)?|niet|non|pas|não|"
    r"no\s+(?:fue|ha\s+sido|está|es))\b|n['’]t\b|\bcannot\b",
    re.I,
)
OPEN = re.compile(
    r"\b(?:yet|pending|wait(?:ing)?\s+(?:on|for)|await(?:s|ing)?|until|lean(?:s|ing)?|"
    r"subject\s+to\s+(?:[\w'’-]+\s+){0,2}?(?:approval|sign-?off|confirmation|review|agreement|ratification|decision)|"
    r"undecided|not\s+(?:yet\s+)?decided|(?:has|have)n['’]t\s+decided|defer(?:red)?|postponed|tbd|tbc|"
    r"whether|once|needs?|require[sd]?|(?<!not\s)(?<!unable\s)to\s+approve|for\s+(?:your\s+)?approval|"
    r"recommend(?:s|ed)?|expect(?:s|ed)?|should|would|in\s+principle)\b",
    re.I,
)
DECISIONS = ("approve", "refuse")
NOUN_ONLY = re.compile(r"\b(?:approval|sign-?off|go-ahead)\b", re.I)


def _clause_decisions(clause: str) -> set[str]:
    if CONDITION.search(clause) or HEDGE.search(clause) or REQUEST.match(clause):
        return set()
    found: set[str] = set()
    approving = [m for m in APPROVE.finditer(clause) if not NOUN_ONLY.fullmatch(m.group(0))]
    refusing = list(REFUSE.finditer(clause))
    if approving and refusing and NEGATION.search(clause[: min(approving[0].start(), refusing[0].start())]):
        return set()  # "didn't approve or reject"
    for m in approving:
        before = clause[max(0, m.start() - 40) : m.start()]
        if OPEN.search(clause):
            continue
        negated = NEGATION.search(before) is not None or re.search(r"\bnot\s*$", before) is not None
        found.add("refuse" if negated else "approve")
    for m in refusing:
        before = clause[max(0, m.start() - 25) : m.start()]
        if OPEN.search(clause) and not re.search(r"\bdecided\b", clause, re.I):
            continue
        if NEGATION.search(before) and not re.match(r"(?:not|n't|never)", m.group(0), re.I):
            continue  # "not rejected"
        found.add("refuse")
    return found


# A later sentence that takes an approval back or leaves it open: "Budget approved! ... we're still waiting on the
# CFO's signature", "P.S. ... so this might still need to be declined; don't order it yet", "the approval may be
# pulled back", "I might have to reverse this", "hold off on the order for now".
_ACT = r"(?:book|buy|order|spend|pay|purchase|proceed|commit|register|enrol|sign\s+up|go\s+ahead)"
TAKEN_BACK = re.compile(
    DECISION_TAKEN_BACK.pattern + r"|\b(?:do\s+not|don['’]t)\s+(?:[\w'’]+\s+)?" + _ACT + r"\w*\b[^.!?]{0,40}?\b"
    r"(?:yet|until|before|for\s+now)\b|\bhold\s+off\b",
    re.I,
)
"""An approval taken back or left open by what follows it, in its own sentence too ("Approved — note the approval
is provisional until the audit closes")."""
UNDONE = re.compile(
    r"\b(?:still\s+(?:waiting|pending|awaiting)|nothing\s+is\s+(?:final|signed|committed|confirmed)|"
    r"not\s+(?:yet\s+)?(?:final|official|signed)|before\s+anything\s+is\s+(?:committed|final|signed))\b|"
    + TAKEN_BACK.pattern,
    re.I,
)


@per_text
def decisions(text: str) -> frozenset[str]:
    """The decisions `text` states: "approve", "refuse", both or neither."""
    parsed = parse(text)
    found: set[str] = set()
    for a, b in parsed.sentences:
        sentence = parsed.text[a:b]
        if sentence.rstrip().endswith("?"):
            continue
        said: set[str] = set()
        for start, end in clauses(parsed.text, a, b):
            clause = _clause_decisions(parsed.text[start:end])
            if said and not clause and TAKEN_BACK.search(parsed.text[start:end]):
                said.discard("approve")  # "Approved — note the approval is provisional until the audit closes"
            said |= clause
        if not said and UNDONE.search(sentence):
            found.discard("approve")
        found |= said
    return frozenset(found)


def decides(text: str, decision: str) -> bool:
    """Whether `text` states the decision `decision` ("approve" or "refuse")."""
    return decision in decisions(text)
