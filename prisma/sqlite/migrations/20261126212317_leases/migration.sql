-- CreateTable
CREATE TABLE "LeaseResource" (
    "scopeId" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "lastToken" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("scopeId", "resource"),
    CONSTRAINT "LeaseResource_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Lease" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scopeId" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "token" INTEGER NOT NULL,
    "acquiredAt" DATETIME NOT NULL,
    "renewedAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    CONSTRAINT "Lease_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Lease_scopeId_resource_expiresAt_idx" ON "Lease"("scopeId", "resource", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "Lease_scopeId_resource_holder_key" ON "Lease"("scopeId", "resource", "holder");
