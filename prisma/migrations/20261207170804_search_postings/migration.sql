-- Paragraph search in the database ranks with the in-process index's own BM25+: each term's posting list with its
-- precomputed weights, read by primary key and scored by the process, instead of ts_rank over tsvectors, which ranked
-- differently (value@3 0.90 against 0.97) and read every candidate's whole tsvector (p95 0.85-1 s). The lists are
-- written again from the index on the next start.
-- DropTable
DROP TABLE "SearchDoc";

-- CreateTable
CREATE TABLE "SearchPosting" (
    "space" TEXT NOT NULL,
    "term" TEXT NOT NULL,
    "postings" BYTEA NOT NULL,

    CONSTRAINT "SearchPosting_pkey" PRIMARY KEY ("space","term")
);

-- CreateTable
CREATE TABLE "SearchParagraph" (
    "doc" INTEGER NOT NULL,
    "id" TEXT NOT NULL,
    "corpusVersion" TEXT NOT NULL,

    CONSTRAINT "SearchParagraph_pkey" PRIMARY KEY ("doc")
);

-- CreateIndex
CREATE UNIQUE INDEX "SearchParagraph_id_key" ON "SearchParagraph"("id");
