"""The decision reader takes the outcome asked for, stated as granted, as the approval ("done - you're an editor on
'Board deck drafts' now", "I've given you editor access"), and reads approvals and refusals in Japanese and Chinese,
whose words have no spaces to bound them ("承認が下りました", "却下されました", "已批准")."""

from __future__ import annotations

import pytest

from orchestrator.scenario.text.decisions import decisions


@pytest.mark.parametrize(
    "text",
    [
        "Hi Rika, done - you're an editor on 'Board deck drafts' now.\n\nVictoria",
        "Hi Sam, all set: you now have edit access to the Q3 plan.",
        "Tomasz, I've given you editor access to 'Roadmap 2027'. Ticket closed.",
        "Good news Priya - you are now an admin of the Finance workspace.",
        "吉田さん\n\nTerese さんの承認が下りましたので、「Board deck drafts」の編集権限を付与しました。",
        "佐藤さん、ご申請の件は承認されました。",
        "田中さん、購入申請は承認済みです。",
        "李先生，你的申请已批准。",
    ],
)
def test_an_approval_or_the_granted_outcome_is_read_as_approve(text: str) -> None:
    assert decisions(text) == {"approve"}


@pytest.mark.parametrize(
    "text",
    [
        "申し訳ありませんが、申請は承認されませんでした。",
        "山本さん、今回の申請は却下されました。",
        "你的申请被驳回了。",
    ],
)
def test_a_refusal_in_japanese_or_chinese_is_read_as_refuse(text: str) -> None:
    assert decisions(text) == {"refuse"}


@pytest.mark.parametrize(
    "text",
    [
        "Hi Sam, you'll have access once Dana approves.",
        "Hi Sam, you're not an editor on that doc yet; waiting on Dana.",
        "Terese さんの承認待ちです。",
        "承認をお願いします。",
        "Could you check whether you have access to the doc?",
    ],
)
def test_an_outcome_still_open_decides_nothing(text: str) -> None:
    assert decisions(text) == frozenset()
