-- The library's full-text search reads each paragraph's tsvector from a stored column instead of computing it from
-- the text for every candidate: a phrase over common lexemes ("1-2", "1±1±1…") rechecked thousands of paragraphs by
-- parsing their text again (0.7-1 s on PostgreSQL, 7 s on PGlite for one search, which held PGlite's one thread).
ALTER TABLE "Paragraph" ADD COLUMN "tsv" tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "text")) STORED;
DROP INDEX "Paragraph_text_fts_idx";
CREATE INDEX "Paragraph_tsv_idx" ON "Paragraph" USING GIN ("tsv");
