-- CreateTable
CREATE TABLE "Paper" (
    "id" TEXT NOT NULL,
    "doi" TEXT,
    "title" TEXT,
    "authors" TEXT[],
    "journal" TEXT,
    "year" INTEGER,
    "license" TEXT,
    "source" TEXT NOT NULL,
    "sourceId" TEXT,
    "domain" TEXT,
    "abstract" TEXT,
    "format" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "meta" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Paper_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Paragraph" (
    "id" TEXT NOT NULL,
    "paperId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "externalId" TEXT,
    "section" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'body',
    "page" INTEGER,
    "text" TEXT NOT NULL,

    CONSTRAINT "Paragraph_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Record" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "doi" TEXT,
    "paperId" TEXT,
    "title" TEXT,
    "data" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Record_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IngestRun" (
    "id" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "inputs" TEXT[],
    "filesTotal" INTEGER NOT NULL DEFAULT 0,
    "filesDone" INTEGER NOT NULL DEFAULT 0,
    "currentFile" TEXT,
    "papersAdded" INTEGER NOT NULL DEFAULT 0,
    "papersUpdated" INTEGER NOT NULL DEFAULT 0,
    "papersUnchanged" INTEGER NOT NULL DEFAULT 0,
    "paragraphs" INTEGER NOT NULL DEFAULT 0,
    "recordsAdded" INTEGER NOT NULL DEFAULT 0,
    "recordsUnchanged" INTEGER NOT NULL DEFAULT 0,
    "errorCount" INTEGER NOT NULL DEFAULT 0,
    "timings" JSONB,
    "message" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "IngestRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IngestError" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "file" TEXT NOT NULL,
    "location" TEXT,
    "reason" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IngestError_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Paper_doi_key" ON "Paper"("doi");

-- CreateIndex
CREATE INDEX "Paper_contentHash_idx" ON "Paper"("contentHash");

-- CreateIndex
CREATE INDEX "Paper_year_idx" ON "Paper"("year");

-- CreateIndex
CREATE INDEX "Paper_domain_idx" ON "Paper"("domain");

-- CreateIndex
CREATE UNIQUE INDEX "Paper_source_sourceId_key" ON "Paper"("source", "sourceId");

-- CreateIndex
CREATE INDEX "Paragraph_externalId_idx" ON "Paragraph"("externalId");

-- CreateIndex
CREATE UNIQUE INDEX "Paragraph_paperId_ordinal_key" ON "Paragraph"("paperId", "ordinal");

-- CreateIndex
CREATE INDEX "Record_doi_idx" ON "Record"("doi");

-- CreateIndex
CREATE INDEX "Record_paperId_idx" ON "Record"("paperId");

-- CreateIndex
CREATE INDEX "Record_kind_idx" ON "Record"("kind");

-- CreateIndex
CREATE UNIQUE INDEX "Record_source_contentHash_key" ON "Record"("source", "contentHash");

-- CreateIndex
CREATE INDEX "IngestRun_startedAt_idx" ON "IngestRun"("startedAt");

-- CreateIndex
CREATE INDEX "IngestError_runId_idx" ON "IngestError"("runId");

-- AddForeignKey
ALTER TABLE "Paragraph" ADD CONSTRAINT "Paragraph_paperId_fkey" FOREIGN KEY ("paperId") REFERENCES "Paper"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Record" ADD CONSTRAINT "Record_paperId_fkey" FOREIGN KEY ("paperId") REFERENCES "Paper"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IngestError" ADD CONSTRAINT "IngestError_runId_fkey" FOREIGN KEY ("runId") REFERENCES "IngestRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Full-text search over paragraphs and titles (expression indexes: Prisma's schema language has no syntax
-- for them, and its diff leaves indexes it does not model alone).
CREATE INDEX "Paragraph_text_fts_idx" ON "Paragraph" USING GIN (to_tsvector('english', "text"));
CREATE INDEX "Paper_title_fts_idx" ON "Paper" USING GIN (to_tsvector('english', coalesce("title", '')));
