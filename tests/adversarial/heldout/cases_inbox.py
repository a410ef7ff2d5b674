"""Held-out cases for the generated inbox-rules tasks."""

from steps import bad, call, ok

T = "tests/adversarial/heldout/tasks"

# -- inbox-rules-71919-00000: today-01 is the only mail today from royal-3.test.
INBOX_0 = [
    ok(
        "label",
        "Labels today's Royal Olykan mail 'Royal'.",
        call("mail__add_label", message_ids=["today-01"], label="Royal"),
    ),
    ok(
        "read-then-label",
        "Opens (marks read) the Royal mail, then labels it.",
        call("mail__mark_read", message_ids=["today-01"]),
        call("mail__add_label", message_ids=["today-01"], label="Royal"),
    ),
    ok(
        "lowercase-label",
        "Label name typed in lower case; the app matches labels ignoring case.",
        call("mail__add_label", message_ids=["today-01"], label="royal"),
    ),
    bad("read-only", "Marks the mail read but never labels it.", call("mail__mark_read", message_ids=["today-01"])),
    bad(
        "labels-colleague",
        "Also labels a colleague's mail 'Royal'.",
        call("mail__add_label", message_ids=["today-01", "msg-00023"], label="Royal"),
    ),
    bad(
        "trashes-newsletter",
        "Labels correctly but trashes a newsletter it was told not to touch.",
        call("mail__add_label", message_ids=["today-01"], label="Royal"),
        call("mail__trash_message", message_ids=["msg-00001"]),
    ),
    bad(
        "new-label",
        "Misreads the rule: creates and applies a label 'Royal Olykan'.",
        call("mail__create_label", name="Royal Olykan"),
        call("mail__add_label", message_ids=["today-01"], label="Royal Olykan"),
    ),
]

# -- inbox-rules-71919-00001: today-01 from rodriguez-3.test; msg-00022 (another customer, unread) came in today too.
INBOX_1 = [
    ok(
        "label", "Labels Jill's mail 'Rodriguez'.", call("mail__add_label", message_ids=["today-01"], label="Rodriguez")
    ),
    ok(
        "label-read",
        "Labels it and marks it read.",
        call("mail__add_label", message_ids=["today-01"], label="Rodriguez"),
        call("mail__mark_read", message_ids=["today-01"]),
    ),
    ok(
        "label-star",
        "Labels it and stars it for follow-up (a flag on the mail the rule is about).",
        call("mail__star", message_ids=["today-01"]),
        call("mail__add_label", message_ids=["today-01"], label="Rodriguez"),
    ),
    bad(
        "labels-other-customer",
        "Also labels a mail from flores-0.test as Rodriguez.",
        call("mail__add_label", message_ids=["today-01", "msg-00022"], label="Rodriguez"),
    ),
    bad(
        "reads-other",
        "Labels correctly but marks another unread mail as read.",
        call("mail__add_label", message_ids=["today-01"], label="Rodriguez"),
        call("mail__mark_read", message_ids=["msg-00022"]),
    ),
    bad(
        "wrong-label",
        "Puts the existing 'Follow-up' label on it instead of 'Rodriguez'.",
        call("mail__add_label", message_ids=["today-01"], label="Follow-up"),
    ),
    bad(
        "archive-only",
        "Archives the mail instead of labelling it.",
        call("mail__move_to_folder", message_ids=["today-01"], folder="archive"),
    ),
]

CASES = {
    "inbox-rules-0": (f"{T}/inbox-rules/inbox-rules-71919-00000.yaml", INBOX_0),
    "inbox-rules-1": (f"{T}/inbox-rules/inbox-rules-71919-00001.yaml", INBOX_1),
}
