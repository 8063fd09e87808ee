-- DropIndex
DROP INDEX "EntryTag_tagId_idx";

-- CreateIndex
CREATE INDEX "EntryTag_tagId_entryId_idx" ON "EntryTag"("tagId", "entryId");
