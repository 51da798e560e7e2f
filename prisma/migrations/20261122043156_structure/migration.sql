-- AlterTable
ALTER TABLE "Paragraph" ADD COLUMN     "method" TEXT,
ADD COLUMN     "role" TEXT,
ADD COLUMN     "structuredBy" TEXT;

-- CreateTable
CREATE TABLE "Mention" (
    "id" TEXT NOT NULL,
    "paragraphId" TEXT NOT NULL,
    "paperId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "start" INTEGER NOT NULL,
    "end" INTEGER NOT NULL,
    "key" TEXT,
    "formula" TEXT,
    "unit" TEXT,
    "valueMin" DOUBLE PRECISION,
    "valueMax" DOUBLE PRECISION,
    "detail" JSONB,

    CONSTRAINT "Mention_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PaperRecord" (
    "paperId" TEXT NOT NULL,
    "extractor" TEXT NOT NULL,
    "record" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PaperRecord_pkey" PRIMARY KEY ("paperId")
);

-- CreateIndex
CREATE INDEX "Mention_paperId_idx" ON "Mention"("paperId");

-- CreateIndex
CREATE INDEX "Mention_paragraphId_idx" ON "Mention"("paragraphId");

-- CreateIndex
CREATE INDEX "Mention_kind_type_key_idx" ON "Mention"("kind", "type", "key");

-- CreateIndex
CREATE INDEX "Mention_type_valueMin_valueMax_idx" ON "Mention"("type", "valueMin", "valueMax");

-- CreateIndex
CREATE INDEX "Paragraph_role_idx" ON "Paragraph"("role");

-- CreateIndex
CREATE INDEX "Paragraph_method_idx" ON "Paragraph"("method");

-- AddForeignKey
ALTER TABLE "Mention" ADD CONSTRAINT "Mention_paragraphId_fkey" FOREIGN KEY ("paragraphId") REFERENCES "Paragraph"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Mention" ADD CONSTRAINT "Mention_paperId_fkey" FOREIGN KEY ("paperId") REFERENCES "Paper"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaperRecord" ADD CONSTRAINT "PaperRecord_paperId_fkey" FOREIGN KEY ("paperId") REFERENCES "Paper"("id") ON DELETE CASCADE ON UPDATE CASCADE;
