-- CreateTable
CREATE TABLE "SearchDoc" (
    "space" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "corpusVersion" TEXT NOT NULL,
    "tsv" tsvector NOT NULL,

    CONSTRAINT "SearchDoc_pkey" PRIMARY KEY ("space","id")
);

-- CreateIndex
CREATE INDEX "SearchDoc_tsv_idx" ON "SearchDoc" USING GIN ("tsv");
