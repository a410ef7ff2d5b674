"""The docs app's tables: the user's Drive of folders and documents."""

SCHEMA = """
CREATE TABLE folders (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    parent_id TEXT REFERENCES folders (id),       -- NULL: at the top of My Drive
    url TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    content TEXT NOT NULL DEFAULT '',             -- markdown
    owner TEXT NOT NULL,                          -- email
    folder_id TEXT REFERENCES folders (id),       -- NULL: at the top of My Drive
    url TEXT NOT NULL,                            -- https://docs.example.test/d/<id>
    shared_with JSON NOT NULL DEFAULT '[]',       -- [{email, role}], role viewer | commenter | editor
    link_sharing TEXT NOT NULL DEFAULT 'restricted',  -- restricted | viewer | commenter | editor
    trashed BOOLEAN NOT NULL DEFAULT 0,
    trashed_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL                      -- last change to the title or content
);

CREATE TABLE comments (
    id TEXT PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES documents (id),
    author TEXT NOT NULL,                         -- email
    body TEXT NOT NULL,
    quote TEXT,                                   -- the text commented on; NULL for a comment on the whole document
    created_at TEXT NOT NULL,
    resolved BOOLEAN NOT NULL DEFAULT 0,
    resolved_by TEXT,
    resolved_at TEXT,
    replies JSON NOT NULL DEFAULT '[]'            -- [{author, body, created_at}]
);

CREATE TABLE revisions (
    id TEXT PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES documents (id),
    number INTEGER NOT NULL,                      -- 1, 2, 3 … per document
    title TEXT NOT NULL,                          -- the title and content as of this revision
    content TEXT NOT NULL,
    author TEXT NOT NULL,
    created_at TEXT NOT NULL,
    summary TEXT NOT NULL DEFAULT ''              -- e.g. 'Created', 'Appended text', "Renamed from 'A' to 'B'"
);
"""
