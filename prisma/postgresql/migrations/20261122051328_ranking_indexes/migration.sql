-- CreateIndex
CREATE INDEX "Entry_scopeId_updatedAt_idx" ON "Entry"("scopeId", "updatedAt");

-- CreateIndex
CREATE INDEX "Entry_scopeId_kind_priority_idx" ON "Entry"("scopeId", "kind", "priority");
