-- AlterTable
ALTER TABLE "Principal" ADD COLUMN     "actsForOthers" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "category" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "principalId" TEXT,
    "principalName" TEXT,
    "onBehalfOf" TEXT,
    "targetIds" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "detail" TEXT,
    "clientAddress" TEXT,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AuditEvent_createdAt_idx" ON "AuditEvent"("createdAt");

-- CreateIndex
CREATE INDEX "AuditEvent_principalId_createdAt_idx" ON "AuditEvent"("principalId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditEvent_operation_createdAt_idx" ON "AuditEvent"("operation", "createdAt");
