-- Small results are kept in the row that links them to their attempt, written by the same commit as
-- the settle (no file, no second durability step); larger ones stay files (location names them).
-- Media is mostly compressed already (PNG, JPEG, WebP, MP4): stored as it is, out of line when large.
ALTER TABLE assets ADD COLUMN content bytea;
ALTER TABLE assets ALTER COLUMN content SET STORAGE EXTERNAL;
