-- What the current table message shows (a hash), so an unchanged table is not re-sent.
ALTER TABLE games ADD COLUMN table_hash TEXT;
