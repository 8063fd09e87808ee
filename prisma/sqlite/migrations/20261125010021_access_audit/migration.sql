-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "category" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "principalId" TEXT,
    "principalName" TEXT,
    "onBehalfOf" TEXT,
    "targetIds" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "detail" TEXT,
    "clientAddress" TEXT
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Principal" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "actsForOthers" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Principal" ("createdAt", "id", "kind", "name") SELECT "createdAt", "id", "kind", "name" FROM "Principal";
DROP TABLE "Principal";
ALTER TABLE "new_Principal" RENAME TO "Principal";
CREATE UNIQUE INDEX "Principal_name_key" ON "Principal"("name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "AuditEvent_createdAt_idx" ON "AuditEvent"("createdAt");

-- CreateIndex
CREATE INDEX "AuditEvent_principalId_createdAt_idx" ON "AuditEvent"("principalId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditEvent_operation_createdAt_idx" ON "AuditEvent"("operation", "createdAt");
