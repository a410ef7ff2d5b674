"""The mailbox's tables."""

SCHEMA = """
CREATE TABLE messages (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL,                       -- messages of one conversation share it
    folder TEXT NOT NULL,                          -- inbox | sent | drafts | archive | trash | spam
    labels JSON NOT NULL DEFAULT '[]',             -- names of user labels
    "from" TEXT NOT NULL,                          -- sender's email, lowercase
    from_name TEXT NOT NULL DEFAULT '',
    "to" JSON NOT NULL DEFAULT '[]',               -- lowercase emails
    cc JSON NOT NULL DEFAULT '[]',
    bcc JSON NOT NULL DEFAULT '[]',
    subject TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '',
    sent_at TEXT NOT NULL,                         -- ISO 8601; for a draft, when it was last saved
    is_read BOOLEAN NOT NULL DEFAULT 0,
    is_starred BOOLEAN NOT NULL DEFAULT 0,
    attachments JSON NOT NULL DEFAULT '[]',        -- [{name, content}]
    in_reply_to TEXT,                              -- id of the message this one replies to
    forwarded_from TEXT                            -- id of the message this one forwards
);

CREATE TABLE labels (
    name TEXT PRIMARY KEY,
    created_at TEXT NOT NULL
);

CREATE TABLE contacts (
    email TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT ''
);
"""
