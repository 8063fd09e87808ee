-- CreateTable
CREATE TABLE "MemoryPolicy" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scopeId" TEXT NOT NULL,
    "memoryType" TEXT NOT NULL,
    "ttlHours" INTEGER,
    "retentionDays" INTEGER,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "MemoryPolicy_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "MemoryPolicy_scopeId_memoryType_key" ON "MemoryPolicy"("scopeId", "memoryType");
