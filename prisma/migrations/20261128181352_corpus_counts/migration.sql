-- CreateTable
CREATE TABLE "CorpusCounts" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL,
    "papers" INTEGER NOT NULL,
    "paragraphs" INTEGER NOT NULL,
    "records" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CorpusCounts_pkey" PRIMARY KEY ("id")
);
