"""The ticket tracker's tables."""

SCHEMA = """
CREATE TABLE projects (
    key TEXT PRIMARY KEY,                          -- e.g. OPS; the prefix of its ticket keys
    name TEXT NOT NULL,
    lead TEXT NOT NULL,                            -- email of a user
    description TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);

CREATE TABLE users (
    email TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    team TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL DEFAULT ''
);

CREATE TABLE tickets (
    key TEXT PRIMARY KEY,                          -- e.g. OPS-12: project key, dash, number
    project TEXT NOT NULL REFERENCES projects (key),
    number INTEGER NOT NULL,                       -- per project: 1, 2, 3 …
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    type TEXT NOT NULL DEFAULT 'task',             -- task | bug | story | incident | request
    status TEXT NOT NULL DEFAULT 'todo',           -- todo | in_progress | in_review | blocked | done | cancelled
    priority TEXT NOT NULL DEFAULT 'medium',       -- highest | high | medium | low | lowest
    assignee TEXT,                                 -- email of a user; NULL when unassigned
    reporter TEXT NOT NULL,                        -- email of a user
    labels JSON NOT NULL DEFAULT '[]',             -- lower-case words
    due_date TEXT,                                 -- YYYY-MM-DD
    resolution TEXT,                               -- only when done (done | fixed) or cancelled
                                                   -- (wont_do | duplicate | cannot_reproduce)
    resolved_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE comments (
    id TEXT PRIMARY KEY,
    ticket_key TEXT NOT NULL REFERENCES tickets (key),
    author TEXT NOT NULL,                          -- email of a user
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE links (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL REFERENCES tickets (key), -- read as: source <type> target, e.g. OPS-1 blocks OPS-2
    target TEXT NOT NULL REFERENCES tickets (key),
    type TEXT NOT NULL,                            -- blocks | relates_to | duplicates
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE history (
    id TEXT PRIMARY KEY,
    ticket_key TEXT NOT NULL REFERENCES tickets (key),
    author TEXT NOT NULL,                          -- who made the change
    field TEXT NOT NULL,                           -- title, description, type, priority, labels, due_date,
                                                   -- assignee, status, resolution or link
    old_value TEXT,
    new_value TEXT,
    created_at TEXT NOT NULL
);
"""
