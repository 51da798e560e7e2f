-- CreateTable
CREATE TABLE "PaperVersion" (
    "id" TEXT NOT NULL,
    "paperId" TEXT NOT NULL,
    "replacedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "replacedBy" TEXT,
    "source" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "title" TEXT,
    "doi" TEXT,
    "metadata" JSONB NOT NULL,
    "paragraphs" JSONB NOT NULL,
    "paragraphCount" INTEGER NOT NULL,
    "summary" TEXT NOT NULL,

    CONSTRAINT "PaperVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PaperVersion_paperId_replacedAt_idx" ON "PaperVersion"("paperId", "replacedAt");

-- AddForeignKey
ALTER TABLE "PaperVersion" ADD CONSTRAINT "PaperVersion_paperId_fkey" FOREIGN KEY ("paperId") REFERENCES "Paper"("id") ON DELETE CASCADE ON UPDATE CASCADE;
