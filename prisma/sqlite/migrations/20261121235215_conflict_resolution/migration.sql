-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Conflict" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "entryId" TEXT NOT NULL,
    "versionAId" TEXT NOT NULL,
    "versionBId" TEXT NOT NULL,
    "detectedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved" BOOLEAN NOT NULL DEFAULT false,
    "resolution" TEXT,
    "note" TEXT,
    "resolvedAt" DATETIME,
    "resolvedBy" TEXT,
    "resolutionVersionId" TEXT,
    CONSTRAINT "Conflict_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "Entry" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Conflict_versionAId_fkey" FOREIGN KEY ("versionAId") REFERENCES "EntryVersion" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Conflict_versionBId_fkey" FOREIGN KEY ("versionBId") REFERENCES "EntryVersion" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Conflict_resolutionVersionId_fkey" FOREIGN KEY ("resolutionVersionId") REFERENCES "EntryVersion" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Conflict" ("detectedAt", "entryId", "id", "resolution", "resolved", "resolvedAt", "resolvedBy", "versionAId", "versionBId") SELECT "detectedAt", "entryId", "id", "resolution", "resolved", "resolvedAt", "resolvedBy", "versionAId", "versionBId" FROM "Conflict";
DROP TABLE "Conflict";
ALTER TABLE "new_Conflict" RENAME TO "Conflict";
CREATE UNIQUE INDEX "Conflict_versionBId_key" ON "Conflict"("versionBId");
CREATE INDEX "Conflict_entryId_resolved_idx" ON "Conflict"("entryId", "resolved");
CREATE INDEX "Conflict_resolved_detectedAt_idx" ON "Conflict"("resolved", "detectedAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
