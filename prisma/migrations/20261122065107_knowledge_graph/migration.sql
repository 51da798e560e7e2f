-- CreateTable
CREATE TABLE "GraphEntity" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "formula" TEXT,
    "surfaces" JSONB NOT NULL,
    "mergedIntoId" TEXT,
    "mergeMethod" TEXT,
    "mergeDistance" DOUBLE PRECISION,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GraphEntity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GraphTuple" (
    "id" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "relation" TEXT NOT NULL,
    "objectId" TEXT NOT NULL,
    "referenceRelation" TEXT,
    "referenceNode" TEXT,
    "value" DOUBLE PRECISION,
    "valueMax" DOUBLE PRECISION,
    "unit" TEXT,
    "causal" BOOLEAN NOT NULL DEFAULT false,
    "paperId" TEXT,
    "paragraphId" TEXT,
    "recordId" TEXT,
    "start" INTEGER,
    "end" INTEGER,
    "sentence" TEXT,
    "stamp" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GraphTuple_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "GraphEntity_key_key" ON "GraphEntity"("key");

-- CreateIndex
CREATE INDEX "GraphEntity_kind_idx" ON "GraphEntity"("kind");

-- CreateIndex
CREATE INDEX "GraphEntity_mergedIntoId_idx" ON "GraphEntity"("mergedIntoId");

-- CreateIndex
CREATE INDEX "GraphTuple_subjectId_idx" ON "GraphTuple"("subjectId");

-- CreateIndex
CREATE INDEX "GraphTuple_objectId_idx" ON "GraphTuple"("objectId");

-- CreateIndex
CREATE INDEX "GraphTuple_relation_idx" ON "GraphTuple"("relation");

-- CreateIndex
CREATE INDEX "GraphTuple_paperId_idx" ON "GraphTuple"("paperId");

-- CreateIndex
CREATE INDEX "GraphTuple_paragraphId_idx" ON "GraphTuple"("paragraphId");

-- AddForeignKey
ALTER TABLE "GraphEntity" ADD CONSTRAINT "GraphEntity_mergedIntoId_fkey" FOREIGN KEY ("mergedIntoId") REFERENCES "GraphEntity"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GraphTuple" ADD CONSTRAINT "GraphTuple_subjectId_fkey" FOREIGN KEY ("subjectId") REFERENCES "GraphEntity"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GraphTuple" ADD CONSTRAINT "GraphTuple_objectId_fkey" FOREIGN KEY ("objectId") REFERENCES "GraphEntity"("id") ON DELETE CASCADE ON UPDATE CASCADE;
