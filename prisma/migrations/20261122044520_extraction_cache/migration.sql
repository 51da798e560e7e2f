-- CreateTable
CREATE TABLE "ExtractionCache" (
    "key" TEXT NOT NULL,
    "task" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "output" JSONB,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ExtractionCache_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "ExtractionCache_status_idx" ON "ExtractionCache"("status");
