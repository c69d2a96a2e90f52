-- A table kept hand by hand, so that a change writes one hand whatever the
-- night's length. `faan_tables` keeps the night's head: `request` is the
-- ledger request without its hands, `ledger` the answer without its hands
-- (its summary), `state` the night between hands (JSON), `hands` how many
-- it has. A table made before this migration has `state` NULL and its
-- whole request and answer in `request` and `ledger` until faan splits it
-- at start-up.
ALTER TABLE faan_tables ADD COLUMN state TEXT;
ALTER TABLE faan_tables ADD COLUMN hands BIGINT NOT NULL DEFAULT 0;
-- Each hand: its request as played, its row of the answer, the night after
-- it, and the version that added it.
CREATE TABLE faan_hands (
    table_id TEXT NOT NULL,
    idx BIGINT NOT NULL,
    version BIGINT NOT NULL,
    request TEXT NOT NULL,
    answer TEXT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
-- The last changes of each table as their events (`kind`: `hand` or
-- `undo`, and the data), for a stream that
-- resumes and for the other instances (PostgreSQL's NOTIFY names them).
CREATE TABLE faan_changes (
    table_id TEXT NOT NULL,
    version BIGINT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (table_id, version)
);
