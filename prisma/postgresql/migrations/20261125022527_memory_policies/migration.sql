-- CreateTable
CREATE TABLE "MemoryPolicy" (
    "id" TEXT NOT NULL,
    "scopeId" TEXT NOT NULL,
    "memoryType" TEXT NOT NULL,
    "ttlHours" INTEGER,
    "retentionDays" INTEGER,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MemoryPolicy_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "MemoryPolicy_scopeId_memoryType_key" ON "MemoryPolicy"("scopeId", "memoryType");

-- AddForeignKey
ALTER TABLE "MemoryPolicy" ADD CONSTRAINT "MemoryPolicy_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope"("id") ON DELETE CASCADE ON UPDATE CASCADE;
