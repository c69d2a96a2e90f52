-- Shared tables and groups. Types in the subset SQLite and PostgreSQL share:
-- times are milliseconds since the Unix epoch, digests are hex.
CREATE TABLE faan_tables (
    id TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL,
    title TEXT,
    group_id TEXT,
    version BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    touched_at BIGINT NOT NULL,
    request TEXT NOT NULL,
    ledger TEXT NOT NULL,
    summary TEXT NOT NULL
);
CREATE INDEX faan_tables_touched ON faan_tables (touched_at);
CREATE INDEX faan_tables_group ON faan_tables (group_id, created_at);
CREATE TABLE faan_groups (
    id TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
