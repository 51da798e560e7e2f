-- CreateTable
CREATE TABLE "PaperSearch" (
    "id" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "answerId" TEXT,
    "query" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "candidates" JSONB NOT NULL DEFAULT '[]',
    "trace" JSONB NOT NULL DEFAULT '[]',
    "importRunId" TEXT,
    "imported" TEXT[],
    "askedAgainId" TEXT,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PaperSearch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PaperSearch_answerId_idx" ON "PaperSearch"("answerId");

-- CreateIndex
CREATE INDEX "PaperSearch_createdAt_idx" ON "PaperSearch"("createdAt");

-- CreateTable
CREATE TABLE "TupleCheck" (
    "id" TEXT NOT NULL,
    "paperId" TEXT NOT NULL,
    "tupleId" TEXT,
    "verdict" TEXT NOT NULL,
    "rule" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "statement" TEXT NOT NULL,
    "paragraphId" TEXT,
    "sentence" TEXT,
    "conflictsWith" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TupleCheck_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TupleCheck_paperId_idx" ON "TupleCheck"("paperId");

-- CreateIndex
CREATE INDEX "TupleCheck_tupleId_idx" ON "TupleCheck"("tupleId");

-- AddForeignKey
ALTER TABLE "TupleCheck" ADD CONSTRAINT "TupleCheck_paperId_fkey" FOREIGN KEY ("paperId") REFERENCES "Paper"("id") ON DELETE CASCADE ON UPDATE CASCADE;
