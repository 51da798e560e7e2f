-- CreateTable
CREATE TABLE "CorpusStamp" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL DEFAULT 0,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CorpusStamp_pkey" PRIMARY KEY ("id")
);

-- The one row, at the version the corpus is at now.
INSERT INTO "CorpusStamp" ("id", "version") VALUES (1, 1);

-- Every statement that changes what retrieval indexes bumps the version: statement-level, so a bulk insert of
-- thousands of rows costs one update.
-- The body is a Unicode-escaped string (\003B is a semicolon): Prisma's PostgreSQL adapter runs a migration by splitting
-- it at every semicolon, dollar quotes included, so the function's own statements must not contain one literally.
CREATE FUNCTION "assay_bump_corpus_stamp"() RETURNS trigger LANGUAGE plpgsql AS U&'BEGIN UPDATE "CorpusStamp" SET "version" = "version" + 1, "at" = CURRENT_TIMESTAMP WHERE "id" = 1\003B RETURN NULL\003B END\003B';

CREATE TRIGGER "Paper_corpus_stamp" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Paper" FOR EACH STATEMENT EXECUTE FUNCTION "assay_bump_corpus_stamp"();
CREATE TRIGGER "Paragraph_corpus_stamp" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Paragraph" FOR EACH STATEMENT EXECUTE FUNCTION "assay_bump_corpus_stamp"();
CREATE TRIGGER "Mention_corpus_stamp" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Mention" FOR EACH STATEMENT EXECUTE FUNCTION "assay_bump_corpus_stamp"();
CREATE TRIGGER "Record_corpus_stamp" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Record" FOR EACH STATEMENT EXECUTE FUNCTION "assay_bump_corpus_stamp"();
CREATE TRIGGER "PaperRecord_corpus_stamp" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "PaperRecord" FOR EACH STATEMENT EXECUTE FUNCTION "assay_bump_corpus_stamp"();
CREATE TRIGGER "GraphTuple_corpus_stamp" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "GraphTuple" FOR EACH STATEMENT EXECUTE FUNCTION "assay_bump_corpus_stamp"();
CREATE TRIGGER "GraphEntity_corpus_stamp" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "GraphEntity" FOR EACH STATEMENT EXECUTE FUNCTION "assay_bump_corpus_stamp"();
