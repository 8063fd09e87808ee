-- AlterTable
ALTER TABLE "Entry" ADD COLUMN     "accessCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "importance" DOUBLE PRECISION NOT NULL DEFAULT 0.5,
ADD COLUMN     "lastAccessedAt" TIMESTAMP(3),
ADD COLUMN     "memoryType" TEXT NOT NULL DEFAULT 'SEMANTIC';

-- Tools are procedural; guidelines default to procedural; knowledge keeps the semantic default.
UPDATE "Entry" SET "memoryType" = 'PROCEDURAL' WHERE "kind" IN ('TOOL', 'GUIDELINE');
