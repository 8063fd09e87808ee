-- AlterTable
ALTER TABLE "Entry" ADD COLUMN     "validUntil" TIMESTAMP(3);

-- Backfill: each entry takes its current version's validUntil.
UPDATE "Entry" SET "validUntil" = (SELECT v."validUntil" FROM "EntryVersion" v WHERE v."id" = "Entry"."currentVersionId");
