-- Retrieval reads only linked entity links (a question naming a material by one of its Wikidata names is expanded,
-- as lib/db/retrieval-corpus.ts reads them), so only a change to a linked row is a new corpus version. The
-- statement-level trigger bumped the stamp for every row the linking job stored, the error rows of an unreachable
-- Wikidata included: the next question after every import then waited for a rebuild of an index that had not changed.
-- (No semicolon may appear in this file but at a statement's end: Prisma's PostgreSQL adapter splits at each.)
DROP TRIGGER "EntityLink_corpus_stamp" ON "EntityLink";

-- Row-level, so each can say which rows count (a job stores at most a hundred outcomes per transaction).
CREATE TRIGGER "EntityLink_linked_insert_stamp" AFTER INSERT ON "EntityLink" FOR EACH ROW WHEN (NEW."status" = 'linked') EXECUTE FUNCTION "assay_bump_corpus_stamp"();
CREATE TRIGGER "EntityLink_linked_update_stamp" AFTER UPDATE ON "EntityLink" FOR EACH ROW WHEN (OLD."status" = 'linked' OR NEW."status" = 'linked') EXECUTE FUNCTION "assay_bump_corpus_stamp"();
CREATE TRIGGER "EntityLink_linked_delete_stamp" AFTER DELETE ON "EntityLink" FOR EACH ROW WHEN (OLD."status" = 'linked') EXECUTE FUNCTION "assay_bump_corpus_stamp"();
CREATE TRIGGER "EntityLink_truncate_stamp" AFTER TRUNCATE ON "EntityLink" FOR EACH STATEMENT EXECUTE FUNCTION "assay_bump_corpus_stamp"();
