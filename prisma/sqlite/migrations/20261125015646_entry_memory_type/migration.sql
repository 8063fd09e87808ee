-- AlterTable (by hand: Prisma would rebuild "Entry", which drops the search-filter trigger on it)
ALTER TABLE "Entry" ADD COLUMN "memoryType" TEXT NOT NULL DEFAULT 'SEMANTIC';
ALTER TABLE "Entry" ADD COLUMN "importance" REAL NOT NULL DEFAULT 0.5;
ALTER TABLE "Entry" ADD COLUMN "accessCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Entry" ADD COLUMN "lastAccessedAt" DATETIME;

-- Tools are procedural; guidelines default to procedural; knowledge keeps the semantic default.
UPDATE "Entry" SET "memoryType" = 'PROCEDURAL' WHERE "kind" IN ('TOOL', 'GUIDELINE');
