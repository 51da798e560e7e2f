-- CreateTable
CREATE TABLE "EntityLink" (
    "entityKey" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "qid" TEXT,
    "label" TEXT,
    "description" TEXT,
    "aliases" JSONB NOT NULL DEFAULT '[]',
    "formula" TEXT,
    "method" TEXT,
    "message" TEXT,
    "checkedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reviewedAt" TIMESTAMP(3),

    CONSTRAINT "EntityLink_pkey" PRIMARY KEY ("entityKey")
);

-- CreateIndex
CREATE INDEX "EntityLink_status_idx" ON "EntityLink"("status");

-- A link's aliases reach question expansion through the retrieval index: a change is a new corpus version.
CREATE TRIGGER "EntityLink_corpus_stamp" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "EntityLink" FOR EACH STATEMENT EXECUTE FUNCTION "assay_bump_corpus_stamp"();
