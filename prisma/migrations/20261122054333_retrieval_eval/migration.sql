-- CreateTable
CREATE TABLE "Embedding" (
    "key" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "dims" INTEGER NOT NULL,
    "vector" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Embedding_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "EvaluationRun" (
    "id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "questionSet" TEXT NOT NULL,
    "questions" INTEGER NOT NULL DEFAULT 0,
    "pipelines" TEXT[],
    "settings" JSONB,
    "summary" JSONB,
    "message" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "EvaluationRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EvaluationResult" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "pipeline" TEXT NOT NULL,
    "questionId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "source" TEXT,
    "question" TEXT NOT NULL,
    "doiAt1" BOOLEAN,
    "doiAt5" BOOLEAN,
    "rank" INTEGER,
    "paragraphAt5" BOOLEAN,
    "valueAt3" BOOLEAN,
    "abstained" BOOLEAN NOT NULL,
    "latencyMs" DOUBLE PRECISION NOT NULL,
    "detail" JSONB NOT NULL,

    CONSTRAINT "EvaluationResult_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Embedding_modelId_idx" ON "Embedding"("modelId");

-- CreateIndex
CREATE INDEX "EvaluationRun_startedAt_idx" ON "EvaluationRun"("startedAt");

-- CreateIndex
CREATE INDEX "EvaluationResult_runId_pipeline_idx" ON "EvaluationResult"("runId", "pipeline");

-- CreateIndex
CREATE INDEX "EvaluationResult_runId_questionId_idx" ON "EvaluationResult"("runId", "questionId");

-- AddForeignKey
ALTER TABLE "EvaluationResult" ADD CONSTRAINT "EvaluationResult_runId_fkey" FOREIGN KEY ("runId") REFERENCES "EvaluationRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
