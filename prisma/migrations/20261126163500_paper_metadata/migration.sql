-- CreateTable
CREATE TABLE "PaperMetadata" (
    "paperId" TEXT NOT NULL,
    "doi" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "data" JSONB,
    "message" TEXT,
    "fetchedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PaperMetadata_pkey" PRIMARY KEY ("paperId")
);

-- CreateIndex
CREATE INDEX "PaperMetadata_status_idx" ON "PaperMetadata"("status");

-- AddForeignKey
ALTER TABLE "PaperMetadata" ADD CONSTRAINT "PaperMetadata_paperId_fkey" FOREIGN KEY ("paperId") REFERENCES "Paper"("id") ON DELETE CASCADE ON UPDATE CASCADE;
