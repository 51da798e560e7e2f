-- AlterTable
ALTER TABLE "Record" ADD COLUMN     "catalogued" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "method" TEXT,
ADD COLUMN     "targetElements" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "targetKeys" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE INDEX "Record_targetKeys_idx" ON "Record" USING GIN ("targetKeys");

-- CreateIndex
CREATE INDEX "Record_targetElements_idx" ON "Record" USING GIN ("targetElements");

-- CreateIndex
CREATE INDEX "Record_catalogued_idx" ON "Record"("catalogued");
