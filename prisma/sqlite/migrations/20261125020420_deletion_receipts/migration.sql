-- CreateTable
CREATE TABLE "DeletionReceipt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "operation" TEXT NOT NULL,
    "principalId" TEXT,
    "principalName" TEXT,
    "criteria" TEXT NOT NULL,
    "counts" TEXT NOT NULL,
    "ids" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "DeletionReceipt_createdAt_idx" ON "DeletionReceipt"("createdAt");
