"""The calendar's tables."""

SCHEMA = """
CREATE TABLE calendars (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    owner TEXT NOT NULL,
    timezone TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    is_primary BOOLEAN NOT NULL DEFAULT 0,
    access TEXT NOT NULL DEFAULT 'owner'          -- owner | writer | reader
);

CREATE TABLE events (
    id TEXT PRIMARY KEY,
    calendar_id TEXT NOT NULL REFERENCES calendars (id),
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    location TEXT NOT NULL DEFAULT '',
    start TEXT NOT NULL,                           -- ISO 8601 in the event's zone; a date when all-day
    "end" TEXT NOT NULL,                           -- exclusive; a date when all-day
    timezone TEXT NOT NULL,
    all_day BOOLEAN NOT NULL DEFAULT 0,
    organizer TEXT NOT NULL,
    attendees JSON NOT NULL DEFAULT '[]',          -- [{email, name, response, optional}]
    status TEXT NOT NULL DEFAULT 'confirmed',      -- confirmed | tentative | cancelled
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE people (
    email TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    timezone TEXT NOT NULL,
    work_start TEXT NOT NULL DEFAULT '09:00',
    work_end TEXT NOT NULL DEFAULT '17:00',
    work_days JSON NOT NULL DEFAULT '[0, 1, 2, 3, 4]'   -- Monday = 0
);

CREATE TABLE busy (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    start TEXT NOT NULL,
    "end" TEXT NOT NULL
);
"""
