-- CreateTable
CREATE TABLE "LeaseResource" (
    "scopeId" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "lastToken" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "LeaseResource_pkey" PRIMARY KEY ("scopeId","resource")
);

-- CreateTable
CREATE TABLE "Lease" (
    "id" TEXT NOT NULL,
    "scopeId" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "token" INTEGER NOT NULL,
    "acquiredAt" TIMESTAMP(3) NOT NULL,
    "renewedAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Lease_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Lease_scopeId_resource_expiresAt_idx" ON "Lease"("scopeId", "resource", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "Lease_scopeId_resource_holder_key" ON "Lease"("scopeId", "resource", "holder");

-- AddForeignKey
ALTER TABLE "LeaseResource" ADD CONSTRAINT "LeaseResource_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Lease" ADD CONSTRAINT "Lease_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope"("id") ON DELETE CASCADE ON UPDATE CASCADE;
