-- AlterTable
ALTER TABLE "Conflict" ADD COLUMN     "note" TEXT,
ADD COLUMN     "resolutionVersionId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Conflict_versionBId_key" ON "Conflict"("versionBId");

-- AddForeignKey
ALTER TABLE "Conflict" ADD CONSTRAINT "Conflict_resolutionVersionId_fkey" FOREIGN KEY ("resolutionVersionId") REFERENCES "EntryVersion"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
