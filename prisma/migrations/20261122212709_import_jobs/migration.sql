-- AlterTable
ALTER TABLE "IngestRun" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "options" JSONB,
ADD COLUMN     "stages" JSONB NOT NULL DEFAULT '[]';
